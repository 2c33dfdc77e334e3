//===- MainThread.cpp - the main thread's instructions --------------------===//
//
// Scalar instructions run in batches: a PE executes up to ScalarBatch of
// them at once and is then busy for as many cycles, so the clock counts one
// cycle each while the emulator pays the per-cycle overhead once per batch.
// A batch stops before any other instruction, which therefore runs at its
// exact cycle (docs/Emulator.md "The clock").
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include "tessera/Emulator/FabricMoves.h"

#include <algorithm>
#include <array>
#include <bit>
#include <utility>

using namespace tessera;
using namespace tessera::emulator;
using namespace tessera::emulator::machine;

namespace {

constexpr uint64_t ScalarBatch = 64;

/// The number a TaskRef operand names, or none if it is not 0..63.
std::optional<unsigned> taskRefValue(const pe::Operand &op, const CEState &ce) {
  uint32_t value = op.mode == pe::OperandMode::Reg ? ce.r[op.value & 15]
                                                   : uint32_t(op.value);
  if (value >= NumTaskIDs)
    return std::nullopt;
  return value;
}

uint32_t regOrImm(const pe::Operand &op, const CEState &ce) {
  return op.mode == pe::OperandMode::Reg ? ce.r[op.value & 15]
                                         : uint32_t(op.value);
}

std::string_view blockSpaceName(pe::BlockSpace space) {
  switch (space) {
  case pe::BlockSpace::Task:
    return "task";
  case pe::BlockSpace::Color:
    return "color";
  case pe::BlockSpace::InputQueue:
    return "input queue";
  case pe::BlockSpace::OutputQueue:
    return "output queue";
  case pe::BlockSpace::UT:
    return "microthread";
  case pe::BlockSpace::ControlTask:
    return "control task";
  }
  return "ID";
}

/// The loads and stores of a batch run ahead of its turn (a task's first
/// batch, a chain's) while the band may carry the PE's transfers, which go
/// on meanwhile: it refuses any in the bytes their remaining elements read
/// or write, and config words and faults (the turn's), and keeps what each
/// store overwrote, so that a refused batch can be taken back whole. It
/// looks at the PE at the batch's first load or store, which most batches
/// have none of, and refuses them all where the band may not touch memory
/// ahead (Band::mayTouchMemoryAhead).
class TransferGuard final : public MemoryGuard {
public:
  TransferGuard(const Band &band, PE &pe)
      : band(band), pe(pe), memory(pe.memory) {}
  bool allows(uint32_t address, unsigned width, bool store) override {
    if (!ready) {
      if (!band.mayTouchMemoryAhead(pe))
        return false;
      for (uint8_t threads = pe.getBusyMicrothreads(); threads;
           threads &= threads - 1) {
        auto [first, end] = DSDEngine::getPlainMoveSpan(
            pe.microthreads[std::countr_zero(threads)]->op);
        spans[numSpans++] = {first, end};
      }
      ready = true;
    }
    int64_t first = address, end = first + width;
    if (end > int64_t(PEMemory::Size))
      return false;
    for (unsigned i = 0; i < numSpans; ++i)
      if (first < spans[i].end && end > spans[i].first)
        return false;
    if (store) {
      if (numStores == stores.size())
        return false;
      Store &kept = stores[numStores++];
      kept.address = address;
      kept.width = uint8_t(width);
      memory.read(address, {kept.bytes.data(), width});
    }
    return true;
  }
  /// Puts back what the batch's stores overwrote, last first.
  void takeBack() {
    while (numStores) {
      const Store &kept = stores[--numStores];
      memory.write(kept.address, {kept.bytes.data(), kept.width});
    }
  }

private:
  // No initialisers: a guard is made for each such batch, and fills what
  // it reads.
  struct Store {
    uint32_t address;
    uint8_t width;
    std::array<uint8_t, 4> bytes;
  };
  struct Span {
    int64_t first, end;
  };
  const Band &band;
  PE &pe;
  PEMemory &memory;
  bool ready = false;
  std::array<Span, 8> spans;
  unsigned numSpans = 0;
  std::array<Store, ScalarBatch> stores;
  size_t numStores = 0;
};

/// Runs scalar instructions from ce.pc, and the prebuilt DSR builders
/// among them (each one step, handed to `onBuilder`), until `maxSteps`
/// have run (Continue) or another instruction stops the scalar core: an
/// operation or task control (NotScalar, at that instruction), a fault, a
/// return or a refused access.
template <typename OnBuilder>
RunResult runScalarAndBuilders(const ProgramInfo &info, CEState &ce,
                               PEMemory &memory, uint64_t maxSteps, Trap &trap,
                               ConfigPort *config, MemoryGuard *guard,
                               OnBuilder onBuilder) {
  struct Builders final : InstructionTaker {
    const ProgramInfo &info;
    OnBuilder &onBuilder;
    Builders(const ProgramInfo &info, OnBuilder &onBuilder)
        : info(info), onBuilder(onBuilder) {}
    bool take(const DecodedInst &inst) override {
      const PrebuiltDSR *builder = info.findPrebuilt(inst);
      if (!builder)
        return false;
      onBuilder(*builder);
      return true;
    }
  } builders(info, onBuilder);
  return emulator::run(ce, memory, info.code, maxSteps, trap, config, guard,
                       &builders);
}

} // namespace

Band::ChainStep Band::classifyNext(PE &pe, const DecodedInst &decoded) {
  // In a map call, the operation and the return are map's.
  if (pe.inMapCall || decoded.opcode == pe::Opcode::Invalid)
    return ChainStep::None;
  // A microthread the turns run may need the turns it would skip.
  bool turnThreads = pe.getBusyMicrothreads() & ~pe.streamedMicrothreads;
  // A task's exit changes only what the main thread does next; reschedule
  // keeps the clock going to its cycle, as if it ran then.
  if (decoded.opcode == pe::Opcode::TaskExit)
    return turnThreads ? ChainStep::None : ChainStep::Exit;
  // So does an activate: the main thread is busy until its cycle, and only
  // its later picks see the task (what carried transfers complete
  // meanwhile sets other bits of the same mask).
  if (decoded.opcode == pe::Opcode::Activate)
    return turnThreads ? ChainStep::None : ChainStep::Activate;
  // Only DSD operations have templates. A start copied from one reads
  // nothing that changes before its cycle (deliveries and control
  // wavelets touch no register, DSR or memory of a running task), and it
  // cannot fault.
  StartTemplate *kept = startTemplates.find(pe.program, decoded.aux);
  if (!kept || !kept->matches(pe))
    return ChainStep::None;
  // With a microthread busy, memory an operation touches may change
  // before its cycle.
  if (kept->isQuiet())
    return pe.hasBusyMicrothread() ? ChainStep::None : ChainStep::Operation;
  if (kept->isCarried() && !turnThreads && mayStartAhead(pe, *kept, decoded))
    return ChainStep::Start;
  return ChainStep::None;
}

bool Band::writesNoDSRBy(const PE &pe, uint64_t at) const {
  uint64_t now = getBandCycle();
  for (uint8_t threads = pe.getBusyMicrothreads(); threads;
       threads &= threads - 1) {
    unsigned ut = unsigned(std::countr_zero(threads));
    const Flight &flight = *pe.microthreads[ut];
    if (!flight.op.hasSaveAddress())
      continue;
    if (!(pe.streamedMicrothreads >> ut & 1))
      return false; // a turn's transfer may finish any cycle
    // A carried one moves an element a cycle at most, from the cycle after
    // the band's (or after its start, if that is later).
    uint64_t left = flight.op.getLength() - flight.op.getElementsDone();
    if (left <= at - std::max(now, flight.startCycle))
      return false;
  }
  return true;
}

bool Band::mayStartAhead(const PE &pe, const StartTemplate &kept,
                         const DecodedInst &decoded) const {
  if (!streamsEnabled)
    return false;
  unsigned ut = kept.op.getOptions().microthread;
  if (ut >= pe.microthreads.size() || pe.microthreads[ut])
    return false; // the turn waits for it, or faults
  // WSE-2's first fabin of a color sizes its delivery queue, which the
  // network would see before the start's cycle.
  const pe::Instruction *inst = programOf(pe).code.getInstruction(decoded);
  if (!inst || wouldSizeQueue(pe, *inst))
    return false;
  // The start's microthread stays free, and what finishes first activates
  // or unblocks only what the main thread's later picks see; but it may
  // write back to a DSR the start reads.
  return writesNoDSRBy(pe, pe.readyAt);
}

void Band::runMainThreadAhead(PE &pe, bool firstBatch) {
  uint64_t now = cycle;
  bool outermost = !runningAhead;
  if (outermost) {
    runningAhead = true;
    bandCycle = now;
  }
  cycle = pe.readyAt;
  runMainThread(pe, firstBatch);
  cycle = now;
  if (outermost)
    runningAhead = false;
}

bool Band::mayTouchMemoryAhead(const PE &pe) const {
  // As the first batch beside carried transfers: memory no busy
  // microthread touches, in a task, in a turn the run reaches.
  uint8_t busy = pe.getBusyMicrothreads();
  return chainEnabled && !pe.activity.isCall && !pe.inMapCall &&
         pe.readyAt < chainLimit &&
         (!busy || (streamsEnabled && !(busy & ~pe.streamedMicrothreads) &&
                    !(busy & pe.laterMicrothreads)));
}

bool Band::runRegisterBatch(PE &pe) {
  // On a copy of the registers, kept only if the whole batch the next
  // turn would run touches nothing but registers, DSRs and (when
  // chaining) memory no busy microthread touches; what its stores
  // overwrote is put back otherwise.
  if (pe.deferredSteps)
    return false;
  const ProgramInfo &info = programOf(pe);
  const DecodedInst *first = info.code.lookup(pe.ce.pc);
  if (!first)
    return false;
  if (!first->isScalar() && !info.findPrebuilt(*first))
    return true; // the batch is empty
  CEState ce = pe.ce;
  TransferGuard guard(*this, pe);
  std::array<const PrebuiltDSR *, ScalarBatch> built;
  size_t numBuilt = 0;
  Trap trap;
  RunResult ran = runScalarAndBuilders(
      info, ce, pe.memory, ScalarBatch, trap, nullptr, &guard,
      [&](const PrebuiltDSR &builder) { built[numBuilt++] = &builder; });
  if (ran.result != StepResult::Continue &&
      ran.result != StepResult::NotScalar) {
    // A refused access, a fault, a return or a pc outside the code: the
    // turn's, in its cycle.
    guard.takeBack();
    return false;
  }
  uint64_t steps = ran.steps;
  if (steps == 0)
    return true;
  pe.ce = ce;
  for (size_t i = 0; i < numBuilt; ++i)
    pe.dsrs.set(built[i]->dsr, built[i]->descriptor, info.originOf(built[i]));
  pe.counters.instructions += steps;
  pe.counters.busyCycles += steps;
  pe.readyAt += steps;
  return true;
}

void Band::runChainAhead(PE &pe) {
  // Each step is what the PE's turn at pe.readyAt would do: the batch,
  // then the instruction it ends at, as classifyNext allows. Until then
  // only this main thread reads or writes what they touch, so running them
  // now changes nothing but when the emulator pays for them; a call's
  // steps stay in their turns, which the host watches. One loop runs the
  // whole chain: the steps it runs call back here and find it running.
  if (!chainEnabled || inChain || pe.activity.isCall || pe.inMapCall)
    return;
  inChain = true;
  const DecodedProgram &code = programOf(pe).code;
  // The turn at pe.readyAt is one the run reaches. It would run a quiet
  // operation ahead however far the batch took it (as runMainThread
  // does); an exit or a start runs ahead only to a cycle the run reaches.
  while (pe.state == MainState::Running && pe.readyAt < chainLimit &&
         runRegisterBatch(pe)) {
    const DecodedInst *decoded = code.lookup(pe.ce.pc);
    ChainStep step = decoded ? classifyNext(pe, *decoded) : ChainStep::None;
    if (step == ChainStep::None ||
        (step != ChainStep::Operation && pe.readyAt >= chainLimit))
      break;
    runMainThreadAhead(pe, /*firstBatch=*/false);
    if (step == ChainStep::Operation || step == ChainStep::Start)
      ++chainedOperations;
  }
  inChain = false;
}

void Band::runMainThread(PE &pe, bool firstBatch) {
  // A carried operation is the band's until it comes back.
  if (pe.state == MainState::Faulted || pe.mainStream)
    return;
  if (pe.readyAt > cycle) {
    progressed = true; // computing: its cycles were charged when it began
    return;
  }
  // A stalled main thread sleeps until a delivery or its microthread wakes
  // the PE; the cycles it slept are stalled ones, as if it had retried.
  if (pe.state == MainState::Operation || pe.state == MainState::WaitThread)
    pe.counters.stallCycles += cycle - pe.readyAt;
  const ProgramInfo &info = programOf(pe);
  switch (pe.state) {
  case MainState::Idle:
    if (!pickWork(pe))
      return;
    ++pe.counters.busyCycles;
    // A task's first instructions read the registers the pick set and
    // memory, which nothing else writes while no microthread is busy: they
    // run now as in the task's first cycle. Beside transfers the band
    // carries, they run as a chain's batch, guarded, and the chain goes on
    // from there. (Calls, few and watched by the host, keep their own
    // turns.)
    if (pe.state != MainState::Running || pe.activity.isCall)
      return;
    if (!pe.hasBusyMicrothread()) {
      runMainThreadAhead(pe, /*firstBatch=*/true);
    } else if (mayTouchMemoryAhead(pe)) {
      ++firstBatchesBeside;
      if (runRegisterBatch(pe))
        runChainAhead(pe);
      else
        ++firstBatchesTakenBack;
    }
    return;
  case MainState::Operation:
    continueOperation(pe);
    return;
  case MainState::WaitThread:
  case MainState::Running:
    break;
  case MainState::Faulted:
    return;
  }

  uint64_t steps = 0;
  if (pe.state == MainState::Running) {
    Trap trap;
    // Loads and stores beyond memory reach the config words, as cfg.get
    // and cfg.set do.
    struct PEConfigPort final : ConfigPort {
      Band &band;
      PE &pe;
      PEConfigPort(Band &band, PE &pe) : band(band), pe(pe) {}
      uint16_t read(uint32_t word) override {
        return band.readConfig(pe, word);
      }
      void write(uint32_t word, uint16_t value) override {
        band.writeConfig(pe, word, value);
      }
    } port(*this, pe);
    // A prebuilt DSR builder changes only this PE's DSRs, which nothing
    // reads before the main thread's next operation starts (in a later
    // turn). An operation completing meanwhile writes its address back only
    // to a DSR still equal to its copy, which a rebuilt one never is (a
    // builder clears save-address), so either order leaves the builder's
    // descriptor: it joins the batch, one cycle like a scalar instruction.
    emulator::RunResult batch = runScalarAndBuilders(
        info, pe.ce, pe.memory, ScalarBatch, trap, &port, nullptr,
        [&](const PrebuiltDSR &built) {
          pe.dsrs.set(built.dsr, built.descriptor, info.originOf(&built));
        });
    steps = batch.steps;
    if (firstBatch && (batch.result == StepResult::Trapped ||
                       batch.result == StepResult::Returned)) {
      // The run stops, or the host sees the PE idle, from the cycle the
      // batch belongs to: its turn then finds the trap or the return again.
      pe.deferredSteps = static_cast<uint8_t>(steps);
      pe.readyAt = cycle;
      return;
    }
    steps += std::exchange(pe.deferredSteps, 0);
    if (steps) {
      pe.counters.instructions += steps;
      pe.counters.busyCycles += steps;
      pe.readyAt = cycle + steps;
      progressed = true;
    }
    switch (batch.result) {
    case StepResult::Continue:
    case StepResult::Guarded: // a turn's batch runs unguarded
      return;
    case StepResult::Trapped:
      // A scalar batch runs ahead of the clock: its last instruction, the
      // one that trapped, belongs to the cycle the PE would have reached.
      fail(pe, trap.pc, trap.message, cycle + steps);
      return;
    case StepResult::Returned:
      if (pe.inMapCall) {
        // The map function returned: the operation takes r0 and goes on.
        pe.inMapCall = false;
        pe.operation->op.setMapResult(pe.ce.r[0]);
        pe.state = MainState::Operation;
      } else {
        if (options.trace)
          trace(pe, std::nullopt, "call returns");
        recordActivity(pe);
        pe.state = MainState::Idle;
        pe.activity = {};
      }
      return;
    case StepResult::NotScalar: {
      if (!steps)
        break;
      // The instruction runs in its own cycle, readyAt; an operation that
      // nothing but this main thread can observe runs now as it would then,
      // and a chain may go on from there.
      const DecodedInst *decoded = info.code.lookup(pe.ce.pc);
      ChainStep step = decoded ? classifyNext(pe, *decoded) : ChainStep::None;
      if (step == ChainStep::Operation)
        runMainThreadAhead(pe, /*firstBatch=*/false);
      if (step != ChainStep::None)
        runChainAhead(pe);
      return;
    }
    }
  }

  const DecodedInst *decoded = info.code.lookup(pe.ce.pc);
  const pe::Instruction *inst =
      decoded ? info.code.getInstruction(*decoded) : nullptr;
  if (!inst) {
    fail(pe, pe.ce.pc, "no instruction the PE model executes at this address");
    return;
  }
  uint32_t next = pe.ce.pc + 2 * decoded->size;
  const pe::InstInfo *instInfo = pe::getInstInfo(inst->opcode);
  CEState &ce = pe.ce;
  std::string_view mnemonic = instInfo->mnemonic;
  // After task control (a task's last steps, often), a chain may go on.
  bool chainAfter = false;

  switch (inst->opcode) {
  case pe::Opcode::Activate: {
    std::optional<unsigned> task = taskRefValue(inst->operands[0], ce);
    if (!task) {
      fail(pe, ce.pc,
           "activate: task " + std::to_string(regOrImm(inst->operands[0], ce)) +
               " is not in 0..63");
      return;
    }
    if (options.trace)
      trace(pe, ce.pc, "activates task " + std::to_string(*task));
    activate(pe, *task);
    chainAfter = true;
    break;
  }
  case pe::Opcode::Block:
  case pe::Opcode::Unblock:
  case pe::Opcode::QueueFlush: {
    auto space = static_cast<pe::BlockSpace>(inst->operands[0].value);
    unsigned limit = space == pe::BlockSpace::OutputQueue ||
                             space == pe::BlockSpace::UT ||
                             inst->opcode == pe::Opcode::QueueFlush
                         ? 8
                         : NumTaskIDs;
    uint32_t id = regOrImm(inst->operands[1], ce);
    if (id >= limit) {
      fail(pe, ce.pc,
           std::string(mnemonic) + ": " + std::string(blockSpaceName(space)) +
               " " + std::to_string(id) + " is not in 0.." +
               std::to_string(limit - 1));
      return;
    }
    if (options.trace)
      trace(pe, ce.pc,
            std::string(inst->opcode == pe::Opcode::Block     ? "blocks "
                        : inst->opcode == pe::Opcode::Unblock ? "unblocks "
                                                              : "flushes ") +
                std::string(blockSpaceName(space)) + " " + std::to_string(id));
    if (inst->opcode == pe::Opcode::QueueFlush)
      pe.flushQueues |= uint8_t(1u << id);
    else
      setBlocked(pe, space, id, inst->opcode == pe::Opcode::Block);
    chainAfter = true;
    break;
  }
  case pe::Opcode::TaskExit:
    if (pe.activity.isCall) {
      fail(pe, ce.pc, "texit outside a task (in a call that must return)");
      return;
    }
    if (options.trace)
      trace(pe, std::nullopt,
            pe.activity.task >= ControlTableSlot
                ? "control table entry " +
                      std::to_string(pe.activity.task - ControlTableSlot) +
                      " ends"
                : "task " + std::to_string(pe.activity.task) + " ends");
    recordActivity(pe);
    ++pe.counters.instructions;
    ++pe.counters.busyCycles;
    pe.state = MainState::Idle;
    pe.activity = {};
    pe.readyAt = cycle + target::TargetModel::getInstructionCycles();
    progressed = true;
    return;
  case pe::Opcode::CfgGet:
    ce.r[inst->operands[0].value & 15] =
        readConfig(pe, regOrImm(inst->operands[1], ce));
    break;
  case pe::Opcode::CfgSet:
    writeConfig(pe, regOrImm(inst->operands[0], ce),
                static_cast<uint16_t>(ce.r[inst->operands[1].value & 15]));
    break;
  default:
    if (instInfo->instClass == pe::InstClass::DSDOp) {
      startOperation(pe, *inst);
      runChainAhead(pe);
      return;
    }
    if (instInfo->instClass == pe::InstClass::DSR) {
      if (const PrebuiltDSR *built = info.findPrebuilt(*decoded)) {
        pe.dsrs.set(built->dsr, built->descriptor, info.originOf(built));
        break;
      }
      DSDTrap trap;
      if (!executeDSRInstruction(*inst, ce, pe.memory, pe.dsrs, pe.fifos,
                                 trap)) {
        fail(pe, ce.pc, trap.message);
        return;
      }
      break;
    }
    fail(pe, ce.pc,
         "'" + std::string(mnemonic) + "' is not executed by the PE model");
    return;
  }
  if (pe.state == MainState::Faulted)
    return;
  ++pe.counters.instructions;
  ++pe.counters.busyCycles;
  ce.pc = next;
  pe.readyAt = cycle + target::TargetModel::getInstructionCycles();
  progressed = true;
  if (chainAfter)
    runChainAhead(pe);
}
