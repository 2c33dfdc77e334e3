//===- Machine.h - the emulator's state and per-PE steps --------*- C++ -*-===//
//
// Emulator::State: every PE, the network and the clock, with the steps a PE
// takes in a cycle split by concern over Emulator.cpp (loading, the cycle
// loop, host access), Tasks.cpp (delivery, the picker, task control),
// MainThread.cpp (instructions), Operations.cpp (DSD operations and
// microthreads), ConfigWords.cpp and Deadlock.cpp. Internal.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_MACHINE_MACHINE_H
#define TESSERA_EMULATOR_MACHINE_MACHINE_H

#include "PE.h"

#include "tessera/Emulator/Emulator.h"

#include <functional>
#include <optional>
#include <queue>
#include <string>
#include <vector>

namespace tessera::emulator {

struct Emulator::State {
  State(const LoadedOutput &output, EmulatorOptions options);

  const LoadedOutput &output;
  const target::TargetModel &model;
  EmulatorOptions options;
  Network network;
  std::vector<machine::ProgramInfo> programs;
  /// The PEs that run a program, in (y, x) order.
  std::vector<machine::PE> pes;
  /// Per rectangle position (y * width + x): index into pes, or -1.
  std::vector<int32_t> peIndex;
  /// PEs to visit this cycle; a PE leaves when it has nothing to do and
  /// comes back when a wavelet is delivered to it or the host calls it.
  std::vector<uint32_t> awake;
  /// The PEs taking a turn in the current cycle (stepCycle).
  std::vector<uint32_t> turn;
  /// PEs asleep until a cycle (computing), by cycle then PE index.
  std::priority_queue<std::pair<uint64_t, uint32_t>,
                      std::vector<std::pair<uint64_t, uint32_t>>,
                      std::greater<>>
      timers;
  DSDEngine engine;
  /// Finished operations (~2 KB each), reused so that starting one does not
  /// allocate.
  std::vector<std::unique_ptr<machine::Flight>> spareFlights;
  std::unique_ptr<machine::Flight> takeFlight();
  void recycle(std::unique_ptr<machine::Flight> &flight);
  std::optional<PEFault> fault;
  std::vector<PrintedLine> printed;
  uint64_t cycle = 0;
  /// Colors memcpy takes to the host (Emulator::captureColor).
  uint32_t hostColors = 0;
  /// Something happened in the current cycle (an instruction, an element,
  /// a task switch, a wavelet taken, or time spent computing).
  bool progressed = false;

  // Emulator.cpp
  machine::PE *findPE(unsigned x, unsigned y);
  const machine::PE *findPE(unsigned x, unsigned y) const;
  const machine::ProgramInfo &programOf(const machine::PE &pe) const {
    return programs[pe.program];
  }
  void wake(machine::PE &pe);

  /// After a PE's turn: keeps it awake, puts it on a timer, or lets it
  /// sleep until a wavelet arrives or a host call.
  void reschedule(machine::PE &pe);
  /// Moves the clock to the next timer when nothing else can happen in
  /// between, at most `limit` cycles; returns the cycles skipped.
  uint64_t skipToNextTimer(uint64_t limit);
  void stepCycle();
  /// Stops the PE and the run with `message` at `pc`.
  void fail(machine::PE &pe, uint32_t pc, std::string message);
  bool hasWork(const machine::PE &pe) const;
  /// Once nothing is awake: wavelets nobody takes, or tasks activated but
  /// blocked.
  bool hasLeftovers() const;

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
  ControlHead classifyControlHead(const machine::PE &pe, unsigned color,
                                  std::optional<Wavelet> &head,
                                  unsigned *slot = nullptr) const;
  /// Control wavelets at the head of delivery queues activate their tasks;
  /// queues being flushed activate the teardown task once empty.
  void takeControlWavelets(machine::PE &pe);
  /// Moves the argument a control wavelet left for task slot `slot` to r0.
  void takeControlArgument(machine::PE &pe, unsigned slot);
  /// Starts entry `entry` of the separate control task table.
  bool startControlTableTask(machine::PE &pe, unsigned entry);
  /// Ready task IDs: activated (or with a data wavelet waiting) and not
  /// blocked.
  uint64_t readyTasks(const machine::PE &pe) const;
  /// A task of either table is ready to be picked.
  bool hasReadyTask(const machine::PE &pe) const {
    return readyTasks(pe) != 0 || (pe.tablePending & ~pe.tableBlocked) != 0;
  }
  /// Starts a pending call or the next ready task; false if there is none.
  bool pickWork(machine::PE &pe);
  /// block/unblock of one ID in one block space.
  void setBlocked(machine::PE &pe, pe::BlockSpace space, unsigned id,
                  bool blocked);
  void activate(machine::PE &pe, unsigned task);
  void onTeardown(machine::PE &pe, unsigned color);

  // MainThread.cpp
  void runMainThread(machine::PE &pe);

  // Operations.cpp
  /// Starts the DSD operation at the main thread's pc.
  void startOperation(machine::PE &pe, const pe::Instruction &inst);
  /// Continues the main thread's operation for this cycle.
  void continueOperation(machine::PE &pe);
  void runMicrothreads(machine::PE &pe);
  /// Runs an operation on memory only to its end and sets its readyAt from
  /// its cost; false if it trapped (the PE has failed).
  bool runWhole(machine::PE &pe, machine::Flight &flight);
  /// One cycle's worth of an interactive operation.
  DSDProgress advance(machine::PE &pe, machine::Flight &flight);
  /// Completion effects: activate, unblock, advance_switch.
  void complete(machine::PE &pe, machine::Flight &flight);

  // ConfigWords.cpp
  uint16_t readConfig(machine::PE &pe, uint32_t address);
  void writeConfig(machine::PE &pe, uint32_t address, uint16_t value);

  // Deadlock.cpp
  DeadlockReport describeWaits() const;

  // Trace.cpp
  /// Writes "cycle C PE (x, y): WHAT [at FILE:LINE:COL]" to options.trace;
  /// callers test options.trace first so that building WHAT costs nothing
  /// in untraced runs.
  void trace(const machine::PE &pe, std::optional<uint32_t> pc,
             const std::string &what) const;
};

} // namespace tessera::emulator

#endif // TESSERA_EMULATOR_MACHINE_MACHINE_H
