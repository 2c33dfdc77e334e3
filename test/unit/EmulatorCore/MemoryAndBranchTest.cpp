//===- MemoryAndBranchTest.cpp - loads, stores, jumps and fetch traps -----===//

#include "TestSupport.h"

using namespace emutest;

namespace {

/// `op r1, r0, offset` with the bytes 80 7f fe ff at 0x2000.
Single memoryOp(Opcode opcode, int64_t offset) {
  Single inst(opcode, {R(1), R(0), Imm(offset)});
  const uint8_t bytes[] = {0x80, 0x7F, 0xFE, 0xFF};
  REQUIRE(inst.machine.memory.write(0x2000, bytes) == MemoryStatus::Ok);
  return inst;
}

/// Runs one instruction that must trap, checks nothing changed, returns
/// the trap.
Trap trapOf(Machine &machine) {
  CEState before = machine.state;
  unsigned pages = machine.memory.getTouchedPages();
  REQUIRE(machine.step() == StepResult::Trapped);
  CHECK(machine.state == before);
  CHECK(machine.memory.getTouchedPages() == pages);
  CHECK(machine.trap.pc == before.pc);
  return machine.trap;
}

} // namespace

TEST_CASE("loads extend as their name says", "[memory]") {
  CHECK(memoryOp(Opcode::Ld8S, 0)({0x2000}, 1) == 0xFFFFFF80);
  CHECK(memoryOp(Opcode::Ld8U, 0)({0x2000}, 1) == 0x80);
  CHECK(memoryOp(Opcode::Ld8S, 1)({0x2000}, 1) == 0x7F);
  CHECK(memoryOp(Opcode::Ld16S, 2)({0x2000}, 1) == 0xFFFFFFFE);
  CHECK(memoryOp(Opcode::Ld16U, 2)({0x2000}, 1) == 0xFFFE);
  CHECK(memoryOp(Opcode::Ld16S, 0)({0x2000}, 1) == 0x7F80);
  CHECK(memoryOp(Opcode::Ld32, 0)({0x2000}, 1) == 0xFFFE7F80);
  // The offset is signed, and the address wraps modulo 2^32.
  CHECK(memoryOp(Opcode::Ld32, -4)({0x2004}, 1) == 0xFFFE7F80);
  CHECK(memoryOp(Opcode::Ld8U, 0x2001)({0xFFFFFFFF}, 1) == 0x80);
}

TEST_CASE("stores write the low bits", "[memory]") {
  for (auto [opcode, expected] :
       {std::pair{Opcode::St8, 0x00000078u}, std::pair{Opcode::St16, 0x5678u},
        std::pair{Opcode::St32, 0x12345678u}}) {
    Machine machine({I(opcode, {R(0), R(1), Imm(-2)})});
    machine.state.r[0] = 0x12345678;
    machine.state.r[1] = 0x3002;
    REQUIRE(machine.step() == StepResult::Continue);
    uint32_t word;
    REQUIRE(machine.memory.load32(0x3000, word) == MemoryStatus::Ok);
    CHECK(word == expected);
    CHECK(machine.memory.getTouchedPages() == 1);
  }
}

TEST_CASE("bad memory accesses trap with the address and width", "[memory]") {
  struct Case {
    Opcode opcode;
    uint32_t base;
    int64_t offset;
    uint32_t address;
    unsigned width;
    const char *message;
  };
  const Case cases[] = {
      {Opcode::Ld32, 0xBFF0, 14, 0xBFFE, 4,
       "ld32 of 4 bytes at 0xbffe does not fit in memory (0x0000..0xbfff)"},
      {Opcode::Ld16U, 0x2001, 0, 0x2001, 2,
       "ld16u of 2 bytes at odd address 0x2001"},
      {Opcode::Ld16S, 0, -2, 0xFFFFFFFE, 2,
       "ld16s of 2 bytes at 0xfffffffe does not fit in memory "
       "(0x0000..0xbfff)"},
      {Opcode::Ld8S, 0xC000, 0, 0xC000, 1,
       "ld8s of 1 byte at 0xc000 does not fit in memory (0x0000..0xbfff)"},
      {Opcode::Ld8U, 0xBFFF, 1, 0xC000, 1,
       "ld8u of 1 byte at 0xc000 does not fit in memory (0x0000..0xbfff)"},
      {Opcode::St8, 0x10000, 0, 0x10000, 1,
       "st8 of 1 byte at 0x10000 does not fit in memory (0x0000..0xbfff)"},
      {Opcode::St16, 0x3000, 3, 0x3003, 2,
       "st16 of 2 bytes at odd address 0x3003"},
      {Opcode::St32, 0x3000, 1, 0x3001, 4,
       "st32 of 4 bytes at odd address 0x3001"},
      {Opcode::St32, 0xBFFF, 0, 0xBFFF, 4,
       "st32 of 4 bytes at 0xbfff does not fit in memory (0x0000..0xbfff)"},
  };
  for (const Case &c : cases) {
    INFO(c.message);
    Machine machine({I(c.opcode, {R(1), R(0), Imm(c.offset)})});
    machine.state.r[0] = c.base;
    machine.state.r[1] = 0xAAAAAAAA;
    Trap trap = trapOf(machine);
    CHECK(trap.kind == TrapKind::BadMemoryAccess);
    CHECK(trap.message == c.message);
    CHECK(trap.address == c.address);
    CHECK(trap.width == c.width);
  }
}

TEST_CASE("jmp, beqz and bnez go to absolute code addresses", "[branch]") {
  std::vector<pe::Instruction> code = {
      I(Opcode::Jmp, {Imm(0x106)}),        // 0x100, 2 words
      I(Opcode::Nop),                      // 0x104
      I(Opcode::BEqZ, {R(0), Imm(0x100)}), // 0x106, 2 words
      I(Opcode::BNeZ, {R(0), Imm(0x104)}), // 0x10a, 2 words
  };
  Machine machine(code);
  REQUIRE(machine.step() == StepResult::Continue);
  CHECK(machine.state.pc == 0x106);
  machine.state.r[0] = 0;
  REQUIRE(machine.step() == StepResult::Continue);
  CHECK(machine.state.pc == 0x100);

  machine.state.pc = 0x106;
  machine.state.r[0] = 0x80000000;
  REQUIRE(machine.step() == StepResult::Continue);
  CHECK(machine.state.pc == 0x10a);
  REQUIRE(machine.step() == StepResult::Continue);
  CHECK(machine.state.pc == 0x104);

  machine.state.pc = 0x10a;
  machine.state.r[0] = 0;
  REQUIRE(machine.step() == StepResult::Continue);
  CHECK(machine.state.pc == 0x10e);
}

TEST_CASE("call and callr link in r14, ret and jmpr jump to a register",
          "[branch]") {
  std::vector<pe::Instruction> code = {
      I(Opcode::Call, {Imm(0x108)}), // 0x100, 2 words
      I(Opcode::CallR, {R(14)}),     // 0x104
      I(Opcode::Nop),                // 0x106
      I(Opcode::Ret),                // 0x108
      I(Opcode::JmpR, {R(3)}),       // 0x10a
  };
  Machine machine(code);
  REQUIRE(machine.step() == StepResult::Continue);
  CHECK(machine.state.pc == 0x108);
  CHECK(machine.state.r[14] == 0x104);
  REQUIRE(machine.step() == StepResult::Continue); // ret
  CHECK(machine.state.pc == 0x104);
  // callr r14 jumps to the old r14 and links past itself.
  machine.state.r[14] = 0x10a;
  machine.state.r[3] = 0x106;
  REQUIRE(machine.step() == StepResult::Continue);
  CHECK(machine.state.pc == 0x10a);
  CHECK(machine.state.r[14] == 0x106);
  REQUIRE(machine.step() == StepResult::Continue); // jmpr r3
  CHECK(machine.state.pc == 0x106);
  CHECK(machine.state.r[14] == 0x106);
}

TEST_CASE("jumps to odd addresses or beyond memory trap", "[branch]") {
  struct Case {
    Opcode opcode;
    uint32_t target;
    const char *message;
  };
  const Case cases[] = {
      {Opcode::JmpR, 0x105, "jmpr to odd address 0x0105"},
      {Opcode::JmpR, 0xC002,
       "jmpr to 0xc002 is outside memory "
       "(0x0000..0xbfff)"},
      {Opcode::JmpR, 0xFFFFFFFF,
       "jmpr to 0xffffffff is outside memory "
       "(0x0000..0xbfff)"},
      {Opcode::CallR, 0x1, "callr to odd address 0x0001"},
      {Opcode::CallR, 0x20000,
       "callr to 0x20000 is outside memory "
       "(0x0000..0xbfff)"},
      {Opcode::Ret, 0xC001,
       "ret to 0xc001 is outside memory "
       "(0x0000..0xbfff)"},
      {Opcode::Ret, 0xBFFF, "ret to odd address 0xbfff"},
  };
  for (const Case &c : cases) {
    INFO(c.message);
    Machine machine(
        {c.opcode == Opcode::Ret ? I(Opcode::Ret) : I(c.opcode, {R(14)})});
    machine.state.r[14] = c.target;
    Trap trap = trapOf(machine);
    CHECK(trap.kind == TrapKind::BadJumpTarget);
    CHECK(trap.message == c.message);
    CHECK(trap.address == c.target);
  }
}

TEST_CASE("a jump to the top of memory returns from a top-level call",
          "[branch]") {
  Machine machine({I(Opcode::Ret)});
  machine.state.r[14] = pe::MemoryBytes;
  REQUIRE(machine.step() == StepResult::Continue);
  CHECK(machine.state.pc == 0xC000);
  CEState before = machine.state;
  CHECK(machine.step() == StepResult::Returned);
  CHECK(machine.state == before);
}

TEST_CASE("running outside the code traps", "[fetch]") {
  Machine machine({I(Opcode::JmpR, {R(0)}), I(Opcode::Nop)});
  // Falling off the end.
  machine.state.pc = 0x102;
  REQUIRE(machine.step() == StepResult::Continue);
  CHECK(machine.state.pc == 0x104);
  Trap end = trapOf(machine);
  CHECK(end.kind == TrapKind::OutsideCode);
  CHECK(end.message == "pc 0x0104 is outside the code (0x0100..0x0103)");

  // A jump into data is allowed; executing there is not.
  machine.state.pc = 0x100;
  machine.state.r[0] = 0x2000;
  REQUIRE(machine.step() == StepResult::Continue);
  CHECK(machine.state.pc == 0x2000);
  CHECK(trapOf(machine).message ==
        "pc 0x2000 is outside the code (0x0100..0x0103)");

  machine.state.pc = 0x101;
  CHECK(trapOf(machine).message ==
        "pc 0x0101 is outside the code (0x0100..0x0103)");

  Machine empty(std::vector<pe::Instruction>{});
  Trap none = trapOf(empty);
  CHECK(none.kind == TrapKind::OutsideCode);
  CHECK(none.message == "pc 0x0100 is outside the code (the program has no "
                        "code)");
}

TEST_CASE("undecodable words trap with the decoder's message", "[fetch]") {
  pe::ProgramBinary binary = assemble({I(Opcode::Nop)});
  binary.code.push_back(0x0000); // opcode 0: zeroed memory
  binary.code.push_back(0x0101); // nop with operand bits
  Machine machine(binary);
  REQUIRE(machine.step() == StepResult::Continue);
  Trap zero = trapOf(machine);
  CHECK(zero.kind == TrapKind::Undecodable);
  CHECK(zero.pc == 0x102);
  CHECK(zero.message == "undecodable instruction at 0x0102: invalid opcode "
                        "0x00");
  machine.state.pc = 0x104;
  CHECK(trapOf(machine).message ==
        "undecodable instruction at 0x0104: nop: non-zero padding bits");
}

TEST_CASE("other instruction classes are left to the PE model", "[fetch]") {
  for (const pe::Instruction &inst :
       {I(Opcode::Activate, {Imm(10)}), I(Opcode::TaskExit),
        I(Opcode::CfgGet, {R(1), Imm(3)}),
        I(Opcode::DsrCopy, {Operand::dsr(pe::OperandMode::DestDSR, 1),
                            Operand::dsr(pe::OperandMode::Src0DSR, 2)})}) {
    INFO(pe::format(inst));
    Machine machine({inst});
    CEState before = machine.state;
    CHECK(machine.step() == StepResult::NotScalar);
    CHECK(machine.state == before);
    const DecodedInst *entry = machine.program.lookup(machine.state.pc);
    REQUIRE(entry);
    const pe::Instruction *full = machine.program.getInstruction(*entry);
    REQUIRE(full);
    CHECK(*full == inst);
  }
}

TEST_CASE("the core executes every scalar opcode of the table", "[fetch]") {
  // Catches a scalar instruction appended to ISA.def without a case here.
  for (const pe::InstInfo &info : pe::getInstTable()) {
    if (!DecodedProgram::isScalar(info.opcode))
      continue;
    std::vector<Operand> operands;
    for (pe::OperandKind kind : info.operands)
      operands.push_back(kind == pe::OperandKind::Reg        ? R(1)
                         : kind == pe::OperandKind::CodeAddr ? Imm(CodeBase)
                                                             : Imm(1));
    INFO(info.mnemonic);
    Machine machine({I(info.opcode, operands)});
    machine.state.r[1] = 0x1000;
    machine.state.r[14] = CodeBase;
    CHECK(machine.step() != StepResult::NotScalar);
  }
}

namespace {

/// Refuses every access that overlaps [first, end), and notes each one it
/// was asked about.
struct RangeGuard final : MemoryGuard {
  uint32_t first, end;
  std::vector<std::tuple<uint32_t, unsigned, bool>> asked;
  RangeGuard(uint32_t first, uint32_t end) : first(first), end(end) {}
  bool allows(uint32_t address, unsigned width, bool store) override {
    asked.push_back({address, width, store});
    return address + width <= first || address >= end;
  }
};

} // namespace

TEST_CASE("a guard refuses a load or store before it is made", "[memory]") {
  // ld32 r2, [r0 + 0]; st16 r2, [r1 + 0]; st32 r2, [r1 + 2]: the guard
  // refuses bytes 0x3004..0x3007, so the third stops the run with nothing
  // changed (pc at it, memory and registers as after the second).
  Machine machine({I(Opcode::Ld32, {R(2), R(0), Imm(0)}),
                   I(Opcode::St16, {R(2), R(1), Imm(0)}),
                   I(Opcode::St32, {R(2), R(1), Imm(2)})});
  machine.state.r[0] = 0x2000;
  machine.state.r[1] = 0x3000;
  REQUIRE(machine.memory.store32(0x2000, 0xAABBCCDD) == MemoryStatus::Ok);
  RangeGuard guard(0x3004, 0x3008);
  RunResult result =
      emulator::run(machine.state, machine.memory, machine.program, 10,
                    machine.trap, nullptr, &guard);
  CHECK(result.result == StepResult::Guarded);
  CHECK(result.steps == 2);
  CHECK(machine.state.pc == CodeBase + 2 * 2 * 2);
  CHECK(machine.state.r[2] == 0xAABBCCDD);
  uint32_t word = 0;
  REQUIRE(machine.memory.load32(0x3000, word) == MemoryStatus::Ok);
  CHECK(word == 0xCCDD);
  REQUIRE(machine.memory.load32(0x3004, word) == MemoryStatus::Ok);
  CHECK(word == 0);
  using Asked = std::tuple<uint32_t, unsigned, bool>;
  CHECK(guard.asked == std::vector<Asked>{Asked{0x2000, 4, false},
                                          Asked{0x3000, 2, true},
                                          Asked{0x3002, 4, true}});
  // Without the guard the same instruction goes on.
  REQUIRE(machine.step() == StepResult::Continue);
  REQUIRE(machine.memory.load32(0x3004, word) == MemoryStatus::Ok);
  CHECK(word == 0xAABB);
}
