//===- FloatOpsTest.cpp - every float DSD operation, bit-exact ------------===//
//
// Each operation runs over mem1d DSRs on both engine paths. Expected bits
// are written out (numpy's float16/float32 agree with each); the cases pick
// ties, subnormals, overflow, NaN payloads and signed zeros.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

using namespace dsdtest;

using V = std::vector<uint32_t>;

TEST_CASE("f32 add, subtract, multiply round once to nearest even",
          "[dsd][float]") {
  CHECK(elementwise(Opcode::FAddSV, 32,
                    {{32,
                      {0x3FC00000, 0x3F800000, 0x3F800001, 0x7F800001,
                       0xFFC00001, 0x7F800000, 0x00000001}},
                     {32,
                      {0x40100000, 0x33800000, 0x33800000, 0x3F800000,
                       0x3F800000, 0xFF800000, 0x00000001}}}) ==
        V{0x40700000, 0x3F800000, 0x3F800002, 0x7FC00000, 0x7FC00000,
          0x7FC00000, 0x00000002});
  CHECK(elementwise(Opcode::FSubSV, 32,
                    {{32, {0x40700000, 0x3F800000, 0x80000000}},
                     {32, {0x3FC00000, 0x3F800000, 0x00000000}}}) ==
        V{0x40100000, 0x00000000, 0x80000000});
  CHECK(elementwise(Opcode::FMulSV, 32,
                    {{32, {0x3FC00000, 0x7F7FFFFF, 0x00000000, 0x80000001}},
                     {32, {0x3FC00000, 0x40000000, 0x7F800000, 0x3F000000}}}) ==
        V{0x40100000, 0x7F800000, 0x7FC00000, 0x80000000});
}

TEST_CASE("fmaxs and fmaxh: one NaN gives the other, -0 below +0",
          "[dsd][float]") {
  CHECK(elementwise(
            Opcode::FMaxSV, 32,
            {{32, {0x3F800000, 0x7FC00001, 0x80000000, 0x7F800001, 0x40000000}},
             {32,
              {0x7F800001, 0x3F800000, 0x00000000, 0xFFC00000, 0x40400000}}}) ==
        V{0x3F800000, 0x3F800000, 0x00000000, 0x7FC00000, 0x40400000});
  CHECK(elementwise(Opcode::FMaxHV, 16,
                    {{16, {0x7E01, 0x8000, 0x7C01, 0xBC00}},
                     {16, {0x3C00, 0x0000, 0xFE00, 0xC000}}}) ==
        V{0x3C00, 0x0000, 0x7E00, 0xBC00});
}

TEST_CASE("f16 add, subtract, multiply round once, ties to even",
          "[dsd][float]") {
  // 1 + 2^-11 is halfway: to 1.0 (even); 0x3C01 + 2^-11 to 0x3C02; 65504 +
  // 16 is halfway to 65536, which is infinity; a NaN is 0x7E00.
  CHECK(elementwise(Opcode::FAddHV, 16,
                    {{16, {0x3C00, 0x3C01, 0x7BFF, 0x7C01, 0x3E00}},
                     {16, {0x1000, 0x1000, 0x4C00, 0x3C00, 0x3E00}}}) ==
        V{0x3C00, 0x3C02, 0x7C00, 0x7E00, 0x4200});
  CHECK(elementwise(
            Opcode::FSubHV, 16,
            {{16, {0x3C00, 0x8000, 0x7C00}}, {16, {0x3C00, 0x0000, 0x7C00}}}) ==
        V{0x0000, 0x8000, 0x7E00});
  // 2^-24 * 0.5 is halfway to 0 (even); 3 * 2^-24 * 0.5 rounds to 2.
  CHECK(elementwise(Opcode::FMulHV, 16,
                    {{16, {0x3E00, 0x0001, 0x0003, 0x7BFF}},
                     {16, {0x3E00, 0x3800, 0x3800, 0x4000}}}) ==
        V{0x4080, 0x0000, 0x0002, 0x7C00});
}

TEST_CASE("faddhs adds an f16 to an f32 with one f32 rounding",
          "[dsd][float]") {
  // 2^24 + 1 is halfway to 2^24 (even); 2^24 + 3 halfway to 2^24 + 4.
  CHECK(elementwise(Opcode::FAddHSV, 32,
                    {{32, {0x3F800000, 0x4B800000, 0x4B800000, 0x7F800001}},
                     {16, {0x3C00, 0x3C00, 0x4200, 0x3C00}}}) ==
        V{0x40000000, 0x4B800000, 0x4B800002, 0x7FC00000});
}

TEST_CASE("fmacs and fmach round the product, then the sum", "[dsd][float]") {
  // (1 + 2^-12)^2 = 1 + 2^-11 + 2^-24 rounds to 1 + 2^-11, so adding
  // -(1 + 2^-11) gives +0; a fused multiply-add would give 2^-24.
  CHECK(elementwise(Opcode::FMacSV, 32,
                    {{32, {0xBF801000, 0x3F800000, 0x7FC00000}},
                     {32, {0x3F800800, 0x40000000, 0x3F800000}},
                     {32, {0x3F800800, 0x40400000, 0x3F800000}}}) ==
        V{0x00000000, 0x40E00000, 0x7FC00000});
  // (1 + 2^-6)^2 rounds to 1 + 2^-5 in f16; fused would give 2^-12.
  CHECK(elementwise(Opcode::FMacHV, 16,
                    {{16, {0xBC20, 0x3C00, 0x7C00}},
                     {16, {0x3C10, 0x4000, 0x3C00}},
                     {16, {0x3C10, 0x4200, 0xFC00}}}) ==
        V{0x0000, 0x4700, 0x7E00});
}

TEST_CASE("fmachs keeps the f16 product exact in f32", "[dsd][float]") {
  // -1 + (1 + 2^-6)^2 = 2^-5 + 2^-12 exactly (0x3D010000); rounding the
  // product to f16 first would give 2^-5.
  CHECK(elementwise(Opcode::FMacHSV, 32,
                    {{32, {0xBF800000, 0x3F800000}},
                     {16, {0x3C10, 0x7E00}},
                     {16, {0x3C10, 0x3C00}}}) == V{0x3D010000, 0x7FC00000});
}

TEST_CASE("moves, negation and absolute value are bit operations",
          "[dsd][float]") {
  CHECK(elementwise(Opcode::FMovSV, 32, {{32, {0x7F800001, 0x80000000}}}) ==
        V{0x7F800001, 0x80000000});
  CHECK(elementwise(Opcode::FMovHV, 16, {{16, {0x7C01, 0x8000}}}) ==
        V{0x7C01, 0x8000});
  CHECK(elementwise(Opcode::FNegSV, 32, {{32, {0x7FC00001, 0x3F800000}}}) ==
        V{0xFFC00001, 0xBF800000});
  CHECK(elementwise(Opcode::FNegHV, 16, {{16, {0x7C01, 0x3C00}}}) ==
        V{0xFC01, 0xBC00});
  CHECK(elementwise(Opcode::FAbsSV, 32, {{32, {0xFFC00001, 0xBF800000}}}) ==
        V{0x7FC00001, 0x3F800000});
  CHECK(elementwise(Opcode::FAbsHV, 16, {{16, {0xFC01, 0x8000}}}) ==
        V{0x7C01, 0x0000});
}

TEST_CASE("f16 and f32 convert into each other, rounding once",
          "[dsd][float]") {
  CHECK(elementwise(Opcode::FH2SV, 32,
                    {{16, {0x3C00, 0x0001, 0x7C01, 0xFC00, 0x8000}}}) ==
        V{0x3F800000, 0x33800000, 0x7FC00000, 0xFF800000, 0x80000000});
  // 1 + 2^-11 ties to 1; 65520 ties to infinity; 2^-25 ties to 0;
  // 0.75 * 2^-24 rounds to 2^-24.
  CHECK(elementwise(Opcode::FS2HV, 16,
                    {{32,
                      {0x3F800000, 0x3F801000, 0x477FF000, 0x7F800001,
                       0x33000000, 0x33400000}}}) ==
        V{0x3C00, 0x3C00, 0x7C00, 0x7E00, 0x0000, 0x0001});
}

TEST_CASE("floats convert to i16 toward zero, saturating, NaN 0",
          "[dsd][float]") {
  // 20, -2.5, 65504, -inf, NaN, 0.9990 (0x3BFE).
  CHECK(elementwise(Opcode::FH2XP16V, 16,
                    {{16, {0x4D00, 0xC100, 0x7BFF, 0xFC00, 0x7E00, 0x3BFE}}}) ==
        V{20, 0xFFFE, 0x7FFF, 0x8000, 0, 0});
  // 32767.9, 32768, -32768, -32769, -1.5, NaN.
  CHECK(elementwise(Opcode::FS2XP16V, 16,
                    {{32,
                      {0x46FFFFCD, 0x47000000, 0xC7000000, 0xC7000100,
                       0xBFC00000, 0x7FC00000}}}) ==
        V{0x7FFF, 0x7FFF, 0x8000, 0x8000, 0xFFFF, 0});
}

TEST_CASE("i16 converts to floats, rounding to nearest even", "[dsd][float]") {
  // 32767 rounds to 32768; 2049 ties to 2048 and 2051 to 2052.
  CHECK(elementwise(Opcode::XP162FHV, 16,
                    {{16, {0x7FFF, 0xFFFF, 2049, 2051, 0x8000}}}) ==
        V{0x7800, 0xBC00, 0x6800, 0x6802, 0xF800});
  CHECK(elementwise(Opcode::XP162FSV, 32, {{16, {0x8000, 1, 0x7FFF}}}) ==
        V{0xC7000000, 0x3F800000, 0x46FFFE00});
}

TEST_CASE("fscaleh and fscales multiply by 2^b with one rounding",
          "[dsd][float]") {
  // 1.5 * 2^3; 2^-26 to 0; 1.5 * 2^-25 to 2^-24; 2^16 overflows; b =
  // -32768; NaN.
  CHECK(elementwise(Opcode::FScaleHV, 16,
                    {{16, {0x3E00, 0x3C00, 0x3E00, 0x3C00, 0x3C00, 0x7C01}},
                     {16, {3, 0xFFE6, 0xFFE7, 16, 0x8000, 1}}}) ==
        V{0x4A00, 0x0000, 0x0001, 0x7C00, 0x0000, 0x7E00});
  // 2^127; 2^128 overflows; 1.5 * 2^-150 rounds to 2^-149; b = 32767;
  // -2^-200 is -0.
  CHECK(elementwise(
            Opcode::FScaleSV, 32,
            {{32, {0x3F800000, 0x3F800000, 0x3FC00000, 0x3F800000, 0xBF800000}},
             {16, {127, 128, 0xFF6A, 0x7FFF, 0xFF38}}}) ==
        V{0x7F000000, 0x7F800000, 0x00000001, 0x7F800000, 0x80000000});
}

TEST_CASE("fnormh and fnorms scale to 1 <= |x| < 2, 0 and inf unchanged",
          "[dsd][float]") {
  // 12, 3 * 2^-24, -0, inf, NaN, -0.375.
  CHECK(elementwise(Opcode::FNormHV, 16,
                    {{16, {0x4A00, 0x0003, 0x8000, 0x7C00, 0x7C01, 0xB600}}}) ==
        V{0x3E00, 0x3E00, 0x8000, 0x7C00, 0x7E00, 0xBE00});
  CHECK(elementwise(
            Opcode::FNormSV, 32,
            {{32,
              {0x00000001, 0x40C00000, 0xFF800000, 0x7F800001, 0x80000000}}}) ==
        V{0x3F800000, 0x3FC00000, 0xFF800000, 0x7FC00000, 0x80000000});
}

TEST_CASE("a scalar register source is used for every element",
          "[dsd][float]") {
  for (bool fast : {true, false}) {
    Machine m(fast);
    m.mem1d(Dest(0), 32, 0x1000, 3);
    m.mem1d(Src0(0), 32, 0x2000, 3);
    m.put32(0x2000, {bitsOf(1.0f), bitsOf(2.0f), bitsOf(3.0f)});
    m.state.r[5] = bitsOf(0.5f);
    m.state.r[6] = 0x4000; // f16 2.0 in the low half
    m.runOp(Opcode::FMulSV, {Dest(0), Src0(0), R(5)});
    CHECK(m.get32(0x1000, 3) == V{bitsOf(0.5f), bitsOf(1.0f), bitsOf(1.5f)});
    // fmachs: dest = src0 + r6 (f16) * r6 (f16).
    m.runOp(Opcode::FMacHSV, {Dest(0), Src0(0), R(6), R(6)});
    CHECK(m.get32(0x1000, 3) == V{bitsOf(5.0f), bitsOf(6.0f), bitsOf(7.0f)});
  }
}
