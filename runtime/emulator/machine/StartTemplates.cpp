//===- StartTemplates.cpp - operation starts kept for reuse ---------------===//
//
// What a start reads (OperationStart.cpp): each DSR operand's descriptor,
// each register or pointer operand's register, a task reference's
// register, the index register, and FIFO state. A template checks the
// first by the DSR's origin and the registers by value; starts that read
// a FIFO or a DSR of unknown origin are not kept.
//
//===----------------------------------------------------------------------===//

#include "StartTemplates.h"

using namespace tessera;
using namespace tessera::emulator;
using namespace tessera::emulator::machine;

StartTemplate *StartTemplates::remember(uint16_t program, uint32_t aux,
                                        const pe::Instruction &inst,
                                        const PE &pe, const Flight &flight) {
  if (byProgram.size() <= program)
    byProgram.resize(size_t(program) + 1);
  std::vector<Entry> &list = byProgram[program];
  if (list.size() <= aux) {
    size_t more = size_t(aux) + 1 - list.size();
    if (entries + more > MaxEntries)
      return nullptr;
    entries += more;
    list.resize(size_t(aux) + 1);
  }
  Entry &entry = list[aux];
  if (entry.misses == MaxMisses)
    return nullptr;
  // Only the first start of an instruction that is kept is no miss: a
  // later one here found the template did not match, and replaces it.
  bool replacing = entry.kept != nullptr;
  bool kept = keep(entry, inst, pe, flight);
  if (!kept || replacing)
    ++entry.misses;
  return kept ? entry.kept.get() : nullptr;
}

bool StartTemplates::keep(Entry &entry, const pe::Instruction &inst,
                          const PE &pe, const Flight &flight) {
  if (inst.opcode == pe::Opcode::Map)
    return false;
  // What the start read, checked before a template is made: most starts
  // that are never kept fail at their first DSR.
  StartInputs t;
  auto addRegister = [&](int64_t r) {
    if (r < 0 || r >= int64_t(pe::NumRegisters) ||
        t.numRegisters == StartInputs::MaxRegisters)
      return false;
    t.reg[t.numRegisters] = static_cast<uint8_t>(r);
    t.value[t.numRegisters++] = pe.ce.r[r];
    return true;
  };
  for (const pe::Operand &operand : inst.operands) {
    if (std::optional<DSRId> id = DSRId::fromOperand(operand)) {
      uint16_t origin = pe.dsrs.getOrigin(*id);
      if (!origin || t.numDSRs == StartInputs::MaxDSRs)
        return false;
      t.dsr[t.numDSRs] = *id;
      t.origin[t.numDSRs++] = origin;
    } else if (operand.mode == pe::OperandMode::Reg ||
               operand.mode == pe::OperandMode::Ptr) {
      if (!addRegister(operand.value))
        return false;
    }
  }
  const pe::DSDOptions &own = inst.options;
  for (const std::optional<pe::Operand> *ref :
       {&own.activate, &own.unblock, &own.microthread})
    if (*ref && (*ref)->mode == pe::OperandMode::Reg &&
        !addRegister((*ref)->value))
      return false;
  // The index register is the instruction's, else the first one an
  // operand's DSR attaches (Starter::resolveOptions).
  const DSDOperation &op = flight.op;
  std::optional<unsigned> indexReg = own.indexReg;
  for (unsigned i = 0; i < op.getNumOperands(); ++i) {
    const detail::OperandSlot &slot = op.slot(i);
    if (slot.cls == detail::OperandClass::Fifo)
      return false;
    if (!indexReg && slot.dsr && slot.descriptor.options.indexReg)
      indexReg = *slot.descriptor.options.indexReg;
  }
  if (indexReg && !addRegister(*indexReg))
    return false;

  if (entry.kept) {
    // Operations copied from it may still read its operand slots.
    retired.push_back(std::move(entry.kept));
  } else {
    if (count == MaxTemplates)
      return false;
    ++count;
  }
  entry.kept = std::make_unique<StartTemplate>();
  StartTemplate &kept = *entry.kept;
  static_cast<StartInputs &>(kept) = t;
  kept.interactive = flight.interactive;
  kept.fabric = flight.fabric;
  kept.bits = flight.bits;
  kept.ranWhole = false;
  DSDEngine::restart(kept.op, op);
  kept.op.keepOwnSlots(); // the flight's change as it runs
  return true;
}
