//===- ClockTest.cpp - what instructions cost, and the PE's config words --===//
//
// docs/Emulator.md "Instructions in time" and docs/Library.md: scalar
// instructions take a cycle each, an operation on memory ceil(elements /
// SIMD width); the time-stamp counter, simprint and coordinates.
//
//===----------------------------------------------------------------------===//

#include "TestMachine.h"

using namespace machinetest;

namespace {

constexpr uint16_t Source = 0x2800, Target = 0x3000;

struct CostCase {
  Arch arch;
  unsigned bits;
  uint16_t elements;
  uint64_t cycles;
};

/// Runs one memory-only copy of `elements` elements of `bits` bits.
Machine copyMachine(const CostCase &c) {
  Program p("pe", c.arch);
  p.label("t10")
      .mem1d(Dest(0), c.bits, Target, c.elements)
      .mem1d(Src0(0), c.bits, Source, c.elements)
      .emit(c.bits == 32 ? Opcode::FMovSV : Opcode::FMovHV, {Dest(0), Src0(0)})
      .texit();
  p.task(TaskKind::Local, 10, "t10").activateAtStart(10);
  return Machine(Fabric::single(p));
}

} // namespace

TEST_CASE("an operation on memory costs ceil(elements / SIMD width) "
          "cycles") {
  // SIMD widths: WSE-2 2 (32-bit) and 4 (16-bit), WSE-3 4 and 8.
  const CostCase cases[] = {
      {Arch::WSE2, 32, 7, 4}, {Arch::WSE2, 16, 7, 2},
      {Arch::WSE3, 32, 7, 2}, {Arch::WSE3, 16, 7, 1},
      {Arch::WSE2, 32, 8, 4}, {Arch::WSE2, 32, 1, 1},
      {Arch::WSE3, 16, 9, 2}, {Arch::WSE2, 16, 1000, 250},
      {Arch::WSE2, 32, 0, 1}, // at least one cycle
  };
  for (const CostCase &c : cases) {
    INFO("arch " << (c.arch == Arch::WSE2 ? "wse2" : "wse3") << ", "
                 << c.elements << " elements of " << c.bits << " bits");
    Machine m = copyMachine(c);
    CHECK(m.run().status == RunStatus::Idle);
    // A task switch, two DSR instructions, the operation, texit.
    CHECK(m.emu.getCycle() == 1 + 2 + c.cycles + 1);
    CHECK(m.emu.getCounters() == PECounters{.instructions = 4,
                                            .dsdElements = c.elements,
                                            .tasksRun = 1,
                                            .busyCycles = 3 + c.cycles + 1});
  }
}

TEST_CASE("the widest memory operand sets an operation's SIMD width") {
  Program p("pe");
  // fh2s reads 16-bit elements and writes 32-bit ones: 8 / 2 cycles.
  p.label("t10")
      .mem1d(Dest(0), 32, Target, 8)
      .mem1d(Src0(0), 16, Source, 8)
      .emit(Opcode::FH2SV, {Dest(0), Src0(0)})
      .texit();
  p.task(TaskKind::Local, 10, "t10").activateAtStart(10);
  Machine m(Fabric::single(p));
  CHECK(m.run().status == RunStatus::Idle);
  CHECK(m.emu.getCycle() == 1 + 2 + 4 + 1);
}

TEST_CASE("scalar instructions take one cycle each, in batches or not") {
  Program p("pe");
  p.label("t10").movi(1, 1).cfgSet(TscControlWord, 1).cfgGet(2, TscLowWord);
  for (unsigned i = 0; i < 100; ++i) // more than one batch of 64
    p.emit(Opcode::AddI, {R(3), R(3), Imm(1)});
  p.cfgGet(4, TscLowWord).store(2, 0x1000).store(3, 0x1004).store(4, 0x1008);
  p.texit();
  p.task(TaskKind::Local, 10, "t10").activateAtStart(10);
  Machine m(Fabric::single(p));
  CHECK(m.run().status == RunStatus::Idle);
  // Counting from cycle 2: read at 3, 100 additions, read at 104.
  CHECK(m.read32s(0, 0, 0x1000, 3) == std::vector<uint32_t>{1, 100, 102});
  CHECK(m.emu.getCycle() == 1 + 3 + 100 + 1 + 3 + 1);
  CHECK(m.emu.getCounters().instructions == 3 + 100 + 1 + 3 + 1);
}

TEST_CASE("the time-stamp counter counts cycles while enabled and latches "
          "its high words") {
  // Enabled at cycle 4, the counter reads 0x1fffe at cycle 0x20002, after
  // a loop of two cycles per turn.
  constexpr int64_t Turns = (0x1FFFE - 4) / 2;
  Program p("pe");
  p.label("t10")
      .cfgGet(1, TscLowWord)     // 1: not counting yet
      .store(1, 0x1000)          // 2
      .movi(2, 1)                // 3
      .cfgSet(TscControlWord, 2) // 4
      .cfgGet(3, TscControlWord) // 5
      .store(3, 0x1004)          // 6
      .movi(4, Turns)            // 7
      .label("loop")
      .emit(Opcode::AddI, {R(4), R(4), Imm(-1)})
      .emit(Opcode::BNeZ, {R(4), L("loop")})
      .cfgGet(5, TscLowWord) // 0x1fffe: latches 1 and 0
      .emit(Opcode::Nop)
      .emit(Opcode::Nop)
      .cfgGet(6, TscMidWord)  // 1, although the counter is 0x20001
      .cfgGet(7, TscHighWord) // 0
      .cfgGet(8, TscLowWord)  // 0x20003: latches 2
      .cfgGet(9, TscMidWord)  // 2
      .movi(2, 0)
      .cfgSet(TscControlWord, 2) // stops at 0x20006
      .emit(Opcode::Nop)
      .cfgGet(10, TscLowWord)    // still 0x20006
      .cfgGet(1, TscControlWord) // 0
      .store(5, 0x1008)
      .store(6, 0x100C)
      .store(7, 0x1010)
      .store(8, 0x1014)
      .store(9, 0x1018)
      .store(10, 0x101C)
      .store(1, 0x1020)
      .texit();
  p.task(TaskKind::Local, 10, "t10").activateAtStart(10);
  Machine m(Fabric::single(p));
  CHECK(m.run().status == RunStatus::Idle);
  CHECK(m.read32s(0, 0, 0x1000, 9) ==
        std::vector<uint32_t>{0, 1, 0xFFFE, 1, 0, 0x0003, 2, 0x0006, 0});
}

TEST_CASE("simprint bytes form lines, cut at 4,096 bytes") {
  Program p("pe");
  p.label("t10")
      .movi(1, 'h')
      .cfgSet(SimprintWord, 1)
      .movi(1, 'i')
      .cfgSet(SimprintWord, 1)
      .movi(1, '\n')
      .cfgSet(SimprintWord, 1) // cycle 6
      .movi(1, 'a')
      .movi(2, 4100)
      .label("loop")
      .cfgSet(SimprintWord, 1)
      .emit(Opcode::AddI, {R(2), R(2), Imm(-1)})
      .emit(Opcode::BNeZ, {R(2), L("loop")})
      .movi(1, '\n')
      .cfgSet(SimprintWord, 1)
      .texit();
  p.task(TaskKind::Local, 10, "t10").activateAtStart(10);
  std::vector<PrintedLine> seen;
  EmulatorOptions options;
  options.onPrint = [&](const PrintedLine &line) { seen.push_back(line); };
  Machine m(Fabric::single(p), options);
  CHECK(m.run().status == RunStatus::Idle);
  // The loop writes at cycle 9 + 3k; the 4,096th byte (k = 4095) cuts the
  // line, the newline after the last four ends the next.
  std::vector<PrintedLine> expected = {
      {6, {0, 0}, "hi"},
      {9 + 3 * 4095, {0, 0}, std::string(4096, 'a')},
      {9 + 3 * 4100 + 1, {0, 0}, "aaaa"},
  };
  CHECK(m.emu.getPrintedLines() == expected);
  CHECK(seen == expected);
}

TEST_CASE("config words give the PE's coordinates and its router's words") {
  Program p("pe");
  p.label("t10")
      .cfgGet(1, XCoordWord)
      .cfgGet(2, YCoordWord)
      .cfgSet(XCoordWord, 2) // read-only: ignored
      .cfgGet(3, XCoordWord)
      .cfgGet(4, 0x7F85) // no such word: 0
      .cfgGet(5, ColorConfigWord + 3)
      .store(1, 0x1000)
      .store(2, 0x1004)
      .store(3, 0x1008)
      .store(4, 0x100C)
      .store(5, 0x1010)
      .texit();
  p.task(TaskKind::Local, 10, "t10").activateAtStart(10);
  Fabric f(3, 2);
  f.place(0, 0, p, 3).place(0, 1, p, 3);
  f.route(2, 1, 3, W, Ramp | N);
  Machine m(f);
  CHECK(m.run().status == RunStatus::Idle);
  for (unsigned y = 0; y < 2; ++y)
    for (unsigned x = 0; x < 3; ++x) {
      INFO("PE (" << x << ", " << y << ")");
      uint32_t word =
          m.emu.getNetwork().getColorConfigWord(x, y, 3).value_or(0);
      CHECK(m.read32s(x, y, 0x1000, 5) ==
            std::vector<uint32_t>{x, y, x, 0, word});
    }
  // tx W 1 | RAMP 16 ... in bits 0-4, rx in bits 5-9 (docs/Library.md).
  CHECK(m.read32(2, 1, 0x1010) == ((Ramp | N) | W << 5));
}
