//===- DecodedProgram.h - a program's code, decoded once --------*- C++ -*-===//
//
// The compute engine never decodes while it runs: a DecodedProgram decodes
// the code section of a program binary once, at every halfword address, into
// compact entries the interpreter switches on (docs/Emulator.md). Words that
// do not decode become entries that trap with the decoder's message, so no
// input can crash the emulator. One DecodedProgram serves every PE that runs
// the program.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_DECODEDPROGRAM_H
#define TESSERA_EMULATOR_DECODEDPROGRAM_H

#include "tessera/Target/PEBinary/Binary.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::emulator {

/// One decoded instruction in the form the scalar core executes. Operands
/// are flattened in the order ISA.def lists them: registers into `reg`, the
/// one immediate (UImm16, SImm16 sign-extended, Imm32, Shift, CodeAddr as a
/// byte address, FCmpPred, or the immediate of a RegOrU16) into `imm`.
struct DecodedInst {
  /// pe::Opcode::Invalid when the words at this address do not decode.
  pe::Opcode opcode = pe::Opcode::Invalid;
  /// Words the instruction occupies (1 for an undecodable entry).
  uint8_t size = 1;
  /// Bit 0: the RegOrU16 operand (randsel) is a register, in reg[0].
  uint8_t flags = 0;
  uint8_t reg[4] = {0, 0, 0, 0};
  uint32_t imm = 0;
  /// Non-scalar instructions: index of the full form.
  uint32_t aux = 0;

  static constexpr uint8_t RegOperand = 1;
  /// Bit 1: the scalar core executes it (DecodedProgram::isScalar).
  static constexpr uint8_t ScalarOpcode = 2;
  bool isScalar() const { return flags & ScalarOpcode; }
};

/// Where an instruction came from, from the binary's line table.
struct SourceLocation {
  std::string file; ///< empty when the file index is out of range
  uint32_t line = 0;
  uint16_t column = 0;
  bool operator==(const SourceLocation &) const = default;
};

class DecodedProgram {
public:
  /// A program without code: every pc is outside the code.
  DecodedProgram() = default;
  /// Decodes the code of `program`; code words past the end of PE memory
  /// are ignored (PEMemory::buildImage reports that error).
  explicit DecodedProgram(const pe::ProgramBinary &program);

  /// The code occupies byte addresses [getCodeBegin(), getCodeEnd()).
  uint32_t getCodeBegin() const { return codeBegin; }
  uint32_t getCodeEnd() const {
    return codeBegin + 2 * static_cast<uint32_t>(entries.size());
  }

  /// The entry at byte address `pc`, or null if `pc` is odd or not in the
  /// code. Every halfword of the code has an entry: a jump into the middle
  /// of an instruction runs whatever the words from there decode to.
  const DecodedInst *lookup(uint32_t pc) const { return getTable().find(pc); }

  /// lookup's data by value, for a loop whose stores to PE memory (bytes,
  /// which may alias anything) would make it read them again each time.
  struct Table {
    const DecodedInst *entries;
    uint32_t codeBegin, halfwords;
    const DecodedInst *find(uint32_t pc) const {
      uint32_t offset = pc - codeBegin; // wraps below codeBegin
      if ((offset & 1) || offset / 2 >= halfwords)
        return nullptr;
      return entries + offset / 2;
    }
  };
  Table getTable() const {
    return {entries.data(), codeBegin, static_cast<uint32_t>(entries.size())};
  }

  /// The full instruction of a non-scalar entry (Task, Config, DSR and
  /// DSDOp classes), which the PE model executes; null for other entries.
  const pe::Instruction *getInstruction(const DecodedInst &inst) const;
  /// The decoder's message for an undecodable entry of this program (made
  /// when asked: most halfwords inside instructions do not decode, and only
  /// a jump there needs to say why); empty otherwise.
  std::string getDecodeError(const DecodedInst &inst) const;

  /// The source position of the instruction at `pc`: the last line entry at
  /// or below `pc` (the innermost of several at one address). None outside
  /// the code or before the first entry.
  std::optional<SourceLocation> getLocation(uint32_t pc) const;

  /// Whether `opcode` is one the scalar core executes (classes Misc,
  /// IntALU, FloatALU, Memory, Branch).
  static bool isScalar(pe::Opcode opcode);

private:
  void sortLines();

  uint32_t codeBegin = 0;
  std::vector<DecodedInst> entries;
  std::vector<pe::Instruction> fullInstructions;
  std::vector<uint16_t> code; ///< the words the entries were decoded from
  std::vector<std::string> files;
  std::vector<pe::LineEntry> lines; ///< sorted by address, stable
};

} // namespace tessera::emulator

#endif // TESSERA_EMULATOR_DECODEDPROGRAM_H
