//===- FloatTest.cpp - f32, f16 and conversion instructions ---------------===//
//
// f32 results are checked against the host's binary32 arithmetic; f16
// results against an independent reference: the exact (or double-rounded)
// result in double, converted to binary32 and then by Float16.h's
// floatToHalfBits (both extra roundings are innocuous for one f16 operation:
// 53 >= 2 * 24 + 2 and 24 >= 2 * 11 + 2). The emulator instead rounds the
// double to binary16 once with its own code.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "FloatOps.h"

#include "tessera/Support/Float16.h"

#include <cmath>
#include <limits>
#include <random>
#include <sstream>

using namespace emutest;

namespace {

constexpr uint32_t NaN32 = 0x7FC00000;
constexpr uint16_t NaN16 = 0x7E00;

uint32_t canonical32(float value) {
  return std::isnan(value) ? NaN32 : bitsOf(value);
}
uint16_t referenceHalf(double value) {
  float narrowed = static_cast<float>(value);
  return std::isnan(narrowed) ? NaN16 : floatToHalfBits(narrowed);
}
double half(uint32_t bits) {
  return halfBitsToFloat(static_cast<uint16_t>(bits));
}

std::string hex(uint32_t value) {
  std::ostringstream os;
  os << "0x" << std::hex << value;
  return os.str();
}

/// Edge cases of binary32, then random bit patterns.
std::vector<uint32_t> f32Operands() {
  std::vector<uint32_t> values = {
      0x00000000, 0x80000000, 0x3F800000, 0xBF800000, 0x40000000, 0x40400000,
      0x3F800001, 0x3F7FFFFF, 0x33800000, 0x34000000, 0x00000001, 0x80000001,
      0x00000003, 0x007FFFFF, 0x00800000, 0x7F7FFFFF, 0xFF7FFFFF, 0x7F800000,
      0xFF800000, 0x7FC00000, 0xFFC00000, 0x7F800001, 0x7FBFFFFF, 0x7FC00001,
      0x3DCCCCCD, 0x4B800001, 0x4F000000, 0xCF000000, 0x5F800000};
  std::mt19937 random(20261122);
  for (int i = 0; i < 300; ++i)
    values.push_back(random());
  return values;
}

/// Edge cases of binary16 (zeros, subnormals, the largest values,
/// infinities, NaNs with payloads, neighbours of 1), then random patterns.
std::vector<uint32_t> f16Operands() {
  std::vector<uint32_t> values = {
      0x0000, 0x8000, 0x0001, 0x8001, 0x0002, 0x0003, 0x03FF, 0x83FF,
      0x0400, 0x8400, 0x0401, 0x3C00, 0xBC00, 0x3C01, 0x3BFF, 0x4000,
      0x4200, 0x3555, 0x2E66, 0x1000, 0x1400, 0x7BFF, 0xFBFF, 0x7BFE,
      0x7C00, 0xFC00, 0x7C01, 0x7E00, 0xFE00, 0x7FFF, 0x7D00, 0x5BFF,
      0x6800, 0x0200, 0x3800, 0x3400, 0x1001, 0x1C00, 0x4900, 0xC900};
  std::mt19937 random(11);
  for (int i = 0; i < 360; ++i)
    values.push_back(random() & 0xFFFF);
  return values;
}

/// Runs `op r2, r0, r1` on every pair and counts results that differ from
/// `expected`; reports the first.
template <typename Expected>
void checkAllPairs(Opcode opcode, const std::vector<uint32_t> &operands,
                   Expected expected) {
  Single inst = binary(opcode);
  unsigned failures = 0;
  std::string first;
  for (uint32_t x : operands)
    for (uint32_t y : operands) {
      uint32_t got = inst({x, y}, 2);
      uint32_t want = expected(x, y);
      if (got != want && failures++ == 0)
        first = hex(x) + ", " + hex(y) + ": got " + hex(got) + ", want " +
                hex(want);
    }
  INFO(pe::getInstInfo(opcode)->mnemonic << " " << first);
  CHECK(failures == 0);
}

template <typename Expected>
void checkAllValues(Opcode opcode, const std::vector<uint32_t> &operands,
                    Expected expected) {
  Single inst = unary(opcode);
  unsigned failures = 0;
  std::string first;
  for (uint32_t x : operands) {
    uint32_t got = inst({x}, 1);
    uint32_t want = expected(x);
    if (got != want && failures++ == 0)
      first = hex(x) + ": got " + hex(got) + ", want " + hex(want);
  }
  INFO(pe::getInstInfo(opcode)->mnemonic << " " << first);
  CHECK(failures == 0);
}

std::vector<uint32_t> allHalves() {
  std::vector<uint32_t> values(0x10000);
  for (uint32_t i = 0; i < values.size(); ++i)
    values[i] = i;
  return values;
}

uint32_t op2(Opcode opcode, uint32_t x, uint32_t y) {
  return binary(opcode)({x, y}, 2);
}
uint32_t op2(Opcode opcode, float x, float y) {
  return op2(opcode, bitsOf(x), bitsOf(y));
}
uint32_t op1(Opcode opcode, uint32_t x) { return unary(opcode)({x}, 1); }

/// Relations a comparison can find, as bits of a predicate's truth table.
enum Relation : unsigned { Lt = 1, Eq = 2, Gt = 4, Uno = 8 };
/// For predicate p (in FCmpPred order), the relations for which it holds.
constexpr unsigned PredicateTruth[16] = {
    0,                  // false
    Eq,                 // oeq
    Gt,                 // ogt
    Gt | Eq,            // oge
    Lt,                 // olt
    Lt | Eq,            // ole
    Lt | Gt,            // one
    Lt | Eq | Gt,       // ord
    Uno,                // uno
    Uno | Eq,           // ueq
    Uno | Gt,           // ugt
    Uno | Gt | Eq,      // uge
    Uno | Lt,           // ult
    Uno | Lt | Eq,      // ule
    Uno | Lt | Gt,      // une
    Lt | Eq | Gt | Uno, // true
};

struct ComparePair {
  uint32_t x, y;
  Relation relation;
};

void checkPredicates(Opcode opcode, const std::vector<ComparePair> &pairs) {
  for (unsigned p = 0; p < 16; ++p) {
    Single fcmp(opcode, {R(2), R(0), R(1), Imm(p)});
    for (const ComparePair &pair : pairs) {
      INFO(pe::getFCmpPredicateName(static_cast<pe::FCmpPredicate>(p))
           << " " << hex(pair.x) << ", " << hex(pair.y));
      CHECK(fcmp({pair.x, pair.y}, 2) ==
            ((PredicateTruth[p] & pair.relation) ? 1u : 0u));
    }
  }
}

} // namespace

//===----------------------------------------------------------------------===//
// f32
//===----------------------------------------------------------------------===//

TEST_CASE("f32 arithmetic matches the host's binary32", "[float][f32]") {
  std::vector<uint32_t> operands = f32Operands();
  checkAllPairs(Opcode::FAddS, operands, [](uint32_t x, uint32_t y) {
    return canonical32(floatOf(x) + floatOf(y));
  });
  checkAllPairs(Opcode::FSubS, operands, [](uint32_t x, uint32_t y) {
    return canonical32(floatOf(x) - floatOf(y));
  });
  checkAllPairs(Opcode::FMulS, operands, [](uint32_t x, uint32_t y) {
    return canonical32(floatOf(x) * floatOf(y));
  });
  checkAllPairs(Opcode::FDivS, operands, [](uint32_t x, uint32_t y) {
    return canonical32(floatOf(x) / floatOf(y));
  });
  checkAllValues(Opcode::FSqrtS, operands,
                 [](uint32_t x) { return canonical32(std::sqrt(floatOf(x))); });
}

TEST_CASE("f32 corner cases", "[float][f32]") {
  // Ties to even: 1 + 2^-24 is halfway between 1 and the next float.
  CHECK(op2(Opcode::FAddS, 1.0f, 0x1p-24f) == 0x3F800000);
  CHECK(op2(Opcode::FAddS, 0x1.000002p0f, 0x1p-24f) == 0x3F800002);
  // Subnormals are kept, and round to even.
  CHECK(op2(Opcode::FAddS, 0x00000001u, 0x00000001u) == 0x00000002);
  CHECK(op2(Opcode::FMulS, 0x00800000u, bitsOf(0.5f)) == 0x00400000);
  CHECK(op2(Opcode::FMulS, 0x00000001u, bitsOf(0.5f)) == 0x00000000);
  CHECK(op2(Opcode::FMulS, 0x00000003u, bitsOf(0.5f)) == 0x00000002);
  // Division by zero and invalid operations.
  CHECK(op2(Opcode::FDivS, 1.0f, 0.0f) == 0x7F800000);
  CHECK(op2(Opcode::FDivS, 1.0f, -0.0f) == 0xFF800000);
  CHECK(op2(Opcode::FDivS, 0.0f, 0.0f) == NaN32);
  CHECK(op2(Opcode::FSubS, 0x7F800000u, 0x7F800000u) == NaN32);
  CHECK(op2(Opcode::FMulS, 0x7F800000u, 0u) == NaN32);
  CHECK(op2(Opcode::FAddS, 0x7F7FFFFFu, 0x7F7FFFFFu) == 0x7F800000);
  // NaN payloads and signs never survive arithmetic.
  CHECK(op2(Opcode::FAddS, 0xFFC12345u, bitsOf(1.0f)) == NaN32);
  CHECK(op2(Opcode::FMulS, 0x7F800001u, 0xFFC00000u) == NaN32);
  CHECK(op1(Opcode::FSqrtS, bitsOf(-1.0f)) == NaN32);
  CHECK(op1(Opcode::FSqrtS, 0x80000000) == 0x80000000);
  CHECK(op1(Opcode::FSqrtS, bitsOf(2.0f)) == 0x3FB504F3);
  CHECK(op1(Opcode::FSqrtS, 0x7F800000) == 0x7F800000);
  // x - x is +0 and -0 + -0 is -0.
  CHECK(op2(Opcode::FSubS, 3.0f, 3.0f) == 0x00000000);
  CHECK(op2(Opcode::FAddS, -0.0f, -0.0f) == 0x80000000);
}

TEST_CASE("fmin and fmax: one NaN gives the other, -0 < +0", "[float][f32]") {
  const uint32_t one = bitsOf(1.0f), two = bitsOf(2.0f);
  CHECK(op2(Opcode::FMinS, one, two) == one);
  CHECK(op2(Opcode::FMinS, two, one) == one);
  CHECK(op2(Opcode::FMaxS, one, two) == two);
  CHECK(op2(Opcode::FMaxS, two, one) == two);
  CHECK(op2(Opcode::FMinS, 0x7FC00001u, one) == one);
  CHECK(op2(Opcode::FMinS, one, 0xFF800001u) == one);
  CHECK(op2(Opcode::FMaxS, 0x7F800001u, one) == one);
  CHECK(op2(Opcode::FMaxS, one, 0x7FC00001u) == one);
  CHECK(op2(Opcode::FMinS, 0x7FC00001u, 0xFF800001u) == NaN32);
  CHECK(op2(Opcode::FMaxS, 0x7FC00001u, 0xFF800001u) == NaN32);
  CHECK(op2(Opcode::FMinS, 0x80000000u, 0x00000000u) == 0x80000000);
  CHECK(op2(Opcode::FMinS, 0x00000000u, 0x80000000u) == 0x80000000);
  CHECK(op2(Opcode::FMaxS, 0x80000000u, 0x00000000u) == 0x00000000);
  CHECK(op2(Opcode::FMaxS, 0x00000000u, 0x80000000u) == 0x00000000);
  CHECK(op2(Opcode::FMinS, 0xFF800000u, 0x7F800000u) == 0xFF800000);
  CHECK(op2(Opcode::FMaxS, 0x00000001u, 0x80000001u) == 0x00000001);
}

TEST_CASE("fneg and fabs are bit operations", "[float][f32]") {
  CHECK(op1(Opcode::FNegS, bitsOf(1.5f)) == bitsOf(-1.5f));
  CHECK(op1(Opcode::FNegS, 0x00000000) == 0x80000000);
  CHECK(op1(Opcode::FNegS, 0x7FC00001) == 0xFFC00001);
  CHECK(op1(Opcode::FNegS, 0xFF800001) == 0x7F800001);
  CHECK(op1(Opcode::FAbsS, 0xFF800001) == 0x7F800001);
  CHECK(op1(Opcode::FAbsS, 0x80000000) == 0x00000000);
  CHECK(op1(Opcode::FAbsS, bitsOf(-2.0f)) == bitsOf(2.0f));
}

TEST_CASE("fcmp.s: every predicate on ordered and unordered pairs",
          "[float][f32]") {
  const uint32_t one = bitsOf(1.0f), two = bitsOf(2.0f);
  checkPredicates(Opcode::FCmpS, {{one, two, Lt},
                                  {two, one, Gt},
                                  {two, two, Eq},
                                  {0x80000000, 0x00000000, Eq},
                                  {0xFF800000, 0x7F800000, Lt},
                                  {0x00000001, 0x00000000, Gt},
                                  {NaN32, one, Uno},
                                  {one, 0xFF800001, Uno},
                                  {0x7FC00001, 0x7FC00001, Uno}});
}

//===----------------------------------------------------------------------===//
// f16
//===----------------------------------------------------------------------===//

TEST_CASE("f16 arithmetic is rounded once, as the reference is",
          "[float][f16]") {
  std::vector<uint32_t> operands = f16Operands();
  checkAllPairs(Opcode::FAddH, operands, [](uint32_t x, uint32_t y) {
    return referenceHalf(half(x) + half(y));
  });
  checkAllPairs(Opcode::FSubH, operands, [](uint32_t x, uint32_t y) {
    return referenceHalf(half(x) - half(y));
  });
  checkAllPairs(Opcode::FMulH, operands, [](uint32_t x, uint32_t y) {
    return referenceHalf(half(x) * half(y));
  });
  checkAllPairs(Opcode::FDivH, operands, [](uint32_t x, uint32_t y) {
    return referenceHalf(half(x) / half(y));
  });
  checkAllValues(Opcode::FSqrtH, allHalves(),
                 [](uint32_t x) { return referenceHalf(std::sqrt(half(x))); });
}

TEST_CASE("f16 corner cases", "[float][f16]") {
  // 1 + 2^-11 is halfway between 1 and 1 + 2^-10: ties to even.
  CHECK(op2(Opcode::FAddH, 0x3C00u, 0x1000u) == 0x3C00);
  CHECK(op2(Opcode::FAddH, 0x3C01u, 0x1000u) == 0x3C02);
  CHECK(op2(Opcode::FAddH, 0x3C00u, 0x1001u) == 0x3C01);
  // Subnormals are kept.
  CHECK(op2(Opcode::FAddH, 0x0001u, 0x0001u) == 0x0002);
  CHECK(op2(Opcode::FMulH, 0x0400u, 0x3800u) == 0x0200);
  CHECK(op2(Opcode::FMulH, 0x0001u, 0x3800u) == 0x0000); // tie to 0
  CHECK(op2(Opcode::FMulH, 0x0003u, 0x3800u) == 0x0002); // tie to 2
  // Overflow, division by zero, invalid operations.
  CHECK(op2(Opcode::FAddH, 0x7BFFu, 0x7BFFu) == 0x7C00);
  CHECK(op2(Opcode::FAddH, 0x7BFFu, 0x4B80u) == 0x7BFF); // + 15: below the tie
  CHECK(op2(Opcode::FAddH, 0x7BFFu, 0x4C00u) == 0x7C00); // + 16: tie, to even
  CHECK(op2(Opcode::FDivH, 0x3C00u, 0x0000u) == 0x7C00);
  CHECK(op2(Opcode::FDivH, 0x3C00u, 0x8000u) == 0xFC00);
  CHECK(op2(Opcode::FDivH, 0x0000u, 0x0000u) == NaN16);
  CHECK(op2(Opcode::FSubH, 0x7C00u, 0x7C00u) == NaN16);
  CHECK(op2(Opcode::FAddH, 0xFC01u, 0x3C00u) == NaN16);
  CHECK(op1(Opcode::FSqrtH, 0xBC00) == NaN16);
  CHECK(op1(Opcode::FSqrtH, 0x8000) == 0x8000);
  CHECK(op1(Opcode::FSqrtH, 0x4000) == 0x3DA8); // sqrt(2)
  // 1/3 rounds down, 2/3 up.
  CHECK(op2(Opcode::FDivH, 0x3C00u, 0x4200u) == 0x3555);
  CHECK(op2(Opcode::FDivH, 0x4000u, 0x4200u) == 0x3955);
}

TEST_CASE("f16 operands are the low half and results are zero-extended",
          "[float][f16]") {
  CHECK(op2(Opcode::FAddH, 0xABCD3C00u, 0xFFFF3C00u) == 0x4000);
  CHECK(op1(Opcode::FNegH, 0x12343C00) == 0xBC00);
  CHECK(op1(Opcode::FAbsH, 0xFFFFBC00) == 0x3C00);
  CHECK(op1(Opcode::FCvtSH, 0xFFFF3C00) == bitsOf(1.0f));
  CHECK(op1(Opcode::FCvtSBF, 0xFFFF3F80) == bitsOf(1.0f));
  CHECK(op2(Opcode::FMinH, 0x11113C00u, 0x22224000u) == 0x3C00);
  Single fcmp(Opcode::FCmpH, {R(2), R(0), R(1), Imm(1)}); // oeq
  CHECK(fcmp({0x00013C00, 0x00023C00}, 2) == 1);
}

TEST_CASE("f16 fmin, fmax, fneg and fabs", "[float][f16]") {
  CHECK(op2(Opcode::FMinH, 0x3C00u, 0x4000u) == 0x3C00);
  CHECK(op2(Opcode::FMaxH, 0x3C00u, 0x4000u) == 0x4000);
  CHECK(op2(Opcode::FMinH, 0x7E01u, 0xBC00u) == 0xBC00);
  CHECK(op2(Opcode::FMaxH, 0xBC00u, 0xFD00u) == 0xBC00);
  CHECK(op2(Opcode::FMinH, 0x7E01u, 0xFD00u) == NaN16);
  CHECK(op2(Opcode::FMaxH, 0x7C01u, 0x7C01u) == NaN16);
  CHECK(op2(Opcode::FMinH, 0x0000u, 0x8000u) == 0x8000);
  CHECK(op2(Opcode::FMinH, 0x8000u, 0x0000u) == 0x8000);
  CHECK(op2(Opcode::FMaxH, 0x0000u, 0x8000u) == 0x0000);
  CHECK(op2(Opcode::FMaxH, 0x8000u, 0x0000u) == 0x0000);
  CHECK(op2(Opcode::FMinH, 0x0001u, 0x8001u) == 0x8001);

  checkAllPairs(Opcode::FMinH, f16Operands(), [](uint32_t x, uint32_t y) {
    double a = half(x), b = half(y);
    if (std::isnan(a) && std::isnan(b))
      return uint32_t(NaN16);
    if (std::isnan(a))
      return y;
    if (std::isnan(b))
      return x;
    if (a == b)
      return (x & 0x8000) ? x : y;
    return a < b ? x : y;
  });

  CHECK(op1(Opcode::FNegH, 0x3C00) == 0xBC00);
  CHECK(op1(Opcode::FNegH, 0x7C01) == 0xFC01);
  CHECK(op1(Opcode::FNegH, 0x8000) == 0x0000);
  CHECK(op1(Opcode::FAbsH, 0xFE01) == 0x7E01);
  CHECK(op1(Opcode::FAbsH, 0x8001) == 0x0001);
}

TEST_CASE("fcmp.h: every predicate on ordered and unordered pairs",
          "[float][f16]") {
  checkPredicates(Opcode::FCmpH, {{0x3C00, 0x4000, Lt},
                                  {0x4000, 0x3C00, Gt},
                                  {0x3C00, 0x3C00, Eq},
                                  {0x8000, 0x0000, Eq},
                                  {0xFC00, 0x7C00, Lt},
                                  {0x0001, 0x8001, Gt},
                                  {0x7E00, 0x3C00, Uno},
                                  {0x3C00, 0xFC01, Uno},
                                  {0x7FFF, 0x7FFF, Uno}});
}

TEST_CASE("rounding a double to binary16 once", "[float][f16]") {
  using fp::roundToHalf;
  // Agrees with Float16.h wherever the value is a float.
  unsigned failures = 0;
  uint32_t firstBad = 0;
  for (uint64_t bits = 0; bits <= 0xFFFFFFFF; bits += 997) {
    float value = floatOf(static_cast<uint32_t>(bits));
    uint16_t want = std::isnan(value) ? NaN16 : floatToHalfBits(value);
    if (roundToHalf(value) != want && failures++ == 0)
      firstBad = static_cast<uint32_t>(bits);
  }
  INFO("first mismatch at float bits " << hex(firstBad));
  CHECK(failures == 0);

  // Just above a tie: rounding through binary32 would make it a tie and
  // round down; one rounding goes up.
  CHECK(roundToHalf(1.0 + 0x1p-11 + 0x1p-40) == 0x3C01);
  CHECK(roundToHalf(1.0 + 0x1p-11) == 0x3C00);
  CHECK(roundToHalf(1.0 + 0x1p-11 - 0x1p-40) == 0x3C00);
  CHECK(roundToHalf(0x1p-25) == 0x0000);
  CHECK(roundToHalf(0x1p-25 + 0x1p-60) == 0x0001);
  CHECK(roundToHalf(-0x1p-25 - 0x1p-60) == 0x8001);
  CHECK(roundToHalf(0x1.8p-24) == 0x0002);
  CHECK(roundToHalf(0x1p-26) == 0x0000);
  CHECK(roundToHalf(0x1.ffcp-15) == 0x0400); // subnormal rounds up to normal
  CHECK(roundToHalf(65519.99) == 0x7BFF);
  CHECK(roundToHalf(65520.0) == 0x7C00);
  CHECK(roundToHalf(-1e300) == 0xFC00);
  CHECK(roundToHalf(std::numeric_limits<double>::denorm_min()) == 0x0000);
  CHECK(roundToHalf(-0.0) == 0x8000);
  CHECK(roundToHalf(std::numeric_limits<double>::infinity()) == 0x7C00);
  CHECK(roundToHalf(-std::numeric_limits<double>::quiet_NaN()) == NaN16);
}

//===----------------------------------------------------------------------===//
// Conversions
//===----------------------------------------------------------------------===//

TEST_CASE("fcvt between float formats", "[float][fcvt]") {
  // f16 -> f32 is exact for every pattern; NaNs become canonical.
  checkAllValues(Opcode::FCvtSH, allHalves(), [](uint32_t x) {
    return canonical32(halfBitsToFloat(static_cast<uint16_t>(x)));
  });
  CHECK(op1(Opcode::FCvtSH, 0x0001) == 0x33800000);
  CHECK(op1(Opcode::FCvtSH, 0xFC00) == 0xFF800000);
  CHECK(op1(Opcode::FCvtSH, 0xFC01) == NaN32);

  CHECK(op1(Opcode::FCvtHS, bitsOf(1.0f)) == 0x3C00);
  CHECK(op1(Opcode::FCvtHS, bitsOf(1.0f + 0x1p-11f)) == 0x3C00);
  CHECK(op1(Opcode::FCvtHS, bitsOf(1.0f + 0x1p-10f + 0x1p-11f)) == 0x3C02);
  CHECK(op1(Opcode::FCvtHS, bitsOf(65520.0f)) == 0x7C00);
  CHECK(op1(Opcode::FCvtHS, bitsOf(-65504.0f)) == 0xFBFF);
  CHECK(op1(Opcode::FCvtHS, bitsOf(0x1p-25f)) == 0x0000);
  CHECK(op1(Opcode::FCvtHS, bitsOf(0x1.000002p-25f)) == 0x0001);
  CHECK(op1(Opcode::FCvtHS, 0x7F800001) == NaN16);
  CHECK(op1(Opcode::FCvtHS, 0xFFC00000) == NaN16);
  CHECK(op1(Opcode::FCvtHS, 0xFF800000) == 0xFC00);

  CHECK(op1(Opcode::FCvtSBF, 0x3F80) == 0x3F800000);
  CHECK(op1(Opcode::FCvtSBF, 0x8001) == 0x80010000);
  CHECK(op1(Opcode::FCvtSBF, 0x7F81) == NaN32);
  CHECK(op1(Opcode::FCvtBFS, 0x3F808000) == 0x3F80); // tie, even
  CHECK(op1(Opcode::FCvtBFS, 0x3F818000) == 0x3F82); // tie, even
  CHECK(op1(Opcode::FCvtBFS, 0x3F808001) == 0x3F81);
  CHECK(op1(Opcode::FCvtBFS, 0x7F7FFFFF) == 0x7F80); // rounds to infinity
  CHECK(op1(Opcode::FCvtBFS, 0x7F800001) == 0x7FC0);
  CHECK(op1(Opcode::FCvtBFS, 0xFFC12345) == 0x7FC0);
  CHECK(op1(Opcode::FCvtBFS, 0x00010000) == 0x0001); // subnormal kept
}

TEST_CASE("fcvt from integers rounds to nearest even", "[float][fcvt]") {
  CHECK(op1(Opcode::FCvtSW, 16777217) == bitsOf(16777216.0f));
  CHECK(op1(Opcode::FCvtSW, 16777219) == bitsOf(16777220.0f));
  CHECK(op1(Opcode::FCvtSW, 0x80000000) == bitsOf(-2147483648.0f));
  CHECK(op1(Opcode::FCvtSW, 0x7FFFFFFF) == bitsOf(2147483648.0f));
  CHECK(op1(Opcode::FCvtSW, static_cast<uint32_t>(-3)) == bitsOf(-3.0f));
  CHECK(op1(Opcode::FCvtSW, 0) == 0x00000000);
  CHECK(op1(Opcode::FCvtSWU, 0xFFFFFFFF) == bitsOf(4294967296.0f));
  CHECK(op1(Opcode::FCvtSWU, 0x80000001) == bitsOf(2147483648.0f));
  CHECK(op1(Opcode::FCvtSWU, 0xFFFFFF7F) == bitsOf(4294967040.0f));
  CHECK(op1(Opcode::FCvtSWU, 0xFFFFFF80) == bitsOf(4294967296.0f)); // tie

  CHECK(op1(Opcode::FCvtHW, 2049) == 0x6800);  // tie: 2048
  CHECK(op1(Opcode::FCvtHW, 2051) == 0x6802);  // tie: 2052
  CHECK(op1(Opcode::FCvtHW, 65519) == 0x7BFF); // below the halfway point
  CHECK(op1(Opcode::FCvtHW, 65520) == 0x7C00); // overflows to infinity
  CHECK(op1(Opcode::FCvtHW, static_cast<uint32_t>(-65520)) == 0xFC00);
  CHECK(op1(Opcode::FCvtHW, 0x80000000) == 0xFC00);
  CHECK(op1(Opcode::FCvtHW, static_cast<uint32_t>(-1)) == 0xBC00);
  CHECK(op1(Opcode::FCvtHWU, 0xFFFFFFFF) == 0x7C00);
  CHECK(op1(Opcode::FCvtHWU, 65504) == 0x7BFF);

  std::vector<uint32_t> ints;
  for (int32_t i = -70000; i <= 70000; ++i)
    ints.push_back(static_cast<uint32_t>(i));
  checkAllValues(Opcode::FCvtHW, ints, [](uint32_t x) {
    return uint32_t(
        floatToHalfBits(static_cast<float>(static_cast<int32_t>(x))));
  });
  std::vector<uint32_t> unsignedInts;
  for (uint32_t i = 0; i <= 70000; ++i)
    unsignedInts.push_back(i);
  checkAllValues(Opcode::FCvtHWU, unsignedInts, [](uint32_t x) {
    return uint32_t(floatToHalfBits(static_cast<float>(x)));
  });
}

TEST_CASE("fcvt to integers truncates, saturates, and maps NaN to 0",
          "[float][fcvt]") {
  auto w = [](float value) { return op1(Opcode::FCvtWS, bitsOf(value)); };
  auto wu = [](float value) { return op1(Opcode::FCvtWUS, bitsOf(value)); };
  CHECK(w(1.9f) == 1);
  CHECK(w(-1.9f) == static_cast<uint32_t>(-1));
  CHECK(w(-0.5f) == 0);
  CHECK(w(2147483520.0f) == 2147483520);
  CHECK(w(2147483648.0f) == 0x7FFFFFFF);
  CHECK(w(3e9f) == 0x7FFFFFFF);
  CHECK(w(-2147483648.0f) == 0x80000000);
  CHECK(w(-3e9f) == 0x80000000);
  CHECK(w(std::numeric_limits<float>::infinity()) == 0x7FFFFFFF);
  CHECK(w(-std::numeric_limits<float>::infinity()) == 0x80000000);
  CHECK(op1(Opcode::FCvtWS, NaN32) == 0);
  CHECK(op1(Opcode::FCvtWS, 0xFF800001) == 0);
  CHECK(op1(Opcode::FCvtWS, 0x00000001) == 0);

  CHECK(wu(3.7f) == 3);
  CHECK(wu(0.99f) == 0);
  CHECK(wu(-0.9f) == 0);
  CHECK(wu(-1.0f) == 0);
  CHECK(wu(-3e9f) == 0);
  CHECK(wu(4294967040.0f) == 4294967040u);
  CHECK(wu(4294967296.0f) == 0xFFFFFFFF);
  CHECK(wu(2147483648.0f) == 0x80000000);
  CHECK(wu(std::numeric_limits<float>::infinity()) == 0xFFFFFFFF);
  CHECK(wu(-std::numeric_limits<float>::infinity()) == 0);
  CHECK(op1(Opcode::FCvtWUS, 0x7FC00001) == 0);

  CHECK(op1(Opcode::FCvtWH, 0x7BFF) == 65504);
  CHECK(op1(Opcode::FCvtWH, 0xC100) == static_cast<uint32_t>(-2)); // -2.5
  CHECK(op1(Opcode::FCvtWH, 0x7C00) == 0x7FFFFFFF);
  CHECK(op1(Opcode::FCvtWH, 0xFC00) == 0x80000000);
  CHECK(op1(Opcode::FCvtWH, 0x7E00) == 0);
  CHECK(op1(Opcode::FCvtWUH, 0xFBFF) == 0);
  CHECK(op1(Opcode::FCvtWUH, 0x7BFF) == 65504);
  CHECK(op1(Opcode::FCvtWUH, 0x3BFF) == 0);
  CHECK(op1(Opcode::FCvtWUH, 0x7C00) == 0xFFFFFFFF);
  CHECK(op1(Opcode::FCvtWUH, 0xFC00) == 0);
  CHECK(op1(Opcode::FCvtWUH, 0xFE00) == 0);

  // Every f16 pattern against a plain reference.
  checkAllValues(Opcode::FCvtWH, allHalves(), [](uint32_t x) -> uint32_t {
    double v = half(x);
    if (std::isnan(v))
      return 0;
    if (std::isinf(v))
      return v > 0 ? 0x7FFFFFFF : 0x80000000;
    return static_cast<uint32_t>(static_cast<int32_t>(std::trunc(v)));
  });
  checkAllValues(Opcode::FCvtWUH, allHalves(), [](uint32_t x) -> uint32_t {
    double v = half(x);
    if (std::isnan(v) || v < 0)
      return 0;
    if (std::isinf(v))
      return 0xFFFFFFFF;
    return static_cast<uint32_t>(std::trunc(v));
  });
}
