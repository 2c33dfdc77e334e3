//===- InstructionOperands.h - a DSR instruction's operands -----*- C++ -*-===//
//
// Reads and checks the operands of one DSR-class instruction: registers
// through the CE state, immediates as the decoder gives them. Each reader
// fills the trap and returns false on the first operand that cannot be
// used; messages are only built then. Internal to the DSD engine.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_DSD_INSTRUCTIONOPERANDS_H
#define TESSERA_EMULATOR_DSD_INSTRUCTIONOPERANDS_H

#include "tessera/Emulator/DSRFile.h"

#include <initializer_list>
#include <string>
#include <string_view>

namespace tessera::emulator::dsd {

class InstructionOperands {
public:
  InstructionOperands(const pe::Instruction &inst, const CEState &state,
                      DSDTrap &trap);

  /// The operand count fits the instruction table.
  bool checkCount();
  bool dsr(unsigned i, DSRId &out);
  /// An immediate the decoder has range-checked (flags, colors, ...).
  bool imm(unsigned i, int64_t lo, int64_t hi, int64_t &out);
  bool flag(unsigned i, bool &out);
  bool width(unsigned i, uint8_t &out);
  bool priority(unsigned i, pe::Priority &out);
  /// A RegOrU16/RegOrS16 operand: a register's 32 bits, unsigned or
  /// signed, or the immediate; it must lie in lo..hi ("extent 40000 (r3)
  /// is not in 0..32767").
  bool value(unsigned i, const char *what, bool isSigned, int64_t lo,
             int64_t hi, int64_t &out);
  /// An OptTaskRef or TaskRef: none, a number or a register's 0..63.
  bool taskRef(const pe::Operand &op, const char *what,
               std::optional<uint8_t> &out);
  /// `d` (in DSR `id`) has one of `kinds`; `list` names them and `has` the
  /// field only they have.
  bool kindIs(const Descriptor &d, DSRId id,
              std::initializer_list<DSRKind> kinds, const char *list,
              const char *has);
  /// "<mnemonic>: malformed instruction (<why>)"; returns false.
  bool malformed(const std::string &why);

  const pe::Instruction &inst;
  const CEState &state;
  DSDTrap &trap;
  std::string_view name;
};

} // namespace tessera::emulator::dsd

#endif // TESSERA_EMULATOR_DSD_INSTRUCTIONOPERANDS_H
