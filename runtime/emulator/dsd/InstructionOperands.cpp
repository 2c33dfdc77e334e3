//===- InstructionOperands.cpp - a DSR instruction's operands -------------===//

#include "InstructionOperands.h"

#include "Messages.h"
#include "TaskRefs.h"

using namespace tessera;
using namespace tessera::emulator;
using namespace tessera::emulator::dsd;
using pe::OperandMode;

namespace {
std::string operandText(unsigned i) {
  return "operand " + std::to_string(i + 1);
}
} // namespace

InstructionOperands::InstructionOperands(const pe::Instruction &inst,
                                         const CEState &state, DSDTrap &trap)
    : inst(inst), state(state), trap(trap), name(mnemonic(inst.opcode)) {}

bool InstructionOperands::checkCount() {
  const pe::InstInfo *info = pe::getInstInfo(inst.opcode);
  size_t count = inst.operands.size(), fixed = info->operands.size();
  bool ok = info->variadic == pe::OperandKind::None
                ? count == fixed
                : count >= fixed + info->minVariadic &&
                      count <= fixed + info->maxVariadic &&
                      (inst.opcode != pe::Opcode::DsrMem4d ||
                       (count - fixed) % 2 == 0);
  return ok || malformed("with " + std::to_string(count) + " operands");
}

bool InstructionOperands::dsr(unsigned i, DSRId &out) {
  std::optional<DSRId> id = DSRId::fromOperand(inst.operands[i]);
  if (!id)
    return malformed(operandText(i) + " is not a DSR");
  out = *id;
  return true;
}

bool InstructionOperands::imm(unsigned i, int64_t lo, int64_t hi,
                              int64_t &out) {
  const pe::Operand &op = inst.operands[i];
  if (op.mode != OperandMode::Imm || op.value < lo || op.value > hi)
    return malformed(operandText(i) + " is not in " + std::to_string(lo) +
                     ".." + std::to_string(hi));
  out = op.value;
  return true;
}

bool InstructionOperands::flag(unsigned i, bool &out) {
  int64_t value;
  if (!imm(i, 0, 1, value))
    return false;
  out = value;
  return true;
}

bool InstructionOperands::width(unsigned i, uint8_t &out) {
  int64_t value;
  if (!imm(i, 16, 32, value))
    return false;
  if (value != 16 && value != 32)
    return malformed(operandText(i) + " is not a width (16 or 32)");
  out = static_cast<uint8_t>(value);
  return true;
}

bool InstructionOperands::priority(unsigned i, pe::Priority &out) {
  int64_t value;
  if (!imm(i, 0, 3, value))
    return false;
  out = static_cast<pe::Priority>(value);
  return true;
}

bool InstructionOperands::value(unsigned i, const char *what, bool isSigned,
                                int64_t lo, int64_t hi, int64_t &out) {
  const pe::Operand &op = inst.operands[i];
  bool isReg = op.mode == OperandMode::Reg && op.value >= 0 &&
               op.value < pe::NumRegisters;
  if (isReg) {
    uint32_t bits = state.r[op.value];
    out = isSigned ? static_cast<int64_t>(static_cast<int32_t>(bits))
                   : static_cast<int64_t>(bits);
  } else if (op.mode == OperandMode::Imm) {
    out = op.value;
  } else {
    return malformed(operandText(i) + " is not a register or an immediate");
  }
  if (out >= lo && out <= hi)
    return true;
  std::string source = isReg ? " (r" + std::to_string(op.value) + ")" : "";
  badOperand(trap, std::string(name) + ": " + what + " " + std::to_string(out) +
                       source + " is not in " + std::to_string(lo) + ".." +
                       std::to_string(hi));
  return false;
}

bool InstructionOperands::taskRef(const pe::Operand &op, const char *what,
                                  std::optional<uint8_t> &out) {
  return resolveTaskRef(op, state, name, what, out, trap);
}

bool InstructionOperands::kindIs(const Descriptor &d, DSRId id,
                                 std::initializer_list<DSRKind> kinds,
                                 const char *list, const char *has) {
  for (DSRKind kind : kinds)
    if (d.kind == kind)
      return true;
  badOperand(trap, std::string(name) + ": " + id.getName() + " is a " +
                       std::string(getDSRKindName(d.kind)) + " DSR; only " +
                       list + " DSRs have " + has);
  return false;
}

bool InstructionOperands::malformed(const std::string &why) {
  badOperand(trap, std::string(name) + ": malformed instruction (" + why + ")");
  return false;
}
