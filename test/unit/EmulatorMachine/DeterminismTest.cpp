//===- DeterminismTest.cpp - a run is a function of its inputs ------------===//
//
// docs/Emulator.md "The clock and its cycle": the same program and options
// give the same memory, cycles, counters and output, however the run is
// cut into calls of run().
//
//===----------------------------------------------------------------------===//

#include "TestMachine.h"

#include <bit>

using namespace machinetest;

namespace {

constexpr uint16_t Source = 0x2800, Target = 0x3000;

/// Row 0: (0, 0) streams eight words to (1, 0) asynchronously while its
/// local tasks race; (1, 0) adds 1.0 to each as it arrives and then sends a
/// control wavelet on to (2, 0), which computes on memory and prints.
Fabric workload() {
  Program send("send");
  send.data(Source, {1, 2, 3, 4, 5, 6, 7, 8});
  send.label("t10")
      .mem1d(Src0(0), 32, Source, 8)
      .fabout(Dest(0), 8, 3, 1)
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)}, opts().async().activate(11))
      .logValue(10)
      .texit();
  send.label("t11").logValue(11).texit();
  send.task(TaskKind::Local, 10, "t10").task(TaskKind::Local, 11, "t11");
  for (unsigned id : {20, 21, 22, 25}) {
    std::string name = "t" + std::to_string(id);
    send.label(name).logValue(id).texit();
    send.task(TaskKind::Local, id, name).activateAtStart(id);
  }
  send.activateAtStart(10);

  Program add("add");
  add.data(Source, {controlPayload(40, 0x1234)});
  add.label("t10")
      .fabin(Src0(0), 8, 3, 1)
      .mem1d(Dest(0), 32, Target, 8)
      .movi(1, 0x3F800000) // 1.0f
      .emit(Opcode::FAddSV, {Dest(0), Src0(0), R(1)})
      .mem1d(Src0(1), 32, Source, 1)
      .fabout(Dest(1), 1, 4, 2, /*control=*/true)
      .emit(Opcode::Mov32V, {Dest(1), Src0(1)})
      .texit();
  add.task(TaskKind::Local, 10, "t10").activateAtStart(10);

  Program print("print");
  print.data(Source, {9, 8, 7, 6, 5, 4, 3, 2});
  print.label("t40")
      .log(0)
      .mem1d(Dest(0), 32, Target, 8)
      .mem1d(Src0(0), 32, Source, 8)
      .emit(Opcode::FMovSV, {Dest(0), Src0(0)})
      .movi(1, 'o')
      .cfgSet(SimprintWord, 1)
      .movi(1, 'k')
      .cfgSet(SimprintWord, 1)
      .movi(1, '\n')
      .cfgSet(SimprintWord, 1)
      .texit();
  print.task(TaskKind::Control, 40, "t40");
  print.unblockAtStart(BlockSpace::Color, 4);

  Fabric f(3, 1);
  f.place(0, 0, send).place(1, 0, add).place(2, 0, print);
  f.route(0, 0, 3, Ramp, E).route(1, 0, 3, W, Ramp);
  f.route(1, 0, 4, Ramp, E).route(2, 0, 4, W, Ramp);
  return f;
}

/// Everything a run leaves behind that a test can read.
struct Snapshot {
  uint64_t cycle = 0;
  RunStatus status = RunStatus::Idle;
  PECounters total;
  std::vector<PECounters> perPE;
  NetworkCounters network;
  std::vector<PrintedLine> printed;
  std::vector<std::vector<uint8_t>> memories;
  bool operator==(const Snapshot &) const = default;
};

Snapshot snapshot(const Machine &m, RunStatus status) {
  Snapshot s;
  s.cycle = m.emu.getCycle();
  s.status = status;
  s.total = m.emu.getCounters();
  for (unsigned x = 0; x < 3; ++x) {
    s.perPE.push_back(m.emu.getCounters(x, 0));
    s.memories.push_back(m.memory(x, 0));
  }
  s.network = m.emu.getNetwork().getCounters();
  s.printed = m.emu.getPrintedLines();
  return s;
}

EmulatorOptions seeded(uint64_t seed) {
  EmulatorOptions options;
  options.shuffleSeed = seed;
  return options;
}

} // namespace

TEST_CASE("the workload does what it says") {
  Machine m(workload());
  REQUIRE(m.run().status == RunStatus::Idle);
  CHECK(m.log(0, 0) == std::vector<uint32_t>{10, 11, 20, 21, 22, 25});
  std::vector<uint32_t> sums;
  for (uint32_t i = 1; i <= 8; ++i)
    sums.push_back(std::bit_cast<uint32_t>(std::bit_cast<float>(i) + 1.0f));
  CHECK(m.read32s(1, 0, Target, 8) == sums);
  CHECK(m.log(2, 0) == std::vector<uint32_t>{0x1234});
  CHECK(m.read32s(2, 0, Target, 8) ==
        std::vector<uint32_t>{9, 8, 7, 6, 5, 4, 3, 2});
  REQUIRE(m.emu.getPrintedLines().size() == 1);
  CHECK(m.emu.getPrintedLines()[0].text == "ok");
}

TEST_CASE("the same program and seed give the same run") {
  for (std::optional<uint64_t> seed :
       {std::optional<uint64_t>(), std::optional<uint64_t>(3)}) {
    EmulatorOptions options = seed ? seeded(*seed) : EmulatorOptions{};
    Machine first(workload(), options);
    Machine second(workload(), options);
    Snapshot a = snapshot(first, first.run().status);
    Snapshot b = snapshot(second, second.run().status);
    CHECK(a.status == RunStatus::Idle);
    CHECK(a.total.instructions > 0);
    CHECK(a == b);
  }
}

TEST_CASE("cutting a run into pieces changes nothing") {
  Machine whole(workload(), seeded(5));
  Snapshot expected = snapshot(whole, whole.run().status);

  Machine pieces(workload(), seeded(5));
  RunOutcome outcome;
  uint64_t total = 0;
  unsigned calls = 0;
  do {
    outcome = pieces.run(7);
    total += outcome.cycles;
    ++calls;
  } while (outcome.status == RunStatus::CycleLimit);
  CHECK(calls > 2);
  CHECK(total == expected.cycle);
  CHECK(snapshot(pieces, outcome.status) == expected);

  Machine stepped(workload(), seeded(5));
  for (uint64_t i = 0; i < expected.cycle; ++i)
    REQUIRE(stepped.emu.step());
  CHECK(snapshot(stepped, stepped.run().status) == expected);
}
