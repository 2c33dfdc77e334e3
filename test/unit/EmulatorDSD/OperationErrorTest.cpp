//===- OperationErrorTest.cpp - every trap of a DSD operation -------------===//

#include "TestSupport.h"

using namespace dsdtest;

using V = std::vector<uint32_t>;

TEST_CASE("an element outside memory traps with its index and address",
          "[dsd][errors]") {
  for (bool fast : {true, false}) {
    Machine m(fast);
    m.put16(0xBFF8, {1, 2, 3, 4});
    m.mem1d(Dest(0), 16, 0x1000, 6);
    m.mem1d(Src0(0), 16, 0xBFF8, 6);
    CHECK(m.runTrap(Opcode::Mov16V, {Dest(0), Src0(0)}) ==
          "mov16: element 4 of src0.0: load of 2 bytes at 0xc000 does not "
          "fit in memory (0x0000..0xbfff)");
    CHECK(m.trap.kind == DSDTrapKind::BadMemoryAccess);
    CHECK(m.trap.element == 4);
    CHECK(m.trap.address == 0xC000);
    CHECK(m.trap.width == 2);
    // The elements before it ran; the operation stays at the element.
    CHECK(m.get16(0x1000, 6) == V{1, 2, 3, 4, 0, 0});
    CHECK(m.op.getElementsDone() == 4);
    CHECK(m.run().status == DSDStatus::Trapped);

    // A 32-bit access that straddles the end; a destination below 0.
    m.mem1d(Src0(1), 32, 0xBFFE, 1);
    CHECK(m.runTrap(Opcode::Mov32V, {Dest(0), Src0(1)}) ==
          "mov32: element 0 of src0.1: load of 4 bytes at 0xbffe does not "
          "fit in memory (0x0000..0xbfff)");
    m.mem1d(Dest(1), 32, 0, 2, -1);
    m.state.r[1] = 5;
    CHECK(m.runTrap(Opcode::Mov32V, {Dest(1), R(1)}) ==
          "mov32: element 0 of dest.1: store of 4 bytes at 0xfffffffc does "
          "not fit in memory (0x0000..0xbfff)");
    CHECK(m.trap.address == 0xFFFFFFFC);
  }
}

TEST_CASE("a misaligned element traps", "[dsd][errors]") {
  for (bool fast : {true, false}) {
    Machine m(fast);
    m.mem1d(Dest(0), 32, 0x1001, 3);
    m.state.r[1] = 7;
    CHECK(m.runTrap(Opcode::Mov32V, {Dest(0), R(1)}) ==
          "mov32: element 0 of dest.0: store of 4 bytes at odd address "
          "0x1001");
    CHECK(m.trap.kind == DSDTrapKind::BadMemoryAccess);
    CHECK(m.memory.getTouchedPages() == 0);
    m.state.r[2] = 0x2001;
    m.mem1d(Src0(0), 16, 0x2000, 2);
    CHECK(m.runTrap(Opcode::Add16V, {Src0(0), Src0(0), Ptr(2)}) ==
          "add16: element 0 of [r2]: load of 2 bytes at odd address 0x2001");
    CHECK(m.trap.width == 2);
  }
}

TEST_CASE("a circbuf or mem4d element out of range traps at that element",
          "[dsd][errors]") {
  for (bool fast : {true, false}) {
    Machine m(fast);
    m.exec(Opcode::DsrCircbuf, {Src0(0), Imm(16), Imm(0xBFFA), Imm(6), Imm(4)});
    m.mem1d(Dest(0), 16, 0x1000, 6);
    CHECK(m.runTrap(Opcode::Mov16V, {Dest(0), Src0(0)}) ==
          "mov16: element 3 of src0.0: load of 2 bytes at 0xc000 does not "
          "fit in memory (0x0000..0xbfff)");
    m.exec(Opcode::DsrMem4d, {Src0(1), Imm(16), Imm(0xBFF0), Imm(0), Imm(3),
                              Imm(4), Imm(2), Imm(1)});
    CHECK(m.runTrap(Opcode::Mov16V, {Dest(0), Src0(1)}) ==
          "mov16: element 4 of src0.1: load of 2 bytes at 0xc000 does not "
          "fit in memory (0x0000..0xbfff)");
  }
}

TEST_CASE("operands an operation cannot use trap when it starts",
          "[dsd][errors]") {
  Machine m;
  m.exec(Opcode::DsrFabin, {Dest(2), Imm(1), Imm(0), Imm(0), Imm(0), Imm(0)});
  m.exec(Opcode::DsrFabout, {Src0(1), Imm(1), Imm(0), Imm(0), Imm(0), Imm(0),
                             Imm(0), Imm(0), Imm(0)});
  m.exec(Opcode::DsrFifo, {Src0(2), Imm(3)});
  CHECK(m.startTrap(Opcode::FAddSV, {Dest(2), R(0), R(0)}) ==
        "fadds: dest.2 is a fabin DSR, which cannot be written");
  CHECK(m.startTrap(Opcode::FAddSV, {Dest(0), Src0(1), R(0)}) ==
        "fadds: src0.1 is a fabout DSR, which cannot be read");
  CHECK(m.startTrap(Opcode::Mov16V, {Dest(0), Src0(2)}) ==
        "mov16: src0.2 is fifo3, which no fifo.init has initialised");
  CHECK(m.trap.kind == DSDTrapKind::BadOperand);
  // A failed start leaves nothing to run.
  DSDProgress progress = m.run();
  CHECK(progress.status == DSDStatus::Trapped);
  CHECK(m.trap.message == "no DSD operation was started");
}

TEST_CASE("option task registers out of range trap when it starts",
          "[dsd][errors]") {
  Machine m;
  m.state.r[3] = 70;
  pe::DSDOptions options;
  options.activate = R(3);
  CHECK(m.startTrap(Opcode::Mov16V, {Dest(0), R(0)}, options) ==
        "mov16: activate 70 (r3) is not in 0..63");
  options = {};
  options.unblock = R(3);
  CHECK(m.startTrap(Opcode::Mov16V, {Dest(0), R(0)}, options) ==
        "mov16: unblock 70 (r3) is not in 0..63");
  options = {};
  options.microthread = R(3);
  CHECK(m.startTrap(Opcode::Mov16V, {Dest(0), R(0)}, options) ==
        "mov16: ut 70 (r3) is not in 0..63");
  options = {};
  options.indexReg = 16;
  CHECK(m.startTrap(Opcode::Mov16V, {Dest(0), R(0)}, options) ==
        "mov16: malformed instruction (index register)");
}

TEST_CASE("malformed DSD operations trap when they start", "[dsd][errors]") {
  Machine m;
  CHECK(m.startTrap(Opcode::Nop, {}) == "nop is not a DSD operation");
  CHECK(m.startTrap(Opcode::DsrFifo, {Dest(0), Imm(0)}) ==
        "dsr.fifo is not a DSD operation");
  CHECK(m.startTrap(Opcode::FAddSV, {Dest(0), R(0)}) ==
        "fadds: malformed instruction (operands)");
  CHECK(m.startTrap(Opcode::FAddSV, {R(1), R(0), R(0)}) ==
        "fadds: malformed instruction (operand 1)");
  CHECK(m.startTrap(Opcode::FAddSV, {Dest(0), Imm(3), R(0)}) ==
        "fadds: malformed instruction (operand 2)");
  CHECK(m.startTrap(Opcode::FAddSV, {Dest(0), Ptr(16), R(0)}) ==
        "fadds: malformed instruction (operand 2)");
  CHECK(m.startTrap(Opcode::FAddSV, {None(), R(0), R(0)}) ==
        "fadds: malformed instruction (operand 1 is absent)");
  CHECK(m.startTrap(Opcode::Map, {Imm(0x100)}) ==
        "map: malformed instruction (operands)");
  CHECK(m.startTrap(Opcode::Map, {R(0), None()}) ==
        "map: malformed instruction (operands)");
  CHECK(m.startTrap(Opcode::Map, {Imm(0x100), None(), None()}) ==
        "map: malformed instruction (operand 3 is absent)");
}
