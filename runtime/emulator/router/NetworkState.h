//===- NetworkState.h - the network's flat arrays ---------------*- C++ -*-===//
//
// Private to the router library. State lives in flat vectors indexed by
// number, never by pointer, so that it stays valid while they grow: a
// router per touched PE, a lane per router and color, and one pool of
// wavelet slots that the lanes' buffers are carved from. Routers and lanes
// are created the first time a PE is touched, so a wafer where few PEs talk
// costs little.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_ROUTER_NETWORKSTATE_H
#define TESSERA_EMULATOR_ROUTER_NETWORKSTATE_H

#include "tessera/Emulator/HugePages.h"
#include "tessera/Emulator/Network.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

namespace tessera::emulator {

inline constexpr uint32_t None = UINT32_MAX;
/// Ports in pe::Port order: W, E, S, N, Ramp. A lane's buffers are the
/// input buffers of the five ports, then the delivery queue to the CE.
inline constexpr unsigned NumPorts = 5;
inline constexpr unsigned RampPort = 4;
inline constexpr unsigned DeliveryBuffer = 5;
inline constexpr unsigned NumBuffers = 6;
inline constexpr uint8_t RampBit = 1u << RampPort;
inline constexpr uint8_t LinkBits = 0x0F;
/// Colors a router has room for; the target's count (24 on both WSE-2 and
/// WSE-3) is capped to it.
inline constexpr unsigned MaxColors = 24;

/// A buffered wavelet.
struct Entry {
  uint64_t id = 0;
  uint32_t payload = 0;
  uint8_t color = 0;
  uint8_t control = 0;
  uint8_t advances = 0; ///< advanceSwitch calls that wait for it to leave
  uint8_t reported = 0; ///< ReportedFlags: errors recorded about it
};

enum ReportedFlags : uint8_t { ReportedUnroutable = 1, ReportedLeaving = 2 };

/// A ring buffer of `capacity` slots at pool[base...], allocated on first
/// use.
struct Buffer {
  uint32_t base = None;
  uint8_t head = 0, count = 0, capacity = 0;
};

enum LaneFlag : uint8_t {
  Configured = 1,
  Ring = 2,
  Teardown = 4,
  SwapX = 8,
  SwapY = 16,
  PointToPoint = 32,
  Filtering = 64, ///< the filter is not None
  /// Its head wavelet waits for room in full buffers: off the worklist
  /// until one of them drains or the lane changes (docs/Emulator.md
  /// "Parked lanes").
  Parked = 128,
};

/// One color of one router: what a cycle reads for every wavelet, in one
/// cache line. The rest is in LaneCold, at the same index.
struct alignas(64) Lane {
  uint32_t router = None;
  uint8_t color = 0;
  uint8_t flags = 0;
  uint8_t curRx = 0, curTx = 0;    ///< routes at the current position
  uint8_t rxAny = 0;               ///< ports some position receives from
  uint8_t nonEmpty = 0;            ///< input buffers holding wavelets
  uint8_t lastPort = NumPorts - 1; ///< round robin among input ports
  uint8_t lastPosition = 0;        ///< highest set switch position, 0 if none
  uint8_t popMode = 0; ///< the config word's 2 bits: 1 always, 2 advance
  std::array<Buffer, NumBuffers> buffers;

  bool has(LaneFlag flag) const { return flags & flag; }
  void set(LaneFlag flag, bool on) {
    flags = on ? flags | flag : flags & ~flag;
  }
};
static_assert(sizeof(Lane) == 64, "a lane is one cache line");

/// What a lane needs for switches, filters and config words, and what a
/// hop reads and counts. One cache line, so that step's prefetch of it
/// brings in the links a hop reads and the count it bumps.
struct alignas(64) LaneCold {
  uint8_t rx = 0, tx = 0; ///< position 0
  /// Switch config nibbles of positions 1..3 as written: port (0..4, more
  /// is unset) | rx side << 3.
  std::array<uint8_t, 3> positions = {5, 5, 5};
  uint8_t position = 0;
  uint16_t counter = 0; ///< the counter filter's count
  pe::Filter filter;
  /// Per direction, if `linksValid`: the lane a wavelet sent that way
  /// enters (None if not created yet, Outside past the edge) and the color
  /// it arrives as. Read in order of the lanes, this spares each hop a
  /// cache miss on the neighbour's router.
  bool linksValid = false;
  std::array<uint32_t, 4> next{};
  std::array<uint8_t, 4> nextColor{};
  /// Per output link (W, E, S, N, Ramp): wavelets this lane sent there,
  /// modulo 2^16; each wrap adds 2^16 to the lane's sentWraps entry
  /// (Network::getLinkCounts).
  std::array<uint16_t, NumPorts> sentLow{};
  /// Parked with two input ports ready: every cycle would count a
  /// conflict, so the network counts it for the lane (parkedConflicts).
  bool parkedConflict = false;
};
static_assert(sizeof(LaneCold) == 64, "a lane's cold half is one cache line");

/// A lane's two halves, for lanes not created yet.
struct LaneView {
  Lane lane;
  LaneCold cold;
};

/// A neighbour beyond the rectangle's edge.
inline constexpr uint32_t Outside = None - 1;
/// A neighbour in the rectangle but in another band's network.
inline constexpr uint32_t Ghost = None - 2;

/// A declared edge exit: what left the fabric there, oldest first. Few PEs
/// have one, so the exits live apart from routers and lanes.
struct EdgeExit {
  std::deque<Wavelet> queue;
};

/// The router of one touched PE. What each cycle reads and writes fits in
/// its first cache line for colors 0..10 (a cycle fetches only that line
/// ahead). Its neighbours are in Network::State::neighbours.
struct alignas(64) Router {
  uint16_t x = 0, y = 0;
  /// Per output link (W, E, S, N, Ramp): the color it last carried.
  std::array<uint8_t, NumPorts> lastGranted{};
  /// Per output link: busy cycles modulo 2^16; each wrap adds 2^16 to
  /// busyHigh, which lives in another line.
  std::array<uint16_t, NumPorts> busyLow{};
  std::array<uint32_t, MaxColors> laneOf;
  std::array<uint64_t, NumPorts> busyHigh{};
};
static_assert(offsetof(Router, laneOf) + 11 * sizeof(uint32_t) <= 64,
              "the lanes of colors 0..10 are in the first line");

/// One wavelet leaving an input buffer this cycle. No member initializers:
/// a router builds up to MaxColors of them per cycle and fills in every
/// field it reads.
struct Move {
  /// The wavelet, copied when the move is planned: applying it then reads
  /// no pool slot, which a large fabric's cycle has evicted by then.
  Entry wavelet;
  uint32_t lane;
  uint8_t port;
  uint8_t links; ///< output links: direction bits, RampBit = delivered
  bool withheld; ///< the ramp copy was filtered or ce_ignored
  bool counted;  ///< the counter filter counts it
  /// Per direction in `links`: the receiving lane, or None if it does not
  /// exist yet, and the color the wavelet arrives as (after a color swap).
  std::array<uint32_t, 4> dest;
  std::array<uint8_t, 4> destColor;
  /// The router's PE, for the delivery note, so that applying a move reads
  /// no router (in what would otherwise be the Move's padding).
  uint16_t x, y;
};
static_assert(sizeof(Move) == 48, "moves pack four to three cache lines");

struct Network::State {
  State(const FabricLayout &layout, const target::TargetModel &model,
        NetworkOptions options, NetworkBand band);

  const FabricLayout *layout;
  const target::TargetModel *model;
  NetworkOptions options;
  unsigned width, height, numColors;
  /// The rows this network routes: [firstRow, endRow).
  unsigned firstRow, endRow;
  bool hasColorSwap;
  /// Per BandSide: what the neighbouring band offers, and what the last
  /// step sent it (Boundary.cpp).
  std::array<BoundaryView, 2> neighbourView;
  std::array<std::vector<BoundaryWavelet>, 2> outbox;

  std::vector<uint32_t> routerOf; ///< per PE (row-major), or None
  // Visited every cycle on a large fabric: on huge pages (HugePages.h).
  std::vector<Router, LargeAllocator<Router>> routers;
  std::vector<Lane, LargeAllocator<Lane>> lanes;
  std::vector<LaneCold, LargeAllocator<LaneCold>> cold; ///< per lane
  std::vector<Entry, LargeAllocator<Entry>> pool;
  /// Per router and direction: the neighbour's router, None until it is
  /// created, Outside or Ghost. Apart from the routers, four to a line: a
  /// move out of a full input buffer reads one to wake the neighbour that
  /// fills it, and a large fabric's step fetches only a router's first
  /// line.
  std::vector<std::array<uint32_t, 4>,
              LargeAllocator<std::array<uint32_t, 4>>>
      neighbours;
  /// Per router: the colors whose lane may route (configured, not in
  /// teardown) and holds input wavelets, and Listed. Apart from the routers
  /// so that the cycle's updates hit a small, cached array.
  std::vector<uint32_t> pending;
  static constexpr uint32_t Listed = 1u << 31; ///< on the worklist
  std::vector<uint32_t> active;                ///< routers with pending lanes
  /// Per router: the colors whose lane is Parked (not in pending).
  std::vector<uint32_t> parked;
  /// Parked lanes with a parkedConflict.
  size_t parkedConflicts = 0;
  ScratchArray<Move> moves; ///< this cycle's: the first numMoves
  size_t numMoves = 0;
  std::vector<RouteError> errors;
  std::vector<TeardownEvent> teardownEvents;
  std::vector<DeliveryNote> deliveries;
  NetworkCounters counters;
  /// (lane << 3 | link) -> wavelets sent there beyond LaneCold::sentLow,
  /// a multiple of 2^16.
  std::unordered_map<uint64_t, uint64_t> sentWraps;
  size_t inFlight = 0, awaitingCE = 0;
  /// Network::setCompanionBytes.
  size_t companionBytes = 0;
  bool fetchedAhead = false; ///< by the last step
  /// The bytes a cycle may walk: the network's arrays and the companion's.
  size_t getFootprint() const {
    size_t perRouter = sizeof(Router) + sizeof(neighbours[0]) +
                       sizeof(pending[0]) + sizeof(parked[0]);
    return routers.size() * perRouter +
           lanes.size() * (sizeof(Lane) + sizeof(LaneCold)) +
           pool.size() * sizeof(Entry) + companionBytes;
  }
  std::vector<EdgeExit> exits;
  /// exitKey(...) -> index into exits.
  std::unordered_map<uint64_t, uint32_t> exitOf;

  // Creation (Network.cpp).
  uint32_t ensureRouter(unsigned peIndex);
  uint32_t ensureLane(uint32_t router, unsigned color);
  /// Forgets the cached links of the lanes next to `router`, whose lanes
  /// or swap flags changed.
  void invalidateLinksAround(uint32_t router);
  LaneView makeLane(uint32_t router, unsigned color,
                    const pe::RouterConfig *config) const;
  uint32_t addLane(uint32_t router, unsigned color,
                   const pe::RouterConfig *config);
  /// The lane of (x, y, color) if it exists; else none.
  const Lane *findLane(unsigned x, unsigned y, unsigned color) const;
  /// The lane as it is or would be created (nullopt outside the fabric).
  std::optional<LaneView> viewLane(unsigned x, unsigned y,
                                   unsigned color) const;

  // Buffers and lane state (Lanes.cpp).
  Entry &slot(const Buffer &buffer, unsigned index);
  const Entry &slot(const Buffer &buffer, unsigned index) const;
  /// Appends a slot to a buffer that has room; the caller fills it in
  /// field by field (a whole Entry built on the stack and copied costs a
  /// store-forwarding stall per hop). Valid until the pool grows.
  Entry &push(Lane &lane, unsigned buffer);
  /// A new wavelet from outside the network (the CE, or the host at an
  /// edge port) into input buffer `buffer` of `lane` as `color`, numbered
  /// like injected ones; false when the buffer is full.
  bool admit(uint32_t lane, unsigned buffer, unsigned color,
             const Wavelet &wavelet);
  Entry pop(Lane &lane, unsigned buffer);
  /// pop, for a wavelet already copied: reads no slot.
  void drop(Lane &lane, unsigned buffer);
  bool resize(Lane &lane, unsigned buffer, unsigned capacity);
  void refreshPending(uint32_t lane);
  /// Takes `lane`, whose head wavelet found only full buffers, off the
  /// worklist until wake or refreshPending puts it back.
  void park(Lane &lane, uint32_t laneIndex, bool conflict);
  /// Clears the parking of a parked lane; pending is the caller's.
  void unpark(uint32_t lane);
  /// Puts the parked lanes of `router` back on the worklist: a buffer
  /// they may wait on drained, or their links changed.
  void wakeParked(uint32_t router);
  /// wakeParked for `router` and its neighbours in this band.
  void wakeParkedAround(uint32_t router);
  static void updateRoutes(Lane &lane, const LaneCold &cold);
  void advance(uint32_t lane);
  void reset(uint32_t lane);

  // The cycle (Step.cpp).
  void decide(uint32_t router);
  /// Where the head wavelet of `lane` would go; false if it cannot move
  /// this cycle (a full buffer, or a route off the rectangle).
  /// `parkable`: it cannot only because buffers in this band are full.
  bool plan(const Router &router, uint32_t lane, Entry &head, Move &move,
            bool &parkable);
  /// Fills in `cold.next` and `cold.nextColor` of a lane of `router`.
  void resolveLinks(const Router &router, const Lane &lane, LaneCold &cold);
  /// The round-robin rank of `color` on output link `link` of `router`.
  unsigned rankOn(const Router &router, unsigned link, unsigned color) const;
  /// The highest rank of `color` over the links `links`; requests are
  /// served lowest first.
  unsigned worstRank(const Router &router, uint8_t links, unsigned color) const;
  /// Of the moves from `first` on, keeps those that get all their links.
  void arbitrate(const Router &router, size_t first,
                 const std::array<uint8_t, MaxColors> &colorOf);
  /// arbitrate when no request needs more than one link; false (nothing
  /// done) if one does.
  bool arbitrateSingleLinks(const Router &router, size_t first,
                            const std::array<uint8_t, MaxColors> &colorOf);
  void apply(const Move &move);
  /// Fetches the wavelets at the heads of the pending lanes of `router` and
  /// the lanes they would enter (the lanes and their cold halves are in
  /// the cache).
  void prefetchTargets(uint32_t router) const;
  /// Counts a wavelet `lane` sent on output link `link`.
  void countSent(uint32_t lane, unsigned link) {
    if (++cold[lane].sentLow[link] == 0)
      sentWraps[uint64_t(lane) << 3 | link] += uint64_t(1) << 16;
  }
  /// Wavelets `lane` sent on output link `link`.
  uint64_t getSent(uint32_t lane, unsigned link) const;
  void arrive(uint32_t fromRouter, unsigned direction, uint32_t lane,
              uint8_t color, const Entry &wavelet, uint32_t payload);
  /// A copy crossing into the band beyond a ghost link (Boundary.cpp).
  void sendAcross(const Router &router, unsigned direction, uint8_t color,
                  const Entry &wavelet, uint32_t payload);

  // The fabric edge (Edge.cpp).
  static uint64_t exitKey(unsigned peIndex, unsigned direction,
                          unsigned color) {
    return uint64_t(peIndex) << 8 | direction << 5 | color;
  }
  /// The exit PE (x, y) has towards `direction` for `color`, or None.
  uint32_t findExit(unsigned x, unsigned y, unsigned direction,
                    unsigned color) const;
  /// Whether link port `port` of (x, y) faces off the rectangle.
  bool facesOff(unsigned x, unsigned y, unsigned port) const;
  /// PE, color and port of an edge call; false with the error recorded.
  bool checkEdgeCall(const char *call, unsigned x, unsigned y, pe::Port port,
                     unsigned color);
  /// A copy crossing the edge into its (declared) exit's queue.
  void leave(const Router &router, unsigned direction, uint8_t color,
             const Entry &wavelet, uint32_t payload);

  // Checks and errors (Errors.cpp).
  /// `depth` if it is 1 to MaxDepth, else `fallback` and an error.
  unsigned checkDepth(const char *what, unsigned depth, unsigned fallback);
  bool checkPE(const char *call, unsigned x, unsigned y);
  bool checkColor(const char *call, unsigned x, unsigned y, unsigned color);
  /// Whether `lane` (None: absent) routes its color; else an error.
  bool checkConfigured(const char *call, unsigned x, unsigned y, unsigned color,
                       uint32_t lane);
  /// The lane an API call changes, made configured if it was not; none
  /// (with the error reported) for a bad PE or color.
  std::optional<uint32_t> laneToConfigure(const char *call, unsigned x,
                                          unsigned y, unsigned color);
  /// The lane an API call acts on, which must be configured already.
  std::optional<uint32_t> configuredLane(const char *call, unsigned x,
                                         unsigned y, unsigned color);
  void report(RouteErrorKind kind, unsigned x, unsigned y, unsigned color,
              std::optional<pe::Port> port, uint64_t waveletId,
              std::string message);
  /// Reports an arriving or injected wavelet if the lane cannot route it.
  /// Every arrival passes here, so the check is inline and the report
  /// (strings) out of line.
  void reportUnroutable(const Lane &lane, unsigned port, Entry &entry);
  void reportUnroutableWavelet(const Lane &lane, unsigned port, Entry &entry);
  void reportLeaving(const Router &router, unsigned color, unsigned direction,
                     Entry &entry);

  /// (x, y) is a PE of this network's band.
  bool contains(unsigned x, unsigned y) const {
    return x < width && y >= firstRow && y < endRow;
  }
  bool inRectangle(unsigned x, unsigned y) const {
    return x < width && y < height;
  }
  /// Index of a PE of the band, row-major from its first row.
  unsigned indexOf(unsigned x, unsigned y) const {
    return (y - firstRow) * width + x;
  }
  /// Another band lies beyond `side` of this one.
  bool hasNeighbourBand(BandSide side) const {
    return side == BandSide::North ? firstRow > 0 : endRow < height;
  }
  /// A view of whole, empty buffers without swaps: what a band offers
  /// before the first cycle.
  BoundaryView wholeBuffers() const;
  /// The lane a ghost link of `router` towards `direction` enters for
  /// `color` per the neighbour's view: the color after its swap, and
  /// whether its buffer has room.
  bool planGhost(const Router &router, unsigned direction, uint8_t color,
                 uint8_t &arrivingColor) const;
  /// A wavelet into input buffer `port` of `lane`, as the cycle moves one
  /// (a hop), as `color` with `payload`.
  void arriveAt(uint32_t lane, unsigned port, uint8_t color, uint64_t id,
                bool control, uint32_t payload);
};

/// "west", "east", "south", "north", "ramp".
const char *portName(unsigned port);
inline bool portInSet(uint8_t set, unsigned port) { return set >> port & 1; }

//===----------------------------------------------------------------------===//
// Defined here so that the cycle's loop inlines them.
//===----------------------------------------------------------------------===//

inline Entry &Network::State::slot(const Buffer &buffer, unsigned index) {
  unsigned at = buffer.head + index;
  if (at >= buffer.capacity)
    at -= buffer.capacity;
  return pool[buffer.base + at];
}

inline const Entry &Network::State::slot(const Buffer &buffer,
                                         unsigned index) const {
  unsigned at = buffer.head + index;
  if (at >= buffer.capacity)
    at -= buffer.capacity;
  return pool[buffer.base + at];
}

inline Entry &Network::State::push(Lane &lane, unsigned index) {
  Buffer &buffer = lane.buffers[index];
  if (buffer.base == None) {
    // Carved from the pool the first time: most (lane, port) pairs of a
    // program never see a wavelet.
    buffer.base = uint32_t(pool.size());
    pool.resize(pool.size() + buffer.capacity);
  }
  Entry &entry = slot(buffer, buffer.count);
  ++buffer.count;
  if (index < NumPorts)
    lane.nonEmpty |= uint8_t(1u << index);
  return entry;
}

inline void Network::State::drop(Lane &lane, unsigned index) {
  Buffer &buffer = lane.buffers[index];
  if (++buffer.head == buffer.capacity)
    buffer.head = 0;
  if (--buffer.count == 0 && index < NumPorts)
    lane.nonEmpty &= uint8_t(~(1u << index));
}

inline Entry Network::State::pop(Lane &lane, unsigned index) {
  Buffer &buffer = lane.buffers[index];
  Entry entry = pool[buffer.base + buffer.head];
  drop(lane, index);
  return entry;
}

inline void Network::State::refreshPending(uint32_t index) {
  const Lane &lane = lanes[index];
  // Whatever changed the lane may let its head wavelet go.
  if (lane.flags & Parked)
    unpark(index);
  uint32_t &colors = pending[lane.router];
  uint32_t bit = 1u << lane.color;
  if (!lane.nonEmpty || !lane.has(Configured) || lane.has(Teardown)) {
    colors &= ~bit;
    return;
  }
  colors |= bit;
  if (!(colors & Listed)) {
    colors |= Listed;
    active.push_back(lane.router);
  }
}

inline void Network::State::reportUnroutable(const Lane &lane, unsigned port,
                                             Entry &entry) {
  if (!lane.has(Configured) || !portInSet(lane.rxAny, port))
    reportUnroutableWavelet(lane, port, entry);
}

// Once per hop, and also for wavelets from another band (Boundary.cpp).
[[gnu::always_inline]] inline void
Network::State::arriveAt(uint32_t laneIndex, unsigned port, uint8_t color,
                         uint64_t id, bool control, uint32_t payload) {
  Lane &lane = lanes[laneIndex];
  // A second ready port may change which wavelet the lane plans.
  if (lane.flags & Parked)
    unpark(laneIndex);
  Entry &entry = push(lane, port);
  entry.id = id;
  entry.payload = payload;
  entry.color = color;
  entry.control = control;
  entry.advances = 0;
  entry.reported = 0;
  reportUnroutable(lane, port, entry);
  ++inFlight;
  ++counters.hops;
  // refreshPending for a lane that just became non-empty.
  if ((lane.flags & (Configured | Teardown)) == Configured) {
    uint32_t &colors = pending[lane.router];
    colors |= 1u << lane.color;
    if (!(colors & Listed)) {
      colors |= Listed;
      active.push_back(lane.router);
    }
  }
}

} // namespace tessera::emulator

#endif // TESSERA_EMULATOR_ROUTER_NETWORKSTATE_H
