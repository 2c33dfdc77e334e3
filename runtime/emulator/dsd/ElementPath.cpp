//===- ElementPath.cpp - DSD operations one element at a time -------------===//
//
// The general path: any operands, fabric and FIFOs included. Each element
// reads its sources in operand order, computes, and writes its destination
// before the next one starts. A source that would block keeps the values
// already read; a destination that would block keeps the result; either way
// the element is retried by the next run().
//
//===----------------------------------------------------------------------===//

#include "ElementOps.h"
#include "Messages.h"

#include "tessera/Emulator/DSDEngine.h"

using namespace tessera;
using namespace tessera::emulator;
using namespace tessera::emulator::dsd;
using detail::OperandClass;
using detail::OperandSlot;

namespace {

std::string operandName(const OperandSlot &slot) {
  if (slot.dsr)
    return slot.dsr->getName();
  return "[r" + std::to_string(slot.reg) + "]";
}

/// Memory status of a `bytes`-wide access at a cursor address, which may
/// lie anywhere in int64.
MemoryStatus classify(int64_t address, unsigned bytes) {
  if (address < 0 || address > static_cast<int64_t>(PEMemory::Size - bytes))
    return MemoryStatus::OutOfRange;
  return (address & 1) ? MemoryStatus::Misaligned : MemoryStatus::Ok;
}

class ElementRunner {
public:
  ElementRunner(DSDContext context, DSDTrap &trap, DSDProgress &progress)
      : context(context), trap(trap), progress(progress) {}

  /// Reads source `slot`'s element; false when it blocks or traps
  /// (progress.status says which).
  bool read(const OperandSlot &slot, uint32_t &value);
  /// Writes the destination's element; false when it blocks or traps.
  bool write(const OperandSlot &slot, uint32_t value);

  DSDContext context;
  DSDTrap &trap;
  DSDProgress &progress;
  uint64_t element = 0;
  /// Named in messages only, so looked up when one is written.
  pe::Opcode opcode = pe::Opcode::Invalid;
  int32_t index = 0; ///< the operation's index option

private:
  bool memoryFault(const OperandSlot &slot, bool store, MemoryStatus status,
                   int64_t address, unsigned bytes) {
    uint32_t shown = static_cast<uint32_t>(address);
    badMemoryAccess(trap,
                    std::string(mnemonic(opcode)) + ": element " +
                        std::to_string(element) + " of " + operandName(slot) +
                        ": " + describeAccess(store, status, shown, bytes),
                    shown, bytes, element);
    progress.status = DSDStatus::Trapped;
    return false;
  }
  bool blocked() {
    progress.status = DSDStatus::Blocked;
    return false;
  }
};

bool ElementRunner::read(const OperandSlot &slot, uint32_t &value) {
  unsigned bytes = slot.width / 8;
  switch (slot.cls) {
  case OperandClass::Scalar:
    value = slot.width == 16 ? slot.scalar & 0xFFFF : slot.scalar;
    return true;
  case OperandClass::Memory:
  case OperandClass::Pointer: {
    int64_t address = slot.cursor.address;
    MemoryStatus status = classify(address, bytes);
    if (status == MemoryStatus::Ok) {
      uint32_t at = static_cast<uint32_t>(address);
      if (bytes == 2) {
        uint16_t half;
        status = context.memory.load16(at, half);
        value = half;
      } else {
        status = context.memory.load32(at, value);
      }
    }
    if (status != MemoryStatus::Ok)
      return memoryFault(slot, false, status, address, bytes);
    return true;
  }
  case OperandClass::FabIn: {
    std::optional<uint32_t> payload =
        context.ports.popWavelet(FabricEndpoint::of(slot.descriptor));
    if (!payload)
      return blocked();
    value = slot.width == 16 ? *payload & 0xFFFF : *payload;
    return true;
  }
  case OperandClass::Fifo: {
    Fifo &fifo = context.fifos.getMutable(slot.descriptor.fifo);
    if (!fifo.initialized || fifo.count == 0)
      return blocked();
    uint32_t at = fifo.elementAddress(fifo.head);
    MemoryStatus status;
    if (fifo.width == 16) {
      uint16_t half;
      status = context.memory.load16(at, half);
      value = half;
    } else {
      status = context.memory.load32(at, value);
    }
    if (status != MemoryStatus::Ok)
      return memoryFault(slot, false, status, at, fifo.width / 8);
    if (slot.width == 16)
      value &= 0xFFFF;
    fifo.head = static_cast<uint16_t>((fifo.head + 1) % fifo.capacity);
    --fifo.count;
    if (fifo.popTask)
      progress.activatedTasks |= uint64_t(1) << *fifo.popTask;
    return true;
  }
  case OperandClass::None:
  case OperandClass::FabOut:
    break; // start() admits neither as a source
  }
  value = 0;
  return true;
}

bool ElementRunner::write(const OperandSlot &slot, uint32_t value) {
  unsigned bytes = slot.width / 8;
  switch (slot.cls) {
  case OperandClass::Memory:
  case OperandClass::Pointer: {
    int64_t address = slot.cursor.address;
    MemoryStatus status = classify(address, bytes);
    if (status == MemoryStatus::Ok) {
      uint32_t at = static_cast<uint32_t>(address);
      status = bytes == 2
                   ? context.memory.store16(at, static_cast<uint16_t>(value))
                   : context.memory.store32(at, value);
    }
    if (status != MemoryStatus::Ok)
      return memoryFault(slot, true, status, address, bytes);
    return true;
  }
  case OperandClass::FabOut: {
    uint32_t payload = slot.width == 16 ? value & 0xFFFF : value;
    if (slot.descriptor.waveletIndexOffset)
      payload = (payload & 0xFFFF) | static_cast<uint32_t>(index) << 16;
    return context.ports.pushWavelet(FabricEndpoint::of(slot.descriptor),
                                     payload) ||
           blocked();
  }
  case OperandClass::Fifo: {
    Fifo &fifo = context.fifos.getMutable(slot.descriptor.fifo);
    if (!fifo.initialized || fifo.count == fifo.capacity)
      return blocked();
    uint32_t at = fifo.elementAddress(fifo.head + fifo.count);
    MemoryStatus status =
        fifo.width == 16
            ? context.memory.store16(at, static_cast<uint16_t>(value))
            : context.memory.store32(at, value);
    if (status != MemoryStatus::Ok)
      return memoryFault(slot, true, status, at, fifo.width / 8);
    ++fifo.count;
    if (fifo.pushTask)
      progress.activatedTasks |= uint64_t(1) << *fifo.pushTask;
    return true;
  }
  case OperandClass::None: // map without a destination
  case OperandClass::Scalar:
  case OperandClass::FabIn:
    return true;
  }
  return true;
}

} // namespace

DSDProgress DSDEngine::runMoves(DSDOperation &op, DSDContext context,
                                DSDTrap &trap, uint64_t budget) {
  // runElements for one source whose element is the result (16-bit moves
  // keep the low half): the same steps and state without the general
  // loop, since a transfer to or from the fabric runs one element a cycle.
  DSDProgress progress;
  ElementRunner runner(context, trap, progress);
  runner.opcode = op.opcode;
  runner.index = op.index;
  detail::OperandSlot &dest = op.slot(0), &source = op.slot(1);
  bool half =
      op.opcode == pe::Opcode::FMovHV || op.opcode == pe::Opcode::Mov16V;
  while (progress.elements < budget && op.next < op.length) {
    runner.element = op.next;
    if (!(op.fetched & 2u)) {
      if (!runner.read(source, op.values[1]))
        return progress;
      op.fetched = 2u;
    }
    if (!op.resultReady) {
      op.result = half ? op.values[1] & 0xFFFF : op.values[1];
      op.resultReady = true;
    }
    if (!runner.write(dest, op.result))
      return progress;
    finishMoveElement(op, progress);
  }
  progress.status = op.next == op.length ? DSDStatus::Done : DSDStatus::Paused;
  return progress;
}

DSDProgress DSDEngine::runElements(DSDOperation &op, DSDContext context,
                                   DSDTrap &trap, uint64_t budget) {
  if (op.isMove)
    return runMoves(op, context, trap, budget);
  DSDProgress progress;
  ElementRunner runner(context, trap, progress);
  runner.opcode = op.opcode;
  runner.index = op.index;
  ApplyFn apply = op.isMap() ? nullptr : getApply(op.opcode);
  while (progress.elements < budget && op.next < op.length) {
    runner.element = op.next;
    for (unsigned i = 1; i < op.numOperands; ++i) {
      if (op.fetched & (1u << i))
        continue;
      if (!runner.read(op.slot(i), op.values[i]))
        return progress;
      op.fetched |= static_cast<uint16_t>(1u << i);
    }
    if (!op.resultReady) {
      if (apply) {
        op.result = apply(op.values[1], op.values[2], op.values[3], op.carry);
      } else {
        if (!op.mapResultReady) {
          // getMapCall() reads the arguments from values[1...].
          progress.status = DSDStatus::CallMap;
          return progress;
        }
        op.result = op.mapResult;
      }
      op.resultReady = true;
    }
    if (!runner.write(op.slot(0), op.result))
      return progress;
    // A reduction (`@fadds(&sum, sum, dsd)`): into a pointer with a scalar
    // first source, the result is the next element's first source, so the
    // scalar accumulates (csl-reference 7.13; 25-pt-stencil's @fmaxs).
    if (op.slot(0).cls == OperandClass::Pointer && op.numOperands > 2 &&
        op.slot(1).cls == OperandClass::Scalar)
      op.slot(1).scalar = op.result;
    for (unsigned i = 0; i < op.numOperands; ++i)
      op.slot(i).cursor.advance(1);
    ++op.next;
    ++progress.elements;
    op.fetched = 0;
    op.resultReady = false;
    op.mapResultReady = false;
  }
  progress.status = op.next == op.length ? DSDStatus::Done : DSDStatus::Paused;
  return progress;
}

void DSDEngine::complete(DSDOperation &op, DSRFile &dsrs) {
  op.completed = true;
  if (!op.savesAddress)
    return;
  // Save address: only if the DSR is still what the operation copied (not
  // rebuilt or changed meanwhile); a DSR used twice is written once.
  for (unsigned i = 0; i < op.numOperands; ++i) {
    const OperandSlot &slot = std::as_const(op).slot(i);
    if (!slot.dsr || !slot.descriptor.saveAddress)
      continue;
    Descriptor advanced = slot.descriptor;
    uint32_t n = static_cast<uint32_t>(op.length);
    switch (advanced.kind) {
    case DSRKind::Mem1d:
      advanced.offset = static_cast<int32_t>(
          static_cast<uint32_t>(advanced.offset) +
          n * static_cast<uint32_t>(static_cast<int32_t>(advanced.stride)));
      break;
    case DSRKind::Mem4d:
    case DSRKind::Circbuf:
      advanced.position += n;
      break;
    default:
      continue; // fabric and FIFO DSRs have no address to save
    }
    if (dsrs.get(*slot.dsr) == slot.descriptor)
      dsrs.set(*slot.dsr, advanced);
  }
}

DSDProgress DSDEngine::run(DSDOperation &op, DSDContext context, DSDTrap &trap,
                           uint64_t maxElements) {
  DSDProgress total;
  if (op.opcode == pe::Opcode::Invalid) {
    badOperand(trap, "no DSD operation was started");
    total.status = DSDStatus::Trapped;
    return total;
  }
  leaveFabricMove(op); // the element path keeps the address in the slot
  for (;;) {
    if (op.next == op.length) {
      if (!op.completed)
        complete(op, context.dsrs);
      total.status = DSDStatus::Done;
      return total;
    }
    uint64_t budget = maxElements - total.elements;
    if (budget == 0) {
      total.status = DSDStatus::Paused;
      return total;
    }
    DSDProgress step;
    if (fastPathEnabled && canRunFast(op)) {
      uint64_t done = runFast(op, context.memory, budget);
      total.elements += done;
      if (done)
        continue;
      // The next chunk may leave memory: find the element that does.
      step = runElements(op, context, trap, std::min(budget, FastChunk));
    } else {
      step = runElements(op, context, trap, budget);
    }
    total.elements += step.elements;
    total.activatedTasks |= step.activatedTasks;
    if (step.status != DSDStatus::Done && step.status != DSDStatus::Paused) {
      total.status = step.status;
      return total;
    }
  }
}
