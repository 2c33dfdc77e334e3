//===- FabricMoveTest.cpp - runFabricMove against the element path --------===//
//
// The PE model runs sends and receives between memory and the fabric with
// DSDEngine::runFabricMove, from the operation's FabricMove, and falls back
// to run() when it declines. Random moves (mem1d, mem4d and circbuf, both
// widths, save-address, wavelet index offset, addresses that leave memory
// part way), fed and drained a few wavelets at a time and sometimes handed
// to run() in the middle, must end exactly as run() alone ends them.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "tessera/Emulator/FabricMoves.h"

#include <random>

using namespace dsdtest;

namespace {

/// A random move and what the fabric does while it runs.
struct MoveTrial {
  pe::Instruction inst{Opcode::FMovSV, {}, {}};
  std::vector<pe::Instruction> setup;
  bool receive = true;
  unsigned queue = 0;
  /// Per round: wavelets that arrive (receive) or room that frees (send).
  std::vector<unsigned> bursts;
  uint64_t slice = 1;
  /// Rounds in which the PE model hands the move to run() instead.
  std::vector<bool> viaRun;
};

MoveTrial makeTrial(std::mt19937 &random) {
  auto pick = [&](unsigned n) { return static_cast<unsigned>(random() % n); };
  MoveTrial trial;
  const Opcode opcodes[] = {Opcode::FMovSV, Opcode::FMovHV, Opcode::Mov16V,
                            Opcode::Mov32V};
  Opcode opcode = opcodes[pick(4)];
  unsigned width =
      opcode == Opcode::FMovHV || opcode == Opcode::Mov16V ? 16 : 32;
  trial.receive = pick(2);
  trial.queue = pick(8);
  unsigned extent = 1 + pick(24);
  Operand memoryDSR = trial.receive ? Dest(0) : Src0(0);
  Operand fabricDSR = trial.receive ? Src0(0) : Dest(0);
  // Mostly inside the compared window; sometimes running off either end
  // of memory part way.
  int64_t base = 0x1000 + 4 * pick(0x400);
  unsigned edge = pick(8);
  if (edge == 0)
    base = PEMemory::Size - 4 * (1 + pick(6));
  else if (edge == 1)
    base = 4 * pick(4);
  switch (pick(4)) {
  case 0: { // mem4d: 2-D, rows apart, adjacent or walking backwards
    int64_t pitch = static_cast<int64_t>(pick(9)) - 4;
    trial.setup.push_back(
        {Opcode::DsrMem4d,
         {memoryDSR, Imm(width), Imm(base), Imm(0), Imm(1 + pick(5)),
          Imm(pitch), Imm(1 + pick(6)), Imm(pick(3) == 0 ? -1 : 1)},
         {}});
    break;
  }
  case 1: // circbuf
    trial.setup.push_back(
        {Opcode::DsrCircbuf,
         {memoryDSR, Imm(width), Imm(base), Imm(extent), Imm(1 + pick(7))},
         {}});
    break;
  default: { // mem1d, any stride
    int64_t stride = static_cast<int64_t>(pick(7)) - 2;
    trial.setup.push_back({Opcode::DsrMem1d,
                           {memoryDSR, Imm(width), Imm(base), Imm(extent),
                            Imm(pick(3)), Imm(stride), Imm(0)},
                           {}});
    break;
  }
  }
  if (pick(3) == 0)
    trial.setup.push_back({Opcode::DsrSaveAddress, {memoryDSR}, {}});
  unsigned color = pick(24);
  if (trial.receive)
    trial.setup.push_back(
        {Opcode::DsrFabin,
         {fabricDSR, Imm(extent), Imm(color), Imm(trial.queue), Imm(0), Imm(0)},
         {}});
  else
    trial.setup.push_back(
        {Opcode::DsrFabout,
         {fabricDSR, Imm(extent), Imm(color), Imm(trial.queue),
          Imm(pick(4) == 0), Imm(pick(3) == 0), Imm(0), Imm(0), Imm(0)},
         {}});
  trial.inst = {opcode, {Dest(0), Src0(0)}, {}};
  const uint64_t slices[] = {1, 1, 2, 5, UINT64_MAX};
  trial.slice = slices[pick(5)];
  for (unsigned round = 0; round < 64; ++round) {
    trial.bursts.push_back(pick(3) == 0 ? 0 : pick(4));
    trial.viaRun.push_back(pick(10) == 0);
  }
  return trial;
}

/// What a run of a trial leaves: the Outcome, the wavelets sent and those
/// not taken.
struct MoveOutcome {
  Outcome outcome;
  std::vector<Sent> sent;
  size_t left = 0;
  bool operator==(const MoveOutcome &) const = default;
};

/// Plays `trial`: with `direct`, as the PE model does (runFabricMove, then
/// run() when it declines, or run() in the rounds viaRun picks); without,
/// run() alone. `direct` also counts the elements runFabricMove did.
/// `copied` starts the move as a copy of a start template
/// (DSDEngine::restart), whose slots must stay as they were.
MoveOutcome play(const MoveTrial &trial, uint32_t seed, bool direct,
                 uint64_t *directElements = nullptr, bool copied = false) {
  Machine m;
  std::mt19937 fill(seed);
  std::vector<uint8_t> window(0x2000), top(0x40), bottom(0x40);
  for (std::vector<uint8_t> *part : {&window, &top, &bottom})
    for (uint8_t &byte : *part)
      byte = static_cast<uint8_t>(fill());
  REQUIRE(m.memory.write(0x800, window) == MemoryStatus::Ok);
  REQUIRE(m.memory.write(PEMemory::Size - 0x40, top) == MemoryStatus::Ok);
  REQUIRE(m.memory.write(0, bottom) == MemoryStatus::Ok);
  m.prepare({}, trial.setup);
  KeptStart kept;
  if (copied)
    m.startCopy(trial.inst, kept);
  else
    m.start(trial.inst.opcode, trial.inst.operands, trial.inst.options);
  m.ports.room = 0;
  MoveOutcome result;
  DSDProgress progress;
  for (unsigned round = 0; round < trial.bursts.size(); ++round) {
    for (unsigned k = 0; k < trial.bursts[round]; ++k)
      if (trial.receive)
        m.ports.inputs[trial.queue].push_back(static_cast<uint32_t>(fill()));
      else
        ++m.ports.room;
    if (!direct || trial.viaRun[round]) {
      progress = m.run(trial.slice);
    } else if (DSDEngine::runFabricMove(m.op, m.memory, m.dsrs, m.ports,
                                        trial.slice, progress)) {
      if (directElements)
        *directElements += progress.elements;
    } else {
      uint64_t done = progress.elements;
      if (directElements)
        *directElements += done;
      progress = m.run(trial.slice - done);
      progress.elements += done;
    }
    result.outcome.elements += progress.elements;
    if (progress.status == DSDStatus::Done ||
        progress.status == DSDStatus::Trapped)
      break;
  }
  if (copied)
    REQUIRE(kept.currentSlotBytes() == kept.slotBytes);
  result.outcome.status = progress.status;
  result.outcome.message =
      progress.status == DSDStatus::Trapped ? m.trap.message : "";
  for (std::vector<uint8_t> *part : {&window, &top, &bottom})
    part->clear();
  window.resize(0x2000);
  top.resize(0x40);
  bottom.resize(0x40);
  REQUIRE(m.memory.read(0x800, window) == MemoryStatus::Ok);
  REQUIRE(m.memory.read(PEMemory::Size - 0x40, top) == MemoryStatus::Ok);
  REQUIRE(m.memory.read(0, bottom) == MemoryStatus::Ok);
  result.outcome.memory = window;
  result.outcome.memory.insert(result.outcome.memory.end(), top.begin(),
                               top.end());
  result.outcome.memory.insert(result.outcome.memory.end(), bottom.begin(),
                               bottom.end());
  result.outcome.dsrs = m.operandDSRs();
  result.sent = m.ports.sent;
  result.left = m.ports.inputs[trial.queue].size();
  return result;
}

} // namespace

TEST_CASE("moves between memory and the fabric end as the element path ends "
          "them",
          "[dsd][fabric][fast]") {
  std::mt19937 random(20261127);
  unsigned done = 0, trapped = 0, saved = 0;
  uint64_t directElements = 0;
  for (int trial = 0; trial < 2000; ++trial) {
    MoveTrial moves = makeTrial(random);
    uint32_t seed = random();
    MoveOutcome alone = play(moves, seed, false);
    MoveOutcome direct = play(moves, seed, true, &directElements);
    std::string setup;
    for (const pe::Instruction &step : moves.setup)
      setup += "; " + pe::format(step);
    INFO("trial " << trial << ": " << pe::format(moves.inst) << ", "
                  << (moves.receive ? "receive" : "send") << ", slices of "
                  << moves.slice << setup);
    REQUIRE(direct == alone);
    // The same from a copy of a start template.
    REQUIRE(play(moves, seed, true, nullptr, true) == alone);
    REQUIRE(play(moves, seed, false, nullptr, true) == alone);
    done += alone.outcome.status == DSDStatus::Done;
    trapped += alone.outcome.status == DSDStatus::Trapped;
    saved += moves.setup.size() == 3;
  }
  // The trials reach every ending, and most elements take the direct way.
  CHECK(done > 1000);
  CHECK(trapped > 100);
  CHECK(saved > 500);
  CHECK(directElements > 8000);
}

TEST_CASE("a move handed to run() part way writes its address back",
          "[dsd][fabric][fast]") {
  // mem1d with save-address, every other word: 3 elements by
  // runFabricMove, 2 by run(), then runFabricMove declines (run() took the
  // move over) and run() does the last. Each element lands in its place
  // and the DSR moves on by all 6.
  Machine m;
  m.mem1d(Dest(0), 32, 0x1000, 6, 0, 2);
  m.exec(Opcode::DsrSaveAddress, {Dest(0)});
  m.exec(Opcode::DsrFabin, {Src0(0), Imm(6), Imm(3), Imm(1), Imm(0), Imm(0)});
  m.start(Opcode::FMovSV, {Dest(0), Src0(0)});
  for (uint32_t k = 0; k < 6; ++k)
    m.ports.inputs[1].push_back(100 + k);
  DSDProgress progress;
  REQUIRE(
      DSDEngine::runFabricMove(m.op, m.memory, m.dsrs, m.ports, 3, progress));
  CHECK(progress.status == DSDStatus::Paused);
  CHECK(progress.elements == 3);
  progress = m.run(2);
  CHECK(progress.status == DSDStatus::Paused);
  CHECK(progress.elements == 2);
  CHECK_FALSE(
      DSDEngine::runFabricMove(m.op, m.memory, m.dsrs, m.ports, 3, progress));
  progress = m.run(3);
  CHECK(progress.status == DSDStatus::Done);
  CHECK(progress.elements == 1);
  CHECK(m.get32(0x1000, 11) ==
        std::vector<uint32_t>{100, 0, 101, 0, 102, 0, 103, 0, 104, 0, 105});
  CHECK(m.dsrs.get({0, 0}).offset == 12);
}

TEST_CASE("a move whose address does not fit 32 bits takes the element path",
          "[dsd][fabric][fast]") {
  // Offset 2^30 words puts the receive 2^32 + 0x1000 bytes in, which a
  // 32-bit address cut short would take for 0x1000: runFabricMove
  // declines, and run() traps as it does alone, writing nothing.
  std::vector<std::string> messages;
  std::vector<size_t> left;
  for (bool direct : {false, true}) {
    Machine m;
    m.mem1d(Dest(0), 32, 0x1000, 4, int64_t(1) << 30, 1);
    m.exec(Opcode::DsrFabin, {Src0(0), Imm(4), Imm(3), Imm(1), Imm(0), Imm(0)});
    m.start(Opcode::FMovSV, {Dest(0), Src0(0)});
    m.ports.inputs[1] = {7, 8, 9, 10};
    DSDProgress progress;
    if (direct) {
      REQUIRE_FALSE(DSDEngine::runFabricMove(m.op, m.memory, m.dsrs, m.ports, 4,
                                             progress));
      CHECK(progress.elements == 0);
    }
    progress = m.run(4);
    CHECK(progress.status == DSDStatus::Trapped);
    CHECK(progress.elements == 0);
    CHECK(m.get32(0x1000, 1) == std::vector<uint32_t>{0});
    messages.push_back(m.trap.message);
    left.push_back(m.ports.inputs[1].size());
  }
  CHECK(messages[1] == messages[0]);
  CHECK(left[1] == left[0]);
}

namespace {

/// Starts fmovs dest.0, src0.0 as a copy of `kept` and moves what it can by
/// runFabricMove, which must take it.
DSDProgress copyAndMove(Machine &m, KeptStart &kept) {
  m.startCopy({Opcode::FMovSV, {Dest(0), Src0(0)}, {}}, kept);
  DSDProgress progress;
  REQUIRE(
      DSDEngine::runFabricMove(m.op, m.memory, m.dsrs, m.ports, 100, progress));
  return progress;
}

} // namespace

TEST_CASE("a plain move copied from a template ends without slots of its own",
          "[dsd][fabric][fast]") {
  // What the band carries: six elements each way, with save-address, moved
  // by runFabricMove alone. The copy reads the template's slots throughout
  // (so eight in flight per PE own none); the DSR still moves on by 6.
  for (bool receive : {true, false}) {
    INFO((receive ? "receive" : "send"));
    Machine m;
    Operand memoryDSR = receive ? Dest(0) : Src0(0);
    m.mem1d(memoryDSR, 32, 0x1000, 6);
    m.exec(Opcode::DsrSaveAddress, {memoryDSR});
    if (receive)
      m.exec(Opcode::DsrFabin,
             {Src0(0), Imm(6), Imm(3), Imm(1), Imm(0), Imm(0)});
    else
      m.exec(Opcode::DsrFabout, {Dest(0), Imm(6), Imm(3), Imm(1), Imm(0),
                                 Imm(0), Imm(0), Imm(0), Imm(0)});
    m.put32(0x1000, {10, 11, 12, 13, 14, 15});
    m.ports.inputs[1] = {20, 21, 22, 23, 24, 25};
    KeptStart kept;
    DSDProgress progress = copyAndMove(m, kept);
    CHECK(progress.status == DSDStatus::Done);
    CHECK(progress.elements == 6);
    CHECK(m.op.sharesSlots());
    CHECK(kept.currentSlotBytes() == kept.slotBytes);
    if (receive) {
      CHECK(m.get32(0x1000, 6) ==
            std::vector<uint32_t>{20, 21, 22, 23, 24, 25});
    } else {
      REQUIRE(m.ports.sent.size() == 6);
      CHECK(m.ports.sent[5].payload == 15);
    }
    CHECK(m.dsrs.get(idOf(memoryDSR)).offset == 6);
  }
}

TEST_CASE("a copied move handed to run() part way takes slots of its own",
          "[dsd][fabric][fast]") {
  // Two elements by runFabricMove, then run() takes the move over: the copy
  // writes its cursor, so it copies the template's slots first and leaves
  // the template as it was; the elements still land in their places.
  Machine m;
  m.mem1d(Dest(0), 32, 0x1000, 4);
  m.exec(Opcode::DsrFabin, {Src0(0), Imm(4), Imm(3), Imm(1), Imm(0), Imm(0)});
  m.ports.inputs[1] = {30, 31};
  KeptStart kept;
  DSDProgress progress = copyAndMove(m, kept);
  CHECK(progress.status == DSDStatus::Blocked);
  CHECK(m.op.sharesSlots());
  m.ports.inputs[1] = {32, 33};
  progress = m.run();
  CHECK(progress.status == DSDStatus::Done);
  CHECK(progress.elements == 2);
  CHECK_FALSE(m.op.sharesSlots());
  CHECK(m.op.ownsSlots());
  CHECK(kept.currentSlotBytes() == kept.slotBytes);
  CHECK(m.get32(0x1000, 4) == std::vector<uint32_t>{30, 31, 32, 33});
}
