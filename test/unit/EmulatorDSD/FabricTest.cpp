//===- FabricTest.cpp - fabin and fabout operands, blocking and resuming --===//

#include "TestSupport.h"

#include <random>

using namespace dsdtest;

using V = std::vector<uint32_t>;

namespace {

void fabin(Machine &m, Operand dsr, unsigned extent, unsigned color,
           unsigned queue) {
  m.exec(Opcode::DsrFabin,
         {dsr, Imm(extent), Imm(color), Imm(queue), Imm(0), Imm(0)});
}

void fabout(Machine &m, Operand dsr, unsigned extent, unsigned color,
            unsigned queue, bool control = false, bool wio = false,
            bool advanceSwitch = false) {
  m.exec(Opcode::DsrFabout,
         {dsr, Imm(extent), Imm(color), Imm(queue), Imm(control), Imm(wio),
          Imm(advanceSwitch), Imm(0), Imm(0)});
}

} // namespace

TEST_CASE("a fabin element is the wavelet's payload", "[dsd][fabric]") {
  Machine m;
  m.ports.inputs[2] = {0x11112222, 0x33334444, 0x55556666};
  fabin(m, Src0(0), 2, 4, 2);
  m.mem1d(Dest(0), 16, 0x1000, 2);
  CHECK(m.runOp(Opcode::Mov16V, {Dest(0), Src0(0)}).elements == 2);
  CHECK(m.get16(0x1000, 2) == V{0x2222, 0x4444});
  fabin(m, Src0(1), 1, 4, 2);
  m.mem1d(Dest(1), 32, 0x1100, 1);
  m.runOp(Opcode::Mov32V, {Dest(1), Src0(1)});
  CHECK(m.get32(0x1100, 1) == V{0x55556666});
  CHECK(m.ports.inputs[2].empty());
}

TEST_CASE("a fabout sends each element as a wavelet", "[dsd][fabric]") {
  Machine m;
  m.put16(0x2000, {1, 2, 0xFFFF});
  m.mem1d(Src0(0), 16, 0x2000, 3);
  fabout(m, Dest(0), 3, 5, 1);
  m.runOp(Opcode::Mov16V, {Dest(0), Src0(0)});
  CHECK(m.ports.sent == std::vector<Sent>{{1, 5, false, 1},
                                          {1, 5, false, 2},
                                          {1, 5, false, 0xFFFF}});
  CHECK_FALSE(m.op.getAdvanceSwitchColor());

  // Control wavelets, the index in the high half, the switch advanced;
  // src0 gives the length, not the fabout's extent of 2.
  m.ports.sent.clear();
  fabout(m, Dest(1), 2, 9, 3, true, true, true);
  m.state.r[7] = 0x12345;
  pe::DSDOptions options;
  options.indexReg = 7;
  m.runOp(Opcode::Mov16V, {Dest(1), Src0(0)}, options);
  CHECK(m.ports.sent == std::vector<Sent>{{3, 9, true, 0x23450001},
                                          {3, 9, true, 0x23450002},
                                          {3, 9, true, 0x2345FFFF}});
  CHECK(m.op.getAdvanceSwitchColor() == 9);
  // With wio a 32-bit element's high half is the index too.
  m.ports.sent.clear();
  m.state.r[1] = 0xAAAABBBB;
  m.runOp(Opcode::Mov32V, {Dest(1), R(1)}, options);
  CHECK(m.ports.sent.size() == 2);
  CHECK(m.ports.sent[0].payload == 0x2345BBBB);
  m.ports.sent.clear();
  fabout(m, Dest(2), 1, 9, 3);
  m.runOp(Opcode::Mov32V, {Dest(2), R(1)}, options);
  CHECK(m.ports.sent[0].payload == 0xAAAABBBB);
  // Starting again forgets the previous operation's switch.
  CHECK_FALSE(m.op.getAdvanceSwitchColor());
}

TEST_CASE("an infinite fabin runs until the budget or the data ends",
          "[dsd][fabric]") {
  Machine m;
  fabin(m, Src0(0), MaxDSRLength, 0, 0);
  m.state.r[1] = 0x500;
  m.put32(0x500, {0});
  m.start(Opcode::Add16V, {Ptr(1), Ptr(1), Src0(0)});
  CHECK(m.op.getLength() == UINT64_MAX);
  m.ports.inputs[0] = {1, 2, 3, 4, 5};
  DSDProgress progress = m.run(3);
  CHECK(progress.status == DSDStatus::Paused);
  CHECK(progress.elements == 3);
  progress = m.run();
  CHECK(progress.status == DSDStatus::Blocked);
  CHECK(progress.elements == 2);
  CHECK(m.get16(0x500, 1) == V{15});
  CHECK_FALSE(m.op.isDone());
}

TEST_CASE("sources already read are kept while a later one blocks",
          "[dsd][fabric]") {
  Machine m;
  fabin(m, Src0(0), 4, 0, 0);
  fabin(m, Src1(0), 4, 1, 1);
  m.mem1d(Dest(0), 16, 0x1000, 4);
  m.ports.inputs[0] = {10, 20, 30};
  m.ports.inputs[1] = {1, 2};
  m.start(Opcode::Sub16V, {Dest(0), Src0(0), Src1(0)});
  DSDProgress progress = m.run();
  CHECK(progress.status == DSDStatus::Blocked);
  CHECK(progress.elements == 2);
  // Element 2 took 30 from queue 0 and waits for queue 1.
  CHECK(m.ports.inputs[0].empty());
  unsigned pops = m.ports.pops;
  CHECK(m.run().status == DSDStatus::Blocked);
  CHECK(m.ports.pops == pops + 1); // only queue 1 is asked again
  m.ports.inputs[1] = {3};
  progress = m.run();
  CHECK(progress.status == DSDStatus::Blocked);
  CHECK(progress.elements == 1);
  m.ports.inputs[0] = {40};
  m.ports.inputs[1] = {4};
  CHECK(m.run().status == DSDStatus::Done);
  CHECK(m.get16(0x1000, 4) == V{9, 18, 27, 36});
}

TEST_CASE("a destination that blocks keeps the computed element",
          "[dsd][fabric]") {
  Machine m;
  fabin(m, Src0(0), 3, 0, 0);
  fabout(m, Dest(0), 3, 2, 2);
  m.ports.inputs[0] = {1, 2, 3};
  m.ports.room = 1;
  m.state.r[1] = 100;
  m.start(Opcode::Add16V, {Dest(0), Src0(0), R(1)});
  DSDProgress progress = m.run();
  CHECK(progress.status == DSDStatus::Blocked);
  CHECK(progress.elements == 1);
  CHECK(m.ports.inputs[0].size() == 1); // element 1's wavelet is taken
  CHECK(m.run().status == DSDStatus::Blocked);
  CHECK(m.ports.inputs[0].size() == 1);
  m.ports.room = 10;
  CHECK(m.run().status == DSDStatus::Done);
  CHECK(m.ports.sent == std::vector<Sent>{{2, 2, false, 101},
                                          {2, 2, false, 102},
                                          {2, 2, false, 103}});
}

TEST_CASE("an operation that blocks anywhere ends as an unblocked one",
          "[dsd][fabric]") {
  // fmacs from two fabins and an array to a fabout, and addc16 from a
  // fabin and an array into a FIFO that a third operation drains: once with
  // all data at hand, once with wavelets trickling in, the output queue
  // filling up at random and small element budgets.
  std::mt19937 random(6);
  const unsigned n = 40;
  V inputs[3];
  for (unsigned i = 0; i < n; ++i) {
    inputs[0].push_back(bitsOf(static_cast<float>(random() % 1000) / 7.0f));
    inputs[1].push_back(bitsOf(static_cast<float>(random() % 1000) / 3.0f));
    inputs[2].push_back(random() & 0xFFFF);
  }
  struct Outcome {
    std::vector<Sent> sent;
    V memory;
    uint64_t activated = 0;
    bool operator==(const Outcome &) const = default;
  };
  auto play = [&](bool trickle) {
    Machine m;
    std::mt19937 chance(1);
    V words;
    for (unsigned i = 0; i < n; ++i)
      words.push_back(bitsOf(static_cast<float>(i) / 4.0f));
    m.put32(0x2000, words);
    fabin(m, Src0(0), n, 0, 0);
    fabin(m, Src1(0), n, 1, 1);
    fabin(m, Src0(2), n, 2, 2);
    m.mem1d(Src1(1), 32, 0x2000, n);
    fabout(m, Dest(0), n, 3, 3);
    m.exec(Opcode::FifoInit,
           {Imm(0), Imm(16), Imm(0x800), Imm(3), Imm(20), Imm(21), Imm(0)});
    m.exec(Opcode::DsrFifo, {Dest(1), Imm(0)});
    m.exec(Opcode::DsrFifo, {Src0(1), Imm(0)});
    m.mem1d(Src1(2), 16, 0x2000, n);
    m.mem1d(Dest(2), 16, 0x3000, n);

    DSDOperation fmacs, addc, drain;
    auto start = [&](DSDOperation &op, Opcode opcode,
                     std::vector<Operand> operands) {
      pe::Instruction inst{opcode, std::move(operands), {}};
      REQUIRE(DSDEngine::start(op, inst, m.state, m.dsrs, m.fifos, m.trap));
    };
    start(fmacs, Opcode::FMacSV, {Dest(0), Src0(0), Src1(0), Src1(1)});
    start(addc, Opcode::AddC16V, {Dest(1), Src0(2), Src1(2)});
    start(drain, Opcode::Mov16V, {Dest(2), Src0(1)});
    unsigned fed[3] = {0, 0, 0};
    Outcome outcome;
    for (int step = 0; step < 10000; ++step) {
      for (unsigned q = 0; q < 3; ++q)
        while (fed[q] < n && (!trickle || chance() % 4 == 0))
          m.ports.inputs[q].push_back(inputs[q][fed[q]++]);
      if (trickle)
        m.ports.room = chance() % 3;
      bool done = true;
      for (DSDOperation *op : {&fmacs, &addc, &drain}) {
        DSDProgress progress =
            m.engine.run(*op, m.context(), m.trap, trickle ? 3 : UINT64_MAX);
        REQUIRE(progress.status != DSDStatus::Trapped);
        outcome.activated |= progress.activatedTasks;
        done &= progress.status == DSDStatus::Done;
      }
      if (done)
        break;
    }
    CHECK(fmacs.isDone());
    CHECK(addc.isDone());
    CHECK(drain.isDone());
    outcome.sent = m.ports.sent;
    outcome.memory = m.get16(0x3000, n);
    return outcome;
  };
  Outcome reference = play(false), trickled = play(true);
  CHECK(reference.sent.size() == n);
  CHECK(reference.activated == (uint64_t(1) << 20 | uint64_t(1) << 21));
  CHECK(trickled == reference);
  // The values themselves: element 5 of each.
  float product = floatOf(inputs[1][5]) * 1.25f;
  float expected = floatOf(inputs[0][5]) + product;
  CHECK(reference.sent[5].payload == bitsOf(expected));
}

TEST_CASE("options merge the operation's with its DSRs'", "[dsd][fabric]") {
  Machine m;
  m.mem1d(Dest(0), 16, 0x1000, 1);
  m.mem1d(Src0(0), 16, 0x2000, 1);
  pe::DSDOptions own;
  own.activate = Imm(9);
  own.unblock = R(2);
  m.state.r[2] = 33;
  m.start(Opcode::Mov16V, {Dest(0), Src0(0)}, own);
  ResolvedOptions expected;
  expected.activate = 9;
  expected.unblock = 33;
  CHECK(m.op.getOptions() == expected);

  // Attached options fill what the operation leaves open, first DSR
  // first; async from any of them.
  pe::DSDOptions attached;
  attached.async = true;
  attached.activate = Imm(3);
  attached.microthread = Imm(4);
  attached.priority = pe::Priority::Low;
  m.exec(Opcode::DsrOptions, {Src0(0)}, attached);
  pe::DSDOptions destOptions;
  destOptions.unblock = Imm(8);
  destOptions.microthread = Imm(6);
  m.exec(Opcode::DsrOptions, {Dest(0)}, destOptions);
  m.start(Opcode::Mov16V, {Dest(0), Src0(0)}, own);
  expected = {};
  expected.async = true;
  expected.priority = pe::Priority::Low;
  expected.activate = 9;
  expected.unblock = 33;
  expected.microthread = 6;
  CHECK(m.op.getOptions() == expected);
  own.priority = pe::Priority::High;
  own.microthread = Imm(1);
  m.start(Opcode::Mov16V, {Dest(0), Src0(0)}, own);
  CHECK(m.op.getOptions().priority == pe::Priority::High);
  CHECK(m.op.getOptions().microthread == 1);
}

TEST_CASE("the microthread follows WSE-2's rule without ut", "[dsd][fabric]") {
  Machine m;
  fabin(m, Src0(0), 1, 0, 2);
  fabin(m, Src1(0), 1, 0, 6);
  fabout(m, Dest(0), 1, 0, 5);
  m.mem1d(Dest(1), 16, 0x1000, 1);
  m.start(Opcode::Add16V, {Dest(0), Src0(0), Src1(0)});
  CHECK(m.op.getOptions().microthread == 5);
  m.start(Opcode::Add16V, {Dest(1), R(0), Src1(0)});
  CHECK(m.op.getOptions().microthread == 6);
  m.start(Opcode::Add16V, {Dest(1), Src0(0), Src1(0)});
  CHECK(m.op.getOptions().microthread == 2);
  m.start(Opcode::Add16V, {Dest(1), R(0), R(0)});
  CHECK(m.op.getOptions().microthread == 0);
  // A fabric DSR's or FIFO's priority when the options give none.
  m.exec(Opcode::DsrFabin, {Src0(1), Imm(1), Imm(0), Imm(0), Imm(0), Imm(2)});
  m.start(Opcode::Add16V, {Dest(1), R(0), Src0(1)});
  CHECK(m.op.getOptions().priority == pe::Priority::Medium);
  m.exec(Opcode::FifoInit,
         {Imm(0), Imm(16), Imm(0x800), Imm(2), None(), None(), Imm(3)});
  m.exec(Opcode::DsrFifo, {Dest(2), Imm(0)});
  m.start(Opcode::Mov16V, {Dest(2), R(0)});
  CHECK(m.op.getOptions().priority == pe::Priority::High);
}

TEST_CASE("an index register attached with dsr.opts is read at start",
          "[dsd][fabric]") {
  Machine m;
  m.put16(0x2000, {5});
  m.mem1d(Src0(0), 16, 0x2000, 1);
  m.mem1d(Dest(0), 16, 0x1000, 1, 0, 1, true);
  pe::DSDOptions attached;
  attached.indexReg = 3;
  m.exec(Opcode::DsrOptions, {Dest(0)}, attached);
  m.state.r[3] = 2;
  m.start(Opcode::Mov16V, {Dest(0), Src0(0)});
  m.state.r[3] = 0;
  CHECK(m.run().status == DSDStatus::Done);
  CHECK(m.get16(0x1000, 3) == V{0, 0, 5});
}
