//===- MicrothreadTest.cpp - asynchronous DSD operations ------------------===//
//
// docs/Emulator.md "Instructions in time": an asynchronous operation runs on
// its microthread while the main thread goes on; its activate/unblock fire
// when it completes; a second one on a busy microthread makes the main
// thread wait; ready microthreads run in priority order.
//
//===----------------------------------------------------------------------===//

#include "TestMachine.h"

using namespace machinetest;

namespace {

constexpr uint16_t Source = 0x2800, Target = 0x3000;

/// 64 f32 words 1, 2, ... at Source.
std::vector<uint32_t> sourceWords() {
  std::vector<uint32_t> words;
  for (uint32_t i = 1; i <= 64; ++i)
    words.push_back(i);
  return words;
}

/// Enables the time-stamp counter (two instructions).
Program &enableTsc(Program &p) {
  return p.movi(1, 1).cfgSet(TscControlWord, 1);
}

/// Logs the low word of the time-stamp counter (1 + LogCycles).
Program &logTime(Program &p) { return p.cfgGet(2, TscLowWord).log(2); }

/// Sends 1, 2, 3, 4 on color 3 after `idle` nops.
Program delayedSender(unsigned idle) {
  Program sender("send");
  sender.data(Source, {1, 2, 3, 4});
  sender.label("t10");
  for (unsigned i = 0; i < idle; ++i)
    sender.emit(Opcode::Nop);
  sender.mem1d(Src0(0), 32, Source, 4)
      .fabout(Dest(0), 4, 3, 1)
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)})
      .texit();
  sender.task(TaskKind::Local, 10, "t10").activateAtStart(10);
  return sender;
}

} // namespace

TEST_CASE("an asynchronous operation runs while the main thread goes on") {
  Program p("pe");
  p.data(Source, sourceWords());
  p.label("t10");
  enableTsc(p)                                  // cycles 1-2: counts from 2
      .mem1d(Dest(0), 32, Target, 64)           // 3
      .mem1d(Src0(0), 32, Source, 64)           // 4
      .emit(Opcode::FMovSV, {Dest(0), Src0(0)}, // 5: 64 / 2 cycles on
            opts().async().activate(11));       //    microthread 0
  logTime(p).texit();                           // 6: reads 4
  p.label("t11");                               // picked at 37
  logTime(p).texit();                           // 38: reads 36
  p.task(TaskKind::Local, 10, "t10").task(TaskKind::Local, 11, "t11");
  p.activateAtStart(10);
  Machine m(Fabric::single(p));
  CHECK(m.run().status == RunStatus::Idle);
  CHECK(m.log(0, 0) == std::vector<uint32_t>{4, 36});
  CHECK(m.read32s(0, 0, Target, 64) == sourceWords());
  CHECK(m.emu.getCycle() == 37 + 1 + 1 + LogCycles + 1);
  // The async start is one busy cycle; its cost is the microthread's.
  CHECK(m.emu.getCounters() == PECounters{.instructions = 12 + 7,
                                          .dsdElements = 64,
                                          .tasksRun = 2,
                                          .busyCycles = 2 + 12 + 7});
}

TEST_CASE("a second operation on a busy microthread makes the main thread "
          "wait") {
  Program p("pe");
  p.data(Source, sourceWords());
  p.label("t10");
  enableTsc(p)                                  // 1-2
      .mem1d(Dest(0), 32, Target, 64)           // 3
      .mem1d(Src0(0), 32, Source, 64)           // 4
      .emit(Opcode::FMovSV, {Dest(0), Src0(0)}, // 5: busy until 37
            opts().async())
      .emit(Opcode::FMovSV, {Dest(0), Src0(0)}, // waits 6-36, starts
            opts().async().activate(11));       // at 37 until 69
  logTime(p).texit();                           // 38: reads 36
  p.label("t11");                               // picked at 69
  logTime(p).texit();                           // 70: reads 68
  p.task(TaskKind::Local, 10, "t10").task(TaskKind::Local, 11, "t11");
  p.activateAtStart(10);
  Machine m(Fabric::single(p));
  CHECK(m.run().status == RunStatus::Idle);
  CHECK(m.log(0, 0) == std::vector<uint32_t>{36, 68});
  CHECK(m.emu.getCycle() == 69 + 1 + 1 + LogCycles + 1);
  CHECK(m.emu.getCounters().stallCycles == 31);
  CHECK(m.emu.getCounters().dsdElements == 128);
}

TEST_CASE("a DSR rebuilt beside a microthread's receive keeps the new "
          "descriptor, wherever the builder's cycle falls") {
  // (1, 0) receives four words on microthread 0 into a save-address
  // destination, which its last element (some 40 cycles on, when (0, 0)
  // sends) moves 16 bytes on; it rebuilds that destination before then,
  // after then, or not at all, waits, and copies four words through it.
  // The rebuild is a prebuilt builder, which runs in a scalar batch ahead
  // of its cycle (after then: 40 nops into a batch that starts long
  // before): in cycle order it wins over the write-back either way, and
  // so it must ahead of it.
  enum { Before, After, Never };
  int rebuild = GENERATE(Before, After, Never);
  Program sender = delayedSender(30);

  Program receiver("recv");
  receiver.data(Source, {7, 8, 9, 10});
  receiver.label("t10")
      .fabin(Src0(1), 4, 3, 1)
      .mem1d(Dest(0), 32, Target, 4)
      .emit(Opcode::DsrSaveAddress, {Dest(0)})
      .emit(Opcode::Mov32V, {Dest(0), Src0(1)}, opts().async().ut(0));
  if (rebuild == Before)
    receiver.mem1d(Dest(0), 32, Target + 0x40, 4);
  for (unsigned i = 0; i < 40; ++i)
    receiver.emit(Opcode::Nop);
  if (rebuild == After)
    receiver.mem1d(Dest(0), 32, Target + 0x40, 4);
  for (unsigned i = 0; i < 20; ++i)
    receiver.emit(Opcode::Nop);
  receiver.mem1d(Src0(0), 32, Source, 4)
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)})
      .texit();
  receiver.task(TaskKind::Local, 10, "t10").activateAtStart(10);

  Machine m(Fabric::eastPair(sender, receiver, 3));
  REQUIRE(m.run().status == RunStatus::Idle);
  CHECK(m.read32s(1, 0, Target, 4) == std::vector<uint32_t>{1, 2, 3, 4});
  // Where the last copy went says which descriptor it used.
  uint16_t copied = rebuild == Never ? Target + 16 : Target + 0x40;
  CHECK(m.read32s(1, 0, copied, 4) == std::vector<uint32_t>{7, 8, 9, 10});
}

TEST_CASE("activate and unblock options fire when the operation completes") {
  // Task 10 ends at once; tasks 11 and 12 (activated, blocked) log the time
  // they start at.
  bool async = GENERATE(true, false);
  Program p("pe");
  p.data(Source, sourceWords());
  Opts options = opts().activate(11).unblock(12);
  if (async)
    options.async();
  p.label("t10");
  enableTsc(p)                                           // 1-2
      .mem1d(Dest(0), 32, Target, 64)                    // 3
      .mem1d(Src0(0), 32, Source, 64)                    // 4
      .emit(Opcode::FMovSV, {Dest(0), Src0(0)}, options) // 5, 32 cycles
      .texit();
  p.label("t11");
  logTime(p).texit();
  p.label("t12");
  logTime(p).texit();
  p.task(TaskKind::Local, 10, "t10")
      .task(TaskKind::Local, 11, "t11")
      .task(TaskKind::Local, 12, "t12");
  p.activateAtStart(10).activateAtStart(12).blockAtStart(BlockSpace::Task, 12);
  Machine m(Fabric::single(p));
  CHECK(m.run().status == RunStatus::Idle);
  if (async) {
    // Completes at 37 on microthread 0: task 11 reads at 38, 12 at 46.
    CHECK(m.log(0, 0) == std::vector<uint32_t>{36, 44});
  } else {
    // The main thread computes until 36 and ends task 10 at 37: task 11
    // reads at 39, 12 at 47.
    CHECK(m.log(0, 0) == std::vector<uint32_t>{37, 45});
  }
}

TEST_CASE("an unblock on completion opens the gate of a waiting control "
          "wavelet") {
  constexpr unsigned Color = 2;
  Program p("recv");
  p.data(Source, sourceWords());
  p.label("t10")
      .mem1d(Dest(0), 32, Target, 64)
      .mem1d(Src0(0), 32, Source, 64)
      .emit(Opcode::FMovSV, {Dest(0), Src0(0)}, opts().async().unblock(Color))
      .texit();
  p.label("t40").log(0).texit();
  p.task(TaskKind::Local, 10, "t10").task(TaskKind::Control, 40, "t40");
  p.activateAtStart(10);
  Fabric f(2, 1);
  f.place(1, 0, p).route(0, 0, Color, Ramp, E).route(1, 0, Color, W, Ramp);
  Machine m(f);
  REQUIRE(m.inject(0, 0, Color, controlPayload(40, 0x77), true));
  CHECK(m.run().status == RunStatus::Idle);
  CHECK(m.log(1, 0) == std::vector<uint32_t>{0x77});
}

namespace {

/// PE (0, 0) sends 1, 2, 3, 4 on color 3 after six idle cycles; PE (1, 0)
/// starts two asynchronous two-wavelet receives before any arrives, A into
/// Target and B into Target + 8, and ends its task.
struct RaceResult {
  std::vector<uint32_t> a, b;
};
RaceResult race(unsigned utA, pe::Priority priorityA, unsigned utB,
                pe::Priority priorityB) {
  Program sender = delayedSender(6);

  Program receiver("recv");
  receiver.label("t10")
      .fabin(Src0(0), 2, 3, 1)
      .fabin(Src0(1), 2, 3, 1)
      .mem1d(Dest(0), 32, Target, 2)
      .mem1d(Dest(1), 32, Target + 8, 2)
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)},
            opts().async().ut(utA).priority(priorityA))
      .emit(Opcode::Mov32V, {Dest(1), Src0(1)},
            opts().async().ut(utB).priority(priorityB))
      .texit();
  receiver.task(TaskKind::Local, 10, "t10").activateAtStart(10);

  Machine m(Fabric::eastPair(sender, receiver, 3));
  REQUIRE(m.run().status == RunStatus::Idle);
  return {m.read32s(1, 0, Target, 2), m.read32s(1, 0, Target + 8, 2)};
}

using Wavelets = std::vector<uint32_t>;

} // namespace

TEST_CASE("microthreads ready together run high, medium, low, default, then "
          "by ID") {
  using pe::Priority;
  // The one that goes first takes each wavelet as it arrives.
  RaceResult r = race(1, Priority::High, 2, Priority::Low);
  CHECK(r.a == Wavelets{1, 2});
  CHECK(r.b == Wavelets{3, 4});
  r = race(1, Priority::Low, 2, Priority::High);
  CHECK(r.a == Wavelets{3, 4});
  CHECK(r.b == Wavelets{1, 2});
  r = race(1, Priority::Medium, 2, Priority::High);
  CHECK(r.b == Wavelets{1, 2});
  r = race(1, Priority::Default, 2, Priority::Low);
  CHECK(r.b == Wavelets{1, 2});
  r = race(1, Priority::Default, 2, Priority::Default);
  CHECK(r.a == Wavelets{1, 2});
  r = race(5, Priority::Default, 2, Priority::Default);
  CHECK(r.b == Wavelets{1, 2});
}
