//===- TestSupport.h - running scalar code in tests -------------*- C++ -*-===//
//
// Programs are written as pe::Instruction lists, encoded with pe::encode
// into a ProgramBinary, and run by the real DecodedProgram and ScalarCore.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_TEST_EMULATORCORE_TESTSUPPORT_H
#define TESSERA_TEST_EMULATORCORE_TESTSUPPORT_H

#include "tessera/Emulator/ScalarCore.h"

#include <catch2/catch.hpp>

#include <bit>
#include <initializer_list>
#include <vector>

namespace emutest {

using namespace tessera;
using namespace tessera::emulator;
using pe::Opcode;
using pe::Operand;

/// Where test programs are loaded unless a test says otherwise.
inline constexpr uint16_t CodeBase = 0x100;

inline Operand R(unsigned reg) { return Operand::reg(reg); }
inline Operand Imm(int64_t value) { return Operand::imm(value); }
inline pe::Instruction I(Opcode opcode, std::vector<Operand> operands = {}) {
  return {opcode, std::move(operands), {}};
}

inline pe::ProgramBinary assemble(const std::vector<pe::Instruction> &insts,
                                  uint16_t codeAddress = CodeBase) {
  pe::ProgramBinary program;
  program.codeAddress = codeAddress;
  for (const pe::Instruction &inst : insts)
    if (auto error = pe::encode(inst, program.code))
      FAIL("cannot encode " << pe::format(inst) << ": " << error->message);
  return program;
}

/// A program loaded into one PE: its decoded code, memory and CE state.
struct Machine {
  explicit Machine(const pe::ProgramBinary &binary)
      : program(binary), memory(PEMemory::buildImage(binary).image) {
    state.pc = binary.codeAddress;
  }
  explicit Machine(const std::vector<pe::Instruction> &insts)
      : Machine(assemble(insts)) {}

  StepResult step() { return emulator::step(state, memory, program, trap); }

  DecodedProgram program;
  PEMemory memory;
  CEState state;
  Trap trap;
};

/// One instruction, run again and again on different inputs: r0, r1, ...
/// get `inputs`, the instruction runs once, and `dest` is read back.
class Single {
public:
  Single(Opcode opcode, std::vector<Operand> operands)
      : machine(std::vector<pe::Instruction>{I(opcode, std::move(operands))}) {}

  uint32_t operator()(std::initializer_list<uint32_t> inputs, unsigned dest) {
    machine.state.pc = CodeBase;
    unsigned reg = 0;
    for (uint32_t value : inputs)
      machine.state.r[reg++] = value;
    StepResult result = machine.step();
    if (result != StepResult::Continue)
      FAIL("the instruction did not continue: " << machine.trap.message);
    return machine.state.r[dest];
  }

  Machine machine;
};

/// `op r2, r0, r1`.
inline Single binary(Opcode opcode) {
  return Single(opcode, {R(2), R(0), R(1)});
}
/// `op r1, r0`.
inline Single unary(Opcode opcode) { return Single(opcode, {R(1), R(0)}); }

inline uint32_t bitsOf(float value) { return std::bit_cast<uint32_t>(value); }
inline float floatOf(uint32_t bits) { return std::bit_cast<float>(bits); }

} // namespace emutest

#endif // TESSERA_TEST_EMULATORCORE_TESTSUPPORT_H
