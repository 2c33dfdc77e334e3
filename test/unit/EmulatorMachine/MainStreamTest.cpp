//===- MainStreamTest.cpp - the main thread's transfers between turns -----===//
//
// docs/Emulator.md "Transfers between turns": a band carries a synchronous
// plain move between memory and the fabric, which holds the main thread,
// one element a cycle without the PE's turns, once its first element has
// moved and while no microthread of the PE is busy. Each program below runs
// with and without carried transfers (EmulatorOptions::carryTransfers) and
// must give the same run to the cycle: status, clock, every PE's counters
// (busy and stalled cycles included) and memory. Each also checks the
// values moved and how many elements the band carried.
//
//===----------------------------------------------------------------------===//

#include "TestMachine.h"

using namespace machinetest;

namespace {

constexpr unsigned Rows = 16;
/// Memory starts as zeros but for one data segment (at Source).
constexpr uint16_t Source = 0x2800, Target = 0x2A00, Flag = 0x2C00;

std::vector<uint32_t> counting(uint32_t first, unsigned count) {
  std::vector<uint32_t> words;
  for (unsigned i = 0; i < count; ++i)
    words.push_back(first + i);
  return words;
}

/// Task 10 of (0, 0), started at load: after `wait` nops, sends `count`
/// words from Source on color 1 in one synchronous move with `options`,
/// then stores 1 at Flag.
Program sender(unsigned count, unsigned wait = 0, Opts options = {}) {
  Program p("left");
  p.data(Source, counting(100, count));
  p.label("t10");
  for (unsigned i = 0; i < wait; ++i)
    p.emit(Opcode::Nop);
  p.mem1d(Src0(0), 32, Source, count)
      .fabout(Dest(0), count, 1, 1)
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)}, options)
      .movi(1, 1)
      .store(1, Flag)
      .texit();
  return p.task(TaskKind::Local, 10, "t10").activateAtStart(10);
}

/// Task 10 of (1, 0): after `wait` nops, receives `count` words from
/// color 1 into Target in one synchronous move, then stores 1 at Flag.
Program receiver(unsigned count, unsigned wait = 0) {
  Program p("right");
  p.label("t10");
  for (unsigned i = 0; i < wait; ++i)
    p.emit(Opcode::Nop);
  p.fabin(Src0(1), count, 1, 2)
      .mem1d(Dest(1), 32, Target, count)
      .emit(Opcode::Mov32V, {Dest(1), Src0(1)})
      .movi(1, 1)
      .store(1, Flag)
      .texit();
  return p.task(TaskKind::Local, 10, "t10").activateAtStart(10);
}

uint32_t wordAt(const std::vector<uint8_t> &memory, uint32_t address) {
  uint32_t value = 0;
  for (unsigned i = 0; i < 4; ++i)
    value |= uint32_t(memory[address + i]) << (8 * i);
  return value;
}

std::vector<uint32_t> wordsAt(const std::vector<uint8_t> &memory,
                              uint32_t address, unsigned count) {
  std::vector<uint32_t> words;
  for (unsigned i = 0; i < count; ++i)
    words.push_back(wordAt(memory, address + 4 * i));
  return words;
}

} // namespace

TEST_CASE("a synchronous send and receive are carried as in turns") {
  CarriedRun o =
      runCarriedAndNot(Fabric::eastPair(sender(Rows), receiver(Rows), 1), 2);
  REQUIRE(o.status == RunStatus::Idle);
  CHECK(wordsAt(o.memories[1], Target, Rows) == counting(100, Rows));
  CHECK(wordAt(o.memories[0], Flag) == 1);
  CHECK(wordAt(o.memories[1], Flag) == 1);
  // The send's first element is its turn's (it makes the lane), and the
  // band carries the rest, the last one included. The receive starts
  // before any wavelet has come: the band carries it whole.
  CHECK(o.carried == (Rows - 1) + Rows);
}

TEST_CASE("a carried send that finds no room stalls as in turns") {
  // (1, 0) starts receiving 60 cycles late: (0, 0)'s wavelets fill the
  // queues and its send waits for room, stalled, until they drain.
  CarriedRun o = runCarriedAndNot(
      Fabric::eastPair(sender(2 * Rows), receiver(2 * Rows, 60), 1), 2);
  REQUIRE(o.status == RunStatus::Idle);
  CHECK(wordsAt(o.memories[1], Target, 2 * Rows) == counting(100, 2 * Rows));
  CHECK(o.counters[0].stallCycles > 0);
  // The receive finds its first wavelet waiting and is carried from its
  // second; the send from its second.
  CHECK(o.carried == 2 * (2 * Rows - 1));
}

TEST_CASE("the host finds a carried main-thread move as in turns at every "
          "cycle") {
  // Stopped at each cycle of the run (the host's cycle limit), with the
  // send waiting for room at many of them: its stalled cycles up to the
  // stop are counted, as its turns count them.
  Fabric f = Fabric::eastPair(sender(2 * Rows), receiver(2 * Rows, 30), 1);
  CarriedRun whole = runCarriedAndNot(f, 2);
  REQUIRE(whole.status == RunStatus::Idle);
  for (uint64_t limit = 1; limit < whole.cycle; ++limit) {
    INFO("limit " << limit);
    CarriedRun stopped = runCarriedAndNot(f, 2, limit);
    CHECK(stopped.status == RunStatus::CycleLimit);
  }
  for (unsigned steps : {5u, 33u, 50u}) {
    INFO("steps " << steps);
    CarriedRun stepped = runCarrying(f, 2, true, steps);
    CHECK(stepped.cycle == whole.cycle);
    CHECK(stepped.counters == whole.counters);
    CHECK(stepped.memories == whole.memories);
  }
}

TEST_CASE("a carried move completes between turns only when that only "
          "activates a task") {
  // Task 11 stores 2 at Flag + 4. An unblock is the turn's to do: the
  // last element goes back to it.
  auto withTask11 = [](Program p) {
    p.label("t11").movi(2, 2).store(2, Flag + 4).texit();
    return p.task(TaskKind::Local, 11, "t11");
  };
  SECTION("activate") {
    Program left = withTask11(sender(Rows, 0, opts().activate(11)));
    CarriedRun o =
        runCarriedAndNot(Fabric::eastPair(left, receiver(Rows), 1), 2);
    REQUIRE(o.status == RunStatus::Idle);
    CHECK(wordAt(o.memories[0], Flag + 4) == 2);
    CHECK(o.carried == (Rows - 1) + Rows);
  }
  SECTION("unblock") {
    Program left = withTask11(sender(Rows, 0, opts().unblock(11)));
    left.activateAtStart(11).blockAtStart(BlockSpace::Task, 11);
    CarriedRun o =
        runCarriedAndNot(Fabric::eastPair(left, receiver(Rows), 1), 2);
    REQUIRE(o.status == RunStatus::Idle);
    CHECK(wordAt(o.memories[0], Flag + 4) == 2);
    CHECK(o.carried == (Rows - 2) + Rows);
  }
}

TEST_CASE("a synchronous receive leaves the wavelets behind it to the "
          "next") {
  // (0, 0) sends Rows + 2 words in one move; (1, 0), 40 cycles late,
  // receives them in two synchronous moves (Rows words, then 2). The
  // first ends with the last two wavelets in its queue and none coming.
  Program right("right");
  right.label("t10");
  for (unsigned i = 0; i < 40; ++i)
    right.emit(Opcode::Nop);
  right.fabin(Src0(1), Rows, 1, 2)
      .mem1d(Dest(1), 32, Target, Rows)
      .emit(Opcode::Mov32V, {Dest(1), Src0(1)})
      .fabin(Src0(2), 2, 1, 2)
      .mem1d(Dest(2), 32, Target + 4 * Rows, 2)
      .emit(Opcode::Mov32V, {Dest(2), Src0(2)})
      .texit();
  right.task(TaskKind::Local, 10, "t10").activateAtStart(10);
  CarriedRun o =
      runCarriedAndNot(Fabric::eastPair(sender(Rows + 2), right, 1), 2);
  REQUIRE(o.status == RunStatus::Idle);
  CHECK(wordsAt(o.memories[1], Target, Rows + 2) == counting(100, Rows + 2));
  // The send from its second element. The first receive finds wavelets
  // waiting: its turn takes the first and the band the rest. The second
  // one's turn takes its first, and one left is not worth carrying.
  CHECK(o.carried == (Rows + 1) + (Rows - 1));
}

TEST_CASE("a control wavelet among a carried synchronous receive's data "
          "goes to the turn") {
  // (0, 0) sends four words, a control wavelet for no task (entry point
  // 31, which a receive drops), then four more, all on color 1; (1, 0)
  // receives eight words in one synchronous move.
  CarriedRun o = runCarriedAndNot(
      Fabric::eastPair(dataAroundControl(Source), receiver(8), 1), 2);
  REQUIRE(o.status == RunStatus::Idle);
  CHECK(wordsAt(o.memories[1], Target, 8) == counting(1, 8));
  // Each send of four from its second element. The receive is carried
  // whole: the control wavelet goes to a turn, which drops it, finds no
  // data behind it yet and gives the move back to the band.
  CHECK(o.carried == 3 + 3 + 8);
}

TEST_CASE("a synchronous move beside a busy microthread waits for it to be "
          "carried") {
  // (0, 0) starts an asynchronous send of Rows words on color 2, which no
  // one receives past its queues, then a synchronous one on color 1: the
  // latter stays in turns while the former is busy, and the run stalls
  // with both reported.
  Program busy("left");
  std::vector<uint32_t> words = counting(100, Rows);
  for (uint32_t word : counting(500, 64))
    words.push_back(word);
  busy.data(Source, words);
  busy.label("t10")
      .mem1d(Src0(2), 32, Source + 4 * Rows, 64)
      .fabout(Dest(2), 64, 2, 2)
      .emit(Opcode::Mov32V, {Dest(2), Src0(2)}, opts().async().ut(0))
      .mem1d(Src0(0), 32, Source, Rows)
      .fabout(Dest(0), Rows, 1, 1)
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)})
      .texit();
  busy.task(TaskKind::Local, 10, "t10").activateAtStart(10);
  Fabric f = Fabric::eastPair(busy, receiver(Rows), 1);
  f.route(0, 0, 2, Ramp, E).route(1, 0, 2, W, Ramp);
  CarriedRun o = runCarriedAndNot(f, 2);
  REQUIRE(o.status == RunStatus::Stalled);
  CHECK(wordsAt(o.memories[1], Target, Rows) == counting(100, Rows));
  CHECK(o.deadlock.find("PE (0, 0)") != std::string::npos);
  // (1, 0)'s receive whole, and the asynchronous send from its second
  // element until its color's buffers filled; nothing of the synchronous
  // send, which (0, 0)'s turns moved.
  uint64_t sentOnColor2 = o.counters[0].waveletsSent - Rows;
  CHECK(sentOnColor2 > 1);
  CHECK(sentOnColor2 < 64);
  CHECK(o.carried == Rows + (sentOnColor2 - 1));
}
