//===- Machine.h - the emulator's state and per-PE steps --------*- C++ -*-===//
//
// The fabric is cut into bands of rows (docs/Scaling.md); a machine::Band
// holds one band's PEs, router network, awake list and timers, with the
// steps a PE takes in a cycle split by concern over Band.cpp (loading,
// waking, faults), Schedule.cpp (a band's cycle), Tasks.cpp (delivery, the
// picker, task control), MainThread.cpp (instructions), Operations.cpp (DSD
// operations and microthreads), ConfigWords.cpp and Deadlock.cpp.
// Emulator::State (Emulator.cpp) holds the bands, steps them in lockstep on
// one thread or several (BandThreads.cpp), and merges what they report.
// Internal.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_MACHINE_MACHINE_H
#define TESSERA_EMULATOR_MACHINE_MACHINE_H

#include "HeldCycles.h"
#include "PE.h"
#include "StartTemplates.h"
#include "TimerQueue.h"

#include "tessera/Emulator/Emulator.h"
#include "tessera/Emulator/RankLink.h"

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace tessera::emulator {

namespace machine {

/// What every band reads and only the host changes, between cycles.
struct SharedState {
  SharedState(const LoadedOutput &output, EmulatorOptions options);

  const LoadedOutput &output;
  const target::TargetModel &model;
  EmulatorOptions options;
  std::vector<ProgramInfo> programs;
  /// The first program that could not be loaded, or "".
  std::string loadError;
  /// Colors memcpy takes to the host (Emulator::captureColor).
  uint32_t hostColors = 0;
};

/// A trace line waiting to be written in the order of docs/Emulator.md
/// "Tracing" (cycle, then PE), whichever band wrote it.
struct TraceLine {
  uint64_t cycle = 0;
  PECoord pe;
  std::string text;
};

/// Rows [firstRow, endRow) of the rectangle: their PEs and routers.
class Band {
public:
  Band(const SharedState &shared, unsigned firstRow, unsigned endRow);

  const SharedState &shared;
  const LoadedOutput &output;
  const target::TargetModel &model;
  const EmulatorOptions &options;
  const std::vector<ProgramInfo> &programs;
  const uint32_t &hostColors;
  const unsigned firstRow, endRow;
  Network network;
  /// The PEs that run a program, in (y, x) order.
  std::vector<PE, LargeAllocator<PE>> pes;
  /// Per position of the band ((y - firstRow) * width + x): index into
  /// pes, or -1.
  std::vector<int32_t> peIndex;
  /// PEs to visit this cycle; a PE leaves when it has nothing to do and
  /// comes back when a wavelet is delivered to it or the host calls it.
  std::vector<uint32_t> awake;
  /// The PEs taking a turn in the current cycle (stepCycle).
  std::vector<uint32_t> turn;
  /// PEs asleep until a cycle (computing), by cycle then PE index.
  TimerQueue timers;
  std::vector<std::pair<uint64_t, uint32_t>> dueTimers; ///< runPEs' scratch
  DSDEngine engine;
  /// Finished operations, reused so that starting one does not allocate:
  /// those without operand slots of their own, and those with
  /// (DSDOperation::ownsSlots), kept apart so that starts copied from a
  /// template (which read the template's slots) take the former and other
  /// starts the latter, and no more operations than need them own slots.
  std::vector<FlightPtr> spareFlights, spareOwningFlights;
  FlightArena flights;
  /// Operation starts that PEs with the same DSRs and registers copy.
  StartTemplates startTemplates;
  /// Transfers carried between turns (Streams.cpp): the PEs with a
  /// carried send or a delivery for a carried receive, each once
  /// (streamPEsNow: runStreams' scratch), and every PE that has had a
  /// carried transfer since settleStreams last ran.
  std::vector<uint32_t> streamPEs, streamPEsNow, streamingPEs;
  /// Carried sends, and carried receives with a delivery to take.
  size_t liveSends = 0, readyReceives = 0;
  /// Main threads' moves carried (MainStreams.cpp): while there are none,
  /// as in a halo exchange, the streams' cycle does not look for them.
  size_t carriedMainMoves = 0;
  /// The cycle after the last one in which a carried receive of a
  /// microthread looks at its queue whether or not a wavelet came, as its
  /// turn would after its start or an element: until then the band is not
  /// quiet, as its PE would be awake. A look that finds a wavelet is a
  /// delivery's work; one that finds none changes nothing but that.
  uint64_t lookEnd = 0;
  /// Transfers a chain started ahead (PE::laterMicrothreads), as PE index
  /// << 3 | microthread, by the cycle after their start, when beginStreams
  /// lets the streams take them up (dueStarts: its scratch).
  TimerQueue streamStarts;
  std::vector<std::pair<uint64_t, uint32_t>> dueStarts;
  /// Carrying transfers is on (EmulatorOptions::carryTransfers), and
  /// neither tracing nor recording, whose events come from turns, is.
  bool streamsEnabled = false;
  /// Chaining operations is on (EmulatorOptions::chainOperations), and
  /// neither tracing nor recording is.
  bool chainEnabled = false;
  /// Chained operations start before this cycle, the last one the current
  /// Emulator::run may reach (0 while the host steps or waits on a
  /// condition, which may look at the PEs between any two cycles).
  uint64_t chainLimit = 0;
  /// Operations run ahead in chains (Emulator::getChainedOperations).
  uint64_t chainedOperations = 0;
  /// Tasks' first batches tried ahead beside carried transfers
  /// (runMainThread), and those left to their turns (runRegisterBatch
  /// declined them: TransferGuard refused an access, or they fault).
  uint64_t firstBatchesBeside = 0, firstBatchesTakenBack = 0;
  /// A chain is running (runChainAhead's loop, which those it calls into
  /// leave the rest to, so that a long chain does not nest).
  bool inChain = false;
  /// While a main thread runs ahead (runMainThreadAhead), `cycle` is that
  /// of the turn it runs, and this the cycle the band is at.
  bool runningAhead = false;
  uint64_t bandCycle = 0;
  /// Turns PEs took (Emulator::getTurns).
  uint64_t turns = 0;
  /// The cycles holdClock holds (those beyond its ring are timers of no
  /// PE, index pes.size()).
  HeldCycles heldCycles;
  /// Elements the streams moved (Emulator::getCarriedElements).
  uint64_t carriedElements = 0;
  /// A spare operation (one of the matching kind if there is one), or a
  /// new one; `owning` for a start that fills operand slots of its own.
  FlightPtr takeFlight(bool owning);
  void recycle(FlightPtr &flight);
  /// This band's earliest fault by (cycle, y, x), so that the one reported
  /// does not depend on the order PEs take their turns or on the split.
  std::optional<PEFault> fault;
  /// Lines printed since Emulator::State last collected them.
  std::vector<PrintedLine> printed;
  /// Trace lines since Emulator::State last wrote them.
  std::vector<TraceLine> traced;
  /// Recorded events of this band's PEs (EmulatorOptions::record).
  RecordedEvents recorded;
  uint64_t cycle = 0;
  /// Something happened in the current cycle (an instruction, an element,
  /// a task switch, a wavelet taken, or time spent computing).
  bool progressed = false;

  // Band.cpp
  /// Start-up actions and per-PE values; call once the band is in place.
  void load();
  PE *findPE(unsigned x, unsigned y);
  const PE *findPE(unsigned x, unsigned y) const;
  bool contains(unsigned y) const { return y >= firstRow && y < endRow; }
  const ProgramInfo &programOf(const PE &pe) const {
    return programs[pe.program];
  }
  void wake(PE &pe) {
    if (pe.awake || pe.state == MainState::Faulted)
      return;
    pe.awake = true;
    awake.push_back(static_cast<uint32_t>(&pe - pes.data()));
  }
  /// Wakes the PE at cycle `at` (after this one) unless a timer wakes it
  /// sooner; its turn then sets what it needs next.
  void wakeAt(PE &pe, uint64_t at) {
    if (pe.timerAt && pe.timerAt <= at)
      return;
    pe.timerAt = at;
    timers.push(at, static_cast<uint32_t>(&pe - pes.data()));
  }
  /// Stops the PE and the run with `message` at `pc`, in cycle `at` (the
  /// current one unless a scalar batch ran ahead).
  void fail(PE &pe, uint32_t pc, std::string message,
            std::optional<uint64_t> at = std::nullopt);
  bool hasWork(const PE &pe) const;
  /// Once nothing is awake: wavelets nobody takes, or tasks activated but
  /// blocked.
  bool hasLeftovers() const;
  /// Nothing awake, no timer, no wavelet moving (outboxes included).
  bool isQuiet() const;

  // Schedule.cpp
  /// After a PE's turn: keeps it awake, puts it on a timer, or lets it
  /// sleep until a wavelet arrives or a host call.
  void reschedule(PE &pe);
  /// A main thread that returned or exited ahead of its turn at cycle `at`
  /// (a batch run ahead, a chain) would still have taken that turn: until
  /// then the band has a timer (of no PE), so that the clock gets there
  /// and the run counts as progressing, as with the turn.
  void holdClock(uint64_t at);
  /// A PE's timer or holdClock's is pending (at this cycle or later).
  bool hasTimer() const;
  /// The cycle of the band's next timer, if it has one.
  std::optional<uint64_t> nextTimer() const;
  /// Moves the clock `cycles` ahead when nothing can happen before; false
  /// (nothing done) if the network is not idle.
  bool skipCycles(uint64_t cycles);
  /// A cycle's first half: the PEs take their turns.
  void runPEs();
  /// Its second half: the routers move wavelets, deliveries wake PEs,
  /// teardowns start, and the clock moves on.
  void stepNetwork();

  // Tasks.cpp
  /// What the CE does with the control wavelet at the head of the delivery
  /// queue of `color`, if there is one: the rule both takeControlWavelets
  /// and the scheduler apply.
  enum class ControlHead : uint8_t {
    None,    ///< no control wavelet, or it must wait (gate, pending task)
    Drop,    ///< entry point 31: taken and dropped
    Take,    ///< activates its control task
    NoEntry, ///< names a task with no entry: a fault
  };
  /// `slot` receives the task slot the wavelet activates (Take, NoEntry).
  ControlHead classifyControlHead(const PE &pe, unsigned color,
                                  std::optional<Wavelet> &head,
                                  unsigned *slot = nullptr) const;
  /// Control wavelets at the head of delivery queues activate their tasks;
  /// queues being flushed activate the teardown task once empty. Every
  /// turn calls it, and most have neither: the test is inline.
  void takeControlWavelets(PE &pe) {
    if ((pe.deliveredColors & pe.controlColors) || pe.flushQueues)
      takeWaitingControl(pe);
  }
  void takeWaitingControl(PE &pe);
  /// Moves the argument a control wavelet left for task slot `slot` to r0.
  void takeControlArgument(PE &pe, unsigned slot);
  /// Starts entry `entry` of the separate control task table.
  bool startControlTableTask(PE &pe, unsigned entry);
  /// Ready task IDs: activated (or with a data wavelet waiting) and not
  /// blocked.
  uint64_t readyTasks(const PE &pe) const;
  /// A task of either table is ready to be picked.
  bool hasReadyTask(const PE &pe) const {
    return readyTasks(pe) != 0 || (pe.tablePending & ~pe.tableBlocked) != 0;
  }
  /// Starts a pending call or the next ready task; false if there is none.
  bool pickWork(PE &pe);
  /// block/unblock of one ID in one block space.
  void setBlocked(PE &pe, pe::BlockSpace space, unsigned id, bool blocked);
  void activate(PE &pe, unsigned task);
  void onTeardown(PE &pe, unsigned color);

  // MainThread.cpp
  /// `firstBatch`: the turn is run ahead of its cycle for a task's first
  /// batch, which leaves a trap or return to the turn in its own cycle.
  void runMainThread(PE &pe, bool firstBatch = false);
  /// The main thread's turn in cycle pe.readyAt, run now (the clock set
  /// to that cycle for the while).
  void runMainThreadAhead(PE &pe, bool firstBatch);
  /// Runs the batch the main thread's turn at pe.readyAt would run, now,
  /// if it touches only registers and DSRs (scalar instructions without
  /// loads or stores, and prebuilt DSR builders), which nothing else reads
  /// or writes in the meantime (right after an asynchronous start, and in
  /// a chain), and memory where mayTouchMemoryAhead allows; false if it
  /// did not run (it may be empty).
  bool runRegisterBatch(PE &pe);
  /// A batch run ahead may load and store too, guarded (TransferGuard):
  /// when chaining, in a task (not a call or a map's function), in a turn
  /// the run reaches, beside no microthread the band does not carry. A
  /// task's first batch beside carried transfers runs so too.
  bool mayTouchMemoryAhead(const PE &pe) const;
  /// After the main thread's turn or an operation it ran ahead: what
  /// follows up to the next instruction a chain may run (classifyNext),
  /// and that instruction, run ahead too, and so on (docs/Emulator.md
  /// "Chained operations").
  void runChainAhead(PE &pe);
  /// What a chain may run ahead of the main thread's next instruction,
  /// `decoded`: a quiet operation; a task's exit; the start of a transfer
  /// the band will carry (mayStartAhead).
  enum class ChainStep : uint8_t { None, Operation, Start, Exit, Activate };
  ChainStep classifyNext(PE &pe, const DecodedInst &decoded);
  /// `kept`, a template of the next instruction that the band would carry
  /// (StartTemplate::isCarried), may start ahead of its cycle, pe.readyAt:
  /// its microthread is free, and no operation of the PE can write a DSR
  /// before then, so the start reads what it would read then
  /// (docs/Emulator.md "Chained operations").
  bool mayStartAhead(const PE &pe, const StartTemplate &kept,
                     const DecodedInst &decoded) const;
  /// No busy microthread's operation can write its address back to a DSR
  /// (save-address) at or before cycle `at`.
  bool writesNoDSRBy(const PE &pe, uint64_t at) const;
  /// The cycle the band is at, also while a main thread runs ahead.
  uint64_t getBandCycle() const { return runningAhead ? bandCycle : cycle; }

  // Operations.cpp
  /// WSE-2: starting `inst` would size a color's delivery queue by the
  /// input queue a fabin of it names (done once per color).
  bool wouldSizeQueue(const PE &pe, const pe::Instruction &inst) const;
  /// Starts the DSD operation at the main thread's pc.
  void startOperation(PE &pe, const pe::Instruction &inst);
  /// Continues the main thread's operation for this cycle.
  void continueOperation(PE &pe);
  void runMicrothreads(PE &pe);
  /// Runs an operation on memory only to its end and sets its readyAt from
  /// its cost; false if it trapped (the PE has failed).
  bool runWhole(PE &pe, Flight &flight);
  /// One cycle's worth of an interactive operation.
  DSDProgress advance(PE &pe, Flight &flight);
  /// An operation that blocked on the fabric would block again now with
  /// no effect (its delivery queue is still empty, its inject buffer still
  /// full): a cheap test that spares most retries the operation's run.
  bool wouldBlockAgain(const PE &pe, const Flight &flight) const;
  /// Completion effects: activate, unblock, advance_switch.
  void complete(PE &pe, Flight &flight);

  // Streams.cpp
  /// Puts the PE on streamPEs if it is not there.
  void listStreamPE(PE &pe) {
    if (!pe.streamListed) {
      pe.streamListed = true;
      streamPEs.push_back(static_cast<uint32_t>(&pe - pes.data()));
    }
  }
  /// Marks a carried receive ready to take a delivered wavelet: `bit` of
  /// `ready`, which is PE::readyStreams (a microthread's) or PE::mainStream
  /// (MainStreamReady), counted in readyReceives. Nothing if it is already.
  void markReceiveReady(PE &pe, uint8_t &ready, uint8_t bit) {
    if (ready & bit)
      return;
    ready |= bit;
    ++readyReceives;
    listStreamPE(pe);
  }
  /// Streamed transfers have work in the next cycle: the PEs would have
  /// been awake.
  bool hasStreamWork() const {
    return liveSends != 0 || readyReceives != 0 || lookEnd > cycle;
  }
  /// The color a plain move's wavelets go on or come from.
  uint8_t colorOfMove(const PE &pe, const Flight &flight) const;
  /// Microthread `ut`'s plain move may run apart from the PE's other
  /// operations; those of `knownApart` are known to.
  bool mayStreamBeside(const PE &pe, unsigned ut, uint8_t knownApart) const;
  /// Microthread `ut`'s operation, just started or just run this cycle in
  /// the PE's turn, goes on between turns if it is a plain move with two
  /// elements or more left that may run apart from the others (those of
  /// `knownApart` do: onOperationBeside has just compared them).
  /// `looksNext`: the microthread's turn in the next cycle would try its
  /// receive whether or not a wavelet came (it has just started, or
  /// just taken an element): the band is not quiet before then.
  void tryStream(PE &pe, unsigned ut, bool looksNext, uint8_t knownApart = 0);
  /// What dropStream cleared.
  enum class DroppedStream : uint8_t { Send, Receive, ReceiveWithDelivery };
  /// Clears microthread `ut`'s carried state (flags and the band's
  /// counts); the caller hands what it held to the turns or completes it.
  DroppedStream dropStream(PE &pe, unsigned ut);
  /// Gives the streamed transfers among `threads` back to the PE's turns,
  /// with any delivery a receive had not taken yet.
  void unstream(PE &pe, uint8_t threads);
  /// An interactive operation has started on microthread `ut`: the PE's
  /// streamed transfers go back to its turns unless it may run apart from
  /// them. Returns those that stay streamed because it may.
  uint8_t onOperationBeside(PE &pe, unsigned ut);
  /// A delivery of `color` to the PE (stepNetwork): true when a streamed
  /// receive takes it, false when the PE's turn must.
  bool takeStreamDelivery(PE &pe, unsigned color, bool control);
  /// Done: its queue is empty, and the receive waits for a delivery;
  /// MoreWaiting: it took a wavelet and another waits; Completed: it took
  /// the last (its flags are cleared already).
  enum class StreamStep : uint8_t { Done, MoreWaiting, GiveBack, Completed };
  /// A carried move's last element may complete it between turns: its
  /// completion only activates a task, if anything.
  static bool mayCompleteApart(const Flight &flight);
  /// Completes microthread `ut`'s carried move after its last element, as
  /// the turn would, and wakes the PE if that turn would have done more.
  void completeStream(PE &pe, unsigned ut);
  /// Before the streams' cycle: the transfers a chain started ahead whose
  /// cycle has passed join the streams.
  void beginStreams();
  /// The streams' cycle, before any turn; false or GiveBack: the transfer
  /// goes back to the PE's turn, which does this cycle's work instead.
  /// A send completed by its last element returns true.
  bool stepSendStream(PE &pe, unsigned ut);
  StreamStep stepReceiveStream(PE &pe, unsigned ut);
  /// What a carried send did in its cycle: sent its next element; found
  /// no room (it tries again in the next cycle); or found an element it
  /// may not read (the turn faults).
  enum class SendStep : uint8_t { Sent, Waiting, GiveBack };
  /// What a carried receive found in its cycle: a wavelet it took; an
  /// empty queue; or what the turn must take (a control wavelet, or an
  /// element it may not write), with nothing done.
  enum class ReceiveStep : uint8_t { Taken, Empty, GiveBack };
  /// The element moves both kinds of carried transfer share: a send's
  /// next element into the inject buffer of `color`, and the head of the
  /// delivery queue of `color` into a receive (`nowEmpty`: the queue is
  /// left empty).
  SendStep sendCarriedElement(PE &pe, Flight &flight, uint8_t color);
  ReceiveStep receiveCarriedElement(PE &pe, Flight &flight, uint8_t color,
                                    bool &nowEmpty);
  void runStreams();
  /// Fetches what the carried transfers of streamPEsNow's PEs read, a
  /// few PEs after the i-th (`withMain`: main threads' moves too).
  void prefetchStreams(size_t i, bool withMain);
  /// Every transfer back to the turns, as if none had been carried:
  /// before the host looks.
  void settleStreams();

  // MainStreams.cpp
  /// The main thread's synchronous operation, just run in the PE's turn
  /// (which moved an element if `moved`), goes on between turns if it is
  /// a plain move with two elements or more left and no microthread of
  /// the PE is busy.
  void tryStreamMain(PE &pe, bool moved);
  /// Clears the main thread's carried state (flags and the band's counts),
  /// as dropStream does a microthread's.
  DroppedStream dropMainStream(PE &pe);
  /// Gives the main thread's carried move back to the PE's turns, with
  /// any delivery it had not taken yet.
  void unstreamMain(PE &pe);
  /// A delivery of the main thread's carried receive's color: as
  /// takeStreamDelivery.
  bool takeMainStreamDelivery(PE &pe, bool control);
  /// The main thread's carried move in the streams' cycle.
  void runMainStream(PE &pe);

  // ConfigWords.cpp
  uint16_t readConfig(PE &pe, uint32_t address);
  void writeConfig(PE &pe, uint32_t address, uint16_t value);

  // Deadlock.cpp
  /// Adds what waits on this band's PEs to `report`.
  void describeWaits(DeadlockReport &report) const;

  // Trace.cpp
  /// Whether events of `pe` starting now are recorded.
  bool records(const PE &pe) const;
  /// The main thread's activity (a task, control table entry or call that
  /// started at pe.activityStart) as a span ending with this cycle, if it
  /// is recorded.
  std::optional<ActivitySpan> spanOfActivity(const PE &pe) const;
  /// Records the end of the main thread's activity.
  void recordActivity(const PE &pe);
  void recordOperation(const PE &pe, const Flight &flight, uint64_t end);
  void recordWavelet(const PE &pe, uint8_t color, bool sent);
  /// Keeps "cycle C PE (x, y): WHAT [at FILE:LINE:COL]" for options.trace;
  /// callers test options.trace first so that building WHAT costs nothing
  /// in untraced runs.
  void trace(const PE &pe, std::optional<uint32_t> pc, const std::string &what);
};

class BandThreads;

} // namespace machine

/// What decides the run after a cycle, over every band of every rank.
struct CycleSummary {
  uint8_t fault = 0;      ///< some band has a fault
  uint8_t canSkip = 0;    ///< nothing awake, no wavelet moving
  uint8_t timers = 0;     ///< some PE sleeps on a timer
  uint8_t progressed = 0; ///< something happened in the last cycle
  /// A progress line is due (the host's clock, on rank 0, said so): every
  /// rank then contributes its PEs to it.
  uint8_t progressDue = 0;
  uint64_t nextTimer = UINT64_MAX;
  uint64_t printed = 0, traced = 0; ///< lines not yet collected
  bool isQuiet() const { return canSkip && !timers; }
};

struct Emulator::State {
  State(const LoadedOutput &output, EmulatorOptions options);
  ~State();

  machine::SharedState shared;
  /// With ranks: how to reach them. Null for a process of the whole
  /// rectangle.
  RankLink *link = nullptr;
  /// The rows this process models (all without ranks).
  unsigned firstRow = 0, endRow = 0;
  /// With ranks: the first row of each rank, then the end of the last.
  std::vector<unsigned> rankSlices;
  /// Ranks beyond the first and last band (rows go on there).
  bool northRank = false, southRank = false;
  /// In row order; one covering the whole rectangle unless options ask
  /// for more.
  std::vector<std::unique_ptr<machine::Band>> bands;
  /// Per row of the rectangle: its band (rows of this process only).
  std::vector<uint32_t> bandOfRow;
  /// What crossed each band's north and south sides in the last step, for
  /// the neighbour to accept (docs/Scaling.md).
  std::vector<std::vector<BoundaryWavelet>> outboxNorth, outboxSouth;
  /// What each band offers the neighbour beyond each side.
  std::vector<BoundaryView> viewNorth, viewSouth;
  /// The same from the neighbouring ranks: what they sent across in the
  /// last step, and what they offer this cycle.
  std::vector<BoundaryWavelet> rankOutboxNorth, rankOutboxSouth;
  BoundaryView rankViewNorth, rankViewSouth;
  /// Present when more than one thread steps the bands.
  std::unique_ptr<machine::BandThreads> threads;
  uint64_t cycle = 0;
  std::optional<PEFault> fault;
  std::vector<PrintedLine> printed;
  /// Of every rank, as of the last refreshSummary.
  mutable CycleSummary summary;
  /// The progress interval has passed here; the next summary tells every
  /// rank.
  bool progressDue = false;

  bool ownsRow(unsigned y) const { return y >= firstRow && y < endRow; }
  machine::Band &bandOf(unsigned y) { return *bands[bandOfRow[y]]; }
  const machine::Band &bandOf(unsigned y) const { return *bands[bandOfRow[y]]; }
  /// One of a band's counts of its own work, summed over the bands.
  uint64_t sumOverBands(uint64_t machine::Band::*count) const {
    uint64_t sum = 0;
    for (const auto &band : bands)
      sum += (*band).*count;
    return sum;
  }
  machine::PE *findPE(unsigned x, unsigned y);
  const machine::PE *findPE(unsigned x, unsigned y) const;

  /// Puts into band `index`'s boundary buffers what its neighbours (bands
  /// or ranks) sent across in the last step.
  void acceptIncoming(size_t index);
  /// Band `index`'s half of a cycle: first takes what its neighbours sent
  /// in the last step, runs its PEs and publishes its views; second steps
  /// its network against the neighbours' views and keeps its outboxes.
  void runFirstHalf(size_t index);
  void runSecondHalf(size_t index);
  /// Both halves on every band (with the ranks' exchanges between), then
  /// refreshSummary and collect.
  void stepCycle();
  /// Band::chainLimit of every band.
  void setChainLimit(uint64_t limit);
  /// Trades views (after the first half) or outboxes (after the second)
  /// with the neighbouring ranks.
  void exchangeViews();
  void exchangeOutboxes();
  /// Puts what crossed band boundaries in the last step into the
  /// neighbours' buffers now, as the next cycle would first: done before
  /// the host looks, so that every wavelet is in a router.
  void settle();
  /// Sets `summary` from every band of every rank (a collective call with
  /// ranks).
  void refreshSummary() const;
  /// Collects the bands' faults, printed lines and trace lines in the
  /// order that does not depend on the split: (cycle, y, x). With ranks,
  /// a collective call after refreshSummary.
  void collect();
  /// Moves the lines every band keeps in `kept` (of every rank) to the end
  /// of `into`, band after band.
  template <typename Line>
  void takeLines(std::vector<Line> machine::Band::*kept,
                 std::vector<Line> &into);
  /// Pending work once quiet, on any rank (collective with ranks).
  bool hasLeftovers() const;
  /// Moves the clock to the next timer when nothing else can happen in
  /// between, at most `limit` cycles; returns the cycles skipped.
  uint64_t skipToNextTimer(uint64_t limit);
  /// This process's part of the run's progress.
  Progress getProgress() const;
  /// The run's progress over every rank; all ranks call it together.
  Progress gatherProgress() const;
  /// Every rank's `bytes`, in rank order (just `bytes` without ranks).
  std::vector<std::vector<uint8_t>>
  gather(const std::vector<uint8_t> &bytes) const;
  /// The same on rank 0 only; the other ranks get nothing.
  std::vector<std::vector<uint8_t>>
  gatherToFirst(const std::vector<uint8_t> &bytes) const;
};

} // namespace tessera::emulator

#endif // TESSERA_EMULATOR_MACHINE_MACHINE_H
