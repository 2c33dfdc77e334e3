//===- Format.cpp - disassembly text --------------------------------------===//

#include "tessera/Target/PEBinary/ISA.h"

#include <cstdio>

namespace tessera::pe {

namespace {

std::string hex(int64_t value, int digits) {
  char buffer[24];
  std::snprintf(buffer, sizeof(buffer), "0x%0*llx", digits,
                static_cast<unsigned long long>(value));
  return buffer;
}

std::string formatOperand(OperandKind kind, const Operand &op) {
  std::string value = std::to_string(op.value);
  switch (op.mode) {
  case OperandMode::Reg:
    return "r" + value;
  case OperandMode::Ptr:
    return "[r" + value + "]" + (op.wide ? ".32" : "");
  case OperandMode::DestDSR:
    return "dest." + value;
  case OperandMode::Src0DSR:
    return "src0." + value;
  case OperandMode::Src1DSR:
    return "src1." + value;
  case OperandMode::None:
    return "_";
  case OperandMode::Imm:
    break;
  }
  switch (kind) {
  case OperandKind::Imm32:
    return hex(op.value, 8);
  case OperandKind::CodeAddr:
    return hex(op.value, 4);
  case OperandKind::BlockSpace:
    return std::string(getBlockSpaceName(static_cast<BlockSpace>(op.value)));
  case OperandKind::FCmpPred:
    return std::string(
        getFCmpPredicateName(static_cast<FCmpPredicate>(op.value)));
  case OperandKind::Width:
    return "w" + value;
  case OperandKind::Priority:
    return std::string(getPriorityName(static_cast<Priority>(op.value)));
  case OperandKind::Color:
    return "c" + value;
  case OperandKind::Queue:
    return "q" + value;
  case OperandKind::Fifo:
    return "fifo" + value;
  default:
    return value;
  }
}

} // namespace

std::string format(const Instruction &inst) {
  const InstInfo *info = getInstInfo(inst.opcode);
  if (!info)
    return "<invalid>";
  std::string text(info->mnemonic);
  for (size_t i = 0; i < inst.operands.size(); ++i) {
    OperandKind kind =
        i < info->operands.size() ? info->operands[i] : info->variadic;
    text += i == 0 ? " " : ", ";
    text += formatOperand(kind, inst.operands[i]);
  }
  const DSDOptions &opts = inst.options;
  if (opts.async)
    text += " async";
  if (opts.priority != Priority::Default)
    text += " priority " + std::string(getPriorityName(opts.priority));
  if (opts.activate)
    text += " activate " + formatOperand(OperandKind::TaskRef, *opts.activate);
  if (opts.unblock)
    text += " unblock " + formatOperand(OperandKind::TaskRef, *opts.unblock);
  if (opts.microthread)
    text += " ut " + formatOperand(OperandKind::TaskRef, *opts.microthread);
  if (opts.indexReg)
    text += " index r" + std::to_string(*opts.indexReg);
  return text;
}

} // namespace tessera::pe
