//===- FabricStallTest.cpp - synchronous fabric operations and deadlocks
//---===//
//
// docs/Emulator.md "Instructions in time" and "How a run ends": a
// synchronous operation with a fabric operand holds the main thread (no
// other task of the PE runs) while the network goes on; one that can never
// finish ends the run as Stalled with a report of what waits where.
//
//===----------------------------------------------------------------------===//

#include "TestMachine.h"

using namespace machinetest;

namespace {

constexpr uint16_t Source = 0x2800, Target = 0x3000;

/// Sends `count` words from Source on `color` through output queue 1.
Program sender(unsigned color, uint16_t count) {
  Program p("send");
  p.data(Source, {0xA, 0xB, 0xC, 0xD});
  p.label("t10")
      .mem1d(Src0(0), 32, Source, count)
      .fabout(Dest(0), count, color, 1)
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)})
      .texit();
  p.task(TaskKind::Local, 10, "t10").activateAtStart(10);
  return p;
}

} // namespace

TEST_CASE("a synchronous fabric operation holds the main thread while "
          "wavelets move on") {
  // (0, 0) sends 0xA, 0xB on color 4 through (1, 0) to (2, 0), waits, then
  // 0xC, 0xD on color 3 to (1, 0), whose task 10 waits for them.
  Program send("send");
  send.data(Source, {0xA, 0xB, 0xC, 0xD});
  send.label("t10")
      .mem1d(Src0(0), 32, Source, 2)             // 1
      .mem1d(Src0(1), 32, Source + 8, 2)         // 2
      .fabout(Dest(0), 2, 4, 2)                  // 3
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)}); // 4-5
  for (unsigned i = 0; i < 8; ++i)
    send.emit(Opcode::Nop);                     // 6-13
  send.fabout(Dest(1), 2, 3, 1)                 // 14
      .emit(Opcode::Mov32V, {Dest(1), Src0(1)}) // 15-16
      .texit();
  send.task(TaskKind::Local, 10, "t10").activateAtStart(10);

  Program recv("recv");
  recv.label("t10")
      .fabin(Src0(0), 2, 3, 1)                  // 1
      .mem1d(Dest(0), 32, Target, 2)            // 2
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)}) // 3-18
      .logValue(10)
      .texit();
  recv.label("t11").logValue(11).texit();
  recv.task(TaskKind::Local, 10, "t10").task(TaskKind::Local, 11, "t11");
  recv.activateAtStart(10).activateAtStart(11);

  Program tail("tail");
  tail.label("t4").log(0).texit();
  tail.task(TaskKind::Data, 4, "t4");

  Fabric f(3, 1);
  f.place(0, 0, send).place(1, 0, recv).place(2, 0, tail);
  f.route(0, 0, 4, Ramp, E).route(1, 0, 4, W, E).route(2, 0, 4, W, Ramp);
  f.route(0, 0, 3, Ramp, E).route(1, 0, 3, W, Ramp);
  Machine m(f);

  // Cycles 0-13: color 4 has passed (1, 0) and (2, 0) has taken 0xA; task
  // 11 of (1, 0) is ready but its main thread still waits.
  for (unsigned i = 0; i < 14; ++i)
    REQUIRE(m.emu.step());
  CHECK(m.log(2, 0) == std::vector<uint32_t>{0xA});
  CHECK(m.read32(1, 0, LogCount) == 0);

  CHECK(m.run().status == RunStatus::Idle);
  CHECK(m.log(1, 0) == std::vector<uint32_t>{10, 11});
  CHECK(m.read32s(1, 0, Target, 2) == std::vector<uint32_t>{0xC, 0xD});
  CHECK(m.log(2, 0) == std::vector<uint32_t>{0xA, 0xB});
  // Injected in 15 and 16, the wavelets arrive in 17 and 18; task 11 ends
  // with the texit of cycle 33.
  CHECK(m.emu.getCycle() == 34);
  CHECK(m.emu.getCounters(1, 0) ==
        PECounters{.instructions = 3 + 7 + 7,
                   .dsdElements = 2,
                   .tasksRun = 2,
                   .busyCycles = 2 + 16 + 2,
                   .stallCycles = 14, // cycles 3 to 16
                   .waveletsReceived = 2});
}

TEST_CASE("a receive that waits for wavelets never sent stalls the run") {
  Program recv("recv");
  recv.label("t10")
      .line(5)
      .fabin(Src0(0), 4, 3, 1)
      .mem1d(Dest(0), 32, Target, 4)
      .line(7)
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)})
      .texit();
  recv.task(TaskKind::Local, 10, "t10").activateAtStart(10);
  Machine m(Fabric::eastPair(sender(3, 2), recv, 3));
  RunOutcome outcome = m.run();
  CHECK(outcome.status == RunStatus::Stalled);
  CHECK(outcome.cycles == m.emu.getCycle());
  // Elements 1 and 2 go in cycles 5 and 6, element 3 blocks in 7.
  CHECK(m.deadlock() ==
        "deadlock at cycle 8: work is pending but nothing can move\n"
        "  PE (1, 0) 'recv' at recv.csl:7:3: main thread in task 10 "
        "(local): mov32 waits for a wavelet on color 3 (input queue 1), "
        "element 3 of 4\n");
  CHECK(m.read32s(1, 0, Target, 2) == std::vector<uint32_t>{0xA, 0xB});
  // Stalled in cycles 3 and 4, before the wavelets came, and in 7.
  CHECK(m.emu.getCounters(1, 0).stallCycles == 3);
  // A second call finds the same at once.
  outcome = m.run();
  CHECK(outcome.status == RunStatus::Stalled);
  CHECK(outcome.cycles == 0);
}

TEST_CASE("a send into a blocked output queue stalls the run") {
  Program send = sender(3, 2);
  send.blockAtStart(BlockSpace::OutputQueue, 1);
  Program recv("recv");
  recv.label("t3").log(0).texit();
  recv.task(TaskKind::Data, 3, "t3");
  Machine m(Fabric::eastPair(send, recv, 3));
  CHECK(m.run().status == RunStatus::Stalled);
  // The send starts at 3 and can never inject: cycle 3 moves nothing.
  CHECK(m.deadlock() ==
        "deadlock at cycle 4: work is pending but nothing can move\n"
        "  PE (0, 0) 'send': main thread in task 10 (local): mov32 waits to "
        "send on color 3 (output queue 1), element 1 of 2\n");
  CHECK(m.emu.getCounters(0, 0).waveletsSent == 0);
}

TEST_CASE("a main thread waiting for a microthread that waits for a "
          "wavelet stalls the run") {
  Program recv("recv");
  recv.label("t10")
      .fabin(Src0(0), 2, 3, 1)
      .mem1d(Dest(0), 32, Target, 2)
      .line(8)
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)}, opts().async())
      .line(9)
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)}, opts().async())
      .texit();
  recv.task(TaskKind::Local, 10, "t10").activateAtStart(10);
  // Nobody sends on color 3.
  Program idle("send");
  idle.label("t10").texit();
  Machine m(Fabric::eastPair(idle, recv, 3));
  CHECK(m.run().status == RunStatus::Stalled);
  // The operations start at 3 and 4; after cycle 4 nothing can move.
  CHECK(m.deadlock() ==
        "deadlock at cycle 5: work is pending but nothing can move\n"
        "  PE (1, 0) 'recv' at recv.csl:9:3: main thread in task 10 "
        "(local): an asynchronous operation waits for its microthread\n"
        "  PE (1, 0) 'recv' at recv.csl:8:3: microthread 1: mov32 waits for "
        "a wavelet on color 3 (input queue 1), element 1 of 2\n");
}
