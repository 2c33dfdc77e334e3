//===- ProgramTest.cpp - whole programs on the scalar core ----------------===//

#include "TestSupport.h"

#include <random>

using namespace emutest;

namespace {

/// The byte address of instruction `index` of `code` loaded at CodeBase.
uint16_t addressOf(const std::vector<pe::Instruction> &code, size_t index) {
  size_t words = 0;
  for (size_t i = 0; i < index; ++i)
    words += pe::encodedSize(code[i]);
  return static_cast<uint16_t>(CodeBase + 2 * words);
}

/// A PE entering a top-level call: r14 and r15 at the top of memory.
void enterCall(Machine &machine) {
  machine.state.r[pe::LinkRegister] = pe::MemoryBytes;
  machine.state.r[pe::StackRegister] = pe::MemoryBytes;
}

} // namespace

TEST_CASE("a loop sums 1..100 into memory", "[program]") {
  std::vector<pe::Instruction> code = {
      I(Opcode::MovI, {R(0), Imm(0)}),    // sum
      I(Opcode::MovI, {R(1), Imm(100)}),  // i
      I(Opcode::Add, {R(0), R(0), R(1)}), // loop: sum += i
      I(Opcode::AddI, {R(1), R(1), Imm(-1)}),
      I(Opcode::BNeZ, {R(1), Imm(0)}), // target patched below
      I(Opcode::MovI, {R(2), Imm(0x2000)}),
      I(Opcode::St32, {R(0), R(2), Imm(4)}),
      I(Opcode::Ret),
  };
  code[4].operands[1] = Imm(addressOf(code, 2));
  pe::ProgramBinary binary = assemble(code);
  ImageResult image = PEMemory::buildImage(binary);
  REQUIRE(image);

  DecodedProgram program(binary);
  PEMemory memory(image.image);
  CEState state;
  state.pc = CodeBase;
  state.r[pe::LinkRegister] = pe::MemoryBytes;
  Trap trap;
  RunResult result = run(state, memory, program, 100000, trap);
  CHECK(result.result == StepResult::Returned);
  CHECK(result.steps == 2 + 3 * 100 + 3);
  uint32_t sum = 0;
  REQUIRE(memory.load32(0x2004, sum) == MemoryStatus::Ok);
  CHECK(sum == 5050);
  CHECK(state.r[1] == 0);
  CHECK(memory.getTouchedPages() == 1);
  // The shared image still reads zero there.
  CHECK((*image.image)[0x2004] == 0);
  PEMemory other(image.image);
  REQUIRE(other.load32(0x2004, sum) == MemoryStatus::Ok);
  CHECK(sum == 0);
}

TEST_CASE("a call saves r14 on the stack and returns", "[program]") {
  std::vector<pe::Instruction> code = {
      I(Opcode::AddI, {R(15), R(15), Imm(-4)}),
      I(Opcode::St32, {R(14), R(15), Imm(0)}),
      I(Opcode::MovI, {R(0), Imm(-12)}),
      I(Opcode::Call, {Imm(0)}), // patched: square
      I(Opcode::Ld32, {R(14), R(15), Imm(0)}),
      I(Opcode::AddI, {R(15), R(15), Imm(4)}),
      I(Opcode::Ret),
      I(Opcode::Mul, {R(0), R(0), R(0)}), // square
      I(Opcode::Ret),
  };
  code[3].operands[0] = Imm(addressOf(code, 7));
  Machine machine(code);
  enterCall(machine);
  RunResult result =
      run(machine.state, machine.memory, machine.program, 1000, machine.trap);
  CHECK(result.result == StepResult::Returned);
  CHECK(result.steps == 9);
  CHECK(machine.state.r[0] == 144);
  CHECK(machine.state.r[15] == pe::MemoryBytes);
  CHECK(machine.state.pc == pe::MemoryBytes);
  uint32_t saved = 0;
  REQUIRE(machine.memory.load32(0xBFFC, saved) == MemoryStatus::Ok);
  CHECK(saved == pe::MemoryBytes);
}

TEST_CASE("run stops at a trap, at a non-scalar instruction, or at its limit",
          "[program]") {
  std::vector<pe::Instruction> code = {
      I(Opcode::MovI, {R(0), Imm(0)}),
      I(Opcode::Assert, {R(0), Imm(42)}),
  };
  pe::ProgramBinary binary = assemble(code);
  binary.files = {"pe.csl"};
  binary.lines = {{CodeBase, 0, 3, 5}, {addressOf(code, 1), 0, 4, 9}};
  Machine failing(binary);
  RunResult result =
      run(failing.state, failing.memory, failing.program, 100, failing.trap);
  CHECK(result.result == StepResult::Trapped);
  CHECK(result.steps == 1);
  CHECK(failing.trap.kind == TrapKind::AssertFailed);
  CHECK(failing.trap.code == 42);
  CHECK(failing.program.getLocation(failing.trap.pc) ==
        SourceLocation{"pe.csl", 4, 9});

  Machine task({I(Opcode::Nop), I(Opcode::Nop), I(Opcode::TaskExit)});
  result = run(task.state, task.memory, task.program, 100, task.trap);
  CHECK(result.result == StepResult::NotScalar);
  CHECK(result.steps == 2);
  CHECK(task.state.pc == CodeBase + 4);

  Machine spin({I(Opcode::Jmp, {Imm(CodeBase)})});
  result = run(spin.state, spin.memory, spin.program, 1000, spin.trap);
  CHECK(result.result == StepResult::Continue);
  CHECK(result.steps == 1000);
  result = run(spin.state, spin.memory, spin.program, 0, spin.trap);
  CHECK(result.result == StepResult::Continue);
  CHECK(result.steps == 0);
}

TEST_CASE("random code never crashes the core", "[program]") {
  std::mt19937 random(6);
  unsigned traps = 0, continued = 0, unexplained = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    pe::ProgramBinary binary;
    binary.codeAddress = CodeBase;
    // Mostly valid scalar opcodes with random operand bits, some noise.
    for (int i = 0; i < 64; ++i) {
      uint16_t word = static_cast<uint16_t>(random());
      if (i % 3 == 0 && random() % 4)
        word =
            static_cast<uint16_t>((random() % 0x62 + 1) << 8 | (word & 0xFF));
      binary.code.push_back(word);
    }
    Machine machine(binary);
    for (uint32_t &reg : machine.state.r)
      reg = random() % 3 ? random() % 0xC000 : random();
    for (int steps = 0; steps < 200; ++steps) {
      StepResult result = machine.step();
      if (result == StepResult::Continue) {
        ++continued;
        continue;
      }
      if (result == StepResult::NotScalar) {
        // Skip what the PE model would run.
        machine.state.pc += 2 * machine.program.lookup(machine.state.pc)->size;
        continue;
      }
      if (result == StepResult::Trapped) {
        ++traps;
        unexplained += machine.trap.message.empty();
      }
      break;
    }
  }
  // Instructions ran and traps were reported, each with a message.
  CHECK(traps > 1000);
  CHECK(continued > 500);
  CHECK(unexplained == 0);
}
