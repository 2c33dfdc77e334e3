//===- TeardownTest.cpp - TEARDOWN commands reaching a PE -----------------===//
//
// docs/Emulator.md "Delivery and the task picker", Teardown: a color put
// into teardown at a PE runs the program's `__teardown_handler.<color>` as
// a top-level call; without one, task 29 if the program binds it; else the
// color stays in teardown.
//
//===----------------------------------------------------------------------===//

#include "TestMachine.h"

using namespace machinetest;

namespace {

constexpr unsigned Color = 3;
constexpr unsigned NOP = 0, Teardown = 3, CEIgnore = 4;

/// (0, 0), which runs nothing, pops every command on color 3, so the
/// TEARDOWN in slot 1 is (1, 0)'s alone; ce_ignore keeps the wavelet from
/// (1, 0)'s CE.
Fabric teardownRow(const Program &receiver) {
  pe::RouterConfig first;
  first.rx = Ramp;
  first.tx = E;
  first.positions[0] = pe::SwitchPosition{false, pe::Port::East};
  first.popMode = pe::PopMode::AlwaysPop;
  Fabric f(2, 1, receiver.getArch());
  f.place(1, 0, receiver);
  f.route(0, 0, Color, first).route(1, 0, Color, W, Ramp);
  return f;
}

uint32_t teardownCommand() {
  uint32_t payload = controlPayload(control::NoEntryPoint, 0);
  payload = control::setSlot(payload, 0, NOP);
  return control::setSlot(payload, 1, Teardown | CEIgnore);
}

/// Logs `value`, then clears the color's teardown-in-progress bit (14)
/// through its config word.
Program &logAndExitTeardown(Program &p, uint32_t value) {
  return p.logValue(value)
      .cfgGet(1, ColorConfigWord + Color)
      .emit(Opcode::AndI, {R(1), R(1), Imm(0xBFFF)})
      .cfgSet(ColorConfigWord + Color, 1);
}

} // namespace

TEST_CASE("a TEARDOWN command runs the color's teardown handler as a call") {
  Program p("recv");
  p.label("td3");
  logAndExitTeardown(p, 0xD3).ret();
  p.label("td4").logValue(0xD4).ret();
  p.label("t29").logValue(29).texit();
  p.function("__teardown_handler.3", "td3")
      .function("__teardown_handler.4", "td4")
      .task(TaskKind::Local, 29, "t29");
  Machine m(teardownRow(p));
  REQUIRE(m.inject(0, 0, Color, teardownCommand(), true));
  CHECK(m.run().status == RunStatus::Idle);
  // Only color 3's handler ran, and as a call: no task was picked.
  CHECK(m.log(1, 0) == std::vector<uint32_t>{0xD3});
  CHECK(m.emu.getCounters(1, 0).tasksRun == 0);
  CHECK(m.emu.getCounters(1, 0).instructions == 1 + LogCycles + 3 + 1);
  CHECK(m.emu.getNetwork().getCounters().teardowns == 1);
  CHECK_FALSE(m.emu.getNetwork().isInTeardown(0, 0, Color));
  CHECK_FALSE(m.emu.getNetwork().isInTeardown(1, 0, Color));
  CHECK(m.emu.getNetwork().getWaveletsAwaitingCE() == 0);
}

TEST_CASE("without a handler for the color, task 29 runs") {
  Program p("recv");
  p.label("td4").logValue(0xD4).ret();
  p.label("t29");
  logAndExitTeardown(p, 29).texit();
  p.function("__teardown_handler.4", "td4").task(TaskKind::Local, 29, "t29");
  Machine m(teardownRow(p));
  REQUIRE(m.inject(0, 0, Color, teardownCommand(), true));
  CHECK(m.run().status == RunStatus::Idle);
  CHECK(m.log(1, 0) == std::vector<uint32_t>{29});
  CHECK(m.emu.getCounters(1, 0).tasksRun == 1);
  CHECK_FALSE(m.emu.getNetwork().isInTeardown(1, 0, Color));
}

TEST_CASE("without a handler or task 29 the color stays in teardown") {
  Program p("recv");
  p.label("td4").logValue(0xD4).ret();
  // A handler for another color, and a data symbol of the handler's name,
  // which is not a handler.
  p.function("__teardown_handler.4", "td4");
  p.dataSymbol("__teardown_handler.3", 0x1000);
  Machine m(teardownRow(p));
  REQUIRE(m.inject(0, 0, Color, teardownCommand(), true));
  CHECK(m.run().status == RunStatus::Idle);
  CHECK(m.read32(1, 0, LogCount) == 0);
  CHECK(m.emu.getNetwork().isInTeardown(1, 0, Color));
  CHECK(m.emu.getCounters(1, 0) == PECounters{});
}
