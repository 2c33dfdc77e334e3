//===- TaskRefs.cpp - resolving task references ---------------------------===//

#include "TaskRefs.h"

#include "Messages.h"

using namespace tessera;
using namespace tessera::emulator;

bool dsd::resolveTaskRef(const pe::Operand &op, const CEState &state,
                         std::string_view inst, std::string_view what,
                         std::optional<uint8_t> &out, DSDTrap &trap) {
  int64_t number;
  bool isReg = op.mode == pe::OperandMode::Reg && op.value >= 0 &&
               op.value < pe::NumRegisters;
  if (op.mode == pe::OperandMode::None) {
    out.reset();
    return true;
  }
  if (isReg) {
    number = state.r[op.value];
  } else if (op.mode == pe::OperandMode::Imm) {
    number = op.value;
  } else {
    badOperand(trap, std::string(inst) + ": malformed instruction (" +
                         std::string(what) + " is not a task reference)");
    return false;
  }
  if (number >= 0 && number < NumTaskRefValues) {
    out = static_cast<uint8_t>(number);
    return true;
  }
  std::string source = isReg ? " (r" + std::to_string(op.value) + ")" : "";
  badOperand(trap, std::string(inst) + ": " + std::string(what) + " " +
                       std::to_string(number) + source + " is not in 0.." +
                       std::to_string(NumTaskRefValues - 1));
  return false;
}
