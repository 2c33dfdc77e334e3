//===- Emulator.h - the whole fabric, cycle by cycle ------------*- C++ -*-===//
//
// Runs what `cslc -o DIR` wrote (docs/Emulator.md "PEs, tasks and the
// clock"): every PE of the rectangle with its compute engine, DSRs, FIFOs,
// task table, task picker and microthreads, joined by the router Network,
// on one cycle clock. A run stops when the fabric is idle, when a PE faults,
// when work is pending but nothing can move (a deadlock, reported with
// source lines), or at a cycle limit. Results and cycle counts depend only
// on the program, its inputs and the options.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_EMULATOR_H
#define TESSERA_EMULATOR_EMULATOR_H

#include "tessera/Emulator/DecodedProgram.h"
#include "tessera/Emulator/Network.h"
#include "tessera/Emulator/OutputDirectory.h"
#include "tessera/Emulator/PEMemory.h"

#include <array>
#include <cstdint>
#include <functional>
#include <iosfwd>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

namespace tessera::emulator {

/// One line a PE printed through the simprint port (`<simprint>`).
struct PrintedLine {
  uint64_t cycle = 0;
  PECoord pe;
  std::string text;
  bool operator==(const PrintedLine &) const = default;
};

/// How the task picker chooses among several ready tasks (the hardware's
/// order is undocumented; docs/Emulator.md "Tasks").
enum class PickerPolicy : uint8_t {
  RoundRobin, ///< the lowest ready ID above the last one picked, wrapping
  LowestID,   ///< always the lowest ready ID
};

class RankLink;

/// How far a long run has come (EmulatorOptions::onProgress).
struct Progress {
  uint64_t cycle = 0;
  uint64_t activePEs = 0;        ///< PEs awake or computing
  uint64_t waveletsInFlight = 0; ///< in router buffers and delivery queues
};

/// What a run records for pictures and traces (EmulatorOptions::record,
/// docs/Emulator.md "Recording"): only events of PEs in the rectangle
/// [x0, x1] x [y0, y1] that start in cycles [firstCycle, endCycle).
struct RecordOptions {
  unsigned x0 = 0, y0 = 0, x1 = ~0u, y1 = ~0u;
  uint64_t firstCycle = 0, endCycle = UINT64_MAX;
  /// Also every wavelet a CE sends or takes (the most numerous events),
  /// of the colors whose bit is set.
  bool wavelets = true;
  uint32_t waveletColors = ~0u;
};

/// What the main thread ran from `start` up to (not including) `end`.
struct ActivitySpan {
  enum class Kind : uint8_t { Task, ControlEntry, Call };
  PECoord pe;
  Kind kind = Kind::Task;
  /// Task ID, control table entry, or a call's address.
  uint32_t id = 0;
  uint64_t start = 0, end = 0;
  bool operator==(const ActivitySpan &) const = default;
};

/// A DSD operation (or map) on the main thread or a microthread.
struct OperationSpan {
  PECoord pe;
  /// The microthread, or -1 for the main thread.
  int8_t microthread = -1;
  pe::Opcode opcode = pe::Opcode::Invalid;
  uint64_t start = 0, end = 0;
  bool operator==(const OperationSpan &) const = default;
};

/// A wavelet the CE of `pe` sent (injected, or to the host) or took.
struct WaveletRecord {
  uint64_t cycle = 0;
  PECoord pe;
  uint8_t color = 0;
  bool sent = false;
  bool operator==(const WaveletRecord &) const = default;
};

/// Everything recorded, each list by (start or cycle, row, column).
struct RecordedEvents {
  std::vector<ActivitySpan> activities;
  std::vector<OperationSpan> operations;
  std::vector<WaveletRecord> wavelets;
};

struct EmulatorOptions {
  NetworkOptions network;
  PickerPolicy picker = PickerPolicy::RoundRobin;
  /// Pick among ready tasks in a seeded pseudo-random order instead of by
  /// ascending ID, to expose programs that depend on the order.
  std::optional<uint64_t> shuffleSeed;
  /// Called for every simprint line as it completes (they are also kept,
  /// see getPrintedLines).
  std::function<void(const PrintedLine &)> onPrint;
  /// When set, one line per task event goes here as it happens: a task or
  /// call starts or ends, an instruction activates, blocks or unblocks, an
  /// asynchronous operation completes (docs/Emulator.md "Tracing").
  std::ostream *trace = nullptr;
  /// Threads that step the fabric, each a band of rows (docs/Scaling.md).
  /// Results, cycle counts, printed lines, traces and reports are the same
  /// for any number; only wavelet IDs differ (each band numbers its own).
  unsigned threads = 1;
  /// Bands of rows the fabric is cut into; 0: one per thread. Bands beyond
  /// the threads take turns on them (tests use this to check the split).
  unsigned bands = 0;
  /// With more than one rank, this process emulates only its slice of the
  /// rows and meets the others every cycle through `ranks` (RankLink.h,
  /// docs/Scaling.md "Ranks"); every rank must run the same program with
  /// the same options, make the same calls in the same order, and have at
  /// least one row. Not owned.
  RankLink *ranks = nullptr;
  /// Record task, operation and wavelet events (getRecordedEvents); with
  /// ranks, each rank records its rows.
  std::optional<RecordOptions> record;
  /// Called during run() at most every `progressSeconds` of host time
  /// (checked every 64 steps of the clock, reported one cycle later), for
  /// a progress display. With ranks only rank 0 should set it; the
  /// progress it gets counts every rank's PEs.
  std::function<void(const Progress &)> onProgress;
  double progressSeconds = 0.5;
  /// Carry plain transfers between turns (docs/Emulator.md "Transfers
  /// between turns"): the same run with fewer turns. Tests turn it off to
  /// compare; tracing and recording do too.
  bool carryTransfers = true;
  /// Run a main thread's operations on memory, starts of carried
  /// transfers and task exits one after another in one turn while nothing
  /// else can see the PE (docs/Emulator.md "Chained operations"): the same
  /// run with fewer turns. Tests turn it off to compare; tracing and
  /// recording do too.
  bool chainOperations = true;
};

enum class RunStatus : uint8_t {
  Idle,       ///< nothing is pending anywhere
  Stalled,    ///< work is pending but nothing can move: see getDeadlock()
  Faulted,    ///< a PE trapped: see getFault()
  CycleLimit, ///< the cycle budget ran out first
  Reached,    ///< the caller's condition held after a cycle
};

struct RunOutcome {
  RunStatus status = RunStatus::Idle;
  uint64_t cycles = 0; ///< cycles this call ran
};

/// Why a PE stopped (the whole run stops with it).
struct PEFault {
  uint64_t cycle = 0;
  PECoord pe;
  std::string program; ///< its name in out.json
  uint32_t pc = 0;
  std::optional<SourceLocation> location;
  /// Lowercase, e.g. "ld32 of 4 bytes at 0xbffe is outside memory ...".
  std::string message;
};

/// Something that waits and cannot go on, in a deadlock report.
struct WaitRecord {
  PECoord pe;
  std::string program;
  /// What waits and on what, e.g. "main thread in task 10 (local): fmovs
  /// waits for a wavelet on color 3 (element 4 of 8)".
  std::string what;
  std::optional<SourceLocation> location;
};

struct DeadlockReport {
  uint64_t cycle = 0;
  std::vector<WaitRecord> waits;
  std::vector<BufferedWavelet> wavelets;
  /// Router problems that keep wavelets where they are.
  std::vector<RouteError> routeErrors;
};

/// Counters of one PE or, summed, of the fabric.
struct PECounters {
  uint64_t instructions = 0; ///< CE instructions executed (map calls too)
  uint64_t dsdElements = 0;  ///< DSD elements retired (main thread and
                             ///< microthreads)
  uint64_t tasksRun = 0;     ///< tasks picked and entered
  uint64_t busyCycles = 0;   ///< cycles the main thread ran or computed
  /// Cycles the main thread waited on the fabric, a FIFO or a microthread.
  uint64_t stallCycles = 0;
  uint64_t waveletsSent = 0;     ///< wavelets the CE injected
  uint64_t waveletsReceived = 0; ///< wavelets the CE took (tasks and DSDs)
  PECounters &operator+=(const PECounters &other);
  bool operator==(const PECounters &) const = default;
};

/// A PE's state beyond its memory, for core dumps (docs/Debugging.md).
struct PECoreState {
  PECoord pe;
  std::string program;
  std::array<uint32_t, 16> registers{};
  uint32_t pc = 0;
  /// "idle", "running", "operation", "waiting for a microthread",
  /// "faulted".
  std::string mainThread;
  /// What the main thread runs: "task 10", "control table entry 3",
  /// "call 0x0123", or "" when idle.
  std::string activity;
  uint64_t activated = 0, blocked = 0; ///< bit t: task ID t
  /// Busy operations: microthread (-1: the main thread's), mnemonic, and
  /// elements done of how many (UINT64_MAX: unbounded).
  struct Operation {
    int microthread = -1;
    std::string mnemonic;
    uint64_t done = 0, length = 0;
  };
  std::vector<Operation> operations;
  /// Colors with wavelets delivered but not taken: (color, count).
  std::vector<std::pair<uint8_t, uint64_t>> queues;
  PECounters counters;
};

class Emulator {
public:
  /// Loads every PE of `output` (which must outlive the emulator): memory
  /// images, per-PE values, queue bindings, task tables and start-up
  /// actions; start-up calls run first, from cycle 0. Each output host
  /// stream's edge exit is declared; the host feeds and drains the streams
  /// through getNetwork() (injectAtEdge, pollEdgeExit).
  explicit Emulator(const LoadedOutput &output, EmulatorOptions options = {});
  ~Emulator();
  Emulator(const Emulator &) = delete;
  Emulator &operator=(const Emulator &) = delete;

  /// Runs up to `maxCycles` cycles and says why it stopped. With `until`,
  /// also stops (Reached) as soon as it holds, checked before the first
  /// cycle and after each.
  RunOutcome run(uint64_t maxCycles,
                 const std::function<bool()> &until = nullptr);
  /// Runs one cycle; false if the run is over (faulted).
  bool step();

  uint64_t getCycle() const;
  /// Nothing to do: no PE has work and no wavelet is in a router.
  bool isIdle() const;
  const std::optional<PEFault> &getFault() const;
  /// What waits where; meaningful after run() returned Stalled (or at any
  /// time, for a listing of what is pending).
  DeadlockReport getDeadlock() const;

  /// Summed over every PE (with ranks: of every rank, and every rank must
  /// call it, as getNetworkCounters and getDeadlock).
  PECounters getCounters() const;
  /// One PE's; zeros for a PE of another rank.
  PECounters getCounters(unsigned x, unsigned y) const;
  /// Transfer elements this process carried between turns
  /// (EmulatorOptions::carryTransfers): the emulator's own work, not the
  /// program's, for tests and profiles.
  uint64_t getCarriedElements() const;
  /// Operations this process ran ahead in a chain
  /// (EmulatorOptions::chainOperations), also for tests and profiles.
  uint64_t getChainedOperations() const;
  /// Turns this process's PEs took (docs/Emulator.md "The clock and its
  /// cycle"): the emulator's own work, for tests and profiles.
  uint64_t getTurns() const;
  /// Tasks' first batches this process ran ahead beside transfers it
  /// carried, and those of them it took back because they would have
  /// touched the transfers' memory (docs/Emulator.md "Chained
  /// operations"), for tests and profiles.
  uint64_t getFirstBatchesBeside() const;
  uint64_t getFirstBatchesTakenBack() const;
  /// Every PE that runs a program with its counters, in (y, x) order.
  /// With ranks, every rank must call it, and rank 0 gets every rank's
  /// PEs, the others their own (as getLinkCounts and getRecordedEvents).
  std::vector<std::pair<PECoord, PECounters>> getPECounters() const;
  /// The routers' counters summed over every band.
  NetworkCounters getNetworkCounters() const;
  /// Every link that carried a wavelet (Network::getLinkCounts), by row.
  std::vector<LinkCount> getLinkCounts() const;
  /// What EmulatorOptions::record asked for, so far; activities still
  /// running end at the current cycle.
  RecordedEvents getRecordedEvents() const;
  /// This process's bands.
  unsigned getNumBands() const;
  /// Whether this process emulates row `y` (always, without ranks). Host
  /// access to a PE of another rank's rows finds no PE there.
  bool ownsRow(unsigned y) const;
  /// The rank that emulates row `y`: 0 without ranks, and for a row
  /// outside the rectangle.
  unsigned getRankOfRow(unsigned y) const;
  /// The network of the first band: with one band (the default), that of
  /// the whole rectangle.
  const Network &getNetwork() const;
  Network &getNetwork();
  /// The network of the band that holds row `y` (the last band's for rows
  /// past the rectangle, which refuses them): where the host injects at
  /// an edge port or polls an edge exit of that row.
  Network &getNetworkForRow(unsigned y);
  const std::vector<PrintedLine> &getPrintedLines() const;

  //===--------------------------------------------------------------------===//
  // Host access (the host runtime and `tessera-run --dump`)
  //===--------------------------------------------------------------------===//

  /// Copies of a PE's memory; OutOfRange also for a PE without a program.
  MemoryStatus readMemory(unsigned x, unsigned y, uint32_t address,
                          std::span<uint8_t> out) const;
  MemoryStatus writeMemory(unsigned x, unsigned y, uint32_t address,
                           std::span<const uint8_t> bytes);
  /// Queues a top-level call of the function at `address` with `args` in
  /// r0.. (at most 8) on PE (x, y); it runs when the main thread is free,
  /// before any task. False with `error` set on a bad call.
  bool call(unsigned x, unsigned y, uint32_t address,
            std::span<const uint32_t> args, std::string &error);
  /// The block flag of task ID `task` (0..63); false for a PE without a
  /// program. The host's command stream blocks memcpy's task 30 at a launch
  /// and waits until every PE has unblocked it (`unblock_cmd_stream`).
  bool isTaskBlocked(unsigned x, unsigned y, unsigned task) const;
  void setTaskBlocked(unsigned x, unsigned y, unsigned task, bool blocked);
  /// Streaming H2D: puts a wavelet into PE (x, y)'s queue for its color, as
  /// memcpy's routes deliver it; false when the queue is full.
  bool deliver(unsigned x, unsigned y, Wavelet wavelet);
  /// Streaming D2H: wavelets a PE's CE sends on `color` go to the host
  /// instead of its router (memcpy routes that color off the rectangle);
  /// each PE's are kept in order until taken.
  void captureColor(unsigned color);
  /// The wavelets PE (x, y) has sent to the host on `color`, removed.
  std::vector<uint32_t> takeCaptured(unsigned x, unsigned y, unsigned color,
                                     size_t max);
  size_t getCapturedCount(unsigned x, unsigned y, unsigned color) const;
  /// PE (x, y)'s registers, threads, task flags and queues; nullopt for a
  /// PE without a program (or of another rank).
  std::optional<PECoreState> getCoreState(unsigned x, unsigned y) const;
  /// No task or call runs on PE (x, y) and none is pending (a PE without a
  /// program is idle).
  bool isMainThreadIdle(unsigned x, unsigned y) const;

private:
  struct State;
  std::unique_ptr<State> state;
};

/// The report as text, one line per record (docs/Emulator.md shows it).
std::string formatDeadlock(const DeadlockReport &report);
/// "PE (3, 0) 'recv' at pc 0x01a4 (recv.csl:14:5): message".
std::string formatFault(const PEFault &fault);
/// "file:line:col", or "" without a location.
std::string formatLocation(const std::optional<SourceLocation> &location);

} // namespace tessera::emulator

#endif // TESSERA_EMULATOR_EMULATOR_H
