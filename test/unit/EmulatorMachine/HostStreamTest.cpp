//===- HostStreamTest.cpp - host streams of out.json at load --------------===//
//
// docs/Emulator.md "Edge ports": the emulator declares the edge exit of
// every output host stream when it loads, so a program's wavelets leave
// the fabric there; input streams are the host's to feed.
//
//===----------------------------------------------------------------------===//

#include "TestMachine.h"

#include <cstring>

using namespace machinetest;

namespace {

constexpr uint16_t Source = 0x2800, Target = 0x3000;

/// Sends four words from Source on color 3 through output queue 1.
Program sender() {
  Program p("send");
  p.data(Source, {0xA, 0xB, 0xC, 0xD});
  p.label("t10")
      .mem1d(Src0(0), 32, Source, 4)
      .fabout(Dest(0), 4, 3, 1)
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)})
      .texit();
  p.task(TaskKind::Local, 10, "t10").activateAtStart(10);
  return p;
}

/// (0, 0) sends color 3 east, off the 1x1 rectangle.
LoadedOutput eastward(bool output) {
  Fabric f(1, 1);
  f.place(0, 0, sender()).route(0, 0, 3, Ramp, E);
  LoadedOutput out = f.build();
  out.metadata.hostStreams.push_back(
      {"y_out", output, 0, 0, pe::Port::East, 3});
  return out;
}

} // namespace

TEST_CASE("an output host stream's exit is declared at load") {
  LoadedOutput out = eastward(true);
  Emulator emu(out);
  Network &net = emu.getNetwork();
  // Two fill the exit, two wait in the output queue: the PE stalls until
  // the host takes some.
  CHECK(emu.run(1000).status == RunStatus::Stalled);
  CHECK(net.getEdgeExitCount(0, 0, pe::Port::East, 3) == 2);
  std::vector<uint32_t> words;
  RunOutcome outcome = emu.run(1000, [&] {
    while (std::optional<Wavelet> w = net.pollEdgeExit(0, 0, pe::Port::East, 3))
      words.push_back(w->payload);
    return words.size() == 4;
  });
  CHECK(outcome.status == RunStatus::Reached);
  CHECK(words == std::vector<uint32_t>{0xA, 0xB, 0xC, 0xD});
  CHECK(net.getErrors().empty());
  CHECK(emu.run(1000).status == RunStatus::Idle);
  CHECK(net.getCounters().edgeOut == 4);
}

TEST_CASE("an input host stream declares no exit") {
  LoadedOutput out = eastward(false);
  Emulator emu(out);
  CHECK(emu.run(1000).status == RunStatus::Stalled);
  REQUIRE(emu.getNetwork().getErrors().size() == 1);
  CHECK(emu.getNetwork().getErrors()[0].kind ==
        RouteErrorKind::LeavesRectangle);
}

TEST_CASE("words the host puts in at the west edge reach a fabin") {
  Program recv("recv");
  recv.label("t10")
      .fabin(Src0(0), 4, 3, 1)
      .mem1d(Dest(0), 32, Target, 4)
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)})
      .texit();
  recv.task(TaskKind::Local, 10, "t10").activateAtStart(10);
  Fabric f(2, 1);
  f.place(1, 0, recv).route(0, 0, 3, W, E).route(1, 0, 3, W, Ramp);
  LoadedOutput out = f.build();
  out.metadata.hostStreams.push_back({"x_in", false, 0, 0, pe::Port::West, 3});
  Emulator emu(out);
  uint32_t next = 0;
  RunOutcome outcome = emu.run(1000, [&] {
    if (next < 4 && emu.getNetwork().injectAtEdge(0, 0, pe::Port::West,
                                                  {0x10 + next, 3, false, 0}))
      ++next;
    return false;
  });
  CHECK(outcome.status == RunStatus::Idle);
  CHECK(emu.getFault() == std::nullopt);
  std::vector<uint8_t> bytes(16);
  REQUIRE(emu.readMemory(1, 0, Target, bytes) == MemoryStatus::Ok);
  std::vector<uint32_t> words(4);
  std::memcpy(words.data(), bytes.data(), 16);
  CHECK(words == std::vector<uint32_t>{0x10, 0x11, 0x12, 0x13});
  CHECK(emu.getNetwork().getCounters().edgeIn == 4);
}
