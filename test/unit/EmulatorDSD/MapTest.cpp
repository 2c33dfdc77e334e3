//===- MapTest.cpp - map hands each element's call to the caller ----------===//

#include "TestSupport.h"

using namespace dsdtest;

using V = std::vector<uint32_t>;

namespace {

/// Runs `op` until it stops for something else than a call, answering every
/// call with `callee`; elements counts them all.
template <typename Callee>
DSDProgress runCalls(Machine &m, Callee callee, unsigned *calls = nullptr) {
  uint64_t elements = 0;
  for (;;) {
    DSDProgress progress = m.run();
    elements += progress.elements;
    if (progress.status != DSDStatus::CallMap) {
      progress.elements = elements;
      return progress;
    }
    if (calls)
      ++*calls;
    m.op.setMapResult(callee(m.op.getMapCall()));
  }
}

} // namespace

TEST_CASE("map calls the function once per element", "[dsd][map]") {
  Machine m;
  m.put16(0x2000, {1, 2, 0xFFFF});
  m.put32(0x600, {0x10000});
  m.mem1d(Src0(0), 16, 0x2000, 3);
  m.mem1d(Dest(0), 32, 0x1000, 5);
  m.state.r[5] = 1000;
  m.state.r[6] = 0x600;
  m.start(Opcode::Map,
          {Imm(0x100), Dest(0), Src0(0), R(5), Ptr(6, /*wide=*/true)});
  CHECK(m.op.getLength() == 3);
  DSDProgress progress = m.run();
  CHECK(progress.status == DSDStatus::CallMap);
  CHECK(m.op.getMapCall().function == 0x100);
  CHECK(m.op.getMapCall().numArgs == 3);
  CHECK(m.op.getMapCall().args[0] == 1);
  CHECK(m.op.getMapCall().args[1] == 1000);
  CHECK(m.op.getMapCall().args[2] == 0x10000);
  // Asking again before the result repeats the same call.
  CHECK(m.run().status == DSDStatus::CallMap);
  CHECK(m.op.getMapCall().args[0] == 1);
  m.state.r[5] = 0; // registers were read at start
  unsigned calls = 1;
  m.op.setMapResult(7);
  progress = runCalls(
      m,
      [](const MapCall &call) {
        return call.args[0] + call.args[1] + call.args[2];
      },
      &calls);
  CHECK(progress.status == DSDStatus::Done);
  CHECK(calls == 3);
  CHECK(m.get32(0x1000, 4) == V{7, 0x10000 + 1002, 0x10000 + 1000 + 0xFFFF, 0});
}

TEST_CASE("map reads a pointer's current pointee at each element",
          "[dsd][map]") {
  Machine m;
  m.put16(0x2000, {1, 2, 3, 4});
  m.put16(0x600, {10});
  m.mem1d(Src0(0), 16, 0x2000, 4);
  m.state.r[1] = 0x600;
  // A reduction: [r1] = f([r1], x) with f adding.
  m.start(Opcode::Map, {Imm(0x100), Ptr(1), Ptr(1), Src0(0)});
  DSDProgress progress = runCalls(
      m, [](const MapCall &call) { return call.args[0] + call.args[1]; });
  CHECK(progress.status == DSDStatus::Done);
  CHECK(progress.elements == 4);
  CHECK(m.get16(0x600, 2) == V{20, 0});
}

TEST_CASE("map without a destination, and without a DSR", "[dsd][map]") {
  Machine m;
  m.state.r[2] = 5;
  m.start(Opcode::Map, {Imm(0x200), None(), R(2)});
  CHECK(m.op.getLength() == 1);
  unsigned calls = 0;
  CHECK(runCalls(
            m, [](const MapCall &) { return 1u; }, &calls)
            .status == DSDStatus::Done);
  CHECK(calls == 1);
  CHECK(m.memory.getTouchedPages() == 0);
  // The destination gives the length when no argument is a DSR.
  m.mem1d(Dest(0), 16, 0x1000, 2);
  m.start(Opcode::Map, {Imm(0x200), Dest(0)});
  CHECK(m.op.getMapCall().numArgs == 0);
  CHECK(runCalls(m, [](const MapCall &) { return 0x12345u; }).elements == 2);
  CHECK(m.get16(0x1000, 2) == V{0x2345, 0x2345});
}

TEST_CASE("map waits for fabric arguments before the call", "[dsd][map]") {
  Machine m;
  m.exec(Opcode::DsrFabin, {Src1(0), Imm(2), Imm(0), Imm(4), Imm(0), Imm(0)});
  m.exec(Opcode::DsrFabout, {Dest(0), Imm(2), Imm(1), Imm(2), Imm(0), Imm(0),
                             Imm(0), Imm(0), Imm(0)});
  pe::DSDOptions attached;
  attached.async = true;
  m.exec(Opcode::DsrOptions, {Src1(0)}, attached);
  m.start(Opcode::Map, {Imm(0x100), Dest(0), Src1(0)});
  CHECK_FALSE(m.op.getOptions().async); // map's calls run on the main thread
  CHECK(m.run().status == DSDStatus::Blocked);
  m.ports.inputs[4] = {0xAAAA0001, 2};
  CHECK(m.run().status == DSDStatus::CallMap);
  CHECK(m.op.getMapCall().args[0] == 0xAAAA0001); // the whole payload
  m.op.setMapResult(0xBEEF);
  m.ports.room = 0;
  CHECK(m.run().status == DSDStatus::Blocked);
  m.ports.room = 5;
  CHECK(runCalls(m, [](const MapCall &call) {
          return call.args[0] * 2;
        }).status == DSDStatus::Done);
  CHECK(m.ports.sent ==
        std::vector<Sent>{{2, 1, false, 0xBEEF}, {2, 1, false, 4}});
}

TEST_CASE("an operation reused for more operands than before makes room "
          "for them",
          "[dsd][map]") {
  // Two operand slots are inline; an operation grows further slots to what
  // a start needs and keeps them, so each start here has more operands
  // than any before it (3, then 5, then 9), and then fewer again.
  Machine m;
  m.put16(0x2000, {1, 2, 3});
  m.mem1d(Src0(0), 16, 0x2000, 3);
  m.mem1d(Dest(0), 16, 0x1000, 3);
  m.state.r[1] = 10;
  m.start(Opcode::Add16V, {Dest(0), Src0(0), R(1)});
  CHECK(m.run().status == DSDStatus::Done);
  CHECK(m.get16(0x1000, 3) == V{11, 12, 13});

  for (unsigned r = 2; r <= 9; ++r)
    m.state.r[r] = 100 * r;
  m.start(Opcode::Map, {Imm(0x100), Dest(0), Src0(0), R(2), R(3), R(4)});
  CHECK(m.op.getNumOperands() == 5);
  auto sum = [](const MapCall &call) {
    uint32_t total = 0;
    for (unsigned i = 0; i < call.numArgs; ++i)
      total += call.args[i];
    return total;
  };
  CHECK(runCalls(m, sum).status == DSDStatus::Done);
  CHECK(m.get16(0x1000, 3) == V{901, 902, 903});

  m.start(Opcode::Map, {Imm(0x100), Dest(0), Src0(0), R(2), R(3), R(4), R(5),
                        R(6), R(7), R(8)});
  CHECK(m.op.getNumOperands() == 9);
  CHECK(m.op.getMapCall().numArgs == 8);
  CHECK(runCalls(m, sum).status == DSDStatus::Done);
  // 1 + 200 + 300 + ... + 800 for the first element.
  CHECK(m.get16(0x1000, 3) == V{3501, 3502, 3503});

  m.start(Opcode::Mov16V, {Dest(0), Src0(0)});
  CHECK(m.run().status == DSDStatus::Done);
  CHECK(m.get16(0x1000, 3) == V{1, 2, 3});
}
