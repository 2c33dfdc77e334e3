//===- IntegerOpsTest.cpp - 16-bit integer and bit DSD operations ---------===//

#include "TestSupport.h"

using namespace dsdtest;

using V = std::vector<uint32_t>;

TEST_CASE("add16 and sub16 wrap modulo 2^16", "[dsd][integer]") {
  CHECK(elementwise(
            Opcode::Add16V, 16,
            {{16, {0xFFFF, 0x1234, 0x8000}}, {16, {0x0002, 0x0001, 0x8000}}}) ==
        V{0x0001, 0x1235, 0x0000});
  CHECK(elementwise(
            Opcode::Sub16V, 16,
            {{16, {0x0001, 0x1234, 0x0000}}, {16, {0x0002, 0x0234, 0x8000}}}) ==
        V{0xFFFF, 0x1000, 0x8000});
}

TEST_CASE("addc16 carries from each element into the next", "[dsd][integer]") {
  // 0xFFFF + 1 = 0 carry 1; 0 + 0 + 1 = 1; 1 + 0xFFFF = 0 carry 1;
  // 0xFFFF + 0 + 1 = 0 carry 1; 5 + 5 + 1 = 11. The first element has no
  // carry in.
  CHECK(elementwise(Opcode::AddC16V, 16,
                    {{16, {0xFFFF, 0x0000, 0x0001, 0xFFFF, 5}},
                     {16, {0x0001, 0x0000, 0xFFFF, 0x0000, 5}}}) ==
        V{0x0000, 0x0001, 0x0000, 0x0000, 11});
}

TEST_CASE("addc16 adds multi-word integers limb by limb", "[dsd][integer]") {
  // 0x0001_FFFF_FFFF + 1 in three little-endian limbs.
  CHECK(elementwise(
            Opcode::AddC16V, 16,
            {{16, {0xFFFF, 0xFFFF, 0x0001}}, {16, {0x0001, 0x0000, 0x0000}}}) ==
        V{0x0000, 0x0000, 0x0002});
}

TEST_CASE("the carry chain starts afresh in each operation", "[dsd][integer]") {
  for (bool fast : {true, false}) {
    Machine m(fast);
    m.mem1d(Dest(0), 16, 0x1000, 1);
    m.mem1d(Src0(0), 16, 0x2000, 1);
    m.put16(0x2000, {0xFFFF});
    m.state.r[1] = 1;
    m.runOp(Opcode::AddC16V, {Dest(0), Src0(0), R(1)});
    CHECK(m.get16(0x1000, 1) == V{0});
    m.runOp(Opcode::AddC16V, {Dest(0), Src0(0), R(1)});
    CHECK(m.get16(0x1000, 1) == V{0});
  }
}

TEST_CASE("bitwise and, or, xor on 16 bits", "[dsd][integer]") {
  Input a{16, {0xF0F0, 0xFFFF}}, b{16, {0x0FF0, 0x1234}};
  CHECK(elementwise(Opcode::And16V, 16, {a, b}) == V{0x00F0, 0x1234});
  CHECK(elementwise(Opcode::Or16V, 16, {a, b}) == V{0xFFF0, 0xFFFF});
  CHECK(elementwise(Opcode::Xor16V, 16, {a, b}) == V{0xFF00, 0xEDCB});
}

TEST_CASE("shifts take b as unsigned, 16 or more shifts everything out",
          "[dsd][integer]") {
  Input amounts{16, {1, 15, 16, 0xFFFF, 0}};
  CHECK(elementwise(Opcode::Sll16V, 16,
                    {{16, {0x8001, 0x0001, 0xFFFF, 0xFFFF, 0x1234}},
                     amounts}) == V{0x0002, 0x8000, 0, 0, 0x1234});
  CHECK(elementwise(Opcode::Slr16V, 16,
                    {{16, {0x8000, 0x8000, 0xFFFF, 0xFFFF, 0x1234}},
                     amounts}) == V{0x4000, 0x0001, 0, 0, 0x1234});
  CHECK(elementwise(Opcode::Sar16V, 16,
                    {{16, {0x8000, 0x8000, 0x8000, 0x7FFF, 0xF234}},
                     amounts}) == V{0xC000, 0xFFFF, 0xFFFF, 0, 0xF234});
}

TEST_CASE("popcnt, clz and ctz count on 16 bits", "[dsd][integer]") {
  Input x{16, {0x0000, 0xFFFF, 0x8001, 0x0001, 0x8000, 0x0F00}};
  CHECK(elementwise(Opcode::PopcntV, 16, {x}) == V{0, 16, 2, 1, 1, 4});
  CHECK(elementwise(Opcode::ClzV, 16, {x}) == V{16, 0, 0, 15, 0, 4});
  CHECK(elementwise(Opcode::CtzV, 16, {x}) == V{16, 0, 0, 0, 15, 8});
}

TEST_CASE("mov16 and mov32 copy raw bits", "[dsd][integer]") {
  CHECK(elementwise(Opcode::Mov16V, 16, {{16, {0xABCD, 0x7E01}}}) ==
        V{0xABCD, 0x7E01});
  CHECK(elementwise(Opcode::Mov32V, 32, {{32, {0xDEADBEEF, 0x7F800001}}}) ==
        V{0xDEADBEEF, 0x7F800001});
}

TEST_CASE("a 16-bit scalar operand is the register's low half",
          "[dsd][integer]") {
  for (bool fast : {true, false}) {
    Machine m(fast);
    m.mem1d(Dest(0), 16, 0x1000, 2);
    m.mem1d(Src0(0), 16, 0x2000, 2);
    m.put16(0x2000, {1, 2});
    m.state.r[3] = 0xABCD0010;
    m.runOp(Opcode::Add16V, {Dest(0), Src0(0), R(3)});
    CHECK(m.get16(0x1000, 2) == V{0x11, 0x12});
    // Only 16 bits per element are written, at 2-byte steps (the
    // operation's width), however wide the DSR.
    m.put32(0x3000, {0xFFFFFFFF, 0xFFFFFFFF});
    m.mem1d(Dest(1), 32, 0x3000, 2);
    m.runOp(Opcode::Mov16V, {Dest(1), Src0(0)});
    CHECK(m.get32(0x3000, 2) == V{0x00020001, 0xFFFFFFFF});
  }
}
