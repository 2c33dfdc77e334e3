//===- PickerTest.cpp - which ready task runs next ------------------------===//
//
// docs/Emulator.md "Delivery and the task picker": round robin by ID (or
// lowest ready ID first), blocked tasks wait, activation is a flag, data tasks
// by color (WSE-2) or input queue (WSE-3), and the seeded shuffle.
//
//===----------------------------------------------------------------------===//

#include "TestMachine.h"

using namespace machinetest;

namespace {

/// Local tasks that each log their ID, activated at start in `order`.
Program loggingTasks(const std::vector<unsigned> &order) {
  Program p("pe");
  for (unsigned id : order) {
    std::string name = "t" + std::to_string(id);
    p.label(name).logValue(id).texit();
    p.task(TaskKind::Local, id, name);
    p.activateAtStart(id);
  }
  return p;
}

/// Routes `color` from (0, 0), which runs nothing, to (1, 0)'s CE.
Fabric towardsSecond(const Program &receiver, unsigned color) {
  Fabric f(2, 1, receiver.getArch());
  f.place(1, 0, receiver);
  f.route(0, 0, color, Ramp, E);
  f.route(1, 0, color, W, Ramp);
  return f;
}

} // namespace

TEST_CASE("tasks activated together run lowest ID first") {
  Machine m(Fabric::single(loggingTasks({20, 25, 10, 12})));
  RunOutcome outcome = m.run();
  CHECK(outcome.status == RunStatus::Idle);
  CHECK(m.log(0, 0) == std::vector<uint32_t>{10, 12, 20, 25});
  // Each task: a task switch, six scalar instructions, texit.
  CHECK(outcome.cycles == 4 * 8);
  CHECK(m.emu.getCycle() == 4 * 8);
  // Busy: every task switch and instruction.
  CHECK(m.emu.getCounters() ==
        PECounters{.instructions = 4 * 7, .tasksRun = 4, .busyCycles = 4 * 8});
}

TEST_CASE("round robin takes the next ready ID above the last task picked") {
  // Task 30 readies 5 and 40 together; round robin goes on upwards to 40
  // and wraps to 5, so a low ID cannot starve a high one (game-of-life's
  // forwarding task waits behind its data tasks otherwise).
  Program p("pe");
  p.label("t5").logValue(5).texit();
  p.label("t40").logValue(40).texit();
  p.label("t30").logValue(30).activate(40).activate(5).texit();
  p.task(TaskKind::Local, 5, "t5")
      .task(TaskKind::Local, 40, "t40")
      .task(TaskKind::Local, 30, "t30");
  p.activateAtStart(30);
  auto runWith = [&](PickerPolicy policy) {
    EmulatorOptions options;
    options.picker = policy;
    Machine m(Fabric::single(p), options);
    REQUIRE(m.run().status == RunStatus::Idle);
    return m.log(0, 0);
  };
  CHECK(runWith(PickerPolicy::RoundRobin) == std::vector<uint32_t>{30, 40, 5});
  CHECK(runWith(PickerPolicy::LowestID) == std::vector<uint32_t>{30, 5, 40});
}

TEST_CASE("a blocked task is not picked until it is unblocked") {
  Program p("pe");
  p.label("t10").logValue(10).texit();
  // Task 10 is ready as soon as the unblock runs, but task 11 goes on.
  p.label("t11")
      .logValue(11)
      .unblock(BlockSpace::Task, 10)
      .logValue(12)
      .texit();
  p.task(TaskKind::Local, 10, "t10").task(TaskKind::Local, 11, "t11");
  p.activateAtStart(10).blockAtStart(BlockSpace::Task, 10).activateAtStart(11);
  Machine m(Fabric::single(p));
  CHECK(m.run().status == RunStatus::Idle);
  CHECK(m.log(0, 0) == std::vector<uint32_t>{11, 12, 10});
  CHECK(m.emu.getCycle() == (1 + 6 + 1 + 6 + 1) + (1 + 6 + 1));
}

TEST_CASE("a task activated but blocked for good stalls the run") {
  Program p("pe");
  p.label("t12").line(3).logValue(12).texit();
  p.task(TaskKind::Local, 12, "t12");
  p.activateAtStart(12).blockAtStart(BlockSpace::Task, 12);
  Machine m(Fabric::single(p));
  RunOutcome outcome = m.run();
  CHECK(outcome.status == RunStatus::Stalled);
  CHECK(outcome.cycles == 0);
  CHECK(m.deadlock() ==
        "deadlock at cycle 0: work is pending but nothing can move\n"
        "  PE (0, 0) 'pe' at pe.csl:3:3: task 12 (local) is activated but "
        "blocked\n");
  CHECK(m.read32(0, 0, LogCount) == 0);
}

TEST_CASE("activating a task twice before it runs runs it once") {
  Program p("pe");
  p.label("t10").logValue(10).texit();
  p.label("t20").activate(10).activate(10).texit();
  p.task(TaskKind::Local, 10, "t10").task(TaskKind::Local, 20, "t20");
  p.activateAtStart(20);
  Machine m(Fabric::single(p));
  CHECK(m.run().status == RunStatus::Idle);
  CHECK(m.log(0, 0) == std::vector<uint32_t>{10});
  CHECK(m.emu.getCounters().tasksRun == 2);
}

TEST_CASE("a task can activate itself again") {
  constexpr uint16_t Runs = 0x1000;
  Program p("pe");
  // runs += 1; if (runs < 5) activate 9
  p.label("t9")
      .load(1, Runs)
      .emit(Opcode::AddI, {R(1), R(1), Imm(1)})
      .store(1, Runs)
      .movi(3, 5)
      .emit(Opcode::CmpLtU, {R(2), R(1), R(3)})
      .emit(Opcode::BEqZ, {R(2), L("done")})
      .activate(9)
      .label("done")
      .texit();
  p.task(TaskKind::Local, 9, "t9").activateAtStart(9);
  Machine m(Fabric::single(p));
  CHECK(m.run().status == RunStatus::Idle);
  CHECK(m.read32(0, 0, Runs) == 5);
  CHECK(m.emu.getCounters().tasksRun == 5);
}

TEST_CASE("a task that always activates itself runs until the cycle limit") {
  Program p("pe");
  p.label("t9").activate(9).texit();
  p.task(TaskKind::Local, 9, "t9").activateAtStart(9);
  Machine m(Fabric::single(p));
  RunOutcome outcome = m.run(1000);
  CHECK(outcome.status == RunStatus::CycleLimit);
  CHECK(outcome.cycles == 1000);
  CHECK(m.emu.getCycle() == 1000);
  // Three cycles a run (switch, activate, texit): picked at 0, 3, ..., 999.
  CHECK(m.emu.getCounters().tasksRun == 334);
  // A second call goes on from there.
  CHECK(m.run(500).status == RunStatus::CycleLimit);
  CHECK(m.emu.getCycle() == 1500);
}

TEST_CASE("WSE-2: a data wavelet runs the data task whose ID is its color") {
  Program p("recv");
  p.label("t3").log(0).texit();
  p.label("t4").logValue(4).texit();
  p.task(TaskKind::Data, 3, "t3").task(TaskKind::Data, 4, "t4");
  Machine m(towardsSecond(p, 3));
  REQUIRE(m.inject(0, 0, 3, 0xAABB0001));
  REQUIRE(m.inject(0, 0, 3, 2));
  CHECK(m.run().status == RunStatus::Idle);
  CHECK(m.log(1, 0) == std::vector<uint32_t>{0xAABB0001, 2});
  // Delivered in cycles 1 and 2; each run is a switch, log and texit.
  CHECK(m.emu.getCycle() == 2 + 2 * (1 + LogCycles + 1));
  CHECK(m.emu.getCounters(1, 0) ==
        PECounters{.instructions = 2 * (LogCycles + 1),
                   .tasksRun = 2,
                   .busyCycles = 2 * (1 + LogCycles + 1),
                   .waveletsReceived = 2});
}

TEST_CASE("WSE-3: a data wavelet runs the data task of its input queue") {
  Program p("recv", Arch::WSE3);
  p.label("t2").log(0).texit();
  // The ID equal to the color is not what the wavelet runs on WSE-3.
  p.label("t5").logValue(0x500).texit();
  p.task(TaskKind::Data, 2, "t2").task(TaskKind::Data, 5, "t5");
  p.inputQueue(2, 5);
  Machine m(towardsSecond(p, 5));
  // The bound color's delivery queue takes input queue 2's depth.
  CHECK(m.emu.getNetwork().getLaneState(1, 0, 5)->deliveryQueueDepth == 4);
  REQUIRE(m.inject(0, 0, 5, 0x1234));
  REQUIRE(m.inject(0, 0, 5, 0x5678));
  CHECK(m.run().status == RunStatus::Idle);
  CHECK(m.log(1, 0) == std::vector<uint32_t>{0x1234, 0x5678});
  CHECK(m.emu.getCounters(1, 0).tasksRun == 2);
}

TEST_CASE("a blocked color keeps its wavelets queued until unblocked") {
  Program p("recv");
  p.label("t3").line(4).log(0).texit();
  p.label("release").unblock(BlockSpace::Color, 3).ret();
  p.task(TaskKind::Data, 3, "t3").blockAtStart(BlockSpace::Color, 3);
  Machine m(towardsSecond(p, 3));
  REQUIRE(m.inject(0, 0, 3, 10));
  REQUIRE(m.inject(0, 0, 3, 11));
  RunOutcome outcome = m.run();
  CHECK(outcome.status == RunStatus::Stalled);
  CHECK(m.deadlock() ==
        "deadlock at cycle 4: work is pending but nothing can move\n"
        "  PE (1, 0) 'recv' at recv.csl:4:3: task 3 (data) is blocked with "
        "wavelets waiting on color 3\n"
        "wavelets in routers:\n"
        "  PE (1, 0) color 3: 0x0000000a (wavelet 1) delivered, waiting for "
        "the CE\n"
        "  PE (1, 0) color 3: 0x0000000b (wavelet 2) delivered, waiting for "
        "the CE\n");
  CHECK(m.emu.getCounters(1, 0).waveletsReceived == 0);

  m.call(1, 0, p.address("release"));
  CHECK(m.run().status == RunStatus::Idle);
  CHECK(m.log(1, 0) == std::vector<uint32_t>{10, 11});
}

TEST_CASE("WSE-3: a blocked input queue keeps its wavelets queued") {
  Program p("recv", Arch::WSE3);
  p.label("t2").log(0).texit();
  p.label("release").unblock(BlockSpace::InputQueue, 2).ret();
  p.task(TaskKind::Data, 2, "t2").inputQueue(2, 5);
  p.blockAtStart(BlockSpace::InputQueue, 2);
  Machine m(towardsSecond(p, 5));
  REQUIRE(m.inject(0, 0, 5, 7));
  CHECK(m.run().status == RunStatus::Stalled);
  CHECK(m.deadlock() ==
        "deadlock at cycle 3: work is pending but nothing can move\n"
        "  PE (1, 0) 'recv': task 2 (data) is blocked with wavelets waiting "
        "on color 5\n"
        "wavelets in routers:\n"
        "  PE (1, 0) color 5: 0x00000007 (wavelet 1) delivered, waiting for "
        "the CE\n");
  m.call(1, 0, p.address("release"));
  CHECK(m.run().status == RunStatus::Idle);
  CHECK(m.log(1, 0) == std::vector<uint32_t>{7});
}

TEST_CASE("the seeded shuffle repeats for a seed and can leave ID order") {
  Program p = loggingTasks({20, 25, 10, 12});
  auto runWith = [&](std::optional<uint64_t> seed) {
    EmulatorOptions options;
    options.shuffleSeed = seed;
    Machine m(Fabric::single(p), options);
    REQUIRE(m.run().status == RunStatus::Idle);
    return m.log(0, 0);
  };
  CHECK(runWith(std::nullopt) == std::vector<uint32_t>{10, 12, 20, 25});
  // The orders test/Emulator/picker.test shows for the same tasks.
  std::vector<uint32_t> seed1 = runWith(1);
  CHECK(seed1 == std::vector<uint32_t>{12, 10, 20, 25});
  CHECK(runWith(1) == seed1);
  CHECK(runWith(7) == std::vector<uint32_t>{20, 25, 12, 10});
  CHECK(runWith(7) == runWith(7));
}
