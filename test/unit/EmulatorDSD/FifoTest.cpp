//===- FifoTest.cpp - FIFOs as DSD sources and destinations ---------------===//

#include "TestSupport.h"

using namespace dsdtest;

using V = std::vector<uint32_t>;

namespace {

constexpr uint64_t bit(unsigned task) { return uint64_t(1) << task; }

/// fifo0: 16-bit, capacity 3 at 0x800, push task 10, pop task 11; dest.0
/// pushes to it and src0.0 pops from it.
void setUp(Machine &m, uint32_t capacity = 3) {
  m.exec(Opcode::FifoInit, {Imm(0), Imm(16), Imm(0x800), Imm(capacity), Imm(10),
                            Imm(11), Imm(0)});
  m.exec(Opcode::DsrFifo, {Dest(0), Imm(0)});
  m.exec(Opcode::DsrFifo, {Src0(0), Imm(0)});
}

} // namespace

TEST_CASE("a FIFO is a ring in memory that wraps around", "[dsd][fifo]") {
  Machine m;
  setUp(m);
  m.put16(0x2000, {1, 2, 3, 4, 5});
  m.mem1d(Src0(1), 16, 0x2000, 2);
  DSDProgress progress = m.runOp(Opcode::Mov16V, {Dest(0), Src0(1)});
  CHECK(progress.elements == 2);
  CHECK(progress.activatedTasks == bit(10));
  CHECK(m.get16(0x800, 3) == V{1, 2, 0});
  CHECK(m.fifos.get(0).count == 2);

  m.mem1d(Dest(1), 16, 0x1000, 2);
  progress = m.runOp(Opcode::Mov16V, {Dest(1), Src0(0)});
  CHECK(progress.activatedTasks == bit(11));
  CHECK(m.get16(0x1000, 2) == V{1, 2});
  CHECK(m.fifos.get(0).head == 2);
  CHECK(m.fifos.get(0).count == 0);

  m.mem1d(Src0(1), 16, 0x2004, 3);
  m.runOp(Opcode::Mov16V, {Dest(0), Src0(1)});
  CHECK(m.get16(0x800, 3) == V{4, 5, 3});
  m.mem1d(Dest(1), 16, 0x1000, 3);
  m.runOp(Opcode::Mov16V, {Dest(1), Src0(0)});
  CHECK(m.get16(0x1000, 3) == V{3, 4, 5});
  CHECK(m.fifos.get(0).head == 2);
}

TEST_CASE("pushing to a full FIFO and popping an empty one block",
          "[dsd][fifo]") {
  Machine m;
  setUp(m, 2);
  m.put16(0x2000, {1, 2, 3, 4, 5});
  m.mem1d(Src0(1), 16, 0x2000, 5);
  m.start(Opcode::Mov16V, {Dest(0), Src0(1)});
  DSDProgress progress = m.run();
  CHECK(progress.status == DSDStatus::Blocked);
  CHECK(progress.elements == 2);

  // A second operation pops one element; the first goes on by one.
  DSDOperation popper;
  m.mem1d(Dest(1), 16, 0x1000, 1);
  m.exec(Opcode::DsrSaveAddress, {Dest(1)});
  pe::Instruction pop{Opcode::Mov16V, {Dest(1), Src0(0)}, {}};
  V popped;
  for (int round = 0; round < 5; ++round) {
    REQUIRE(DSDEngine::start(popper, pop, m.state, m.dsrs, m.fifos, m.trap));
    DSDProgress one = m.engine.run(popper, m.context(), m.trap);
    REQUIRE(one.status == DSDStatus::Done);
    CHECK(one.activatedTasks == bit(11));
    progress = m.run();
    CHECK(progress.elements == (round < 3 ? 1u : 0u));
    CHECK(progress.status ==
          (round < 2 ? DSDStatus::Blocked : DSDStatus::Done));
  }
  CHECK(m.get16(0x1000, 5) == V{1, 2, 3, 4, 5});

  // Empty: a pop blocks before its first element and resumes on a push.
  m.mem1d(Dest(2), 16, 0x1100, 2);
  m.start(Opcode::Mov16V, {Dest(2), Src0(0)});
  progress = m.run();
  CHECK(progress.status == DSDStatus::Blocked);
  CHECK(progress.elements == 0);
  DSDOperation pusher;
  m.state.r[1] = 77;
  pe::Instruction push{Opcode::Mov16V, {Dest(0), R(1)}, {}};
  REQUIRE(DSDEngine::start(pusher, push, m.state, m.dsrs, m.fifos, m.trap));
  REQUIRE(m.engine.run(pusher, m.context(), m.trap).status == DSDStatus::Done);
  progress = m.run();
  CHECK(progress.status == DSDStatus::Blocked);
  CHECK(progress.elements == 1);
  CHECK(m.get16(0x1100, 1) == V{77});
}

TEST_CASE("FIFO elements keep the FIFO's width", "[dsd][fifo]") {
  Machine m;
  m.exec(Opcode::FifoInit,
         {Imm(1), Imm(16), Imm(0x800), Imm(4), None(), None(), Imm(0)});
  m.exec(Opcode::FifoInit,
         {Imm(2), Imm(32), Imm(0x900), Imm(4), None(), None(), Imm(0)});
  m.exec(Opcode::DsrFifo, {Dest(1), Imm(1)});
  m.exec(Opcode::DsrFifo, {Src0(1), Imm(1)});
  m.exec(Opcode::DsrFifo, {Dest(2), Imm(2)});
  m.exec(Opcode::DsrFifo, {Src0(2), Imm(2)});
  m.state.r[1] = 0xAAAABBBB;
  // A 32-bit element into a 16-bit FIFO keeps its low half; read back as
  // 32 bits it is zero-extended.
  m.runOp(Opcode::Mov32V, {Dest(1), R(1)});
  CHECK(m.get16(0x800, 2) == V{0xBBBB, 0});
  m.state.r[2] = 0x500;
  m.runOp(Opcode::Mov32V, {Ptr(2), Src0(1)});
  CHECK(m.get32(0x500, 1) == V{0x0000BBBB});
  // A 16-bit element into a 32-bit FIFO is zero-extended; a 16-bit read
  // of a 32-bit element takes its low half.
  m.runOp(Opcode::Mov16V, {Dest(2), R(1)});
  CHECK(m.get32(0x900, 1) == V{0x0000BBBB});
  m.runOp(Opcode::Mov32V, {Dest(2), R(1)});
  m.runOp(Opcode::Mov32V, {Ptr(2), Src0(2)});
  CHECK(m.get32(0x500, 1) == V{0x0000BBBB});
  m.runOp(Opcode::Mov16V, {Ptr(2), Src0(2)});
  CHECK(m.get16(0x500, 1) == V{0xBBBB});
  CHECK(m.fifos.get(2).count == 0);
}

TEST_CASE("a FIFO gives no length", "[dsd][fifo]") {
  Machine m;
  setUp(m);
  m.state.r[1] = 9;
  // Only FIFOs and registers: one element.
  CHECK(m.runOp(Opcode::Mov16V, {Dest(0), R(1)}).elements == 1);
  // The destination's length when the FIFO is the source.
  m.mem1d(Dest(1), 16, 0x1000, 1);
  CHECK(m.runOp(Opcode::Mov16V, {Dest(1), Src0(0)}).elements == 1);
  CHECK(m.get16(0x1000, 1) == V{9});
}
