//===- DecodedProgram.cpp - a program's code, decoded once ----------------===//

#include "tessera/Emulator/DecodedProgram.h"

#include <algorithm>

using namespace tessera;
using namespace tessera::emulator;

namespace {

/// The flat form of a scalar instruction (see DecodedInst).
void flatten(const pe::Instruction &inst, DecodedInst &out) {
  const pe::InstInfo *info = pe::getInstInfo(inst.opcode);
  unsigned regs = 0;
  // Scalar instructions have at most four registers and no variadic tail;
  // the bounds keep a future table row from writing out of place.
  for (size_t i = 0; i < inst.operands.size() && i < info->operands.size();
       ++i) {
    const pe::Operand &op = inst.operands[i];
    pe::OperandKind kind = info->operands[i];
    bool isReg =
        kind == pe::OperandKind::Reg ||
        (kind == pe::OperandKind::RegOrU16 && op.mode == pe::OperandMode::Reg);
    if (isReg && regs < 4) {
      if (kind == pe::OperandKind::RegOrU16)
        out.flags |= DecodedInst::RegOperand;
      out.reg[regs++] = static_cast<uint8_t>(op.value & 15);
    } else {
      // Signed immediates arrive sign-extended; keep their 32 low bits.
      out.imm = static_cast<uint32_t>(op.value);
    }
  }
}

} // namespace

bool DecodedProgram::isScalar(pe::Opcode opcode) {
  const pe::InstInfo *info = pe::getInstInfo(opcode);
  if (!info)
    return false;
  switch (info->instClass) {
  case pe::InstClass::Misc:
  case pe::InstClass::IntALU:
  case pe::InstClass::FloatALU:
  case pe::InstClass::Memory:
  case pe::InstClass::Branch:
    return true;
  case pe::InstClass::Task:
  case pe::InstClass::Config:
  case pe::InstClass::DSR:
  case pe::InstClass::DSDOp:
    return false;
  }
  return false;
}

DecodedProgram::DecodedProgram(const pe::ProgramBinary &program)
    : codeBegin(program.codeAddress), files(program.files),
      lines(program.lines) {
  // Only the words that lie in PE memory can ever be fetched.
  size_t room =
      pe::MemoryBytes > codeBegin ? (pe::MemoryBytes - codeBegin) / 2 : 0;
  size_t count = std::min(program.code.size(), room);
  code.assign(program.code.begin(), program.code.begin() + count);
  entries.resize(count);
  pe::Instruction inst;
  for (size_t i = 0; i < count; ++i) {
    DecodedInst &entry = entries[i];
    // A word with no opcode (common inside instructions) is undecodable
    // without asking the decoder, which would write its message.
    if (!pe::getInstInfo(static_cast<pe::Opcode>(code[i] >> 8)))
      continue;
    pe::DecodeResult result = pe::decode(code.data() + i, count - i, inst);
    if (!result)
      continue;
    entry.opcode = inst.opcode;
    entry.size = static_cast<uint8_t>(result.size);
    if (isScalar(inst.opcode)) {
      flatten(inst, entry);
      entry.flags |= DecodedInst::ScalarOpcode;
    } else {
      entry.aux = static_cast<uint32_t>(fullInstructions.size());
      fullInstructions.push_back(std::move(inst));
    }
  }
  sortLines();
}

void DecodedProgram::sortLines() {
  // By address, keeping the order of entries at one address (the last is
  // the innermost). Not std::stable_sort: libstdc++ 12's uses a deprecated
  // buffer API and warns.
  std::vector<size_t> order(lines.size());
  for (size_t i = 0; i < order.size(); ++i)
    order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return lines[a].address != lines[b].address
               ? lines[a].address < lines[b].address
               : a < b;
  });
  std::vector<pe::LineEntry> sorted;
  sorted.reserve(lines.size());
  for (size_t i : order)
    sorted.push_back(lines[i]);
  lines = std::move(sorted);
}

const pe::Instruction *
DecodedProgram::getInstruction(const DecodedInst &inst) const {
  if (inst.opcode == pe::Opcode::Invalid || inst.isScalar() ||
      inst.aux >= fullInstructions.size())
    return nullptr;
  return &fullInstructions[inst.aux];
}

std::string DecodedProgram::getDecodeError(const DecodedInst &inst) const {
  if (inst.opcode != pe::Opcode::Invalid || entries.empty() ||
      &inst < entries.data() || &inst >= entries.data() + entries.size())
    return {};
  size_t index = static_cast<size_t>(&inst - entries.data());
  pe::Instruction scratch;
  pe::DecodeResult result =
      pe::decode(code.data() + index, code.size() - index, scratch);
  return result ? std::string() : result.error->message;
}

std::optional<SourceLocation> DecodedProgram::getLocation(uint32_t pc) const {
  if (pc < codeBegin || pc >= getCodeEnd())
    return std::nullopt;
  auto after = std::upper_bound(lines.begin(), lines.end(), pc,
                                [](uint32_t address, const pe::LineEntry &e) {
                                  return address < e.address;
                                });
  if (after == lines.begin())
    return std::nullopt;
  const pe::LineEntry &entry = *std::prev(after);
  std::string file = entry.file < files.size() ? files[entry.file] : "";
  return SourceLocation{std::move(file), entry.line, entry.column};
}
