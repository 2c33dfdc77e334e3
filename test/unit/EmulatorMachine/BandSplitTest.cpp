//===- BandSplitTest.cpp - any split into bands and threads, one run ------===//
//
// docs/Scaling.md: the emulator cuts the rectangle into bands of rows and
// may step them on several threads. Memory, cycles, counters, printed
// lines, traces, faults and deadlock reports must be those of one band,
// whatever the split; only wavelet IDs may differ. Streams here cross every
// row boundary both ways, PEs in different bands print in the same cycle,
// and two PEs in different bands fault in the same cycle.
//
//===----------------------------------------------------------------------===//

#include "TestMachine.h"

#include <algorithm>
#include <regex>
#include <sstream>

using namespace machinetest;

namespace {

constexpr uint16_t Source = 0x2800, Target = 0x3000;
constexpr unsigned Words = 12;
constexpr uint16_t Height = 7;

/// Streams `Words` words on `color` when task 10 starts at start-up.
Program sender(const std::string &name, unsigned color) {
  Program p(name);
  std::vector<uint32_t> words;
  for (unsigned i = 0; i < Words; ++i)
    words.push_back(0x3F800000 + (i << 16)); // 1.0, 1.5, 2.0, ...
  p.data(Source, words);
  p.label("t10")
      .mem1d(Src0(0), 32, Source, Words)
      .fabout(Dest(0), Words, color, 1)
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)}, opts().async().activate(11))
      .logValue(10)
      .texit();
  p.label("t11").logValue(11).texit();
  p.task(TaskKind::Local, 10, "t10").task(TaskKind::Local, 11, "t11");
  return p.activateAtStart(10);
}

/// Adds each arriving word on `color` to 2.0, then prints `mark` and its y
/// coordinate.
Program receiver(const std::string &name, unsigned color, char mark) {
  Program p(name);
  p.label("t10")
      .fabin(Src0(0), Words, color, 1)
      .mem1d(Dest(0), 32, Target, Words)
      .movi(1, 0x40000000) // 2.0f
      .emit(Opcode::FAddSV, {Dest(0), Src0(0), R(1)})
      .movi(1, mark)
      .cfgSet(SimprintWord, 1)
      .cfgGet(1, YCoordWord)
      .emit(Opcode::AddI, {R(1), R(1), Imm('0')})
      .cfgSet(SimprintWord, 1)
      .movi(1, '\n')
      .cfgSet(SimprintWord, 1)
      .texit();
  return p.task(TaskKind::Local, 10, "t10").activateAtStart(10);
}

/// Column 0 streams south from row 0 to the last row, column 1 north from
/// the last row to row 0, column 2 from row 2 south to row 5: every
/// boundary of every split is crossed, and the receivers at (0, 6) and
/// (1, 0) print in the same cycle.
Fabric crossing() {
  Fabric f(3, Height);
  unsigned last = Height - 1;
  f.place(0, 0, sender("down", 3)).place(0, last, receiver("bottom", 3, 'v'));
  f.place(1, last, sender("up", 4)).place(1, 0, receiver("top", 4, '^'));
  f.place(2, 2, sender("mid", 5)).place(2, 5, receiver("low", 5, 'm'));
  f.route(0, 0, 3, Ramp, S).route(0, last, 3, N, Ramp);
  f.route(1, last, 4, Ramp, N).route(1, 0, 4, S, Ramp);
  f.route(2, 2, 5, Ramp, S).route(2, 5, 5, N, Ramp);
  for (uint16_t y = 1; y < last; ++y)
    f.route(0, y, 3, N, S).route(1, y, 4, S, N);
  f.route(2, 3, 5, N, S).route(2, 4, 5, N, S);
  return f;
}

/// Like crossing(), but column 0's receiver waits for one word more than
/// is sent and column 2's route ends at a router that sends it on to a PE
/// that never takes it: a deadlock with wavelets left in routers.
Fabric stuck() {
  Fabric f(3, Height);
  unsigned last = Height - 1;
  Program greedy("greedy");
  greedy.label("t10")
      .fabin(Src0(0), Words + 1, 3, 1)
      .mem1d(Dest(0), 32, Target, Words + 1)
      .emit(Opcode::FMovSV, {Dest(0), Src0(0)})
      .texit();
  greedy.task(TaskKind::Local, 10, "t10").activateAtStart(10);
  Program idle("idle");
  idle.label("t10").texit();
  idle.task(TaskKind::Local, 10, "t10");
  f.place(0, 0, sender("down", 3)).place(0, last, greedy);
  f.place(2, 1, sender("mid", 5)).place(2, 5, idle);
  f.route(0, 0, 3, Ramp, S).route(0, last, 3, N, Ramp);
  for (uint16_t y = 1; y < last; ++y)
    f.route(0, y, 3, N, S);
  f.route(2, 1, 5, Ramp, S);
  for (uint16_t y = 2; y < 5; ++y)
    f.route(2, y, 5, N, S);
  f.route(2, 5, 5, N, Ramp);
  return f;
}

/// PEs (1, 1) and (0, 5) load outside memory in the same cycle.
Fabric twoFaults() {
  Fabric f(2, Height);
  Program bad("bad");
  bad.label("t10")
      .movi(2, 0xBFFE)
      .emit(Opcode::Ld32, {R(1), R(2), Imm(0)})
      .texit();
  bad.task(TaskKind::Local, 10, "t10").activateAtStart(10);
  f.place(1, 1, bad).place(0, 5, bad);
  return f;
}

struct Result {
  uint64_t cycle = 0;
  RunStatus status = RunStatus::Idle;
  std::vector<PECounters> counters;
  std::vector<std::vector<uint8_t>> memories;
  NetworkCounters network;
  std::vector<PrintedLine> printed;
  std::string trace, fault, deadlock;
  std::vector<LinkCount> links;
  std::vector<ActivitySpan> activities;
  std::vector<OperationSpan> operations;
  std::vector<WaveletRecord> wavelets;
  bool operator==(const Result &) const = default;
};

Result runSplit(const Fabric &fabric, unsigned bands, unsigned threads) {
  std::ostringstream trace;
  EmulatorOptions options;
  options.bands = bands;
  options.threads = threads;
  options.trace = &trace;
  options.record = RecordOptions{};
  Machine m(fabric, options);
  CHECK(m.emu.getNumBands() == std::min<unsigned>(bands, Height));
  Result r;
  r.status = m.run().status;
  r.cycle = m.emu.getCycle();
  for (unsigned y = 0; y < Height; ++y)
    for (unsigned x = 0; x < m.output.layout.getWidth(); ++x) {
      r.counters.push_back(m.emu.getCounters(x, y));
      if (m.output.layout.programAt(x, y))
        r.memories.push_back(m.memory(x, y));
    }
  r.network = m.emu.getNetworkCounters();
  r.printed = m.emu.getPrintedLines();
  r.trace = trace.str();
  r.fault = m.fault();
  r.links = m.emu.getLinkCounts();
  RecordedEvents events = m.emu.getRecordedEvents();
  r.activities = events.activities;
  r.operations = events.operations;
  r.wavelets = events.wavelets;
  // Each band numbers the wavelets it injects itself.
  r.deadlock =
      std::regex_replace(m.deadlock(), std::regex("wavelet \\d+"), "wavelet #");
  return r;
}

/// Every split into 1..Height bands on one and two threads.
void checkEverySplit(const Fabric &fabric, const Result &whole) {
  for (unsigned threads : {1u, 2u})
    for (unsigned bands = 1; bands <= Height; ++bands) {
      INFO(bands << " bands on " << threads << " threads");
      CHECK(runSplit(fabric, bands, threads) == whole);
    }
}

} // namespace

TEST_CASE("streams across band boundaries run as on one band") {
  Fabric fabric = crossing();
  Result whole = runSplit(fabric, 1, 1);
  REQUIRE(whole.status == RunStatus::Idle);
  // What the run does, on one band.
  std::vector<uint32_t> sums;
  for (unsigned i = 0; i < Words; ++i)
    sums.push_back(std::bit_cast<uint32_t>(
        std::bit_cast<float>(0x3F800000 + (i << 16)) + 2.0f));
  Machine m(fabric);
  REQUIRE(m.run().status == RunStatus::Idle);
  CHECK(m.read32s(0, Height - 1, Target, Words) == sums);
  CHECK(m.read32s(1, 0, Target, Words) == sums);
  CHECK(m.read32s(2, 5, Target, Words) == sums);
  CHECK(m.log(0, 0) == std::vector<uint32_t>{10, 11});
  // The two long streams arrive in the same cycle: lines in (y, x) order.
  REQUIRE(whole.printed.size() == 3);
  CHECK(whole.printed[0].text == "m5");
  CHECK(whole.printed[1].text == "^0");
  CHECK(whole.printed[2].text == "v6");
  CHECK(whole.printed[1].cycle == whole.printed[2].cycle);
  CHECK(whole.network.hops > 2 * Words * (Height - 1));
  CHECK(!whole.trace.empty());
  // Every link of the down stream carried each word once; every sender
  // sent and every receiver took each word once, one per cycle.
  for (uint16_t y = 0; y + 1 < Height; ++y)
    CHECK(std::count(whole.links.begin(), whole.links.end(),
                     LinkCount{{0, y}, 3, pe::Port::South, Words}) == 1);
  CHECK(std::count(whole.links.begin(), whole.links.end(),
                   LinkCount{{0, Height - 1}, 3, pe::Port::Ramp, Words}) == 1);
  uint64_t sent = 0, taken = 0;
  for (const WaveletRecord &w : whole.wavelets)
    (w.sent ? sent : taken) += 1;
  CHECK(sent == 3 * Words);
  CHECK(taken == 3 * Words);
  CHECK(whole.operations.size() == 6);
  CHECK(whole.activities.size() >= 6);
  checkEverySplit(fabric, whole);
}

TEST_CASE("a deadlock across band boundaries reads the same") {
  Fabric fabric = stuck();
  Result whole = runSplit(fabric, 1, 1);
  REQUIRE(whole.status == RunStatus::Stalled);
  CHECK(whole.deadlock.find("waits for a wavelet on color 3") !=
        std::string::npos);
  CHECK(whole.deadlock.find("PE (2, 5) color 5") != std::string::npos);
  checkEverySplit(fabric, whole);
}

TEST_CASE("of faults in one cycle the first by row and column is reported") {
  Fabric fabric = twoFaults();
  Result whole = runSplit(fabric, 1, 1);
  REQUIRE(whole.status == RunStatus::Faulted);
  CHECK(whole.fault.rfind("PE (1, 1) 'bad'", 0) == 0);
  checkEverySplit(fabric, whole);
}

TEST_CASE("host calls and edge ports reach the band that holds the PE") {
  Fabric fabric = crossing();
  for (unsigned threads : {1u, 2u}) {
    EmulatorOptions options;
    options.bands = 3;
    options.threads = threads;
    Machine m(fabric, options);
    REQUIRE(m.emu.getNumBands() == 3);
    CHECK(&m.emu.getNetworkForRow(0) == &m.emu.getNetwork());
    CHECK(&m.emu.getNetworkForRow(6) != &m.emu.getNetwork());
    CHECK(m.emu.getNetworkForRow(6).getBand().firstRow > 0);
    CHECK(m.emu.getNetworkForRow(6).getBand().endRow == Height);
    REQUIRE(m.run().status == RunStatus::Idle);
    std::vector<uint8_t> bytes{1, 2, 3, 4};
    CHECK(m.emu.writeMemory(2, 5, 0x3800, bytes) == MemoryStatus::Ok);
    CHECK(m.read32(2, 5, 0x3800) == 0x04030201);
    CHECK(m.emu.readMemory(2, 7, 0x3800, bytes) == MemoryStatus::OutOfRange);
    std::string error;
    CHECK_FALSE(m.emu.call(2, 4, 0x100, {}, error));
    CHECK(error == "PE (2, 4) runs no program");
  }
}
