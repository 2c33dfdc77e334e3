//===- OperationStart.cpp - snapshotting a DSD operation ------------------===//
//
// An operation copies everything it will use when it starts (docs/ISA.md,
// "Snapshot"): its descriptors, the values of scalar registers, the
// addresses in pointer registers and the index register. FIFO and fabric
// state stay shared. Options are merged here (docs/Emulator.md).
//
//===----------------------------------------------------------------------===//

#include "Cursors.h"
#include "ElementOps.h"
#include "Messages.h"
#include "TaskRefs.h"

#include "tessera/Emulator/DSDEngine.h"

using namespace tessera;
using namespace tessera::emulator;
using namespace tessera::emulator::dsd;
using detail::OperandClass;
using detail::OperandSlot;
using pe::OperandMode;

namespace {

struct Starter {
  DSDOperation &op;
  ResolvedOptions &options;
  int32_t &index;
  unsigned numOperands = 0;
  /// Instruction operands before slot 0's (map's function).
  unsigned firstOperand = 0;
  const pe::Instruction &inst;
  const CEState &state;
  const DSRFile &dsrs;
  const FifoFile &fifos;
  DSDTrap &trap;
  std::string_view name;

  bool fail(const std::string &message) {
    badOperand(trap, std::string(name) + ": " + message);
    return false;
  }

  /// Slot `i` from `operand`; `width` is the operation's for DSD
  /// operations, 0 for map (which takes the operand's own).
  [[gnu::always_inline]] bool fill(unsigned i, const pe::Operand &operand,
                                   unsigned width) {
    OperandSlot &slot = op.slot(i);
    auto number = [&] { return std::to_string(firstOperand + i + 1); };
    // Field by field: the descriptor and mem4d state are only read for
    // the operands that set them, and starting is on the hot path.
    slot.cls = OperandClass::None;
    slot.width = 32;
    slot.dsr.reset();
    slot.reg = 0;
    slot.scalar = 0;
    slot.cursor.address = 0;
    slot.cursor.step = 0;
    slot.cursor.run = detail::Unbounded;
    slot.cursor.dims = 0;
    slot.cursor.wrap = 0;
    bool isDest = i == 0;
    switch (operand.mode) {
    case OperandMode::None:
      if (!isDest || width)
        return fail("malformed instruction (operand " + number() +
                    " is absent)");
      slot.cls = OperandClass::None;
      return true;
    case OperandMode::Reg:
    case OperandMode::Ptr: {
      if (operand.value < 0 || operand.value >= pe::NumRegisters ||
          (isDest && operand.mode == OperandMode::Reg))
        return fail("malformed instruction (operand " + number() + ")");
      slot.reg = static_cast<uint8_t>(operand.value);
      uint32_t value = state.r[slot.reg];
      if (operand.mode == OperandMode::Reg) {
        slot.cls = OperandClass::Scalar;
        slot.scalar = value;
        slot.width = static_cast<uint8_t>(width ? width : 32);
      } else {
        slot.cls = OperandClass::Pointer;
        slot.cursor = makeFixedCursor(value);
        slot.width = static_cast<uint8_t>(width          ? width
                                          : operand.wide ? 32
                                                         : 16);
      }
      return true;
    }
    default:
      break;
    }
    std::optional<DSRId> id = DSRId::fromOperand(operand);
    if (!id)
      return fail("malformed instruction (operand " + number() + ")");
    slot.dsr = id;
    slot.descriptor = dsrs.get(*id);
    const Descriptor &d = slot.descriptor;
    switch (d.kind) {
    case DSRKind::Mem1d:
    case DSRKind::Mem4d:
    case DSRKind::Circbuf:
      slot.cls = OperandClass::Memory;
      slot.width = static_cast<uint8_t>(width ? width : d.width);
      return true;
    case DSRKind::FabIn:
      if (isDest)
        return fail(id->getName() + " is a fabin DSR, which cannot be written");
      slot.cls = OperandClass::FabIn;
      slot.width = static_cast<uint8_t>(width ? width : 32);
      return true;
    case DSRKind::FabOut:
      if (!isDest)
        return fail(id->getName() + " is a fabout DSR, which cannot be read");
      slot.cls = OperandClass::FabOut;
      slot.width = static_cast<uint8_t>(width ? width : 32);
      return true;
    case DSRKind::Fifo: {
      const Fifo &fifo = fifos.get(d.fifo);
      if (!fifo.initialized)
        return fail(id->getName() + " is fifo" + std::to_string(d.fifo) +
                    ", which no fifo.init has initialised");
      slot.cls = OperandClass::Fifo;
      slot.width = static_cast<uint8_t>(width ? width : fifo.width);
      return true;
    }
    }
    return fail("malformed descriptor in " + id->getName());
  }

  /// The operation's own options first, then those attached to its DSRs in
  /// operand order; the first that gives a value wins (async: any).
  bool resolveOptions() {
    const pe::DSDOptions &own = inst.options;
    ResolvedOptions &out = options;
    out = ResolvedOptions{};
    std::optional<uint8_t> ut;
    if ((own.activate && !resolveTaskRef(*own.activate, state, name, "activate",
                                         out.activate, trap)) ||
        (own.unblock && !resolveTaskRef(*own.unblock, state, name, "unblock",
                                        out.unblock, trap)) ||
        (own.microthread &&
         !resolveTaskRef(*own.microthread, state, name, "ut", ut, trap)))
      return false;
    out.async = own.async;
    out.priority = own.priority;
    std::optional<unsigned> indexReg = own.indexReg;
    if (indexReg && *indexReg >= pe::NumRegisters)
      return fail("malformed instruction (index register)");
    for (unsigned i = 0; i < numOperands; ++i) {
      if (!op.slot(i).dsr)
        continue;
      const AttachedOptions &a = op.slot(i).descriptor.options;
      out.async |= a.async;
      if (out.priority == pe::Priority::Default)
        out.priority = a.priority;
      if (!out.activate)
        out.activate = a.activate;
      if (!out.unblock)
        out.unblock = a.unblock;
      if (!ut)
        ut = a.microthread;
      if (!indexReg && a.indexReg)
        indexReg = a.indexReg;
    }
    // Then the priority of a fabric DSR or FIFO (WSE-3 keeps it there).
    for (unsigned i = 0; i < numOperands; ++i) {
      if (out.priority != pe::Priority::Default)
        break;
      const OperandSlot &slot = op.slot(i);
      if (slot.cls == OperandClass::FabIn || slot.cls == OperandClass::FabOut)
        out.priority = slot.descriptor.priority;
      else if (slot.cls == OperandClass::Fifo)
        out.priority = fifos.get(slot.descriptor.fifo).priority;
    }
    // WSE-2's microthread: the fabout's queue, else the first fabin's.
    if (!ut && op.slot(0).cls == OperandClass::FabOut)
      ut = op.slot(0).descriptor.queue;
    for (unsigned i = 1; i < numOperands && !ut; ++i)
      if (op.slot(i).cls == OperandClass::FabIn)
        ut = op.slot(i).descriptor.queue;
    out.microthread = ut.value_or(0);
    index = indexReg ? static_cast<int32_t>(state.r[*indexReg]) : int32_t{0};
    return true;
  }

  /// CSL's rule: the first DSR among the sources, in order, then the
  /// destination; FIFOs have no length. No DSR: one element.
  uint64_t length() const {
    for (unsigned k = 1; k <= numOperands; ++k) {
      const OperandSlot &slot = op.slot(k % numOperands);
      if (!slot.dsr)
        continue;
      if (std::optional<uint64_t> n = slot.descriptor.getLength())
        return *n;
    }
    return 1;
  }
};

} // namespace

void DSDOperation::makeOwnRoom(unsigned n) {
  sharedSlots = nullptr;
  // Only what this operation needs: a fabric-fed operation of three
  // operands may be in flight on every PE at once.
  if (ownCapacity >= n)
    return;
  ownSlots = std::make_unique<detail::OperandSlot[]>(n);
  ownCapacity = static_cast<uint8_t>(n);
}

void DSDOperation::takeOwnSlots() {
  const detail::OperandSlot *from = sharedSlots;
  makeOwnRoom(numOperands);
  std::copy(from, from + numOperands, ownSlots.get());
}

bool DSDEngine::start(DSDOperation &op, const pe::Instruction &inst,
                      const CEState &state, const DSRFile &dsrs,
                      const FifoFile &fifos, DSDTrap &trap) {
  std::string_view name = mnemonic(inst.opcode);
  const pe::InstInfo *info = pe::getInstInfo(inst.opcode);
  if (!info || info->instClass != pe::InstClass::DSDOp) {
    badOperand(trap, std::string(name) + " is not a DSD operation");
    return false;
  }
  // Until start succeeds the operation is not runnable.
  op.opcode = pe::Opcode::Invalid;
  op.fastOperands = false;
  op.isMove = false;
  op.numOperands = 0;
  op.sharedSlots = nullptr;
  op.length = 0;
  op.next = 0;
  op.carry = 0;
  op.fetched = 0;
  op.resultReady = false;
  op.mapResultReady = false;
  op.completed = false;
  op.savesAddress = false;
  op.advanceSwitchColor = DSDOperation::NoColor;
  op.move.kind = detail::FabricMove::None;
  Starter starter{op,    op.options, op.index, 0,    0,   inst,
                  state, dsrs,       fifos,    trap, name};

  if (inst.opcode == pe::Opcode::Map) {
    size_t count = inst.operands.size();
    if (count < 2 || count > 2 + MapCall::MaxArgs ||
        inst.operands[0].mode != OperandMode::Imm)
      return starter.fail("malformed instruction (operands)");
    op.mapFunction = static_cast<uint32_t>(inst.operands[0].value);
    op.mapNumArgs = static_cast<uint8_t>(count - 2);
    op.numOperands = static_cast<uint8_t>(count - 1);
    op.makeOwnRoom(op.numOperands);
    starter.numOperands = op.numOperands;
    starter.firstOperand = 1;
    for (unsigned i = 0; i < op.numOperands; ++i)
      if (!starter.fill(i, inst.operands[i + 1], 0))
        return false;
  } else {
    std::optional<OpShape> shape = getShape(inst.opcode);
    if (!shape || inst.operands.size() != 1u + shape->sources)
      return starter.fail("malformed instruction (operands)");
    op.numOperands = static_cast<uint8_t>(1 + shape->sources);
    op.makeOwnRoom(op.numOperands);
    starter.numOperands = op.numOperands;
    if (!starter.fill(0, inst.operands[0], shape->dest))
      return false;
    for (unsigned i = 1; i < op.numOperands; ++i)
      if (!starter.fill(i, inst.operands[i], shape->src[i - 1]))
        return false;
  }
  if (!starter.resolveOptions())
    return false;
  op.opcode = inst.opcode;
  if (op.isMap())
    op.options.async = false; // the calls run on the main thread
  op.length = starter.length();
  for (unsigned i = 0; i < op.numOperands; ++i) {
    OperandSlot &slot = op.slot(i);
    if (slot.cls == OperandClass::Memory)
      initMemoryCursor(slot.cursor, slot.descriptor, op.index, slot.width);
    op.savesAddress |= slot.dsr.has_value() && slot.descriptor.saveAddress;
  }
  const OperandSlot &dest = op.slot(0);
  if (dest.cls == OperandClass::FabOut && dest.descriptor.advanceSwitch)
    op.advanceSwitchColor = dest.descriptor.color;
  op.fastOperands = hasFastOperands(op);
  op.isMove =
      op.numOperands == 2 &&
      (op.opcode == pe::Opcode::FMovSV || op.opcode == pe::Opcode::FMovHV ||
       op.opcode == pe::Opcode::Mov16V || op.opcode == pe::Opcode::Mov32V);
  prepareFabricMove(op);
  return true;
}

void DSDEngine::restart(DSDOperation &op, const DSDOperation &started) {
  // What start() sets, and nothing else: the element in progress is set
  // before it is read.
  op.opcode = started.opcode;
  op.numOperands = started.numOperands;
  op.completed = started.completed;
  op.savesAddress = started.savesAddress;
  op.fastOperands = started.fastOperands;
  op.isMove = started.isMove;
  op.advanceSwitchColor = started.advanceSwitchColor;
  op.fetched = started.fetched;
  op.resultReady = started.resultReady;
  op.mapResultReady = started.mapResultReady;
  op.options = started.options;
  op.move = started.move;
  op.length = started.length;
  op.next = started.next;
  op.index = started.index;
  op.carry = started.carry;
  if (started.isMap()) {
    op.mapFunction = started.mapFunction;
    op.mapNumArgs = started.mapNumArgs;
  }
  // The slots are read where they are until the operation changes one.
  op.sharedSlots = &started.slot(0);
}

void DSDEngine::prepareFabricMove(DSDOperation &op) {
  // start() has set op.move.kind to None.
  detail::FabricMove &move = op.move;
  if (!op.isMove)
    return;
  const OperandSlot &dest = std::as_const(op).slot(0),
                    &source = std::as_const(op).slot(1);
  bool receive =
      source.cls == OperandClass::FabIn && dest.cls == OperandClass::Memory;
  bool send =
      dest.cls == OperandClass::FabOut && source.cls == OperandClass::Memory;
  if (!receive && !send)
    return;
  const OperandSlot &inMemory = receive ? dest : source;
  const OperandSlot &onFabric = receive ? source : dest;
  const detail::Cursor &cursor = inMemory.cursor;
  bool shaped = cursor.wrap != 0 || cursor.dims != 0;
  move.kind = receive ? detail::FabricMove::Receive : detail::FabricMove::Send;
  move.bytes = static_cast<uint8_t>(inMemory.width / 8);
  move.fabric16 = onFabric.width == 16;
  move.indexOffset = send && onFabric.descriptor.waveletIndexOffset;
  move.shaped = shaped;
  move.endpoint = FabricEndpoint::of(onFabric.descriptor);
  // An address beyond 32 bits saturates, staying outside memory: the first
  // element hands the move to run(), which traps as it would have.
  move.address = detail::toMoveAddress(cursor.address);
  static_assert(sizeof(Descriptor::stride) == 2,
                "a mem1d step (stride x 4 bytes at most) fits 32 bits");
  move.step = shaped ? 0 : static_cast<int32_t>(cursor.step);
}
