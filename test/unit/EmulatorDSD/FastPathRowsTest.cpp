//===- FastPathRowsTest.cpp - the fast path over rows of 2-D blocks -------===//
//
// Operations whose mem4d operands are 2-D blocks with rows of one length
// (a stencil's shifted copies of a block) run row by row in the fast path.
// Random blocks, apart, overlapping and in place, next to mem1d operands
// and scalars, in whole runs and in slices that start mid-row, must end
// exactly as element by element; a 5-point stencil step must match a plain
// loop.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "ElementOps.h"

#include <random>

using namespace dsdtest;

namespace {

/// One operand of a trial: a 2-D block (rows x length, rows `pitch`
/// elements apart), a consecutive mem1d or a scalar.
struct RowsBuilder {
  std::mt19937 &random;
  unsigned length, rows;
  std::vector<pe::Instruction> setup;
  std::vector<std::pair<unsigned, uint32_t>> registers;
  unsigned nextRegister = 1;
  int64_t destBase = 0;
  bool inPlace = false; ///< a source starts where the destination does

  unsigned pick(unsigned n) { return random() % n; }
  int64_t between(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(random() % (hi - lo + 1));
  }

  Operand operand(unsigned slot, Operand dsr, unsigned width) {
    unsigned kind = pick(10);
    if (slot > 0 && kind == 0) {
      unsigned reg = nextRegister++;
      registers.push_back({reg, static_cast<uint32_t>(random())});
      return R(reg);
    }
    unsigned bytes = width / 8;
    // On the destination, a few elements or rows from it, or apart.
    int64_t base = 0x1000 + 2 * pick(0x600);
    if (slot == 0)
      destBase = base;
    else if (pick(3) != 0)
      base = destBase + bytes * between(-2, 2) * (pick(2) ? 1 : length);
    inPlace |= slot > 0 && base == destBase;
    if (kind == 1) {
      setup.push_back({Opcode::DsrMem1d,
                       {dsr, Imm(width), Imm(base), Imm(length * rows), Imm(0),
                        Imm(1), Imm(0)},
                       {}});
      return dsr;
    }
    // Rows apart, adjacent (a 1-D run), overlapping or walking backwards.
    int64_t pitch = length + between(-3, 4);
    if (pick(6) == 0)
      pitch = -pitch;
    setup.push_back({Opcode::DsrMem4d,
                     {dsr, Imm(width), Imm(base), Imm(0), Imm(rows), Imm(pitch),
                      Imm(length), Imm(1)},
                     {}});
    return dsr;
  }
};

Outcome play(bool fast, const RowsBuilder &builder, const pe::Instruction &inst,
             uint32_t seed, uint64_t slice) {
  Machine m(fast);
  std::mt19937 fill(seed);
  std::vector<uint8_t> window(0x2000);
  for (uint8_t &byte : window)
    byte = static_cast<uint8_t>(fill());
  REQUIRE(m.memory.write(0x800, window) == MemoryStatus::Ok);
  m.prepare(builder.registers, builder.setup);
  Outcome outcome{};
  DSDProgress progress = m.runSliced(inst, slice, outcome.elements);
  outcome.status = progress.status;
  outcome.message = progress.status == DSDStatus::Trapped ? m.trap.message : "";
  REQUIRE(m.memory.read(0x800, window) == MemoryStatus::Ok);
  outcome.memory = window;
  outcome.dsrs = m.operandDSRs();
  return outcome;
}

} // namespace

TEST_CASE("operations over rows of 2-D blocks run the same on both paths",
          "[dsd][fast][rows]") {
  std::vector<Opcode> opcodes = shapedOpcodes();
  std::mt19937 random(20261126);
  unsigned inPlace = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    Opcode opcode = opcodes[random() % opcodes.size()];
    std::optional<dsd::OpShape> shape = dsd::getShape(opcode);
    // Rows of 2 to 16 elements; 64 elements or more run on memory in
    // place, fewer on the mirror.
    unsigned length = 2 + random() % 15;
    unsigned rows = 1 + random() % (random() % 2 ? 4 : 12);
    RowsBuilder builder{random, length, rows, {}, {}};
    const Operand dsrs[] = {Dest(0), Src0(0), Src1(0), Src1(1)};
    pe::Instruction inst{opcode, {}, {}};
    for (unsigned slot = 0; slot <= shape->sources; ++slot)
      inst.operands.push_back(builder.operand(
          slot, dsrs[slot], slot == 0 ? shape->dest : shape->src[slot - 1]));
    uint32_t seed = random();
    // Whole, a row at a time, or slices that start mid-row.
    const uint64_t slices[] = {UINT64_MAX, length, 2 * length + 1, 5};
    uint64_t slice = slices[random() % 4];
    Outcome slow = play(false, builder, inst, seed, UINT64_MAX);
    Outcome quick = play(true, builder, inst, seed, slice);
    INFO("trial " << trial << ": " << pe::format(inst) << ", rows of " << length
                  << ", slices of " << slice);
    REQUIRE(slow.status == DSDStatus::Done);
    REQUIRE(quick == slow);
    inPlace += builder.inPlace;
  }
  CHECK(inPlace > 200);
}

TEST_CASE("a 5-point stencil step over a block with a halo matches a plain "
          "loop",
          "[dsd][fast][rows]") {
  // u is 10 x 10 f32 at 0x2000 (an 8 x 8 block and its halo), v 8 x 8 at
  // 0x3000: v = 0.125 * (north + south + west + east) + 0.5 * u, as
  // bench/stencil computes it.
  constexpr unsigned N = 8, P = N + 2;
  std::vector<float> u(P * P);
  for (unsigned i = 0; i < P * P; ++i)
    u[i] = static_cast<float>((7 * i) % 17);
  std::vector<float> expected(N * N);
  for (unsigned i = 0; i < N; ++i)
    for (unsigned j = 0; j < N; ++j) {
      auto at = [&](unsigned r, unsigned c) { return u[r * P + c]; };
      float sum = at(i, j + 1) + at(i + 2, j + 1);
      sum = sum + at(i + 1, j);
      sum = sum + at(i + 1, j + 2);
      expected[i * N + j] = sum * 0.125f + at(i + 1, j + 1) * 0.5f;
    }
  for (bool fast : {true, false}) {
    INFO((fast ? "fast path" : "element path"));
    Machine m(fast);
    std::vector<uint32_t> bits;
    for (float value : u)
      bits.push_back(bitsOf(value));
    m.put32(0x2000, bits);
    auto block = [&](Operand dsr, uint32_t base, unsigned pitch) {
      m.exec(Opcode::DsrMem4d, {dsr, Imm(32), Imm(base), Imm(0), Imm(N),
                                Imm(pitch), Imm(N), Imm(1)});
    };
    auto shifted = [&](Operand dsr, unsigned row, unsigned col) {
      block(dsr, 0x2000 + 4 * (row * P + col), P);
    };
    // v = north + south; v += west; v += east; v *= 0.125;
    // v += 0.5 * u.
    block(Dest(0), 0x3000, N);
    block(Src0(0), 0x3000, N);
    shifted(Src0(1), 0, 1);
    shifted(Src1(0), 2, 1);
    CHECK(m.runOp(Opcode::FAddSV, {Dest(0), Src0(1), Src1(0)}).elements ==
          N * N);
    shifted(Src1(0), 1, 0);
    m.runOp(Opcode::FAddSV, {Dest(0), Src0(0), Src1(0)});
    shifted(Src1(0), 1, 2);
    m.runOp(Opcode::FAddSV, {Dest(0), Src0(0), Src1(0)});
    m.state.r[4] = bitsOf(0.125f);
    m.runOp(Opcode::FMulSV, {Dest(0), Src0(0), R(4)});
    shifted(Src1(0), 1, 1);
    m.state.r[5] = bitsOf(0.5f);
    m.runOp(Opcode::FMacSV, {Dest(0), Src0(0), Src1(0), R(5)});
    std::vector<uint32_t> got = m.get32(0x3000, N * N);
    for (unsigned k = 0; k < N * N; ++k) {
      INFO("element " << k);
      CHECK(floatOf(got[k]) == expected[k]);
    }
  }
}
