//===- Network.h - the routers and links between PEs ------------*- C++ -*-===//
//
// The fabric's routers as a cycle-approximate model: per PE and color the
// router state of the fabric file's RouterConfig, finite buffers with
// back-pressure (no wavelet is ever dropped), one wavelet per link and
// direction per cycle, control wavelets that move switches, filters,
// teardown and color swap. The CE side injects wavelets into its router and
// polls those delivered to it. docs/Emulator.md ("Routers and the clock")
// gives the model and every decision the CSL reference leaves open.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_NETWORK_H
#define TESSERA_EMULATOR_NETWORK_H

#include "tessera/Emulator/FabricLayout.h"
#include "tessera/Emulator/Wavelet.h"
#include "tessera/Target/PEBinary/Binary.h"
#include "tessera/Target/TargetModel.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tessera::emulator {

/// Buffer depths in wavelets, per port and color. Each must be 1 to
/// MaxDepth; a bad value is reported as an error and replaced by the
/// default.
struct NetworkOptions {
  static constexpr unsigned MaxDepth = 64;
  /// Each router's input buffer per link port (W, E, S, N) and color. Two
  /// keep a stream at one wavelet per cycle (see docs/Emulator.md).
  unsigned linkBufferDepth = 2;
  /// The buffer the CE injects into, per color.
  unsigned injectBufferDepth = 2;
  /// The queue of wavelets delivered to the CE, per color; the PE model can
  /// set it per PE and color to match its input queues.
  unsigned deliveryQueueDepth = 2;
  /// Each declared edge exit's queue of wavelets that left the fabric and
  /// wait for the host (declareEdgeExit).
  unsigned edgeExitDepth = 2;
};

enum class RouteErrorKind {
  BadDepth,          ///< an option or setDeliveryQueueDepth out of range
  OutsideRectangle,  ///< an API call names a PE outside the rectangle
  BadColor,          ///< an API call names an unroutable color
  UnconfiguredColor, ///< a wavelet reached a PE that does not route its color
  PortNotInRx,       ///< ... arrived on a port no switch position receives
  LeavesRectangle,   ///< a route sends a wavelet off the rectangle
                     ///< where no edge exit is declared
  NotAnEdgePort,     ///< an edge call names a port that does not face off
                     ///< the rectangle, or an exit that is not declared
};

/// A problem the network found. Wavelets involved are never dropped: they
/// wait where they are (listBuffered shows them) until a new configuration
/// lets them move.
struct RouteError {
  RouteErrorKind kind = RouteErrorKind::BadDepth;
  uint64_t cycle = 0;
  PECoord pe;
  uint8_t color = 0;
  std::optional<pe::Port> port; ///< where the wavelet arrived or leaves
  uint64_t waveletId = 0;       ///< 0 where no wavelet is involved
  std::string message;
};

/// A TEARDOWN command put a color of a PE into teardown; the PE model
/// activates the teardown task.
struct TeardownEvent {
  uint64_t cycle = 0;
  PECoord pe;
  uint8_t color = 0;
  bool operator==(const TeardownEvent &) const = default;
};

/// A step put a wavelet into the delivery queue of this PE and color.
struct DeliveryNote {
  PECoord pe;
  uint8_t color = 0;
  bool control = false; ///< a control wavelet
  bool operator==(const DeliveryNote &) const = default;
};

/// One wavelet sitting in a buffer, for deadlock reports.
struct BufferedWavelet {
  PECoord pe;
  uint8_t color = 0;
  /// In the queue of wavelets delivered to the CE (`port` is Ramp), else
  /// in the input buffer of `port` (Ramp: injected by the CE).
  bool toCE = false;
  pe::Port port = pe::Port::Ramp;
  unsigned index = 0; ///< 0 is the head
  Wavelet wavelet;
  /// advanceSwitch calls that take effect once this wavelet has passed.
  unsigned pendingAdvances = 0;
  bool operator==(const BufferedWavelet &) const = default;
};

/// The router state of one PE and color.
struct LaneState {
  /// Routed by the fabric file or given a config word since; a PE routes
  /// nothing of an unconfigured color.
  bool configured = false;
  uint8_t baseRx = 0, baseTx = 0; ///< position 0 (direction sets)
  uint8_t rx = 0, tx = 0;         ///< at the current position
  std::array<std::optional<pe::SwitchPosition>, 3> positions;
  uint8_t position = 0;
  bool ringMode = false;
  pe::PopMode popMode = pe::PopMode::NoPop;
  bool teardown = false; ///< teardown in progress: the color is halted
  bool colorSwapX = false, colorSwapY = false;
  pe::Filter filter;
  uint16_t counter = 0; ///< the counter filter's count
  uint8_t deliveryQueueDepth = 0;
  bool operator==(const LaneState &) const = default;
};

/// Wavelets router (x, y) sent out through one link on one color, since the
/// network was made: to a neighbour, off an edge, or (Ramp) down to its CE.
struct LinkCount {
  PECoord pe;
  uint8_t color = 0;
  pe::Port port = pe::Port::Ramp;
  uint64_t wavelets = 0;
  bool operator==(const LinkCount &) const = default;
};

struct NetworkCounters {
  uint64_t cycles = 0;
  uint64_t injected = 0; ///< wavelets inject accepted
  /// Wavelet copies that crossed a link, to a neighbour or down the ramp
  /// to a CE: a multicast to east and ramp is two.
  uint64_t hops = 0;
  uint64_t delivered = 0; ///< copies put in a delivery queue (also hops)
  /// Copies for the ramp a filter or ce_ignore kept from the CE.
  uint64_t withheld = 0;
  uint64_t polled = 0; ///< wavelets pollDelivered handed out
  /// Sum over cycles of the wavelets in input buffers that did not move.
  uint64_t waitCycles = 0;
  /// Cycles in which a color had wavelets ready on two ports at once (the
  /// reference calls simultaneous arrival undefined; the router picks one).
  uint64_t rxConflicts = 0;
  uint64_t switchCommands = 0; ///< advances and resets executed
  uint64_t teardowns = 0;      ///< colors put into teardown by a command
  /// Wavelets the host put in at an edge port (also counted in injected
  /// and hops: each crossed the edge link) and copies that left through a
  /// declared edge exit (also hops).
  uint64_t edgeIn = 0, edgeOut = 0;
  bool operator==(const NetworkCounters &) const = default;
};

/// The rows of the rectangle one network models: all of them, or a band
/// [firstRow, endRow) when the fabric is split among networks that run in
/// lockstep (threads or processes; docs/Scaling.md). Rows past the
/// rectangle are clamped to it.
struct NetworkBand {
  unsigned firstRow = 0;
  unsigned endRow = ~0u;
};

/// Which side of a band a boundary call is about: the row above its first
/// (North) or below its last (South).
enum class BandSide : uint8_t { North, South };

/// A wavelet that crossed a band boundary in the last step: it enters the
/// neighbouring band's router at (x, y) (a row of that band) through the
/// port facing this band, as `color` (after any color swap of the lane it
/// enters).
struct BoundaryWavelet {
  uint16_t x = 0, y = 0;
  uint8_t color = 0;
  bool control = false;
  uint32_t payload = 0;
  uint64_t id = 0;
  bool operator==(const BoundaryWavelet &) const = default;
};

/// What a band offers the neighbour on one side, as of the start of a
/// cycle: per column x and color c (index x * numColors + c), the free
/// places of the input buffer that receives from that side (`free`), and
/// whether the lane swaps the colors of wavelets arriving from it
/// (`swap`, WSE-2's color swap y). A lane not created yet offers a whole
/// buffer and the layout's swap flag.
struct BoundaryView {
  std::vector<uint8_t> free;
  std::vector<uint8_t> swap;
  bool operator==(const BoundaryView &) const = default;
};

class Network {
public:
  /// `layout` must outlive the network: router state is created from it
  /// the first time a PE is touched.
  Network(const FabricLayout &layout, const target::TargetModel &model,
          NetworkOptions options = {}, NetworkBand band = {});
  ~Network();
  Network(Network &&) noexcept;
  Network &operator=(Network &&) noexcept;

  //===--------------------------------------------------------------------===//
  // The CE side. Coordinates are the rectangle's. A call that changes state
  // and names a PE outside the rectangle or an unroutable color records an
  // error and does nothing; a query answers 0 or none.
  //===--------------------------------------------------------------------===//

  /// Puts a wavelet into the router's inject buffer for its color and
  /// numbers it; false when that buffer is full (or on a bad call).
  bool inject(unsigned x, unsigned y, Wavelet wavelet);
  /// Free places in the inject buffer of `color` (0 on a bad call).
  unsigned getInjectSpace(unsigned x, unsigned y, unsigned color) const;
  /// Whether inject would now refuse a wavelet of `color` because its
  /// inject buffer is full. False when inject would take it or is a bad
  /// call (which inject itself reports): a CE whose send was refused asks
  /// this each cycle instead of trying again.
  bool isInjectBufferFull(unsigned x, unsigned y, unsigned color) const;
  /// Puts a wavelet straight into the queue delivered to the CE of PE
  /// (x, y) on its color, as memcpy's routes would (the host's streaming
  /// H2D); numbered like injected ones. False when that queue is full (or
  /// on a bad call).
  bool deliverFromHost(unsigned x, unsigned y, Wavelet wavelet);
  /// Removes and returns the wavelets the CE of PE (x, y) injected on
  /// `color` that still wait in its router (e.g. on a color the router
  /// does not route, before the host takes that color).
  std::vector<Wavelet> takeInjected(unsigned x, unsigned y, unsigned color);
  /// The oldest wavelet delivered to the CE on `color`, removed.
  std::optional<Wavelet> pollDelivered(unsigned x, unsigned y, unsigned color);
  std::optional<Wavelet> peekDelivered(unsigned x, unsigned y,
                                       unsigned color) const;
  unsigned getDeliveredCount(unsigned x, unsigned y, unsigned color) const;
  /// The delivery queue of PE (x, y) and `color` as a number that stays
  /// valid for the network's life, for a CE that polls it every cycle (the
  /// calls below skip finding the router and lane); none while the router
  /// has no lane for the color, whose queue is then empty.
  std::optional<uint32_t> findDeliveryQueue(unsigned x, unsigned y,
                                            unsigned color) const;
  /// peekDelivered and pollDelivered of a queue findDeliveryQueue named;
  /// none for an empty queue or a number it never gave.
  std::optional<Wavelet> peekDeliveryQueue(uint32_t queue) const;
  /// inject and isInjectBufferFull for the PE and color whose delivery
  /// queue findDeliveryQueue numbered `queue` (both live in one lane);
  /// false for a number it never gave.
  bool injectAt(uint32_t queue, Wavelet wavelet);
  bool isInjectBufferFullAt(uint32_t queue) const;
  /// A hint that the CE will soon use the lanes of queues[c] for each bit c
  /// of `which` (a PE about to take its turn): starts loading them into
  /// the cache.
  void prefetchQueues(const uint32_t *queues, uint32_t which) const;
  /// The same for the wavelets at the heads of those delivery queues,
  /// once their lanes are in the cache (a turn or two after
  /// prefetchQueues).
  void prefetchDeliveryHeads(const uint32_t *queues, uint32_t which) const;
  /// prefetchQueues and prefetchDeliveryHeads for one queue.
  void prefetchQueue(uint32_t queue) const;
  void prefetchDeliveryHead(uint32_t queue) const;
  std::optional<Wavelet> pollDeliveryQueue(uint32_t queue);
  /// Drops the head of that queue, as pollDeliveryQueue would, once
  /// peekDeliveryQueue has read it (false, nothing done, for an empty queue
  /// or a number never given); `nowEmpty` tells whether it was the last.
  bool dropDeliveryHead(uint32_t queue, bool &nowEmpty);
  /// The depth of one delivery queue (1 to NetworkOptions::MaxDepth), e.g.
  /// that of the input queue bound to the color; false and an error when
  /// out of range or below the wavelets it holds.
  bool setDeliveryQueueDepth(unsigned x, unsigned y, unsigned color,
                             unsigned depth);
  /// A fabout's `.advance_switch`: advances the color's switch once the
  /// wavelets already injected on it have left the router (at once if none
  /// wait). False and an error if the PE does not route the color.
  bool advanceSwitch(unsigned x, unsigned y, unsigned color);
  /// `<tile_config>.teardown.exit`: clears teardown so the color routes
  /// again. False and an error on a bad call.
  bool exitTeardown(unsigned x, unsigned y, unsigned color);
  bool isInTeardown(unsigned x, unsigned y, unsigned color) const;
  /// TEARDOWN commands executed since the last call, in execution order.
  std::vector<TeardownEvent> takeTeardownEvents();

  /// The color config word (0x7F20 + color) and switch config word (0x7F40
  /// + color) as docs/Library.md encodes them; an unconfigured color reads
  /// 0. Writing one configures the color.
  std::optional<uint16_t> getColorConfigWord(unsigned x, unsigned y,
                                             unsigned color) const;
  bool setColorConfigWord(unsigned x, unsigned y, unsigned color,
                          uint16_t word);
  std::optional<uint16_t> getSwitchConfigWord(unsigned x, unsigned y,
                                              unsigned color) const;
  bool setSwitchConfigWord(unsigned x, unsigned y, unsigned color,
                           uint16_t word);
  /// None outside the rectangle or the colors.
  std::optional<LaneState> getLaneState(unsigned x, unsigned y,
                                        unsigned color) const;

  //===--------------------------------------------------------------------===//
  // The fabric edge: host streams (docs/Emulator.md "Edge ports"). `port`
  // is a link port of an edge PE that faces off the rectangle: West at
  // x == 0, East at x == width - 1, North at y == 0, South at
  // y == height - 1. Other ports, PEs and colors are recorded errors.
  //===--------------------------------------------------------------------===//

  /// Puts a wavelet into the input buffer of `port` on its color, as a
  /// neighbour beyond the edge would send it, and numbers it like inject.
  /// False when that buffer is full (or on a bad call).
  bool injectAtEdge(unsigned x, unsigned y, pe::Port port, Wavelet wavelet);
  /// Free places in that input buffer (0 on a bad port, PE or color).
  unsigned getEdgeInjectSpace(unsigned x, unsigned y, pe::Port port,
                              unsigned color) const;
  /// From now on, wavelets of `color` the router of PE (x, y) sends
  /// through `port` leave the fabric into the exit's queue (edgeExitDepth
  /// deep; a full queue holds them back like a full neighbour) instead of
  /// being LeavesRectangle errors. Declaring an exit twice is harmless.
  bool declareEdgeExit(unsigned x, unsigned y, pe::Port port, unsigned color);
  /// The oldest wavelet that left through a declared exit, removed; none
  /// when it is empty (an error if the exit is not declared).
  std::optional<Wavelet> pollEdgeExit(unsigned x, unsigned y, pe::Port port,
                                      unsigned color);
  /// Wavelets waiting in a declared exit's queue (0 if not declared).
  unsigned getEdgeExitCount(unsigned x, unsigned y, pe::Port port,
                            unsigned color) const;

  //===--------------------------------------------------------------------===//
  // The clock
  //===--------------------------------------------------------------------===//

  /// Runs one cycle: every router moves what it can, decided on the state
  /// at the start of the cycle.
  void step();
  /// Counts `cycles` cycles in which nothing can happen, at once: the
  /// network must be idle (false, and nothing changes, if it is not). The
  /// PE model skips stretches where every PE is computing.
  bool skipIdleCycles(uint64_t cycles);
  /// Steps until idle or `maxCycles` more cycles; returns the cycles run.
  uint64_t runUntilIdle(uint64_t maxCycles);
  /// No wavelet waits in any router's input buffer (delivery queues, which
  /// the CE drains, do not count).
  bool isIdle() const;
  uint64_t getCycle() const;
  const NetworkCounters &getCounters() const;
  /// Wavelets that moved out of an input buffer in the last step; 0 while
  /// not idle means nothing can move without the CE or a new config.
  size_t getLastStepMoves() const;
  /// The delivery queues the last step added to, in order, each once.
  const std::vector<DeliveryNote> &getLastStepDeliveries() const;
  size_t getWaveletsInFlight() const;   ///< in input buffers
  size_t getWaveletsAwaitingCE() const; ///< in delivery queues
  /// Cycles in which the output link of PE (x, y) towards `port` (Ramp: to
  /// its CE) carried a wavelet.
  uint64_t getLinkBusyCycles(unsigned x, unsigned y, pe::Port port) const;
  /// Every buffered wavelet, sorted by PE (row, then column), color,
  /// input buffers (W, E, S, N, Ramp) before the delivery queue, index.
  std::vector<BufferedWavelet> listBuffered() const;
  /// Every link that carried a wavelet, by PE (row, then column), color,
  /// port (W, E, S, N, Ramp).
  std::vector<LinkCount> getLinkCounts() const;
  const std::vector<RouteError> &getErrors() const;

  const NetworkOptions &getOptions() const;
  /// Bytes of the caller's state that each cycle walks besides the
  /// network's (an emulator's PE records). They share the caches with it:
  /// together they decide whether a step fetches its lines ahead, which
  /// pays only once they no longer fit (docs/Emulator.md, "Memory and
  /// speed").
  void setCompanionBytes(size_t bytes);
  /// Whether the last step fetched lines ahead. It changes no result.
  bool didLastStepFetchAhead() const;

  //===--------------------------------------------------------------------===//
  // Bands (docs/Scaling.md). A network of a band routes only its rows; a
  // wavelet sent across its first or last row's outer side, where the
  // rectangle goes on, waits for the neighbour's BoundaryView (set before
  // each step) to have room, and then leaves into the boundary outbox. A
  // cycle of banded networks: every band publishes getBoundaryView for
  // each neighbour, each takes its neighbours' views with
  // setNeighbourView, all step, and each band's outbox is handed to the
  // neighbour's acceptFromBoundary. Wavelets then move exactly as through
  // one network of the whole rectangle (wavelet IDs aside, which each
  // network numbers itself).
  //===--------------------------------------------------------------------===//

  NetworkBand getBand() const;
  /// What this band offers the band beyond `side` (empty vectors if there
  /// is none).
  BoundaryView getBoundaryView(BandSide side) const;
  /// What the band beyond `side` offers; false (and an error) if its size
  /// is not width * colors or there is no band there.
  bool setNeighbourView(BandSide side, BoundaryView view);
  /// The wavelets the last step sent across `side`, removed.
  std::vector<BoundaryWavelet> takeBoundaryOutbox(BandSide side);
  /// A wavelet the neighbour beyond `side` sent in the cycle just stepped;
  /// it waits in the input buffer facing `side`, as if it had arrived in
  /// that step. False (and an error) if the PE is not on this band's row
  /// on that side or the buffer is full (the view promised room).
  bool acceptFromBoundary(BandSide side, const BoundaryWavelet &wavelet);

private:
  struct State;
  std::unique_ptr<State> state;
};

} // namespace tessera::emulator

#endif // TESSERA_EMULATOR_NETWORK_H
