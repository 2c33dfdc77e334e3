//===- OperationChainTest.cpp - operations on memory run in a chain -------===//
//
// docs/Emulator.md "Chained operations": while no microthread is busy, a
// main thread's operations on memory, and the register and DSR work
// between them, run ahead in one turn. Each program below runs with and
// without that (EmulatorOptions::chainOperations) and must give the same
// run to the cycle; where the host stops the run or steps it, the PEs must
// also look the same at every stop.
//
//===----------------------------------------------------------------------===//

#include "TestMachine.h"

#include <bit>
#include <functional>

using namespace machinetest;

namespace {

constexpr uint16_t A = 0x2800, B = 0x2840, C = 0x2880, D = 0x28C0;
constexpr uint16_t Count = 0x2900;
constexpr unsigned Elements = 16, Rounds = 4;

Operand Src1(unsigned i) { return Operand::dsr(pe::OperandMode::Src1DSR, i); }

uint32_t bits(float value) { return std::bit_cast<uint32_t>(value); }

/// Task 10 runs Rounds rounds of three operations on memory, each after
/// its own prebuilt DSR builders: A = A + B; C = A * 0.5 (the scalar in
/// r1); D = C. With `store`, each round then stores the rounds left to
/// Count, which a chain runs ahead only while the band carries every busy
/// microthread. With `receiveFirst`, the task first starts a receive into
/// Count on microthread 0 that no wavelet ever comes for.
Program rounds(bool store, bool receiveFirst = false) {
  Program p("pe");
  // One data segment: A, then B right after it.
  static_assert(B == A + 4 * Elements);
  std::vector<uint32_t> ab;
  for (unsigned i = 0; i < Elements; ++i)
    ab.push_back(bits(float(i)));
  for (unsigned i = 0; i < Elements; ++i)
    ab.push_back(bits(float(10 * i + 1)));
  p.data(A, ab);
  p.label("t10");
  if (receiveFirst)
    p.fabin(Src0(3), 1, 3, 1)
        .mem1d(Dest(3), 32, Count, 1)
        .emit(Opcode::FMovSV, {Dest(3), Src0(3)}, opts().async().ut(0));
  p.movi(1, bits(0.5f)).movi(7, Rounds).label("round");
  p.mem1d(Dest(0), 32, A, Elements)
      .mem1d(Src0(0), 32, A, Elements)
      .mem1d(Src1(0), 32, B, Elements)
      .emit(Opcode::FAddSV, {Dest(0), Src0(0), Src1(0)});
  p.mem1d(Dest(1), 32, C, Elements)
      .mem1d(Src0(1), 32, A, Elements)
      .emit(Opcode::FMulSV, {Dest(1), Src0(1), R(1)});
  p.mem1d(Dest(2), 32, D, Elements)
      .mem1d(Src0(2), 32, C, Elements)
      .emit(Opcode::FMovSV, {Dest(2), Src0(2)});
  p.emit(Opcode::AddI, {R(7), R(7), Imm(-1)});
  if (store)
    p.store(7, Count);
  p.emit(Opcode::BNeZ, {R(7), L("round")}).texit();
  return p.task(TaskKind::Local, 10, "t10").activateAtStart(10);
}

/// What D holds after the rounds: A gains B each round.
std::vector<uint32_t> expectedD() {
  std::vector<uint32_t> d;
  for (unsigned i = 0; i < Elements; ++i) {
    float a = float(i);
    for (unsigned r = 0; r < Rounds; ++r)
      a += float(10 * i + 1);
    d.push_back(bits(a * 0.5f));
  }
  return d;
}

EmulatorOptions chaining(bool on) {
  EmulatorOptions options;
  options.chainOperations = on;
  return options;
}

/// Runs `fabric` (width x 1) to the end in both modes and checks they
/// agree; returns the chained run and its chained operations.
RowView runBoth(const Fabric &fabric, unsigned width, uint64_t &chained) {
  ChainedRun run = runChainedAndNot(fabric, width);
  chained = run.chained;
  return run.view;
}

} // namespace

TEST_CASE("operations on memory chain across rounds as in turns") {
  uint64_t chained = 0;
  RowView o = runBoth(Fabric::single(rounds(false)), 1, chained);
  REQUIRE(o.status == RunStatus::Idle);
  CHECK(o.fault == "");
  Machine m(Fabric::single(rounds(false)));
  REQUIRE(m.run().status == RunStatus::Idle);
  CHECK(m.read32s(0, 0, D, Elements) == expectedD());
  // Round 1 makes each operation's start template (none is quiet before
  // it ran once); from round 2 on every operation, and the builders,
  // decrement and branch between them, run in one chain.
  CHECK(chained == 3 * (Rounds - 1));
}

TEST_CASE("a store runs in the chain while no microthread is busy") {
  uint64_t chained = 0;
  RowView o = runBoth(Fabric::single(rounds(true)), 1, chained);
  REQUIRE(o.status == RunStatus::Idle);
  Machine m(Fabric::single(rounds(true)));
  REQUIRE(m.run().status == RunStatus::Idle);
  CHECK(m.read32s(0, 0, D, Elements) == expectedD());
  CHECK(m.read32(0, 0, Count) == 0);
  // Nothing but this main thread touches memory, so the batch with the
  // store runs ahead too (guarded) and every operation from round 2 on
  // chains, as without the store. Beside a microthread the turns run
  // nothing chains (below).
  CHECK(chained == 3 * (Rounds - 1));
}

TEST_CASE("every PE of a program chains its own rounds") {
  // Eight PEs in one band take their turns in step: in round 1 none finds
  // a template of its next operation yet, from round 2 on all chain.
  Fabric f(8, 1);
  f.place(0, 0, rounds(false), 8);
  uint64_t chained = 0;
  RowView o = runBoth(f, 8, chained);
  REQUIRE(o.status == RunStatus::Idle);
  CHECK(chained == 8 * 3 * (Rounds - 1));
}

TEST_CASE("a run stopped by its cycle limit finds the PEs as in turns") {
  // Every possible stop, then the rest of the run: chained operations
  // never start at or past the limit, so the stop sees no operation
  // the turns would not have started.
  CHECK(runChainedAndNotToEveryStop(Fabric::single(rounds(false)), 1) > 0);
}

TEST_CASE("a host stepping cycle by cycle sees the PEs as in turns") {
  Machine plain(Fabric::single(rounds(false)), chaining(false));
  Machine m(Fabric::single(rounds(false)), chaining(true));
  for (unsigned i = 0; i < 200 && !plain.emu.isIdle(); ++i) {
    INFO("step " << i);
    REQUIRE(plain.emu.step());
    REQUIRE(m.emu.step());
    CHECK(viewRow(m, RunStatus::Idle, 1) == viewRow(plain, RunStatus::Idle, 1));
  }
  CHECK(m.emu.isIdle());
  CHECK(m.emu.getChainedOperations() == 0);
}

TEST_CASE("a run the host may stop on a condition does not chain") {
  Machine plain(Fabric::single(rounds(false)), chaining(false));
  Machine m(Fabric::single(rounds(false)), chaining(true));
  // The condition looks at D every cycle: it must see what the turns see.
  std::vector<std::vector<uint32_t>> seenPlain, seenChained;
  auto watch = [](Machine &machine, std::vector<std::vector<uint32_t>> &seen) {
    return [&machine, &seen] {
      seen.push_back(machine.read32s(0, 0, D, Elements));
      return false;
    };
  };
  RunStatus a = plain.emu.run(1'000'000, watch(plain, seenPlain)).status;
  RunStatus b = m.emu.run(1'000'000, watch(m, seenChained)).status;
  CHECK(a == RunStatus::Idle);
  CHECK(b == a);
  CHECK(seenChained == seenPlain);
  CHECK(m.emu.getChainedOperations() == 0);
  CHECK(m.read32s(0, 0, D, Elements) == expectedD());
}

TEST_CASE("a busy microthread keeps the main thread's operations in turns") {
  uint64_t chained = 0;
  RowView o = runBoth(Fabric::single(rounds(false, true)), 1, chained);
  REQUIRE(o.status == RunStatus::Stalled);
  CHECK(chained == 0);
  Machine m(Fabric::single(rounds(false, true)));
  REQUIRE(m.run().status == RunStatus::Stalled);
  CHECK(m.read32s(0, 0, D, Elements) == expectedD());
}
