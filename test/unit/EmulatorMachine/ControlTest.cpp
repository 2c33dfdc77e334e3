//===- ControlTest.cpp - control wavelets and the gates of colors ---------===//
//
// docs/Emulator.md "Delivery and the task picker": a control wavelet at the
// head of an open gate activates the task its entry point names with its low
// 16 bits in r0; entry point 31 is dropped; a color no task is bound to has
// its gate blocked until the program unblocks it.
//
//===----------------------------------------------------------------------===//

#include "TestMachine.h"

using namespace machinetest;

namespace {

constexpr unsigned Color = 2;

/// Color 2 from (0, 0), which runs nothing, to (1, 0)'s CE, which runs
/// `receiver`.
Fabric towardsSecond(const Program &receiver) {
  Fabric f(2, 1, receiver.getArch());
  f.place(1, 0, receiver);
  f.route(0, 0, Color, Ramp, E);
  f.route(1, 0, Color, W, Ramp);
  return f;
}

/// Control task 40 logs its r0; "release" unblocks the color's gate.
Program receiver() {
  Program p("recv");
  p.label("t40").log(0).texit();
  p.label("release").unblock(BlockSpace::Color, Color).ret();
  p.task(TaskKind::Control, 40, "t40");
  return p;
}

/// Injects the payloads at (0, 0) as the inject buffer takes them,
/// stepping the clock in between.
void feed(Machine &m, const std::vector<uint32_t> &payloads) {
  for (uint32_t payload : payloads)
    while (!m.inject(0, 0, Color, payload, /*control=*/true))
      REQUIRE(m.emu.step());
}

} // namespace

TEST_CASE("a control wavelet runs the task it names with its low 16 bits") {
  Program p = receiver();
  p.unblockAtStart(BlockSpace::Color, Color);
  Machine m(towardsSecond(p));
  // r0 gets the low 16 bits only (not bits 30 and 31); the second wavelet
  // waits at the head of the queue until task 40 has run with the first.
  feed(m, {controlPayload(40, 0x1234) | 0xC0000000u, controlPayload(40, 7)});
  CHECK(m.run().status == RunStatus::Idle);
  CHECK(m.log(1, 0) == std::vector<uint32_t>{0x1234, 7});
  CHECK(m.emu.getCounters(1, 0) ==
        PECounters{.instructions = 2 * (LogCycles + 1),
                   .tasksRun = 2,
                   .busyCycles = 2 * (1 + LogCycles + 1),
                   .waveletsReceived = 2});
}

TEST_CASE("a control wavelet with entry point 31 is taken and dropped") {
  Program p = receiver();
  p.unblockAtStart(BlockSpace::Color, Color);
  Machine m(towardsSecond(p));
  feed(m, {controlPayload(control::NoEntryPoint, 0x99), controlPayload(40, 5)});
  CHECK(m.run().status == RunStatus::Idle);
  CHECK(m.log(1, 0) == std::vector<uint32_t>{5});
  CHECK(m.emu.getCounters(1, 0).tasksRun == 1);
  CHECK(m.emu.getCounters(1, 0).waveletsReceived == 2);
  CHECK(m.emu.getNetwork().getWaveletsAwaitingCE() == 0);
}

TEST_CASE("a color no task is bound to keeps its gate blocked until "
          "unblocked") {
  Program p = receiver();
  Machine m(towardsSecond(p));
  feed(m, {controlPayload(40, 0x1234)});
  CHECK(m.run().status == RunStatus::Stalled);
  CHECK(m.deadlock() ==
        "deadlock at cycle 3: work is pending but nothing can move\n"
        "wavelets in routers:\n"
        "  PE (1, 0) color 2: control 0x00281234 (wavelet 1) delivered, "
        "waiting for the CE\n");
  CHECK(m.read32(1, 0, LogCount) == 0);

  m.call(1, 0, p.address("release"));
  CHECK(m.run().status == RunStatus::Idle);
  CHECK(m.log(1, 0) == std::vector<uint32_t>{0x1234});
}

TEST_CASE("control wavelets queued behind a gate are all taken once it "
          "opens") {
  Program p = receiver();
  Machine m(towardsSecond(p));
  // Two switch-only wavelets (entry point 31) fill the delivery queue;
  // the one for task 40 waits behind them in the router.
  feed(m, {controlPayload(control::NoEntryPoint, 1),
           controlPayload(control::NoEntryPoint, 2), controlPayload(40, 3)});
  CHECK(m.run().status == RunStatus::Stalled);
  CHECK(m.emu.getNetwork().getDeliveredCount(1, 0, Color) == 2);

  m.call(1, 0, p.address("release"));
  CHECK(m.run().status == RunStatus::Idle);
  CHECK(m.log(1, 0) == std::vector<uint32_t>{3});
  CHECK(m.emu.getCounters(1, 0).waveletsReceived == 3);
}

TEST_CASE("a control wavelet behind data is taken once a receive has "
          "taken the data") {
  // Task 10 receives two data wavelets into memory; the control wavelet
  // for task 40 queued behind them is seen only then.
  Program p = receiver();
  p.label("t10")
      .fabin(Src0(1), 2, Color, 1)
      .mem1d(Dest(1), 32, 0x3000, 2)
      .emit(Opcode::Mov32V, {Dest(1), Src0(1)})
      .texit();
  p.task(TaskKind::Local, 10, "t10").activateAtStart(10);
  p.unblockAtStart(BlockSpace::Color, Color);
  Machine m(towardsSecond(p));
  REQUIRE(m.inject(0, 0, Color, 0x11));
  REQUIRE(m.emu.step());
  REQUIRE(m.inject(0, 0, Color, 0x22));
  feed(m, {controlPayload(40, 9)});
  CHECK(m.run().status == RunStatus::Idle);
  CHECK(m.read32(1, 0, 0x3000) == 0x11);
  CHECK(m.read32(1, 0, 0x3004) == 0x22);
  CHECK(m.log(1, 0) == std::vector<uint32_t>{9});
  CHECK(m.emu.getCounters(1, 0).waveletsReceived == 3);
  CHECK(m.emu.getNetwork().getWaveletsAwaitingCE() == 0);
}

TEST_CASE("WSE-3: the gate of a color is its input queue") {
  Program p("recv", Arch::WSE3);
  p.label("t40").log(0).texit();
  p.task(TaskKind::Control, 40, "t40").inputQueue(3, Color);
  SECTION("blocked while no task is bound to the queue") {
    Machine m(towardsSecond(p));
    feed(m, {controlPayload(40, 9)});
    CHECK(m.run().status == RunStatus::Stalled);
    CHECK(m.read32(1, 0, LogCount) == 0);
  }
  SECTION("open once the program unblocks the queue") {
    p.unblockAtStart(BlockSpace::InputQueue, 3);
    Machine m(towardsSecond(p));
    feed(m, {controlPayload(40, 9)});
    CHECK(m.run().status == RunStatus::Idle);
    CHECK(m.log(1, 0) == std::vector<uint32_t>{9});
  }
}

TEST_CASE("a blocked control task keeps the next wavelet for it queued") {
  Program p = receiver();
  p.label("unblock40").unblock(BlockSpace::Task, 40).ret();
  p.unblockAtStart(BlockSpace::Color, Color);
  p.blockAtStart(BlockSpace::Task, 40);
  Machine m(towardsSecond(p));
  feed(m, {controlPayload(40, 1), controlPayload(40, 2)});
  CHECK(m.run().status == RunStatus::Stalled);
  CHECK(m.deadlock() ==
        "deadlock at cycle 4: work is pending but nothing can move\n"
        "  PE (1, 0) 'recv': task 40 (control) is activated but blocked\n"
        "wavelets in routers:\n"
        "  PE (1, 0) color 2: control 0x00280002 (wavelet 2) delivered, "
        "waiting for the CE\n");
  m.call(1, 0, p.address("unblock40"));
  CHECK(m.run().status == RunStatus::Idle);
  CHECK(m.log(1, 0) == std::vector<uint32_t>{1, 2});
}

TEST_CASE("a control wavelet naming a local task runs it once") {
  Program p("recv");
  p.label("t10").log(0).texit();
  p.task(TaskKind::Local, 10, "t10");
  p.unblockAtStart(BlockSpace::Color, Color);
  Machine m(towardsSecond(p));
  feed(m, {controlPayload(10, 0x55)});
  CHECK(m.run(10'000).status == RunStatus::Idle);
  CHECK(m.log(1, 0) == std::vector<uint32_t>{0x55});
  CHECK(m.emu.getCounters(1, 0).tasksRun == 1);
}

TEST_CASE("a control wavelet naming a task without an entry faults") {
  Program p = receiver();
  p.unblockAtStart(BlockSpace::Color, Color);
  Machine m(towardsSecond(p));
  feed(m, {controlPayload(41, 1)});
  CHECK(m.run().status == RunStatus::Faulted);
  CHECK(m.fault() == "PE (1, 0) 'recv' at pc 0x0000, cycle 2: a control "
                     "wavelet on color 2 activates task 41, which has no "
                     "entry in the task table");
  CHECK(m.emu.getCycle() == 3);
}
