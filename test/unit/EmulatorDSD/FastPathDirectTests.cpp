//===- FastPathDirectTests.cpp - the fast path on memory in place ---------===//
//
// Chunks of 64 elements or more run on PE memory viewed in place
// (PEMemory::viewSpans) instead of a mirror. Large random operations over a
// shared image, owned pages and the window, often overlapping, must end
// exactly as element by element; so must the cases the views make special:
// a destination that is also a source, and one that reads what an earlier
// element wrote.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "ElementOps.h"

#include <random>

using namespace dsdtest;

namespace {

/// An image of random bytes shared by both runs of a trial.
MemoryImage randomImage(uint32_t seed) {
  std::mt19937 random(seed);
  auto bytes = std::make_shared<std::vector<uint8_t>>(PEMemory::Size);
  for (uint8_t &byte : *bytes)
    byte = static_cast<uint8_t>(random());
  return bytes;
}

/// Random large operands: lengths of 64 and more, bases in 8 KiB (so that
/// operands overlap) or near the end of memory (so that some trap late).
struct LargeBuilder {
  std::mt19937 &random;
  std::vector<pe::Instruction> setup;
  std::vector<std::pair<unsigned, uint32_t>> registers;
  unsigned nextRegister = 1;
  int64_t destBase = -1;

  unsigned pick(unsigned n) { return random() % n; }
  int64_t between(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(random() % (hi - lo + 1));
  }
  int64_t base() {
    unsigned where = pick(30);
    if (where == 0)
      return 0xBA00 + 2 * pick(0x200);
    if (where == 1)
      return 0x1001 + 2 * pick(64);
    // On, next to or near the destination.
    if (destBase >= 0 && where < 12)
      return destBase + 2 * between(-4, 4) * (pick(3) == 0 ? 1 : 0);
    return 0x1000 + 2 * pick(0x1000);
  }

  Operand operand(unsigned slot, Operand dsr) {
    unsigned kind = pick(20);
    if (slot > 0 && kind < 3) {
      unsigned reg = nextRegister++;
      registers.push_back({reg, static_cast<uint32_t>(random())});
      return R(reg);
    }
    if (kind < 4) {
      unsigned reg = nextRegister++;
      int64_t at = base();
      registers.push_back({reg, static_cast<uint32_t>(at)});
      if (slot == 0)
        destBase = at;
      return Ptr(reg, pick(2));
    }
    Operand width = Imm(pick(2) ? 32 : 16);
    int64_t at = base();
    if (slot == 0)
      destBase = at;
    if (kind < 7) {
      std::vector<Operand> operands = {dsr, width, Imm(at), Imm(0)};
      unsigned dims = 1 + pick(3);
      for (unsigned d = 0; d < dims; ++d) {
        operands.push_back(Imm(d + 1 == dims ? between(8, 40) : between(2, 6)));
        operands.push_back(Imm(between(-3, 12)));
      }
      setup.push_back({Opcode::DsrMem4d, operands, {}});
    } else if (kind < 9) {
      setup.push_back(
          {Opcode::DsrCircbuf,
           {dsr, width, Imm(at), Imm(between(64, 600)), Imm(between(1, 300))},
           {}});
    } else {
      int64_t stride = pick(2) ? 1 : between(-3, 3);
      setup.push_back({Opcode::DsrMem1d,
                       {dsr, width, Imm(at), Imm(between(64, 900)),
                        Imm(between(-4, 8)), Imm(stride), Imm(pick(6) == 0)},
                       {}});
    }
    if (pick(4) == 0)
      setup.push_back({Opcode::DsrSaveAddress, {dsr}, {}});
    return dsr;
  }
};

/// Runs the operation twice on a memory over `image` with some pages
/// written first; the fast run goes in slices of `slice` elements.
Outcome play(bool fast, const LargeBuilder &builder,
             const pe::Instruction &inst, const MemoryImage &image,
             uint32_t seed, uint64_t slice) {
  Machine m(fast);
  m.memory = PEMemory(image);
  std::mt19937 fill(seed);
  for (int i = 0; i < 12; ++i)
    REQUIRE(m.memory.store32(0x1000 + 4 * (fill() % 0x800), fill()) ==
            MemoryStatus::Ok);
  m.prepare(builder.registers, builder.setup);
  Outcome outcome{};
  for (int round = 0; round < 2; ++round) {
    DSDProgress progress = m.runSliced(inst, slice, outcome.elements);
    outcome.status = progress.status;
    if (progress.status == DSDStatus::Trapped) {
      outcome.message = m.trap.message;
      break;
    }
  }
  outcome.memory.resize(PEMemory::Size);
  REQUIRE(m.memory.read(0, outcome.memory) == MemoryStatus::Ok);
  outcome.dsrs = m.operandDSRs();
  return outcome;
}

/// fmacs over mem1d DSRs of `n` f32 at the given bases (dest.0, src0.0,
/// src1.0) and r4 = 0.7, on both paths; the destination's elements.
std::vector<uint32_t> fmacsBoth(uint32_t dest, uint32_t x, uint32_t a,
                                unsigned n) {
  std::vector<uint32_t> results[2];
  MemoryImage image = randomImage(7);
  for (bool fast : {true, false}) {
    Machine m(fast);
    m.memory = PEMemory(image);
    // Finite inputs, so that the results are not all NaN.
    for (unsigned i = 0; i < 4 * n + 8; ++i)
      REQUIRE(m.memory.store32(0x1000 + 4 * i,
                               bitsOf(static_cast<float>(i % 37) / 8.0f -
                                      2.0f)) == MemoryStatus::Ok);
    m.mem1d(Dest(0), 32, dest, n);
    m.mem1d(Src0(0), 32, x, n);
    m.mem1d(Src1(0), 32, a, n);
    m.state.r[4] = bitsOf(0.7f);
    CHECK(m.runOp(Opcode::FMacSV, {Dest(0), Src0(0), Src1(0), R(4)}).elements ==
          n);
    results[fast] = m.get32(dest, n);
    // The image is shared, never written.
    CHECK((*image)[dest] == (*randomImage(7))[dest]);
  }
  CHECK(results[0] == results[1]);
  return results[1];
}

} // namespace

TEST_CASE("large random operations run the same on both paths",
          "[dsd][fast][direct]") {
  std::vector<Opcode> opcodes = shapedOpcodes();
  std::mt19937 random(20261122);
  unsigned traps = 0, done = 0;
  for (int trial = 0; trial < 600; ++trial) {
    Opcode opcode = opcodes[random() % opcodes.size()];
    std::optional<dsd::OpShape> shape = dsd::getShape(opcode);
    LargeBuilder builder{random, {}, {}};
    const Operand dsrs[] = {Dest(0), Src0(0), Src1(0), Src1(1)};
    pe::Instruction inst{opcode, {}, {}};
    for (unsigned slot = 0; slot <= shape->sources; ++slot)
      inst.operands.push_back(builder.operand(slot, dsrs[slot]));
    if (random() % 4 == 0) {
      builder.registers.push_back({15, static_cast<uint32_t>(random() % 9)});
      inst.options.indexReg = 15;
    }
    MemoryImage image = randomImage(random());
    uint32_t seed = random();
    // Whole, in slices the direct path takes, or mixing both paths.
    const uint64_t slices[] = {UINT64_MAX, 64, 100, 37};
    uint64_t slice = slices[random() % 4];
    Outcome slow = play(false, builder, inst, image, seed, UINT64_MAX);
    Outcome quick = play(true, builder, inst, image, seed, slice);
    INFO("trial " << trial << ": " << pe::format(inst) << ", slices of "
                  << slice);
    REQUIRE(quick.status == slow.status);
    REQUIRE(quick.message == slow.message);
    REQUIRE(quick.elements == slow.elements);
    REQUIRE(quick.dsrs == slow.dsrs);
    REQUIRE(quick.memory == slow.memory);
    traps += slow.status == DSDStatus::Trapped;
    done += slow.status == DSDStatus::Done;
  }
  CHECK(traps > 30);
  CHECK(done > 300);
}

TEST_CASE("fmacs streams on memory in place, apart or in place",
          "[dsd][fast][direct]") {
  // Apart: three arrays of 1,500 f32 one after another.
  std::vector<uint32_t> apart =
      fmacsBoth(0x1000, 0x1000 + 6000, 0x1000 + 12000, 1500);
  CHECK(apart[1] != 0);
  // In place: y = y + a * s, and y = x + y * s.
  fmacsBoth(0x1000, 0x1000, 0x3000, 1500);
  fmacsBoth(0x3000, 0x1000, 0x3000, 1500);
}

TEST_CASE("a destination one element ahead of its source sees every "
          "earlier write",
          "[dsd][fast][direct]") {
  // y[i + 1] = y[i] + a[i] * s: a recurrence along the array.
  std::vector<uint32_t> ahead = fmacsBoth(0x1004, 0x1000, 0x3000, 1000);
  // And behind: y[i] = y[i + 1] + a[i] * s reads only old values.
  fmacsBoth(0x1000, 0x1004, 0x3000, 1000);
  // The recurrence really ran: the last element depends on all before it.
  CHECK(ahead[999] != ahead[998]);
}

TEST_CASE("large operations on the shared image own only what they write",
          "[dsd][fast][direct]") {
  MemoryImage image = randomImage(11);
  for (bool fast : {true, false}) {
    Machine m(fast);
    m.memory = PEMemory(image);
    m.mem1d(Dest(0), 16, 0x8000, 1024); // 2 KiB: 8 pages
    m.mem1d(Src0(0), 16, 0x2000, 1024);
    m.mem1d(Src1(0), 16, 0x2800, 1024);
    m.runOp(Opcode::Add16V, {Dest(0), Src0(0), Src1(0)});
    CHECK(m.memory.getTouchedPages() == 8);
    // Sources read in place from the image need no window.
    CHECK(m.memory.getWindowBytes() == (fast ? 0x800u : 0u));
    for (unsigned i = 0; i < 1024; i += 97) {
      unsigned x = (*image)[0x2000 + 2 * i] | (*image)[0x2001 + 2 * i] << 8;
      unsigned y = (*image)[0x2800 + 2 * i] | (*image)[0x2801 + 2 * i] << 8;
      CHECK(m.get16(0x8000 + 2 * i, 1) ==
            std::vector<uint32_t>{(x + y) & 0xFFFF});
    }
  }
}
