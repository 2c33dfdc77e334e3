//===- ChainStepTest.cpp - exits and transfer starts in a chain -----------===//
//
// docs/Emulator.md "Chained operations": besides operations on memory, a
// chain runs a task's exit, and the start of a transfer the band carries,
// ahead of their turns. Each program below runs with and without chaining
// and must give the same run to the cycle (status, clock, counters and
// memory, and at every stop of a run the host limits); the turns each run
// took show what the chain spared.
//
//===----------------------------------------------------------------------===//

#include "TestMachine.h"

using namespace machinetest;

namespace {

constexpr unsigned LineWords = 8, NumLines = 3, Rounds = 3;
// A program has one data segment: the counters, then the lines it sends.
constexpr uint16_t Count = 0x2900, Pending = 0x2900, RoundsLeft = 0x2904;
constexpr uint16_t Lines = 0x2908, Into = 0x2C00;

/// Task 10's first steps: counts Count down from `rounds` and activates
/// itself again until it reaches zero; it goes on at label "rest".
Program &countDownFrom(Program &p, unsigned rounds) {
  p.data(Count, {rounds});
  return p.label("t10")
      .load(1, Count)
      .emit(Opcode::AddI, {R(1), R(1), Imm(-1)})
      .store(1, Count)
      .emit(Opcode::BEqZ, {R(1), L("rest")})
      .activate(10)
      .label("rest");
}

/// Task 10 counts down from `rounds` and exits, each time.
Program &countdown(Program &p, unsigned rounds) {
  countDownFrom(p, rounds).texit();
  return p.task(TaskKind::Local, 10, "t10").activateAtStart(10);
}

/// The counters countTransfers starts from, and `more` after them.
std::vector<uint32_t> counters(std::vector<uint32_t> more = {}) {
  static_assert(RoundsLeft == Pending + 4 && Lines == Pending + 8);
  std::vector<uint32_t> words = {NumLines, Rounds};
  words.insert(words.end(), more.begin(), more.end());
  return words;
}

/// Task 11, the completion task of each transfer: when the round's last
/// one is done, activates task 10 for the next round, Rounds in all.
Program &countTransfers(Program &p) {
  p.label("t11")
      .load(1, Pending)
      .emit(Opcode::AddI, {R(1), R(1), Imm(-1)})
      .store(1, Pending)
      .emit(Opcode::BNeZ, {R(1), L("end")})
      .movi(1, NumLines)
      .store(1, Pending)
      .load(2, RoundsLeft)
      .emit(Opcode::AddI, {R(2), R(2), Imm(-1)})
      .store(2, RoundsLeft)
      .emit(Opcode::BEqZ, {R(2), L("end")})
      .activate(10)
      .label("end")
      .texit();
  return p.task(TaskKind::Local, 11, "t11");
}

uint32_t lineWord(unsigned line, unsigned i) { return 1000 * line + i; }

/// (0, 0) sends NumLines lines of LineWords words east, one asynchronous
/// move each on its own color (1, 2, ...) and microthread, and (1, 0)
/// receives them the same way; each round starts all moves in one task
/// (builders, then the move, three cycles each), as a halo exchange does.
Fabric transferRounds() {
  Program left("left");
  std::vector<uint32_t> words;
  for (unsigned line = 0; line < NumLines; ++line)
    for (unsigned i = 0; i < LineWords; ++i)
      words.push_back(lineWord(line, i));
  left.data(Pending, counters(words));
  left.label("t10");
  for (unsigned k = 0; k < NumLines; ++k)
    left.mem1d(Src0(k), 32, Lines + 4 * k * LineWords, LineWords)
        .fabout(Dest(k), LineWords, 1 + k, 1 + k)
        .emit(Opcode::Mov32V, {Dest(k), Src0(k)},
              opts().async().ut(k).activate(11));
  left.texit().task(TaskKind::Local, 10, "t10").activateAtStart(10);
  countTransfers(left);

  Program right("right");
  right.data(Pending, counters());
  right.label("t10");
  for (unsigned k = 0; k < NumLines; ++k)
    right.fabin(Src0(k), LineWords, 1 + k, 1 + k)
        .mem1d(Dest(k), 32, Into + 4 * k * LineWords, LineWords)
        .emit(Opcode::Mov32V, {Dest(k), Src0(k)},
              opts().async().ut(k).activate(11));
  right.texit().task(TaskKind::Local, 10, "t10").activateAtStart(10);
  countTransfers(right);

  Fabric f = Fabric::eastPair(left, right, 1);
  for (unsigned color = 2; color <= NumLines; ++color)
    f.route(0, 0, color, Ramp, E).route(1, 0, color, W, Ramp);
  return f;
}

} // namespace

TEST_CASE("a task's exit runs in the turn that reaches it") {
  constexpr unsigned Times = 5;
  Program p("pe");
  ChainedRun run = runChainedAndNot(Fabric::single(countdown(p, Times)), 1);
  REQUIRE(run.view.status == RunStatus::Idle);
  CHECK(run.chained == 0); // an exit is not an operation
  // Without chaining a round takes three turns: the pick (which runs the
  // task's first batch ahead), the activate, the exit; the last round
  // two (it activates nothing). Chained, the activate and the exit join
  // the pick's turn.
  CHECK(run.turnsWithout == 3 * Times - 1);
  CHECK(run.turnsWith == Times);
  Machine m(Fabric::single(p));
  REQUIRE(m.run().status == RunStatus::Idle);
  CHECK(m.read32(0, 0, Count) == 0);
}

TEST_CASE("an exit chained far ahead keeps the clock going to its cycle") {
  // Task 10 runs twice: it counts Count down (activating itself again the
  // first time), then copies 2,048 words (1,024 cycles) and exits. The
  // second time the copy is quiet (its template ran whole the first time):
  // it and the exit run ahead in the pick's turn, the exit over 1,000
  // cycles before its own, further than the ring of held cycles reaches.
  constexpr uint16_t From = 0x3000, To = 0x5000, Words = 2048;
  Program p("pe");
  countDownFrom(p, 2)
      .mem1d(Dest(0), 32, To, Words)
      .mem1d(Src0(0), 32, From, Words)
      .emit(Opcode::FMovSV, {Dest(0), Src0(0)})
      .texit();
  p.task(TaskKind::Local, 10, "t10").activateAtStart(10);
  ChainedRun run = runChainedAndNot(Fabric::single(p), 1);
  REQUIRE(run.view.status == RunStatus::Idle);
  CHECK(run.view.cycle > 2 * 1024);
  // Without chaining, seven turns: the pick (its batch run ahead up to
  // the activate), the activate, the builders' batch, the copy, the exit;
  // then the second pick (its batch and the quiet copy run ahead) and the
  // exit. Chained, the activate and the builders join the first pick's
  // turn, and both exits the turn before them. The second copy ran ahead
  // as it did without chaining: it is not counted as chained.
  CHECK(run.turnsWithout == 7);
  CHECK(run.turnsWith == 3);
  CHECK(run.chained == 0);
}

TEST_CASE("a microthread the turns run keeps the exits in their turns") {
  // Task 9, picked first, starts a one-word receive (too short for the
  // band to carry) on a color nothing sends on; task 10 counts down beside
  // it. The receive's turns are the PE's, which a chain would skip.
  Program p("pe");
  p.label("t9")
      .fabin(Src0(0), 1, 5, 1)
      .mem1d(Dest(0), 32, Into, 1)
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)}, opts().async().ut(0))
      .texit();
  p.task(TaskKind::Local, 9, "t9").activateAtStart(9);
  ChainedRun run = runChainedAndNot(Fabric::single(countdown(p, 5)), 1);
  REQUIRE(run.view.status == RunStatus::Stalled);
  CHECK(run.turnsWith == run.turnsWithout);
}

TEST_CASE("a round's transfer starts run ahead in one chain") {
  ChainedRun run = runChainedAndNot(transferRounds(), 2);
  REQUIRE(run.view.status == RunStatus::Idle);
  std::vector<uint32_t> expected;
  for (unsigned line = 0; line < NumLines; ++line)
    for (unsigned i = 0; i < LineWords; ++i)
      expected.push_back(lineWord(line, i));
  Machine m(transferRounds());
  REQUIRE(m.run().status == RunStatus::Idle);
  CHECK(m.read32s(1, 0, Into, NumLines * LineWords) == expected);
  // Round 1 makes each start's template (none is chained before it ran
  // once; on WSE-2 a receive's first start of a color also sizes its
  // queue). From round 2 on each PE starts all its moves in the turn
  // that picks task 10.
  CHECK(run.chained == 2 * (Rounds - 1) * NumLines);
  CHECK(run.turnsWith < run.turnsWithout);
}

TEST_CASE("a run of transfer rounds stopped by its cycle limit finds the "
          "PEs as in turns") {
  CHECK(runChainedAndNotToEveryStop(transferRounds(), 2) > 0);
}

namespace {

constexpr unsigned LongWords = 64, Times = 5;

/// (0, 0) sends LongWords words east on color 1 and (1, 0) receives them
/// into Into, each one asynchronous move the band carries (task 9, picked
/// first). Beside the receive, (1, 0)'s task 10 counts the word at
/// `counter` down from Times, activating itself again each time, and
/// copies the count to the next word (a batch after the activate, which a
/// chain runs guarded).
Fabric countdownBesideReceive(uint16_t counter) {
  Program left("left");
  std::vector<uint32_t> words;
  for (unsigned i = 0; i < LongWords; ++i)
    words.push_back(lineWord(0, i));
  left.data(Lines, words)
      .label("t9")
      .mem1d(Src0(0), 32, Lines, LongWords)
      .fabout(Dest(0), LongWords, 1, 1)
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)}, opts().async().ut(0))
      .texit()
      .task(TaskKind::Local, 9, "t9")
      .activateAtStart(9);

  Program right("right");
  right.data(counter, {Times})
      .label("t9")
      .fabin(Src0(0), LongWords, 1, 1)
      .mem1d(Dest(0), 32, Into, LongWords)
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)}, opts().async().ut(0))
      .texit()
      .task(TaskKind::Local, 9, "t9")
      .activateAtStart(9);
  right.label("t10")
      .load(1, counter)
      .emit(Opcode::AddI, {R(1), R(1), Imm(-1)})
      .store(1, counter)
      .emit(Opcode::BEqZ, {R(1), L("done")})
      .activate(10)
      .label("done")
      .load(2, counter)
      .store(2, counter + 4)
      .texit()
      .task(TaskKind::Local, 10, "t10")
      .activateAtStart(10);
  return Fabric::eastPair(left, right, 1);
}

} // namespace

TEST_CASE("a task's first batch runs ahead beside a carried transfer") {
  // Task 10's counter lies away from the receive's words: each of its
  // picks runs the first batch too, guarded, as if no microthread were
  // busy.
  Fabric fabric = countdownBesideReceive(Count);
  ChainedRun run = runChainedAndNot(fabric, 2);
  REQUIRE(run.view.status == RunStatus::Idle);
  Machine m(fabric);
  REQUIRE(m.run().status == RunStatus::Idle);
  std::vector<uint32_t> expected;
  for (unsigned i = 0; i < LongWords; ++i)
    expected.push_back(lineWord(0, i));
  CHECK(m.read32s(1, 0, Into, LongWords) == expected);
  CHECK(m.read32(1, 0, Count) == 0);
  CHECK(m.read32(1, 0, Count + 4) == 0);
  CHECK(m.emu.getFirstBatchesBeside() == Times);
  CHECK(m.emu.getFirstBatchesTakenBack() == 0);
  CHECK(run.turnsWith < run.turnsWithout);
  runChainedAndNotToEveryStop(fabric, 2); // checks every stop
}

TEST_CASE("a first batch that would touch a carried transfer's memory is "
          "taken back") {
  // Task 10's counter is the receive's last word: the guard refuses each
  // first batch while the receive still has that word to write, and its
  // turn runs it in its own cycle, as without chaining.
  const uint16_t last = Into + 4 * (LongWords - 1);
  Fabric fabric = countdownBesideReceive(last);
  ChainedRun run = runChainedAndNot(fabric, 2);
  REQUIRE(run.view.status == RunStatus::Idle);
  Machine m(fabric);
  REQUIRE(m.run().status == RunStatus::Idle);
  CHECK(m.emu.getFirstBatchesBeside() == Times);
  CHECK(m.emu.getFirstBatchesTakenBack() == Times);
  // The countdown finished before the receive wrote its last word.
  CHECK(m.read32(1, 0, last) == lineWord(0, LongWords - 1));
  runChainedAndNotToEveryStop(fabric, 2); // checks every stop
}
