//===- TransferStreamTest.cpp - transfers carried between turns -----------===//
//
// docs/Emulator.md "Transfers between turns": a band carries a plain
// asynchronous move between memory and the fabric one element a cycle
// without the PE's turns. Each program below runs with and without that
// (EmulatorOptions::carryTransfers) and must give the same run to the
// cycle: status, clock, every PE's counters and memory. Each also checks
// the values moved, and that the band did carry elements (or, where its
// operations may not run apart, that it did not).
//
//===----------------------------------------------------------------------===//

#include "TestMachine.h"

using namespace machinetest;

namespace {

constexpr unsigned Rows = 16, Stride = 4;
/// A program has one data segment: a block, then two words of a row.
constexpr uint16_t Block = 0x2800, Row = Block + 4 * Rows * Stride;
constexpr uint16_t Target = 0x2A00;

/// `dsr.mem1d` of `extent` words from `base`, word `offset`, every
/// `stride` words.
Program &strided(Program &p, Operand dsr, uint16_t base, uint16_t extent,
                 int offset, int stride) {
  return p.emit(Opcode::DsrMem1d, {dsr, Imm(32), Imm(base), Imm(extent),
                                   Imm(offset), Imm(stride), Imm(0)});
}

/// Starts the time-stamp counter; tasks 11 to 13 log it and end.
Program &timedTasks(Program &p) {
  for (unsigned task = 11; task <= 13; ++task) {
    p.label("t" + std::to_string(task)).cfgGet(2, TscLowWord).log(2).texit();
    p.task(TaskKind::Local, task, "t" + std::to_string(task));
  }
  return p;
}

/// Task 10, started at load: turns the time-stamp counter on, then waits
/// `wait` nops; timedProgramEnd ends it and adds tasks 11 to 13.
Program &timedProgramStart(Program &p, unsigned wait = 0) {
  p.label("t10").movi(1, 1).cfgSet(TscControlWord, 1);
  for (unsigned i = 0; i < wait; ++i)
    p.emit(Opcode::Nop);
  return p;
}
Program &timedProgramEnd(Program &p) {
  p.texit().task(TaskKind::Local, 10, "t10").activateAtStart(10);
  return timedTasks(p);
}

/// A block of Rows rows of Stride words: the edge column (word 0 of each
/// row) holds `first`, first + 1, ...; the halo column (word 1) receives;
/// words 2 and 3 are padding.
std::vector<uint32_t> blockWords(uint32_t first) {
  std::vector<uint32_t> words(Rows * Stride, 0);
  for (unsigned r = 0; r < Rows; ++r)
    words[r * Stride] = first + r;
  return words;
}

/// (0, 0)'s task 10: sends its block's edge column (100, 101, ...) east on
/// color 1, in one synchronous move.
Program sendColumn() {
  Program left("left");
  left.data(Block, blockWords(100));
  left.label("t10");
  strided(left, Src0(0), Block, Rows, 0, Stride)
      .fabout(Dest(0), Rows, 1, 1)
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)})
      .texit();
  return left.task(TaskKind::Local, 10, "t10").activateAtStart(10);
}

/// Sends the block's edge column on `out` (microthread 0, then task 11)
/// and receives its halo column from `in` (microthread 1, then task 12).
Program &swapColumns(Program &p, unsigned out, unsigned in) {
  strided(p, Src0(0), Block, Rows, 0, Stride)
      .fabout(Dest(0), Rows, out, 1)
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)},
            opts().async().ut(0).activate(11))
      .fabin(Src0(1), Rows, in, 2);
  return strided(p, Dest(1), Block, Rows, 1, Stride)
      .emit(Opcode::Mov32V, {Dest(1), Src0(1)},
            opts().async().ut(1).activate(12));
}

/// (0, 0) and (1, 0) swap edge columns into each other's halo column, on
/// colors 1 (east) and 2 (west), each send and receive on its own
/// microthread; (0, 0) also sends two words of Row on color 3, which
/// (1, 0) receives into the padding of its block's row 5, between the
/// elements of both columns. `waitFirst`
/// nops delay (1, 0)'s receives, so wavelets wait in its queues first.
Fabric exchange(unsigned waitFirst = 0) {
  Program left("left");
  std::vector<uint32_t> words = blockWords(100);
  words.insert(words.end(), {7, 8});
  left.data(Block, words);
  timedProgramStart(left);
  swapColumns(left, 1, 2)
      .mem1d(Src0(2), 32, Row, 2)
      .fabout(Dest(2), 2, 3, 3)
      .emit(Opcode::Mov32V, {Dest(2), Src0(2)},
            opts().async().ut(2).activate(13));
  timedProgramEnd(left);

  Program right("right");
  right.data(Block, blockWords(200));
  timedProgramStart(right, waitFirst);
  swapColumns(right, 2, 1)
      .fabin(Src0(2), 2, 3, 3)
      .mem1d(Dest(2), 32, Block + 4 * (5 * Stride + 2), 2)
      .emit(Opcode::Mov32V, {Dest(2), Src0(2)},
            opts().async().ut(2).activate(13));
  timedProgramEnd(right);

  Fabric f = Fabric::eastPair(left, right, 1);
  f.route(1, 0, 2, Ramp, W).route(0, 0, 2, E, Ramp);
  f.route(0, 0, 3, Ramp, E).route(1, 0, 3, W, Ramp);
  return f;
}

uint32_t wordAt(const std::vector<uint8_t> &memory, uint32_t address) {
  uint32_t value = 0;
  for (unsigned i = 0; i < 4; ++i)
    value |= uint32_t(memory[address + i]) << (8 * i);
  return value;
}

/// The halo column of a block.
std::vector<uint32_t> halo(const std::vector<uint8_t> &memory) {
  std::vector<uint32_t> words;
  for (unsigned r = 0; r < Rows; ++r)
    words.push_back(wordAt(memory, Block + 4 * (r * Stride + 1)));
  return words;
}

std::vector<uint32_t> counting(uint32_t first, unsigned count) {
  std::vector<uint32_t> words;
  for (unsigned i = 0; i < count; ++i)
    words.push_back(first + i);
  return words;
}

} // namespace

TEST_CASE("edge columns swapped between turns arrive as in turns") {
  CarriedRun o = runCarriedAndNot(exchange(), 2);
  REQUIRE(o.status == RunStatus::Idle);
  CHECK(halo(o.memories[0]) == counting(200, Rows));
  CHECK(halo(o.memories[1]) == counting(100, Rows));
  CHECK(wordAt(o.memories[1], Block + 4 * (5 * Stride + 2)) == 7);
  CHECK(wordAt(o.memories[1], Block + 4 * (5 * Stride + 3)) == 8);
  // A move is carried from its start once its PE's router has the lane,
  // to its last element, which completes it and activates a task; a
  // send's lane comes with its first wavelet, so here the sends' first
  // elements are turns'. The two-word row moves are carried whole.
  CHECK(o.carried == 2 * (Rows - 1) + 2 * Rows + 4);
}

TEST_CASE("a receive whose wavelets wait already is carried from its "
          "start") {
  CarriedRun o = runCarriedAndNot(exchange(40), 2);
  REQUIRE(o.status == RunStatus::Idle);
  CHECK(halo(o.memories[0]) == counting(200, Rows));
  CHECK(halo(o.memories[1]) == counting(100, Rows));
  // (1, 0) starts its moves 40 cycles late: (0, 0)'s column waits in its
  // queue, and the band takes all of it (16). By then (1, 0)'s router has
  // its lanes, so its send is carried whole too (16). (0, 0)'s receive
  // (16) and send (15, its first element made the lane) are as in the case
  // above, and so are the row moves (2 each).
  CHECK(o.carried == 16 + 16 + 16 + 15 + 4);
}

TEST_CASE("a run stopped and resumed between cycles carries the same") {
  CarriedRun whole = runCarrying(exchange(), 2, true);
  for (unsigned steps : {3u, 9u, 14u}) {
    CarriedRun stepped = runCarrying(exchange(), 2, true, steps);
    CHECK(stepped.cycle == whole.cycle);
    CHECK(stepped.counters == whole.counters);
    CHECK(stepped.memories == whole.memories);
  }
}

TEST_CASE("a microthread blocked while carried waits as in turns") {
  // (1, 0) blocks its column receive's microthread a few cycles in and
  // unblocks it later: the wavelets wait in the queue meanwhile.
  Program left = sendColumn();

  Program right("right");
  right.label("t10").fabin(Src0(1), Rows, 1, 2);
  strided(right, Dest(1), Block, Rows, 1, Stride)
      .emit(Opcode::Mov32V, {Dest(1), Src0(1)},
            opts().async().ut(1).activate(11));
  for (unsigned i = 0; i < 6; ++i)
    right.emit(Opcode::Nop);
  right.block(BlockSpace::UT, 1);
  for (unsigned i = 0; i < 10; ++i)
    right.emit(Opcode::Nop);
  right.unblock(BlockSpace::UT, 1).texit();
  right.label("t11").cfgGet(2, TscLowWord).log(2).texit();
  right.task(TaskKind::Local, 10, "t10").task(TaskKind::Local, 11, "t11");
  right.activateAtStart(10);

  CarriedRun o = runCarriedAndNot(Fabric::eastPair(left, right, 1), 2);
  REQUIRE(o.status == RunStatus::Idle);
  CHECK(halo(o.memories[1]) == counting(100, Rows));
  CHECK(o.carried > 0);
}

TEST_CASE("a receive completed between turns leaves the wavelets behind "
          "it to the next") {
  // (0, 0) sends Rows + 2 words on color 1 in one move; (1, 0), 40 cycles
  // late, receives them with two moves on microthread 1 (Rows words, then
  // 2), the second waiting for the first to end. The first ends with the
  // last two wavelets in its queue and none coming: the second, carried
  // from its start, must find them there.
  std::vector<uint32_t> words = counting(300, Rows + 2);
  Program left("left");
  left.data(Target, words);
  timedProgramStart(left)
      .mem1d(Src0(0), 32, Target, Rows + 2)
      .fabout(Dest(0), Rows + 2, 1, 1)
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)},
            opts().async().ut(0).activate(11));
  timedProgramEnd(left);

  Program right("right");
  right.data(Target, std::vector<uint32_t>(Rows + 2, 0));
  timedProgramStart(right, 40)
      .fabin(Src0(1), Rows, 1, 2)
      .mem1d(Dest(1), 32, Target, Rows)
      .emit(Opcode::Mov32V, {Dest(1), Src0(1)},
            opts().async().ut(1).activate(12))
      .fabin(Src0(2), 2, 1, 2)
      .mem1d(Dest(2), 32, Target + 4 * Rows, 2)
      .emit(Opcode::Mov32V, {Dest(2), Src0(2)},
            opts().async().ut(1).activate(13));
  timedProgramEnd(right);

  CarriedRun o = runCarriedAndNot(Fabric::eastPair(left, right, 1), 2);
  REQUIRE(o.status == RunStatus::Idle);
  std::vector<uint32_t> received;
  for (unsigned i = 0; i < Rows + 2; ++i)
    received.push_back(wordAt(o.memories[1], Target + 4 * i));
  CHECK(received == words);
  // The send from its second element (its first made the lane), both
  // receives whole.
  CHECK(o.carried == Rows + 1 + Rows + 2);
}

TEST_CASE("a control wavelet among a carried receive's data goes to the "
          "turn") {
  // (0, 0) sends four words, a control wavelet for no task (entry point
  // 31, which a receive drops), then four more, all on color 1; (1, 0)
  // receives eight words.
  Program left = dataAroundControl(Block);

  Program right("right");
  right.label("t10")
      .fabin(Src0(0), 8, 1, 2)
      .mem1d(Dest(0), 32, Target, 8)
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)}, opts().async().ut(3))
      .texit();
  right.task(TaskKind::Local, 10, "t10").activateAtStart(10);

  CarriedRun o = runCarriedAndNot(Fabric::eastPair(left, right, 1), 2);
  REQUIRE(o.status == RunStatus::Idle);
  std::vector<uint32_t> received;
  for (unsigned i = 0; i < 8; ++i)
    received.push_back(wordAt(o.memories[1], Target + 4 * i));
  CHECK(received == counting(1, 8));
  CHECK(o.carried > 0);
}

TEST_CASE("moves of one PE that touch the same memory stay in turns") {
  // (1, 0) sends its edge column west and, a cycle later, receives the
  // east column into the same column one row down: in each cycle the
  // receive writes the row the send reads, and the send, on microthread
  // 0, goes first. (0, 0) receives on its main thread, carried only once
  // its send on microthread 0 has ended.
  Program left("left");
  left.data(Block, blockWords(100));
  left.label("t10");
  strided(left, Src0(0), Block, Rows, 0, Stride)
      .fabout(Dest(0), Rows, 1, 1)
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)}, opts().async().ut(0))
      .fabin(Src0(1), Rows, 2, 2);
  strided(left, Dest(1), Block, Rows, 1, Stride)
      .emit(Opcode::Mov32V, {Dest(1), Src0(1)})
      .texit();
  left.task(TaskKind::Local, 10, "t10").activateAtStart(10);

  Program right("right");
  right.data(Block, blockWords(200));
  right.label("t10").fabin(Src0(1), Rows, 1, 2);
  strided(right, Dest(1), Block + 4 * Stride, Rows, 0, Stride);
  for (unsigned i = 0; i < 8; ++i)
    right.emit(Opcode::Nop); // the east column waits in the queue
  strided(right, Src0(0), Block, Rows, 0, Stride)
      .fabout(Dest(0), Rows, 2, 1)
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)}, opts().async().ut(0))
      .emit(Opcode::Mov32V, {Dest(1), Src0(1)}, opts().async().ut(1))
      .texit();
  right.task(TaskKind::Local, 10, "t10").activateAtStart(10);

  Fabric f = Fabric::eastPair(left, right, 1);
  f.route(1, 0, 2, Ramp, W).route(0, 0, 2, E, Ramp);
  CarriedRun o = runCarriedAndNot(f, 2);
  REQUIRE(o.status == RunStatus::Idle);
  // Of (1, 0)'s moves none; (0, 0)'s send from its start to its end, and
  // its receive's last six elements, which come after that.
  CHECK(o.carried == Rows + 6);
  // Every row went west before the east column overwrote it.
  CHECK(halo(o.memories[0]) == counting(200, Rows));
  std::vector<uint32_t> shifted;
  for (unsigned r = 1; r <= Rows; ++r)
    shifted.push_back(wordAt(o.memories[1], Block + 4 * r * Stride));
  CHECK(shifted == counting(100, Rows));
}

TEST_CASE("an unblocked receive takes the wavelets that came meanwhile at "
          "once") {
  // (1, 0) starts its column receive, blocks its microthread at once,
  // waits while (0, 0)'s column arrives, unblocks it, then computes for
  // 200 cycles (nops). The receive takes the waiting wavelets from the
  // cycle after the unblock, not after the nops: by cycle 100 it is done.
  Program left = sendColumn();

  Program right("right");
  right.label("t10").fabin(Src0(1), Rows, 1, 2);
  strided(right, Dest(1), Block, Rows, 1, Stride)
      .emit(Opcode::Mov32V, {Dest(1), Src0(1)}, opts().async().ut(1))
      .block(BlockSpace::UT, 1);
  for (unsigned i = 0; i < 30; ++i)
    right.emit(Opcode::Nop);
  right.unblock(BlockSpace::UT, 1);
  for (unsigned i = 0; i < 200; ++i)
    right.emit(Opcode::Nop);
  right.texit().task(TaskKind::Local, 10, "t10").activateAtStart(10);

  Fabric f = Fabric::eastPair(left, right, 1);
  for (bool carry : {false, true}) {
    INFO("carry " << carry);
    EmulatorOptions options;
    options.carryTransfers = carry;
    Machine m(f, options);
    REQUIRE(m.run(100).status == RunStatus::CycleLimit);
    CHECK(m.emu.getCounters(1, 0).waveletsReceived == Rows);
    std::vector<uint32_t> block = m.read32s(1, 0, Block, Rows * Stride);
    std::vector<uint32_t> column;
    for (unsigned r = 0; r < Rows; ++r)
      column.push_back(block[r * Stride + 1]);
    CHECK(column == counting(100, Rows));
  }
  CarriedRun o = runCarriedAndNot(f, 2);
  REQUIRE(o.status == RunStatus::Idle);
  CHECK(halo(o.memories[1]) == counting(100, Rows));
}

TEST_CASE("a carried receive that waits for wavelets never sent stalls the "
          "run as in turns") {
  // (0, 0) sends two words; (1, 0) receives four on microthread 1: the run
  // stalls at the same cycle, with the same report, either way.
  Program left("left");
  left.data(Block, counting(1, 2));
  left.label("t10")
      .mem1d(Src0(0), 32, Block, 2)
      .fabout(Dest(0), 2, 1, 1)
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)})
      .texit();
  left.task(TaskKind::Local, 10, "t10").activateAtStart(10);
  Program right("right");
  right.label("t10")
      .fabin(Src0(1), 4, 1, 2)
      .mem1d(Dest(1), 32, Target, 4)
      .emit(Opcode::Mov32V, {Dest(1), Src0(1)}, opts().async().ut(1))
      .texit();
  right.task(TaskKind::Local, 10, "t10").activateAtStart(10);
  CarriedRun o = runCarriedAndNot(Fabric::eastPair(left, right, 1), 2);
  REQUIRE(o.status == RunStatus::Stalled);
  CHECK(o.carried == 2);
}
