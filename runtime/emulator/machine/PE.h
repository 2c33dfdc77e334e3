//===- PE.h - one processing element of the emulated fabric -----*- C++ -*-===//
//
// The state of a PE beyond its router: the compute engine's registers and
// memory, DSRs and FIFOs, the task table's flags, the main thread's state
// machine and the microthreads. Internal to TesseraEmulatorMachine; the
// behaviour is in Tasks.cpp, MainThread.cpp, Operations.cpp and
// ConfigWords.cpp, the rules in docs/Emulator.md "PEs, tasks and the clock".
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_MACHINE_PE_H
#define TESSERA_EMULATOR_MACHINE_PE_H

#include "tessera/Emulator/DSDEngine.h"
#include "tessera/Emulator/DecodedProgram.h"
#include "tessera/Emulator/Emulator.h"
#include "tessera/Emulator/HugePages.h"
#include "tessera/Target/TargetModel.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera::emulator::machine {

inline constexpr unsigned NumTaskIDs = 64;
/// The picker numbers tasks by slot: 0..63 are the task table's IDs,
/// 64..127 the entries of WSE-3's separate control task table.
inline constexpr unsigned ControlTableSlot = NumTaskIDs;
inline constexpr unsigned NumTaskSlots = 2 * NumTaskIDs;
inline constexpr unsigned NoTask = 0xFF;
/// The address a top-level call returns to (docs/BinaryFormat.md).
inline constexpr uint32_t TopLevelReturn = pe::MemoryBytes;

/// What every PE running one program shares: decoded code, the task table
/// and which task a delivered wavelet is for.
struct ProgramInfo {
  const LoadedProgram *loaded = nullptr;
  DecodedProgram code;
  MemoryImage image;
  /// Per task ID: its kind and entry, if the table has it.
  std::array<std::optional<target::TaskKind>, NumTaskIDs> kind{};
  std::array<uint16_t, NumTaskIDs> entry{};
  /// Per color: the data task its wavelets activate (WSE-2: the ID equal to
  /// the color; WSE-3: the input queue bound to the color), or NoTask.
  std::array<uint8_t, 32> dataTaskOfColor{};
  /// Per color: the ID whose block flag gates delivery to the CE (the data
  /// task's ID, or for a color without one its own ID on WSE-2 and its
  /// input queue on WSE-3), or NoTask.
  std::array<uint8_t, 32> gateOfColor{};
  /// WSE-3: the color each input queue is bound to.
  std::array<std::optional<uint8_t>, 8> inputQueueColor{};
  std::array<std::optional<uint8_t>, 8> outputQueueColor{};
  /// WSE-3's separate control task table: its entries, the stride of a
  /// queue's `ctrl_table_id` and each color's `ctrl_table_id` (that of the
  /// input queue bound to it).
  bool separateControlTable = false;
  uint8_t controlTableStride = 0;
  std::array<std::optional<uint16_t>, NumTaskIDs> controlEntry{};
  std::array<uint8_t, 32> ctrlTableIDOfColor{};
  /// Teardown handlers by color (`__teardown_handler.<color>`).
  std::array<std::optional<uint16_t>, 32> teardownHandler{};
  uint64_t initiallyBlocked = 0;
  /// Bit t: task t is a data task.
  uint64_t dataTasks = 0;
  /// DSR builders with immediate operands, built once for every PE
  /// (prebuildDSRInstruction): per full instruction (DecodedInst::aux),
  /// an index into `prebuilt` or -1.
  std::vector<int32_t> prebuiltOf;
  std::vector<PrebuiltDSR> prebuilt;
  const PrebuiltDSR *findPrebuilt(const DecodedInst &inst) const {
    if (inst.aux >= prebuiltOf.size() || prebuiltOf[inst.aux] < 0)
      return nullptr;
    return &prebuilt[prebuiltOf[inst.aux]];
  }
  /// The DSRFile origin of a descriptor `built` wrote: 1 + its index, or 0
  /// (unknown) past what an origin holds.
  uint16_t originOf(const PrebuiltDSR *built) const {
    size_t index = static_cast<size_t>(built - prebuilt.data());
    return index < UINT16_MAX ? static_cast<uint16_t>(index + 1) : 0;
  }
};

/// What the main thread is doing.
enum class MainState : uint8_t {
  Idle,       ///< between tasks: the picker runs
  Running,    ///< executing instructions
  Operation,  ///< a synchronous DSD operation (or map) is in progress
  WaitThread, ///< an async operation waits for its microthread to be free
  Faulted,    ///< stopped for good
};

/// What the main thread runs: a task, or a top-level call (start-up code,
/// a host launch, a teardown handler).
struct Activity {
  bool isCall = false;
  uint8_t task = NoTask;
  uint32_t entry = 0;
};

/// Where a fabric or FIFO operand last could not go on, for reports.
struct BlockedOn {
  bool valid = false;
  bool send = false;
  bool fifo = false;
  uint8_t color = 0, queue = 0;
};

/// PE::mainStream: the band carries the main thread's operation, a send
/// or a receive; a receive with a wavelet delivered in the last step is
/// ready.
enum MainStreamBits : uint8_t {
  MainStreamed = 1,
  MainStreamSend = 2,
  MainStreamReady = 4,
};

/// An operation in flight on the main thread or a microthread. It starts
/// a cache line, and what a cycle of a transfer reads (the scheduler's
/// fields, then the operation's first ones and its FabricMove) fills that
/// line alone.
struct alignas(64) Flight {
  bool interactive = false; ///< has fabric or FIFO operands, or is map
  bool fabric = false;      ///< has fabric operands: one element per cycle
  /// For recording: its microthread (-1: the main thread).
  int8_t microthread = -1;
  BlockedOn blockedOn;
  DSDOperation op;
  unsigned bits = 16;   ///< its widest memory operand's element width
  uint64_t readyAt = 0; ///< memory-only: when its cost has elapsed
  uint32_t pc = 0;      ///< the instruction that started it
  uint32_t next = 0;    ///< the instruction after it
  /// The cycle it started: for recording, and for a transfer a chain
  /// started ahead (PE::laterMicrothreads), the last cycle it waits.
  uint64_t startCycle = 0;
};

static_assert(sizeof(Flight) <= 192,
              "eight transfers in flight per PE, and a wafer's are all new "
              "memory: keep an operation within three cache lines");

/// Flights live in their band's FlightArena, which destroys them; their
/// holders only hand them back (Band::recycle), so the pointer frees
/// nothing.
struct FlightRelease {
  void operator()(Flight *) const noexcept {}
};
using FlightPtr = std::unique_ptr<Flight, FlightRelease>;

/// Where a band's operations in flight live: blocks of Flights, growing
/// to a huge page each (HugePages.h), kept until the band goes. A large
/// fabric has tens of thousands in flight and visits them every cycle.
class FlightArena {
public:
  FlightArena() = default;
  FlightArena(const FlightArena &) = delete;
  FlightArena &operator=(const FlightArena &) = delete;
  ~FlightArena();
  /// A new, value-initialised Flight.
  Flight *make();

private:
  struct Block {
    Flight *flights = nullptr;
    size_t capacity = 0, used = 0;
  };
  std::vector<Block> blocks;
};

/// The ports of an operation on memory only, which never asks for them.
class NoPorts final : public DSDPorts {
public:
  std::optional<uint32_t> popWavelet(const FabricEndpoint &) override {
    return std::nullopt;
  }
  bool pushWavelet(const FabricEndpoint &, uint32_t) override { return false; }
};

struct PendingCall {
  uint32_t address = 0;
  std::array<uint32_t, 8> args{};
  uint8_t numArgs = 0;
};

struct alignas(64) PE {
  // What a turn reads comes first, in the first cache lines: where it is,
  // what its threads and tasks wait for, its operations, counters and
  // delivery queues. Then the core's registers and memory, which the main
  // thread and the transfers use. Band::runPEs fetches these ahead on a
  // large fabric; the descriptors and the rest, read when an operation
  // starts or less often, come last.
  PECoord coord;
  uint16_t program = 0;
  bool awake = false;
  MainState state = MainState::Idle;
  uint8_t blockedOutputQueues = 0;
  uint8_t blockedMicrothreads = 0;
  /// WSE-3 `qflush`: input queues whose emptiness activates task 29.
  uint8_t flushQueues = 0;
  bool inMapCall = false;
  /// A task's first batch, run ahead (Band::runMainThread), that trapped or
  /// returned: its instructions, charged in the PE's turn in the batch's
  /// cycle, which finds the trap or return again.
  uint8_t deferredSteps = 0;
  /// Round-robin mode: the task slot picked last.
  uint8_t lastPicked = NumTaskSlots - 1;
  /// Microthreads whose transfer the band carries between turns
  /// (Streams.cpp): turns pass them by. Of those, the sends, and the
  /// receives with a wavelet delivered in the last step.
  uint8_t streamedMicrothreads = 0;
  uint8_t streamedSends = 0;
  uint8_t readyStreams = 0;
  /// On its band's streamPEs, and on its streamingPEs.
  bool streamListed = false;
  bool listedStreaming = false;
  /// The main thread's synchronous plain move, when the band carries it
  /// (MainStreams.cpp): MainStreamBits, and the color it moves.
  uint8_t mainStream = 0;
  uint8_t mainStreamColor = 0;
  /// Bit u of entry p: microthread u holds an operation of priority p
  /// (pe::Priority's value), so a turn orders them without reading them.
  std::array<uint8_t, 4> microthreadsByPriority{};
  /// Microthreads whose transfer a chain started ahead of its cycle
  /// (Flight::startCycle): neither the streams nor the turns act on it
  /// until Band::beginStreams clears the bit, at the cycle after that.
  uint8_t laterMicrothreads = 0;
  /// Colors whose delivery queue may hold wavelets: set by each delivery,
  /// cleared when a poll empties the queue (or a look finds it empty).
  uint32_t deliveredColors = 0;
  /// Of those, the colors whose queue may hold a control wavelet: set by
  /// each delivery of one, cleared with deliveredColors. Only these are
  /// looked at for control wavelets to take, so data streams cost nothing.
  uint32_t controlColors = 0;
  /// Bit c: deliveryQueue[c] is known (also filled by the const queries).
  mutable uint32_t knownQueues = 0;
  /// Colors the PE has sent wavelets on into its router: with
  /// deliveredColors, the lanes a turn may touch (Band::runPEs fetches
  /// them ahead).
  uint32_t sendColors = 0;
  /// Colors in teardown whose handler has not run yet.
  uint32_t teardownColors = 0;
  /// Colors of streamed receives: their deliveries go to the stream.
  uint32_t streamedColors = 0;
  /// Per microthread: the color its streamed transfer moves.
  std::array<uint8_t, target::TargetModel::getNumMicrothreads()> streamColor{};

  // Tasks (bit t of each mask is task ID t).
  uint64_t activated = 0;
  uint64_t blocked = 0;
  /// Control tasks activated by a control wavelet, with their argument
  /// (by task slot: the separate control table's entries from 64).
  uint64_t controlPending = 0;
  /// The separate control task table's entries: pending and blocked.
  uint64_t tablePending = 0;
  uint64_t tableBlocked = 0;

  uint64_t readyAt = 0; ///< the main thread's first cycle to act again
  /// The cycle a timer wakes it at, 0 for none (docs/Emulator.md, "The
  /// clock and its cycle").
  uint64_t timerAt = 0;
  uint64_t pickerState = 0; ///< shuffle mode's xorshift state
  FlightPtr operation;      ///< the main thread's
  std::array<FlightPtr, target::TargetModel::getNumMicrothreads()> microthreads;
  /// With the counters, one cache line: what a carried transfer writes
  /// for each element.
  PECounters counters;
  /// The last cycle an operation of this PE moved an element: a thread
  /// blocked on a FIFO retries after it, since the other side may have
  /// pushed or popped on a thread that ran after it in that cycle.
  uint64_t dsdProgressCycle = UINT64_MAX;
  /// First in, first out; rarely more than one (a vector: an empty deque
  /// allocates).
  std::vector<PendingCall> calls;

  /// Per color: the network's number for this PE's delivery queue
  /// (Network::findDeliveryQueue), found on first use. A cache, so the
  /// const queries may fill it in.
  static constexpr uint32_t NoQueue = UINT32_MAX;
  mutable std::array<uint32_t, 32> deliveryQueue = [] {
    std::array<uint32_t, 32> queues;
    queues.fill(NoQueue);
    return queues;
  }();

  /// The main thread's task or call (a picked task's first batch asks
  /// whether it is a call), and the cycle it started, for recording.
  Activity activity;
  uint64_t activityStart = 0;

  CEState ce;
  PEMemory memory;
  DSRFile dsrs;
  FifoFile fifos;
  std::vector<std::pair<uint8_t, uint16_t>> controlArgs;
  /// WSE-2: colors whose delivery queue has taken the depth of the input
  /// queue a fabin named (done once per color).
  uint32_t sizedColors = 0;

  // Config words.
  bool tscEnabled = false;
  uint64_t tscBase = 0;  ///< counted before tscSince
  uint64_t tscSince = 0; ///< the cycle counting was last enabled
  uint16_t tscLatch[2] = {0, 0};
  std::string printLine;
  /// Wavelets sent on host-bound colors (streaming D2H), in order.
  std::vector<std::pair<uint8_t, uint32_t>> toHost;

  /// Bit u: microthreads[u] holds an operation.
  uint8_t getBusyMicrothreads() const {
    return microthreadsByPriority[0] | microthreadsByPriority[1] |
           microthreadsByPriority[2] | microthreadsByPriority[3];
  }
  bool hasBusyMicrothread() const { return getBusyMicrothreads() != 0; }
};

/// The color of a fabric operand: on WSE-3 (`byQueue`) that its queue is
/// bound to, if it is (`bound`: ProgramInfo's input or output queues).
inline uint8_t endpointColor(const FabricEndpoint &endpoint,
                             const std::array<std::optional<uint8_t>, 8> &bound,
                             bool byQueue) {
  if (byQueue && endpoint.queue < bound.size() && bound[endpoint.queue])
    return *bound[endpoint.queue];
  return endpoint.color;
}

/// The head of the PE's delivery queue of `color`, and taking it, through
/// the queue number the PE keeps (found on first use).
/// The network's number for the lane of `color` at the PE (its delivery
/// queue and inject buffer), found on first use and kept; PE::NoQueue
/// while the router has no such lane.
uint32_t findQueue(const Network &network, const PE &pe, unsigned color);
std::optional<Wavelet> peekDelivered(const Network &network, const PE &pe,
                                     unsigned color);
/// Takes the head; a queue left empty clears the color's bits in
/// deliveredColors and controlColors.
std::optional<Wavelet> pollDelivered(Network &network, PE &pe, unsigned color);
/// Drops the head of `queue`, the PE's delivery queue of `color` (found by
/// findQueue and just peeked), with pollDelivered's clearing of the bits.
void dropDelivered(Network &network, PE &pe, unsigned color, uint32_t queue);

} // namespace tessera::emulator::machine

#endif // TESSERA_EMULATOR_MACHINE_PE_H
