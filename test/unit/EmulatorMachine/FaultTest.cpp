//===- FaultTest.cpp - faults, and calls from the host --------------------===//
//
// docs/Emulator.md "How a run ends" and "Host access": a trap stops the run
// with a report of the PE, program, pc, source line and cycle; the host's
// top-level calls run with their arguments in r0.. and must return.
//
//===----------------------------------------------------------------------===//

#include "TestMachine.h"

#include <cstdio>
#include <functional>

using namespace machinetest;

namespace {

/// A code address as fault reports print it.
std::string hex4(uint32_t pc) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "0x%04x", pc);
  return buffer;
}

/// One PE whose task 10, activated at start, is `body`.
Machine taskMachine(const std::function<void(Program &)> &body) {
  Program p("pe");
  p.label("t10");
  body(p);
  p.task(TaskKind::Local, 10, "t10").activateAtStart(10);
  return Machine(Fabric::single(p));
}

} // namespace

TEST_CASE("an access outside memory faults with the instruction's line") {
  Machine m = taskMachine([](Program &p) {
    p.line(6).movi(1, 0xC000).line(7).emit(Opcode::St32, {R(2), R(1), Imm(0)});
    p.texit();
  });
  RunOutcome outcome = m.run();
  CHECK(outcome.status == RunStatus::Faulted);
  // The batch of cycle 1 ran movi32 and trapped on the store, whose cycle
  // is 2; the clock stops after cycle 1.
  CHECK(outcome.cycles == 2);
  CHECK(m.fault() == "PE (0, 0) 'pe' at pc 0x0106 (pe.csl:7:3), cycle 2: "
                     "st32 of 4 bytes at 0xc000 does not fit in memory "
                     "(0x0000..0xbfff)");
  const PEFault &fault = *m.emu.getFault();
  CHECK(fault.pc == 0x106);
  CHECK(fault.location == SourceLocation{"pe.csl", 7, 3});
  CHECK(fault.program == "pe");
  // A faulted run stays faulted.
  CHECK(m.run().status == RunStatus::Faulted);
  CHECK(m.run().cycles == 0);
  CHECK_FALSE(m.emu.step());
}

TEST_CASE("loads outside memory and misaligned stores fault") {
  SECTION("load") {
    Machine m = taskMachine([](Program &p) {
      p.movi(2, 0xBFFE).emit(Opcode::Ld32, {R(1), R(2), Imm(0)}).texit();
    });
    CHECK(m.run().status == RunStatus::Faulted);
    CHECK(m.fault() == "PE (0, 0) 'pe' at pc 0x0106, cycle 2: ld32 of 4 "
                       "bytes at 0xbffe does not fit in memory "
                       "(0x0000..0xbfff)");
  }
  SECTION("misaligned") {
    Machine m = taskMachine([](Program &p) {
      p.movi(2, 0x3003).emit(Opcode::St16, {R(1), R(2), Imm(0)}).texit();
    });
    CHECK(m.run().status == RunStatus::Faulted);
    CHECK(m.fault() == "PE (0, 0) 'pe' at pc 0x0104, cycle 2: st16 of 2 "
                       "bytes at odd address 0x3003");
  }
}

TEST_CASE("trap and a failed assert stop the run") {
  SECTION("trap") {
    Machine m =
        taskMachine([](Program &p) { p.emit(Opcode::Trap, {Imm(3)}).texit(); });
    CHECK(m.run().status == RunStatus::Faulted);
    CHECK(m.fault() ==
          "PE (0, 0) 'pe' at pc 0x0100, cycle 1: trap instruction (code 3)");
  }
  SECTION("assert") {
    Machine m = taskMachine([](Program &p) {
      p.movi(1, 1)
          .emit(Opcode::Assert, {R(1), Imm(6)})    // holds
          .emit(Opcode::Assert, {R(Zero), Imm(7)}) // 0x0108 fails
          .texit();
    });
    CHECK(m.run().status == RunStatus::Faulted);
    CHECK(m.fault() ==
          "PE (0, 0) 'pe' at pc 0x0108, cycle 3: assertion failed (code 7)");
    CHECK(m.emu.getCounters().instructions == 2);
  }
}

TEST_CASE("running off the end of the code faults") {
  Machine m = taskMachine([](Program &p) { p.emit(Opcode::Nop); });
  CHECK(m.run().status == RunStatus::Faulted);
  CHECK(m.fault() == "PE (0, 0) 'pe' at pc 0x0102, cycle 2: pc 0x0102 is "
                     "outside the code (0x0100..0x0101)");
}

TEST_CASE("an activated task with no entry faults when it is picked") {
  // Not an ID below 24: on WSE-2 those without a task are the gates of their
  // colors, blocked from the start.
  Machine m = taskMachine([](Program &p) { p.activate(26).texit(); });
  CHECK(m.run().status == RunStatus::Faulted);
  // The picker runs at cycle 3, after texit (at 0x0102, where pc stays).
  CHECK(m.fault() == "PE (0, 0) 'pe' at pc 0x0102, cycle 3: task 26 is "
                     "activated but has no entry in the task table");
}

TEST_CASE("an activated ID that is a blocked gate is left over") {
  // ID 5 on WSE-2 is the gate of color 5, blocked from the start since no
  // task is bound to it: activating it is reported, not lost.
  Machine m = taskMachine([](Program &p) { p.activate(5).texit(); });
  CHECK(m.run().status == RunStatus::Stalled);
  CHECK(m.deadlock() ==
        "deadlock at cycle 3: work is pending but nothing can move\n"
        "  PE (0, 0) 'pe': task 5 is activated but blocked, and has no entry "
        "in the task table\n");
}

TEST_CASE("task, queue and microthread numbers out of range fault") {
  SECTION("activate") {
    Machine m = taskMachine([](Program &p) {
      p.movi(1, 70).emit(Opcode::Activate, {R(1)}).texit();
    });
    CHECK(m.run().status == RunStatus::Faulted);
    CHECK(m.fault() == "PE (0, 0) 'pe' at pc 0x0104, cycle 2: activate: "
                       "task 70 is not in 0..63");
  }
  SECTION("block") {
    Machine m = taskMachine([](Program &p) {
      p.movi(1, 64)
          .emit(Opcode::Block, {Imm(unsigned(BlockSpace::Task)), R(1)})
          .texit();
    });
    CHECK(m.run().status == RunStatus::Faulted);
    CHECK(m.fault() == "PE (0, 0) 'pe' at pc 0x0104, cycle 2: block: task "
                       "64 is not in 0..63");
  }
  SECTION("unblock an output queue") {
    Machine m = taskMachine(
        [](Program &p) { p.unblock(BlockSpace::OutputQueue, 9).texit(); });
    CHECK(m.run().status == RunStatus::Faulted);
    CHECK(m.fault() == "PE (0, 0) 'pe' at pc 0x0100, cycle 1: unblock: "
                       "output queue 9 is not in 0..7");
  }
  SECTION("microthread of an asynchronous operation") {
    Machine m = taskMachine([](Program &p) {
      p.emit(Opcode::FMovSV, {Dest(0), Src0(0)}, opts().async().ut(9)).texit();
    });
    CHECK(m.run().status == RunStatus::Faulted);
    CHECK(m.fault() == "PE (0, 0) 'pe' at pc 0x0100, cycle 1: fmovs: "
                       "microthread 9 is not in 0..7");
  }
}

TEST_CASE("texit in a top-level call faults") {
  Program p("pe");
  p.label("init").line(2).texit();
  SECTION("a start-up call") {
    p.callAtStart("init");
    Machine m(Fabric::single(p));
    CHECK(m.run().status == RunStatus::Faulted);
    CHECK(m.fault() == "PE (0, 0) 'pe' at pc 0x0100 (pe.csl:2:3), cycle 1: "
                       "texit outside a task (in a call that must return)");
  }
  SECTION("a host call") {
    Machine m(Fabric::single(p));
    CHECK(m.run().status == RunStatus::Idle);
    m.call(0, 0, p.address("init"));
    CHECK(m.run().status == RunStatus::Faulted);
    CHECK(m.fault() == "PE (0, 0) 'pe' at pc 0x0100 (pe.csl:2:3), cycle 1: "
                       "texit outside a task (in a call that must return)");
  }
}

TEST_CASE("a host call with bad arguments is refused") {
  Program p("pe");
  p.label("f").ret();
  Fabric f(2, 1);
  f.place(0, 0, p);
  Machine m(f);
  std::string error;
  std::vector<uint32_t> nine(9, 0);
  CHECK_FALSE(m.emu.call(1, 0, p.address("f"), {}, error));
  CHECK(error == "PE (1, 0) runs no program");
  CHECK_FALSE(m.emu.call(5, 0, p.address("f"), {}, error));
  CHECK(error == "PE (5, 0) runs no program");
  CHECK_FALSE(m.emu.call(0, 0, 0x1000, {}, error));
  CHECK(error == "address 0x1000 is not in the code of 'pe'");
  CHECK_FALSE(m.emu.call(0, 0, 0x101, {}, error));
  CHECK(error == "address 0x0101 is not in the code of 'pe'");
  CHECK_FALSE(m.emu.call(0, 0, p.address("f"), nine, error));
  CHECK(error == "a call takes at most 8 arguments, not 9");
  // Nothing was queued.
  RunOutcome outcome = m.run();
  CHECK(outcome.status == RunStatus::Idle);
  CHECK(outcome.cycles == 0);
}

TEST_CASE("a host call runs with its arguments in r0.. and returns") {
  Program p("pe");
  p.label("sum");
  for (unsigned r = 1; r < 8; ++r)
    p.emit(Opcode::Add, {R(0), R(0), R(r)});
  p.store(0, 0x1000).store(14, 0x1004).store(15, 0x1008).ret();
  Machine m(Fabric::single(p));
  m.call(0, 0, p.address("sum"), {1, 2, 3, 4, 5, 6, 7, 8});
  RunOutcome outcome = m.run();
  CHECK(outcome.status == RunStatus::Idle);
  // r14 and r15 hold the top of memory, where the final ret goes.
  CHECK(m.read32s(0, 0, 0x1000, 3) ==
        std::vector<uint32_t>{36, 0xC000, 0xC000});
  CHECK(outcome.cycles == 1 + 7 + 3 + 1);
  CHECK(m.emu.getCounters() ==
        PECounters{.instructions = 11, .busyCycles = 12});
}

TEST_CASE("a pending call runs before any ready task") {
  Program p("pe");
  p.label("t10").logValue(10).texit();
  p.label("f").logValue(99).ret();
  p.task(TaskKind::Local, 10, "t10").activateAtStart(10);
  Machine m(Fabric::single(p));
  m.call(0, 0, p.address("f"));
  CHECK(m.run().status == RunStatus::Idle);
  CHECK(m.log(0, 0) == std::vector<uint32_t>{99, 10});
}

TEST_CASE("a fault outside the main thread has the cycle it happens in") {
  constexpr unsigned Color = 2;
  Program p("recv");
  p.label("t10")
      .mem1d(Dest(0), 32, 0x3000, 64)
      .mem1d(Src0(0), 32, 0x2800, 64)
      .emit(Opcode::FMovSV, {Dest(0), Src0(0)}) // computes from 3 to 34
      .label("end")
      .texit();
  SECTION("a control wavelet for a task without an entry") {
    p.task(TaskKind::Local, 10, "t10").activateAtStart(10);
    p.unblockAtStart(BlockSpace::Color, Color);
    Fabric f(2, 1);
    f.place(1, 0, p).route(0, 0, Color, Ramp, E).route(1, 0, Color, W, Ramp);
    Machine m(f);
    for (unsigned i = 0; i < 5; ++i)
      REQUIRE(m.emu.step());
    // Injected at 5, taken at 7.
    REQUIRE(m.inject(0, 0, Color, controlPayload(41, 0), true));
    CHECK(m.run().status == RunStatus::Faulted);
    CHECK(m.emu.getCycle() == 8);
    // The pc is the main thread's: the instruction after the copy.
    CHECK(m.fault() == "PE (1, 0) 'recv' at pc " + hex4(p.address("end")) +
                           ", cycle 7: a control wavelet on color 2 "
                           "activates task 41, which has no entry in the "
                           "task table");
  }
  SECTION("a microthread's element outside memory") {
    // Before the long copy, an asynchronous receive into the last word of
    // memory and the one past it.
    Program q("recv");
    q.label("t10")
        .fabin(Src0(1), 2, Color, 1)
        .mem1d(Dest(1), 32, 0xBFFC, 2)
        .label("receive")
        .emit(Opcode::Mov32V, {Dest(1), Src0(1)}, opts().async())
        .mem1d(Dest(0), 32, 0x3000, 64)
        .mem1d(Src0(0), 32, 0x2800, 64)
        .emit(Opcode::FMovSV, {Dest(0), Src0(0)}) // computes from 6 to 37
        .texit();
    q.task(TaskKind::Local, 10, "t10").activateAtStart(10);
    Fabric f(2, 1);
    f.place(1, 0, q).route(0, 0, Color, Ramp, E).route(1, 0, Color, W, Ramp);
    Machine m(f);
    for (unsigned i = 0; i < 8; ++i)
      REQUIRE(m.emu.step());
    // Injected at 8 and 9, the two elements go in 10 and 11.
    REQUIRE(m.inject(0, 0, Color, 1));
    REQUIRE(m.inject(0, 0, Color, 2));
    CHECK(m.run().status == RunStatus::Faulted);
    CHECK(m.emu.getCycle() == 12);
    CHECK(m.fault() == "PE (1, 0) 'recv' at pc " + hex4(q.address("receive")) +
                           ", cycle 11: mov32: element 1 of dest.1: store of "
                           "4 bytes at 0xc000 does not fit in memory "
                           "(0x0000..0xbfff)");
    CHECK(m.read32(1, 0, 0xBFFC) == 1);
  }
}
