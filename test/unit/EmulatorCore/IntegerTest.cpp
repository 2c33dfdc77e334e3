//===- IntegerTest.cpp - moves, integer ALU and miscellaneous instructions ===//

#include "TestSupport.h"

using namespace emutest;

namespace {

constexpr uint32_t IntMin = 0x80000000;
constexpr uint32_t MinusOne = 0xFFFFFFFF;

uint32_t apply2(Opcode opcode, uint32_t x, uint32_t y) {
  return binary(opcode)({x, y}, 2);
}
uint32_t apply1(Opcode opcode, uint32_t x) { return unary(opcode)({x}, 1); }
/// `op r1, r0, imm`.
uint32_t applyImm(Opcode opcode, uint32_t x, int64_t imm) {
  return Single(opcode, {R(1), R(0), Imm(imm)})({x}, 1);
}

} // namespace

TEST_CASE("moves", "[integer]") {
  CHECK(Single(Opcode::Mov, {R(3), R(0)})({0xDEADBEEF}, 3) == 0xDEADBEEF);
  CHECK(Single(Opcode::MovI, {R(0), Imm(-1)})({}, 0) == MinusOne);
  CHECK(Single(Opcode::MovI, {R(0), Imm(-32768)})({}, 0) == 0xFFFF8000);
  CHECK(Single(Opcode::MovI, {R(0), Imm(32767)})({}, 0) == 0x7FFF);
  CHECK(Single(Opcode::MovI32, {R(15), Imm(0xFEDCBA98)})({}, 15) == 0xFEDCBA98);
}

TEST_CASE("add, sub and mul wrap modulo 2^32", "[integer]") {
  CHECK(apply2(Opcode::Add, 0xFFFFFFFF, 2) == 1);
  CHECK(apply2(Opcode::Add, 0x7FFFFFFF, 1) == IntMin);
  CHECK(apply2(Opcode::Sub, 0, 1) == MinusOne);
  CHECK(apply2(Opcode::Sub, IntMin, 1) == 0x7FFFFFFF);
  CHECK(apply2(Opcode::Mul, 0x10000, 0x10000) == 0);
  CHECK(apply2(Opcode::Mul, MinusOne, MinusOne) == 1);
  CHECK(apply2(Opcode::Mul, 123456789, 1000) == 0xBE991A08);
}

TEST_CASE("mulhs and mulhu give the high half of the 64-bit product",
          "[integer]") {
  CHECK(apply2(Opcode::MulHU, MinusOne, MinusOne) == 0xFFFFFFFE);
  CHECK(apply2(Opcode::MulHS, MinusOne, MinusOne) == 0);
  CHECK(apply2(Opcode::MulHS, IntMin, IntMin) == 0x40000000);
  CHECK(apply2(Opcode::MulHU, IntMin, IntMin) == 0x40000000);
  CHECK(apply2(Opcode::MulHS, IntMin, 2) == MinusOne);
  CHECK(apply2(Opcode::MulHU, IntMin, 2) == 1);
  CHECK(apply2(Opcode::MulHS, 0x7FFFFFFF, static_cast<uint32_t>(-3)) ==
        0xFFFFFFFE);
}

TEST_CASE("division truncates and never traps", "[integer]") {
  CHECK(apply2(Opcode::DivS, static_cast<uint32_t>(-7), 2) ==
        static_cast<uint32_t>(-3));
  CHECK(apply2(Opcode::RemS, static_cast<uint32_t>(-7), 2) == MinusOne);
  CHECK(apply2(Opcode::DivS, 7, static_cast<uint32_t>(-2)) ==
        static_cast<uint32_t>(-3));
  CHECK(apply2(Opcode::RemS, 7, static_cast<uint32_t>(-2)) == 1);
  CHECK(apply2(Opcode::DivU, MinusOne, 2) == 0x7FFFFFFF);
  CHECK(apply2(Opcode::RemU, MinusOne, 10) == 5);

  // By zero.
  CHECK(apply2(Opcode::DivU, 5, 0) == 0xFFFFFFFF);
  CHECK(apply2(Opcode::DivS, 5, 0) == MinusOne);
  CHECK(apply2(Opcode::DivS, static_cast<uint32_t>(-5), 0) == MinusOne);
  CHECK(apply2(Opcode::RemU, 0xABCDEF01, 0) == 0xABCDEF01);
  CHECK(apply2(Opcode::RemS, static_cast<uint32_t>(-5), 0) ==
        static_cast<uint32_t>(-5));
  // INT_MIN / -1.
  CHECK(apply2(Opcode::DivS, IntMin, MinusOne) == IntMin);
  CHECK(apply2(Opcode::RemS, IntMin, MinusOne) == 0);
  CHECK(apply2(Opcode::DivU, IntMin, MinusOne) == 0);
  CHECK(apply2(Opcode::RemU, IntMin, MinusOne) == IntMin);
}

TEST_CASE("bitwise operations", "[integer]") {
  CHECK(apply2(Opcode::And, 0xF0F0F0F0, 0xFF00FF00) == 0xF000F000);
  CHECK(apply2(Opcode::Or, 0xF0F0F0F0, 0x0F000000) == 0xFFF0F0F0);
  CHECK(apply2(Opcode::Xor, 0xFFFF0000, 0xF0F0F0F0) == 0x0F0FF0F0);
  CHECK(apply1(Opcode::Not, 0x0000FFFF) == 0xFFFF0000);
  CHECK(apply1(Opcode::Neg, 1) == MinusOne);
  CHECK(apply1(Opcode::Neg, IntMin) == IntMin);
  CHECK(apply1(Opcode::Neg, 0) == 0);
}

TEST_CASE("register shift amounts use their low 5 bits", "[integer]") {
  CHECK(apply2(Opcode::Shl, 1, 31) == IntMin);
  CHECK(apply2(Opcode::Shl, 1, 32) == 1);
  CHECK(apply2(Opcode::Shl, 3, 33) == 6);
  CHECK(apply2(Opcode::Shl, 1, 0xFFFFFFFF) == IntMin);
  CHECK(apply2(Opcode::ShrL, IntMin, 31) == 1);
  CHECK(apply2(Opcode::ShrL, IntMin, 32) == IntMin);
  CHECK(apply2(Opcode::ShrL, IntMin, 36) == 0x08000000);
  CHECK(apply2(Opcode::ShrA, IntMin, 31) == MinusOne);
  CHECK(apply2(Opcode::ShrA, IntMin, 64) == IntMin);
  CHECK(apply2(Opcode::ShrA, 0x40000000, 30) == 1);
  CHECK(apply2(Opcode::ShrA, 0xF0000000, 4) == 0xFF000000);
}

TEST_CASE("immediate forms extend as ISA.md says", "[integer]") {
  CHECK(applyImm(Opcode::AddI, 10, -11) == MinusOne);
  CHECK(applyImm(Opcode::AddI, 0xFFFFFFFF, 1) == 0);
  CHECK(applyImm(Opcode::AddI, 0, 32767) == 32767);
  CHECK(applyImm(Opcode::AndI, 0xFFFFFFFF, 0xFFFF) == 0x0000FFFF);
  CHECK(applyImm(Opcode::AndI, 0x12345678, 0x8000) == 0);
  CHECK(applyImm(Opcode::OrI, 0x12340000, 0x8001) == 0x12348001);
  CHECK(applyImm(Opcode::XorI, 0xFFFFFFFF, 0xFFFF) == 0xFFFF0000);
  CHECK(applyImm(Opcode::ShlI, 0x80000001, 1) == 2);
  CHECK(applyImm(Opcode::ShlI, 5, 0) == 5);
  CHECK(applyImm(Opcode::ShrLI, 0x80000000, 31) == 1);
  CHECK(applyImm(Opcode::ShrAI, 0x80000000, 31) == MinusOne);
  CHECK(applyImm(Opcode::ShrAI, 0x7FFFFFFF, 30) == 1);
}

TEST_CASE("comparisons give 0 or 1", "[integer]") {
  CHECK(apply2(Opcode::CmpEq, 5, 5) == 1);
  CHECK(apply2(Opcode::CmpEq, 5, 6) == 0);
  CHECK(apply2(Opcode::CmpNe, 5, 6) == 1);
  CHECK(apply2(Opcode::CmpNe, 5, 5) == 0);
  CHECK(apply2(Opcode::CmpLtS, MinusOne, 0) == 1);
  CHECK(apply2(Opcode::CmpLtU, MinusOne, 0) == 0);
  CHECK(apply2(Opcode::CmpLtS, 0, 0) == 0);
  CHECK(apply2(Opcode::CmpLtU, 0, MinusOne) == 1);
  CHECK(apply2(Opcode::CmpLeS, IntMin, 0x7FFFFFFF) == 1);
  CHECK(apply2(Opcode::CmpLeU, IntMin, 0x7FFFFFFF) == 0);
  CHECK(apply2(Opcode::CmpLeS, 3, 3) == 1);
  CHECK(apply2(Opcode::CmpLeU, 3, 3) == 1);
  CHECK(apply2(Opcode::CmpLeS, 4, 3) == 0);
}

TEST_CASE("sign and zero extension", "[integer]") {
  CHECK(apply1(Opcode::SExt8, 0x12345680) == 0xFFFFFF80);
  CHECK(apply1(Opcode::SExt8, 0xFFFFFF7F) == 0x7F);
  CHECK(apply1(Opcode::SExt16, 0x00018000) == 0xFFFF8000);
  CHECK(apply1(Opcode::SExt16, 0xFFFF7FFF) == 0x7FFF);
  CHECK(apply1(Opcode::ZExt8, 0xFFFFFF80) == 0x80);
  CHECK(apply1(Opcode::ZExt16, 0xFFFF8000) == 0x8000);
}

TEST_CASE("bit counts", "[integer]") {
  CHECK(apply1(Opcode::Clz32, 0) == 32);
  CHECK(apply1(Opcode::Clz32, 1) == 31);
  CHECK(apply1(Opcode::Clz32, IntMin) == 0);
  CHECK(apply1(Opcode::Ctz32, 0) == 32);
  CHECK(apply1(Opcode::Ctz32, IntMin) == 31);
  CHECK(apply1(Opcode::Ctz32, 0x00010100) == 8);
  CHECK(apply1(Opcode::Popc32, 0) == 0);
  CHECK(apply1(Opcode::Popc32, MinusOne) == 32);
  CHECK(apply1(Opcode::Popc32, 0xF0F00001) == 9);
}

TEST_CASE("sel picks by a register being non-zero", "[integer]") {
  Single sel(Opcode::Select, {R(4), R(0), R(1), R(2)});
  CHECK(sel({1, 111, 222}, 4) == 111);
  CHECK(sel({IntMin, 111, 222}, 4) == 111);
  CHECK(sel({0, 111, 222}, 4) == 222);
}

TEST_CASE("a destination may also be a source", "[integer]") {
  CHECK(Single(Opcode::Add, {R(0), R(0), R(0)})({21}, 0) == 42);
  CHECK(Single(Opcode::Select, {R(0), R(0), R(1), R(2)})({0, 7, 9}, 0) == 9);
}

TEST_CASE("nop changes nothing but pc", "[misc]") {
  Machine machine({I(Opcode::Nop)});
  machine.state.r[3] = 77;
  CEState before = machine.state;
  REQUIRE(machine.step() == StepResult::Continue);
  CHECK(machine.state.pc == CodeBase + 2);
  CHECK(machine.state.r == before.r);
}

TEST_CASE("trap and a failing assert stop with their code", "[misc]") {
  Machine trap({I(Opcode::Trap, {Imm(65535)})});
  REQUIRE(trap.step() == StepResult::Trapped);
  CHECK(trap.trap.kind == TrapKind::TrapInstruction);
  CHECK(trap.trap.pc == CodeBase);
  CHECK(trap.trap.code == 65535);
  CHECK(trap.trap.message == "trap instruction (code 65535)");
  CHECK(trap.state.pc == CodeBase);

  Machine check({I(Opcode::Assert, {R(5), Imm(7)}), I(Opcode::Nop)});
  check.state.r[5] = IntMin; // non-zero: passes
  REQUIRE(check.step() == StepResult::Continue);
  CHECK(check.state.pc == CodeBase + 4);
  check.state.pc = CodeBase;
  check.state.r[5] = 0;
  REQUIRE(check.step() == StepResult::Trapped);
  CHECK(check.trap.kind == TrapKind::AssertFailed);
  CHECK(check.trap.pc == CodeBase);
  CHECK(check.trap.code == 7);
  CHECK(check.trap.message == "assertion failed (code 7)");
  CHECK(check.state.pc == CodeBase);
}

TEST_CASE("PRNG seeds are the documented function of the coordinates",
          "[misc]") {
  // MurmurHash3's fmix32, written out independently of the emulator.
  auto fmix = [](uint32_t h) {
    h = (h ^ (h >> 16)) * 0x85EBCA6Bu;
    h = (h ^ (h >> 13)) * 0xC2B2AE35u;
    return h ^ (h >> 16);
  };
  for (uint32_t x : {0u, 1u, 7u, 756u})
    for (uint32_t y : {0u, 3u, 995u})
      for (unsigned g = 0; g < NumGenerators; ++g)
        CHECK(prngSeed(x, y, g) == fmix((x << 16 | y) + 0x9E3779B9u * (g + 1)));
  CHECK(prngSeed(0, 0, 0) == 0x92CA2F0E);
  // The key that hashes to 0 gets the fixed non-zero seed instead.
  CHECK(prngSeed(0x61C8, 0x8647, 0) == 0x6D2B79F5);

  CEState state;
  state.prngSelect = 3;
  state.seedPRNG(4, 5);
  CHECK(state.prngSelect == 0);
  for (unsigned g = 0; g < NumGenerators; ++g)
    CHECK(state.prng[g] == prngSeed(4, 5, g));
}

TEST_CASE("rand16 returns the top 16 bits of the selected xorshift32",
          "[misc]") {
  Machine machine({I(Opcode::Random16, {R(2)}), I(Opcode::SetPRNG, {Imm(6)}),
                   I(Opcode::Random16, {R(3)}), I(Opcode::SetPRNG, {R(1)}),
                   I(Opcode::Random16, {R(4)})});
  machine.state.seedPRNG(3, 9);
  machine.state.r[1] = 0xFFFFFFFF; // selects generator 3
  std::array<uint32_t, NumGenerators> expected = machine.state.prng;
  auto next = [&](unsigned g) {
    uint32_t &x = expected[g];
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    return x >> 16;
  };
  for (int i = 0; i < 5; ++i)
    REQUIRE(machine.step() == StepResult::Continue);
  CHECK(machine.state.r[2] == next(0));
  CHECK(machine.state.r[3] == next(2));
  CHECK(machine.state.r[4] == next(3));
  CHECK(machine.state.prngSelect == 3);
  CHECK(machine.state.prng == expected);
  CHECK(machine.state.r[2] <= 0xFFFF);

  // A fixed sequence, so that a change of the generator cannot go unseen.
  uint32_t state = 1;
  CHECK(xorshift32(state) == 270369);
  CHECK(xorshift32(state) == 67634689);
}
