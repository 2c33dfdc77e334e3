//===- StartTemplateTest.cpp - reused operation starts read what changed ===//
//
// docs/Emulator.md "Starting an operation": a band copies an instruction's
// earlier start when the DSRs it reads were set by the same prebuilt
// builders and its registers hold the same values. Each round below runs
// the same two operations with one of those inputs changed; a start copied
// when it should not have been writes the wrong values or the wrong place.
//
//===----------------------------------------------------------------------===//

#include "TestMachine.h"

#include <bit>

using namespace machinetest;

namespace {

constexpr uint16_t Source = 0x2800, OtherSource = 0x2810, Table = 0x2820;
constexpr uint16_t Target = 0x3000, Out = 0x3400;
constexpr unsigned Elements = 4, Rounds = 3;

uint32_t bits(float value) { return std::bit_cast<uint32_t>(value); }

/// Round r: Target = (r == 0 ? Source : OtherSource) + Table[r], then
/// Target is copied to Out + 16 r. Both sources come from prebuilt
/// builders of one DSR; the copy's destination is prebuilt in round 0 and
/// built from a register afterwards.
Program rounds() {
  Program p("pe");
  p.data(Source, {bits(1), bits(2), bits(3), bits(4), bits(100), bits(200),
                  bits(300), bits(400), bits(10), bits(10), bits(20)});
  p.label("t10")
      .mem1d(Dest(1), 32, Out, Elements)
      .movi(4, 0)                  // r4: the round's offset into Table
      .movi(6, Out + 4 * Elements) // r6: the next round's output
      .movi(7, Rounds)             // r7: rounds left
      .label("round")
      .emit(Opcode::Ld32, {R(1), R(4), Imm(Table)})
      .mem1d(Dest(0), 32, Target, Elements)
      .mem1d(Src0(0), 32, Source, Elements)
      .emit(Opcode::BEqZ, {R(4), L("add")})
      .mem1d(Src0(0), 32, OtherSource, Elements)
      .label("add")
      .emit(Opcode::FAddSV, {Dest(0), Src0(0), R(1)})
      .mem1d(Src0(1), 32, Target, Elements)
      .emit(Opcode::FMovSV, {Dest(1), Src0(1)})
      .emit(Opcode::DsrMem1d,
            {Dest(1), Imm(32), R(6), Imm(Elements), Imm(0), Imm(1), Imm(0)})
      .emit(Opcode::AddI, {R(4), R(4), Imm(4)})
      .emit(Opcode::AddI, {R(6), R(6), Imm(4 * Elements)})
      .emit(Opcode::AddI, {R(7), R(7), Imm(-1)})
      .emit(Opcode::BNeZ, {R(7), L("round")})
      .texit();
  return p.task(TaskKind::Local, 10, "t10").activateAtStart(10);
}

} // namespace

TEST_CASE("a start is copied only while its DSRs' builders and registers "
          "are the same") {
  // Round 1 has round 0's scalar but its source from another builder;
  // round 2 has round 1's source but another scalar. Rounds 1 and 2 copy
  // to where a register says, not where round 0's prebuilt DSR did.
  Machine m(Fabric::single(rounds()));
  REQUIRE(m.run().status == RunStatus::Idle);
  CHECK(m.fault() == "");
  CHECK(m.read32s(0, 0, Out, Elements) ==
        std::vector<uint32_t>{bits(11), bits(12), bits(13), bits(14)});
  CHECK(m.read32s(0, 0, Out + 4 * Elements, Elements) ==
        std::vector<uint32_t>{bits(110), bits(210), bits(310), bits(410)});
  CHECK(m.read32s(0, 0, Out + 8 * Elements, Elements) ==
        std::vector<uint32_t>{bits(120), bits(220), bits(320), bits(420)});
}

TEST_CASE("PEs of one program copy each other's starts only with the same "
          "registers") {
  // Eight PEs in one band run the same fadds with a scalar loaded by their
  // x coordinate: each must add its own.
  Program p("pe");
  p.data(Source, {bits(1), bits(2), bits(3), bits(4), bits(10), bits(20),
                  bits(30), bits(40), bits(50), bits(60), bits(70), bits(80)});
  p.label("t10")
      .cfgGet(2, XCoordWord)
      .emit(Opcode::ShlI, {R(5), R(2), Imm(2)})
      .emit(Opcode::Ld32, {R(1), R(5), Imm(OtherSource)})
      .mem1d(Dest(0), 32, Target, Elements)
      .mem1d(Src0(0), 32, Source, Elements)
      .emit(Opcode::FAddSV, {Dest(0), Src0(0), R(1)})
      .texit();
  p.task(TaskKind::Local, 10, "t10").activateAtStart(10);
  Fabric f(8, 1);
  f.place(0, 0, p, 8);
  Machine m(f);
  REQUIRE(m.run().status == RunStatus::Idle);
  for (unsigned x = 0; x < 8; ++x) {
    INFO("PE " << x);
    float add = 10.0f * float(x + 1);
    CHECK(m.read32s(x, 0, Target, Elements) ==
          std::vector<uint32_t>{bits(1 + add), bits(2 + add), bits(3 + add),
                                bits(4 + add)});
  }
}
