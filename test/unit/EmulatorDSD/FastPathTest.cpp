//===- FastPathTest.cpp - the fast path agrees with the element path ------===//
//
// The memory-only fast path must be indistinguishable from running element
// by element: random operations over random, often overlapping or
// out-of-range operands are run both ways (the fast one in random slices)
// and everything observable is compared.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "ElementOps.h"

#include <random>

using namespace dsdtest;

using V = std::vector<uint32_t>;

TEST_CASE("every DSD operation of ISA.def has a shape", "[dsd][fast]") {
  unsigned count = 0;
  for (const pe::InstInfo &info : pe::getInstTable()) {
    if (info.instClass != pe::InstClass::DSDOp)
      continue;
    std::optional<dsd::OpShape> shape = dsd::getShape(info.opcode);
    if (info.opcode == Opcode::Map) {
      CHECK_FALSE(shape);
      continue;
    }
    INFO(info.mnemonic);
    REQUIRE(shape);
    CHECK(shape->sources + 1u == info.operands.size());
    CHECK(dsd::getApply(info.opcode) != nullptr);
    ++count;
  }
  CHECK(count == 42);
  CHECK_FALSE(dsd::getApply(Opcode::Map));
}

namespace {

/// A random operand for slot `slot` (0: the destination) of an operation.
struct Builder {
  std::mt19937 &random;
  std::vector<pe::Instruction> setup;
  std::vector<std::pair<unsigned, uint32_t>> registers;
  unsigned nextRegister = 1;

  unsigned pick(unsigned n) { return random() % n; }
  int64_t between(int64_t lo, int64_t hi) {
    return lo + static_cast<int64_t>(random() % (hi - lo + 1));
  }
  /// Mostly inside a 768-byte window, sometimes near the end of memory or
  /// at an odd address.
  int64_t base() {
    unsigned where = pick(40);
    if (where == 0)
      return 0xBFC0 + 2 * pick(32);
    if (where == 1)
      return 0x1001 + 2 * pick(64);
    return 0x1000 + 2 * pick(256);
  }

  Operand operand(unsigned slot, Operand dsr) {
    unsigned kind = pick(20);
    if (slot > 0 && kind < 2) { // a scalar
      unsigned reg = nextRegister++;
      registers.push_back({reg, static_cast<uint32_t>(random())});
      return R(reg);
    }
    if (kind < 3) { // a pointer
      unsigned reg = nextRegister++;
      registers.push_back({reg, static_cast<uint32_t>(base())});
      return Ptr(reg);
    }
    Operand width = Imm(pick(2) ? 32 : 16);
    if (kind < 5) {
      std::vector<Operand> operands = {dsr, width, Imm(base()),
                                       Imm(pick(4) == 0)};
      for (unsigned d = 0, dims = 1 + pick(4); d < dims; ++d) {
        operands.push_back(Imm(between(0, 4)));
        operands.push_back(Imm(between(-6, 6)));
      }
      setup.push_back({Opcode::DsrMem4d, operands, {}});
    } else if (kind < 7) {
      setup.push_back(
          {Opcode::DsrCircbuf,
           {dsr, width, Imm(base()), Imm(between(0, 24)), Imm(between(1, 7))},
           {}});
    } else {
      setup.push_back(
          {Opcode::DsrMem1d,
           {dsr, width, Imm(base()), Imm(between(0, 24)), Imm(between(-4, 8)),
            Imm(between(-3, 3)), Imm(pick(4) == 0)},
           {}});
    }
    if (pick(4) == 0)
      setup.push_back({Opcode::DsrSaveAddress, {dsr}, {}});
    return dsr;
  }
};

struct Observed {
  DSDStatus status;
  uint64_t elements;
  std::string message;
  std::vector<uint8_t> window, top;
  std::vector<Descriptor> dsrs;
  bool operator==(const Observed &) const = default;
};

/// Plays `inst` twice; `copied` starts each round as a copy of a start
/// template (DSDEngine::restart), whose slots must stay as they were.
Observed play(bool fast, const Builder &builder, const pe::Instruction &inst,
              uint32_t seed, unsigned slices, bool copied = false) {
  Machine m(fast);
  std::mt19937 fill(seed);
  std::vector<uint8_t> window(0x400), top(0x100);
  for (uint8_t &byte : window)
    byte = static_cast<uint8_t>(fill());
  for (uint8_t &byte : top)
    byte = static_cast<uint8_t>(fill());
  REQUIRE(m.memory.write(0x1000, window) == MemoryStatus::Ok);
  REQUIRE(m.memory.write(0xBF00, top) == MemoryStatus::Ok);
  for (auto [reg, value] : builder.registers)
    m.state.r[reg] = value;
  for (const pe::Instruction &step : builder.setup)
    m.exec(step.opcode, step.operands, step.options);
  // Twice, so that save-address positions are used as well as written.
  Observed observed{};
  for (int round = 0; round < 2; ++round) {
    KeptStart kept;
    if (copied)
      m.startCopy(inst, kept);
    else
      m.start(inst.opcode, inst.operands, inst.options);
    DSDProgress progress;
    uint64_t slice = slices ? 1 + m.op.getLength() / slices : UINT64_MAX;
    do {
      progress = m.run(slice);
      observed.elements += progress.elements;
    } while (progress.status == DSDStatus::Paused);
    observed.status = progress.status;
    if (copied)
      REQUIRE(kept.currentSlotBytes() == kept.slotBytes);
    if (progress.status == DSDStatus::Trapped) {
      observed.message = m.trap.message;
      break;
    }
  }
  REQUIRE(m.memory.read(0x1000, window) == MemoryStatus::Ok);
  REQUIRE(m.memory.read(0xBF00, top) == MemoryStatus::Ok);
  observed.window = window;
  observed.top = top;
  for (DSRId id : {DSRId{0, 0}, DSRId{1, 0}, DSRId{2, 0}, DSRId{2, 1}})
    observed.dsrs.push_back(m.dsrs.get(id));
  return observed;
}

} // namespace

TEST_CASE("random operations run the same on both paths", "[dsd][fast]") {
  std::vector<Opcode> opcodes = shapedOpcodes();
  std::mt19937 random(20260611);
  unsigned traps = 0, fastOnes = 0;
  for (int trial = 0; trial < 3000; ++trial) {
    Opcode opcode = opcodes[random() % opcodes.size()];
    std::optional<dsd::OpShape> shape = dsd::getShape(opcode);
    Builder builder{random, {}, {}};
    const Operand dsrs[] = {Dest(0), Src0(0), Src1(0), Src1(1)};
    pe::Instruction inst{opcode, {}, {}};
    for (unsigned slot = 0; slot <= shape->sources; ++slot)
      inst.operands.push_back(builder.operand(slot, dsrs[slot]));
    if (random() % 4 == 0) {
      builder.registers.push_back({15, static_cast<uint32_t>(random() % 9)});
      inst.options.indexReg = 15;
    }
    uint32_t seed = random();
    unsigned slices = random() % 3 == 0 ? 1 + random() % 4 : 0;
    Observed slow = play(false, builder, inst, seed, 0);
    Observed quick = play(true, builder, inst, seed, slices);
    INFO("trial " << trial << ": " << pe::format(inst));
    REQUIRE(quick == slow);
    // Copies of a start template, on either path, as the PE model runs
    // them (docs/Emulator.md, "Starting an operation").
    REQUIRE(play(true, builder, inst, seed, slices, true) == slow);
    REQUIRE(play(false, builder, inst, seed, slices, true) == slow);
    traps += slow.status == DSDStatus::Trapped;
    fastOnes += slow.status == DSDStatus::Done;
  }
  // Both outcomes were exercised.
  CHECK(traps > 100);
  CHECK(fastOnes > 1000);
}

TEST_CASE("the fast path handles more elements than one chunk", "[dsd][fast]") {
  for (bool fast : {true, false}) {
    Machine m(fast);
    m.put16(0x2000, {3});
    // 400 x 300 reads of one element.
    m.exec(Opcode::DsrMem4d, {Src0(0), Imm(16), Imm(0x2000), Imm(0), Imm(400),
                              Imm(0), Imm(300), Imm(0)});
    m.state.r[1] = 0x600;
    DSDProgress progress = m.runOp(Opcode::Add16V, {Ptr(1), Ptr(1), Src0(0)});
    CHECK(progress.elements == 120000);
    CHECK(m.get16(0x600, 1) == V{(3 * 120000) & 0xFFFF});
  }
}
