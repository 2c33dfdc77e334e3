//===- RulesTest.cpp - length, order, snapshot, addressing ----------------===//
//
// docs/ISA.md's rules for every DSD operation, each checked on the fast path
// and on the element-by-element path.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

using namespace dsdtest;

using V = std::vector<uint32_t>;

TEST_CASE("the first DSR among src0, src1, dest gives the length",
          "[dsd][rules]") {
  for (bool fast : {true, false}) {
    Machine m(fast);
    m.put16(0x1000, {9, 9, 9, 9, 9, 9, 9});
    m.put16(0x2000, {1, 2, 3, 4, 5, 6, 7});
    m.mem1d(Dest(0), 16, 0x1000, 7);
    m.mem1d(Src0(0), 16, 0x2000, 3);
    m.mem1d(Src1(0), 16, 0x2000, 5);
    DSDProgress progress = m.runOp(Opcode::Add16V, {Dest(0), Src0(0), Src1(0)});
    CHECK(progress.elements == 3);
    CHECK(m.get16(0x1000, 7) == V{2, 4, 6, 9, 9, 9, 9});

    // A scalar src0 has no length: src1's 5 elements, and the dest of 2
    // advances in lock-step past its own end.
    m.mem1d(Dest(1), 16, 0x1000, 2);
    m.state.r[2] = 100;
    progress = m.runOp(Opcode::Add16V, {Dest(1), R(2), Src1(0)});
    CHECK(progress.elements == 5);
    CHECK(m.get16(0x1000, 7) == V{101, 102, 103, 104, 105, 9, 9});

    // Only the destination is a DSR.
    m.mem1d(Dest(2), 16, 0x1000, 2);
    CHECK(m.runOp(Opcode::Mov16V, {Dest(2), R(2)}).elements == 2);
    CHECK(m.get16(0x1000, 3) == V{100, 100, 103});

    // fmac's third source comes before the destination.
    m.mem1d(Dest(3), 32, 0x3000, 6);
    m.mem1d(Src1(1), 32, 0x4000, 2);
    m.state.r[4] = bitsOf(1.0f);
    m.put32(0x4000, {bitsOf(2.0f), bitsOf(3.0f)});
    CHECK(m.runOp(Opcode::FMacSV, {Dest(3), R(4), R(4), Src1(1)}).elements ==
          2);
    CHECK(m.get32(0x3000, 3) == V{bitsOf(3.0f), bitsOf(4.0f), 0});
  }
}

TEST_CASE("without a DSR an operation runs once", "[dsd][rules]") {
  for (bool fast : {true, false}) {
    Machine m(fast);
    m.state.r[1] = 0x500;
    m.state.r[2] = bitsOf(1.5f);
    m.state.r[3] = bitsOf(2.0f);
    CHECK(m.runOp(Opcode::FAddSV, {Ptr(1), R(2), R(3)}).elements == 1);
    CHECK(m.get32(0x500, 1) == V{bitsOf(3.5f)});
  }
}

TEST_CASE("a zero length runs no element", "[dsd][rules]") {
  for (bool fast : {true, false}) {
    Machine m(fast);
    m.mem1d(Dest(0), 16, 0x1000, 0);
    m.mem1d(Src0(0), 16, 0xBFFF, 5, 0, 1); // would trap if read
    m.start(Opcode::Mov16V, {Dest(0), Src0(0)});
    CHECK(m.op.getLength() == 5);
    m.mem1d(Src0(1), 16, 0xBFFF, 0);
    m.start(Opcode::Mov16V, {Dest(0), Src0(1)});
    CHECK(m.op.getLength() == 0);
    DSDProgress progress = m.run();
    CHECK(progress.status == DSDStatus::Done);
    CHECK(progress.elements == 0);
    CHECK(m.memory.getTouchedPages() == 0);
  }
}

TEST_CASE("elements run in order: overlapping operands see earlier writes",
          "[dsd][rules]") {
  for (bool fast : {true, false}) {
    Machine m(fast);
    m.put16(0x1000, {1, 2, 3, 4, 5});
    // dest = src shifted up by one element: the first value propagates.
    m.mem1d(Dest(0), 16, 0x1002, 4);
    m.mem1d(Src0(0), 16, 0x1000, 4);
    m.runOp(Opcode::Mov16V, {Dest(0), Src0(0)});
    CHECK(m.get16(0x1000, 5) == V{1, 1, 1, 1, 1});
    // Shifted down: every element reads before it is overwritten.
    m.put16(0x1000, {1, 2, 3, 4, 5});
    m.mem1d(Dest(0), 16, 0x1000, 4);
    m.mem1d(Src0(0), 16, 0x1002, 4);
    m.runOp(Opcode::Mov16V, {Dest(0), Src0(0)});
    CHECK(m.get16(0x1000, 5) == V{2, 3, 4, 5, 5});
    // A running sum in place: x[k] = x[k] + x[k-1], where x[k-1] is new.
    m.put32(0x2000, {bitsOf(1.0f), bitsOf(2.0f), bitsOf(3.0f), bitsOf(4.0f)});
    m.mem1d(Dest(1), 32, 0x2004, 3);
    m.mem1d(Src0(1), 32, 0x2004, 3);
    m.mem1d(Src1(1), 32, 0x2000, 3);
    m.runOp(Opcode::FAddSV, {Dest(1), Src0(1), Src1(1)});
    CHECK(m.get32(0x2000, 4) ==
          V{bitsOf(1.0f), bitsOf(3.0f), bitsOf(6.0f), bitsOf(10.0f)});
  }
}

TEST_CASE("a pointer both source and destination accumulates", "[dsd][rules]") {
  for (bool fast : {true, false}) {
    Machine m(fast);
    m.put32(0x2000, {bitsOf(1.0f), bitsOf(2.0f), bitsOf(3.0f), bitsOf(4.0f)});
    m.put32(0x3000, {bitsOf(2.0f), bitsOf(2.0f), bitsOf(0.5f), bitsOf(1.0f)});
    m.put32(0x500, {bitsOf(0.5f)});
    m.mem1d(Src1(0), 32, 0x2000, 4);
    m.mem1d(Src1(1), 32, 0x3000, 4);
    m.state.r[1] = 0x500;
    m.runOp(Opcode::FAddSV, {Ptr(1), Ptr(1), Src1(0)});
    CHECK(m.get32(0x500, 1) == V{bitsOf(10.5f)});
    // A dot product: [r1] = [r1] + a[k] * b[k].
    m.put32(0x500, {0});
    m.runOp(Opcode::FMacSV, {Ptr(1), Ptr(1), Src1(0), Src1(1)});
    CHECK(m.get32(0x500, 1) == V{bitsOf(11.5f)});
    // A 16-bit sum with a pointer source and a DSR destination.
    m.put16(0x600, {7});
    m.state.r[2] = 0x600;
    m.mem1d(Dest(0), 16, 0x700, 3);
    m.state.r[3] = 1;
    m.runOp(Opcode::Add16V, {Dest(0), Ptr(2), R(3)});
    CHECK(m.get16(0x700, 3) == V{8, 8, 8});
  }
}

TEST_CASE("an operation copies its DSRs and registers when it starts",
          "[dsd][rules]") {
  for (bool fast : {true, false}) {
    Machine m(fast);
    m.put16(0x2000, {1, 2, 3, 4});
    m.mem1d(Dest(0), 16, 0x1000, 4);
    m.mem1d(Src0(0), 16, 0x2000, 4);
    m.state.r[1] = 10;
    m.start(Opcode::Add16V, {Dest(0), Src0(0), R(1)});
    CHECK(m.run(2).status == DSDStatus::Paused);
    // Rebuilding the DSRs and changing the register changes nothing for
    // the operation under way.
    m.mem1d(Dest(0), 16, 0x3000, 4);
    m.exec(Opcode::DsrSetBase, {Src0(0), Imm(0x4000)});
    m.state.r[1] = 1000;
    DSDProgress progress = m.run();
    CHECK(progress.status == DSDStatus::Done);
    CHECK(progress.elements == 2);
    CHECK(m.get16(0x1000, 4) == V{11, 12, 13, 14});
    CHECK(m.get16(0x3000, 4) == V{0, 0, 0, 0});
    // Without save-address the DSR an operation used is unchanged.
    Descriptor before = m.dsrs.get(idOf(Dest(0)));
    m.runOp(Opcode::Add16V, {Dest(0), Src0(0), R(1)});
    CHECK(m.dsrs.get(idOf(Dest(0))) == before);
  }
}

TEST_CASE("save-address DSRs continue where the last operation stopped",
          "[dsd][rules]") {
  for (bool fast : {true, false}) {
    Machine m(fast);
    m.put16(0x2000, {1, 2, 3, 4, 5, 6});
    m.mem1d(Dest(0), 16, 0x1000, 2, 0, 2);
    m.exec(Opcode::DsrSaveAddress, {Dest(0)});
    m.mem1d(Src0(0), 16, 0x2000, 2);
    m.exec(Opcode::DsrSaveAddress, {Src0(0)});
    m.runOp(Opcode::Mov16V, {Dest(0), Src0(0)});
    m.runOp(Opcode::Mov16V, {Dest(0), Src0(0)});
    m.runOp(Opcode::Mov16V, {Dest(0), Src0(0)});
    CHECK(m.get16(0x1000, 11) == V{1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6});
    CHECK(m.dsrs.get(idOf(Dest(0))).offset == 12);
    CHECK(m.dsrs.get(idOf(Src0(0))).offset == 6);
    // Rebuilding clears the flag and the position.
    m.mem1d(Src0(0), 16, 0x2000, 2);
    CHECK_FALSE(m.dsrs.get(idOf(Src0(0))).saveAddress);
    m.runOp(Opcode::Mov16V, {Dest(0), Src0(0)});
    CHECK(m.get16(0x1018, 3) == V{1, 0, 2});
    CHECK(m.dsrs.get(idOf(Src0(0))).offset == 0);
  }
}

TEST_CASE("save-address positions of mem4d and circbuf DSRs", "[dsd][rules]") {
  for (bool fast : {true, false}) {
    Machine m(fast);
    m.put16(0x2000, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12});
    // Column by column through a 2x3 row-major array: 6 elements.
    m.exec(Opcode::DsrMem4d, {Src0(0), Imm(16), Imm(0x2000), Imm(0), Imm(3),
                              Imm(1), Imm(2), Imm(3)});
    m.exec(Opcode::DsrSaveAddress, {Src0(0)});
    m.exec(Opcode::DsrCircbuf, {Dest(0), Imm(16), Imm(0x1000), Imm(4), Imm(5)});
    m.exec(Opcode::DsrSaveAddress, {Dest(0)});
    m.runOp(Opcode::Mov16V, {Dest(0), Src0(0)});
    m.runOp(Opcode::Mov16V, {Dest(0), Src0(0)});
    // The mem4d read elements 0..11, the outermost index running past its
    // extent: 1 4 2 5 3 6, then 4 7 5 8 6 9. The circbuf wrote positions
    // 0..11 of its 5 slots, the second operation going on mid-lap.
    CHECK(m.get16(0x1000, 6) == V{6, 9, 7, 5, 8, 0});
    CHECK(m.dsrs.get(idOf(Src0(0))).position == 12);
    CHECK(m.dsrs.get(idOf(Dest(0))).position == 12);
  }
}

TEST_CASE("save-address writes back only to an unchanged DSR", "[dsd][rules]") {
  for (bool fast : {true, false}) {
    Machine m(fast);
    m.mem1d(Dest(0), 16, 0x1000, 4);
    m.exec(Opcode::DsrSaveAddress, {Dest(0)});
    m.state.r[1] = 7;
    m.start(Opcode::Mov16V, {Dest(0), R(1)});
    CHECK(m.run(1).status == DSDStatus::Paused);
    m.exec(Opcode::DsrIncOffset, {Dest(0), Imm(1)});
    Descriptor changed = m.dsrs.get(idOf(Dest(0)));
    CHECK(m.run().status == DSDStatus::Done);
    CHECK(m.dsrs.get(idOf(Dest(0))) == changed);
    // The same DSR twice in one operation moves on once.
    m.mem1d(Dest(1), 16, 0x1000, 3);
    m.exec(Opcode::DsrSaveAddress, {Dest(1)});
    m.runOp(Opcode::Add16V, {Dest(1), Dest(1), Dest(1)});
    CHECK(m.dsrs.get(idOf(Dest(1))).offset == 3);
    // A done operation does not write back again.
    CHECK(m.run().status == DSDStatus::Done);
    CHECK(m.dsrs.get(idOf(Dest(1))).offset == 3);
  }
}

TEST_CASE("mem4d walks its dimensions outermost first, last fastest",
          "[dsd][rules]") {
  for (bool fast : {true, false}) {
    Machine m(fast);
    m.put16(0x2000, {1, 2, 3, 4, 5, 6});
    m.mem1d(Dest(0), 16, 0x1000, 6);
    // The transpose of a 2x3 row-major array.
    m.exec(Opcode::DsrMem4d, {Src0(0), Imm(16), Imm(0x2000), Imm(0), Imm(3),
                              Imm(1), Imm(2), Imm(3)});
    CHECK(m.runOp(Opcode::Mov16V, {Dest(0), Src0(0)}).elements == 6);
    CHECK(m.get16(0x1000, 6) == V{1, 4, 2, 5, 3, 6});

    // Four dimensions with negative and zero strides, against nested
    // loops; extents 2, 3, 1, 4 give 24 elements.
    std::vector<uint32_t> values;
    for (uint32_t i = 0; i < 200; ++i)
      values.push_back(i);
    m.put16(0x3000, values);
    int extents[] = {2, 3, 1, 4}, strides[] = {-40, 7, 5, 0};
    std::vector<Operand> operands = {Src0(1), Imm(16), Imm(0x3000 + 2 * 90),
                                     Imm(0)};
    for (int d = 0; d < 4; ++d) {
      operands.push_back(Imm(extents[d]));
      operands.push_back(Imm(strides[d]));
    }
    m.exec(Opcode::DsrMem4d, operands);
    m.mem1d(Dest(1), 16, 0x1000, 24);
    CHECK(m.runOp(Opcode::Mov16V, {Dest(1), Src0(1)}).elements == 24);
    V expected;
    for (int i = 0; i < 2; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 1; ++k)
          for (int l = 0; l < 4; ++l)
            expected.push_back(
                static_cast<uint32_t>(90 + i * -40 + j * 7 + k * 5 + l * 0));
    CHECK(m.get16(0x1000, 24) == expected);

    // Contiguous dimensions as a destination (merged into one run).
    m.exec(Opcode::DsrMem4d, {Dest(2), Imm(32), Imm(0x4000), Imm(0), Imm(2),
                              Imm(12), Imm(3), Imm(4), Imm(4), Imm(1)});
    m.mem1d(Src0(2), 32, 0x3000, 24);
    m.runOp(Opcode::Mov32V, {Dest(2), Src0(2)});
    V words = m.get32(0x4000, 24);
    for (uint32_t i = 0; i < 24; ++i)
      CHECK(words[i] == ((2 * i + 1) << 16 | 2 * i));
  }
}

TEST_CASE("circbuf elements wrap around", "[dsd][rules]") {
  for (bool fast : {true, false}) {
    Machine m(fast);
    m.put16(0x2000, {10, 20, 30});
    m.exec(Opcode::DsrCircbuf, {Src0(0), Imm(16), Imm(0x2000), Imm(7), Imm(3)});
    m.mem1d(Dest(0), 16, 0x1000, 7);
    CHECK(m.runOp(Opcode::Mov16V, {Dest(0), Src0(0)}).elements == 7);
    CHECK(m.get16(0x1000, 7) == V{10, 20, 30, 10, 20, 30, 10});
    // As a destination the last lap wins.
    m.put16(0x3000, {1, 2, 3, 4, 5});
    m.mem1d(Src0(1), 16, 0x3000, 5);
    m.exec(Opcode::DsrCircbuf, {Dest(1), Imm(16), Imm(0x1100), Imm(5), Imm(2)});
    m.runOp(Opcode::Mov16V, {Dest(1), Src0(1)});
    CHECK(m.get16(0x1100, 3) == V{5, 4, 0});
  }
}

TEST_CASE("mem1d offsets count elements of the DSR's width, strides the "
          "operation's",
          "[dsd][rules]") {
  for (bool fast : {true, false}) {
    Machine m(fast);
    m.put32(0x2000, {1, 2, 3, 4, 5, 6});
    m.mem1d(Src0(0), 32, 0x2000, 3, 5, -2); // elements 5, 3, 1
    m.mem1d(Dest(0), 32, 0x1000, 3);
    m.runOp(Opcode::Mov32V, {Dest(0), Src0(0)});
    CHECK(m.get32(0x1000, 3) == V{6, 4, 2});
    // A 32-bit operation over a 16-bit DSR reads consecutive 4-byte
    // elements from the DSR's offset (fft-1d-2d moves f16 pairs with
    // fmovs); a 16-bit one over a 32-bit DSR consecutive halves.
    m.put16(0x3000, {0x1111, 0x2222, 0x3333, 0x4444, 0x5555, 0x6666});
    m.mem1d(Src0(1), 16, 0x3000, 2, 1);
    m.runOp(Opcode::Mov32V, {Dest(0), Src0(1)});
    CHECK(m.get32(0x1000, 2) == V{0x33332222, 0x55554444});
    m.mem1d(Src0(2), 32, 0x2000, 3);
    m.mem1d(Dest(1), 16, 0x1100, 3);
    m.runOp(Opcode::Mov16V, {Dest(1), Src0(2)});
    CHECK(m.get16(0x1100, 3) == V{1, 0, 2});
  }
}

TEST_CASE("wavelet-index-offset DSRs add the index option", "[dsd][rules]") {
  for (bool fast : {true, false}) {
    Machine m(fast);
    m.put16(0x2000, {1, 2, 3});
    m.mem1d(Src0(0), 16, 0x2000, 3);
    m.mem1d(Dest(0), 16, 0x1000, 3, 1, 1, /*wio=*/true);
    m.state.r[7] = 4;
    pe::DSDOptions options;
    options.indexReg = 7;
    m.runOp(Opcode::Mov16V, {Dest(0), Src0(0)}, options);
    CHECK(m.get16(0x1000, 8) == V{0, 0, 0, 0, 0, 1, 2, 3});
    // A negative index; without the option the index is 0.
    m.state.r[7] = static_cast<uint32_t>(-1);
    m.runOp(Opcode::Mov16V, {Dest(0), Src0(0)}, options);
    CHECK(m.get16(0x1000, 4) == V{1, 2, 3, 0});
    m.runOp(Opcode::Mov16V, {Dest(0), Src0(0)});
    CHECK(m.get16(0x1000, 4) == V{1, 1, 2, 3});
    // A DSR without wio ignores it; mem4d moves its base by the index.
    m.mem1d(Dest(1), 16, 0x1100, 3);
    m.state.r[7] = 2;
    m.runOp(Opcode::Mov16V, {Dest(1), Src0(0)}, options);
    CHECK(m.get16(0x1100, 3) == V{1, 2, 3});
    m.exec(Opcode::DsrMem4d,
           {Dest(2), Imm(16), Imm(0x1200), Imm(1), Imm(3), Imm(1)});
    m.runOp(Opcode::Mov16V, {Dest(2), Src0(0)}, options);
    CHECK(m.get16(0x1200, 5) == V{0, 0, 1, 2, 3});
  }
}

TEST_CASE("the wavelet index counts 16-bit words for 32-bit elements too",
          "[dsd][rules]") {
  // sdklayout-05's gemv walks the columns of an f32 matrix with
  // `.index = 2 * j`: index 2 is one f32 element on.
  for (bool fast : {true, false}) {
    Machine m(fast);
    m.put32(0x2000, {10, 20});
    m.mem1d(Src0(0), 32, 0x2000, 2);
    m.mem1d(Dest(0), 32, 0x1000, 2, 1, 1, /*wio=*/true);
    m.state.r[7] = 2;
    pe::DSDOptions options;
    options.indexReg = 7;
    m.runOp(Opcode::Mov32V, {Dest(0), Src0(0)}, options);
    // Offset 1 element, index 2 words: the writes start 2 elements on.
    CHECK(m.get32(0x1000, 4) == V{0, 0, 10, 20});
  }
}

TEST_CASE("a budget pauses an operation between elements", "[dsd][rules]") {
  for (bool fast : {true, false}) {
    Machine m(fast);
    m.mem1d(Dest(0), 16, 0x1000, 5);
    m.state.r[1] = 3;
    m.start(Opcode::Mov16V, {Dest(0), R(1)});
    DSDProgress progress = m.run(2);
    CHECK(progress.status == DSDStatus::Paused);
    CHECK(progress.elements == 2);
    CHECK(m.op.getElementsDone() == 2);
    CHECK(m.get16(0x1000, 5) == V{3, 3, 0, 0, 0});
    CHECK(m.run(0).status == DSDStatus::Paused);
    progress = m.run();
    CHECK(progress.status == DSDStatus::Done);
    CHECK(progress.elements == 3);
    CHECK(m.op.isDone());
    CHECK(m.get16(0x1000, 5) == V{3, 3, 3, 3, 3});
  }
}
