//===- SymbolTextTest.cpp - how --dump and tessera-core print data --------===//
//
// docs/tessera-run.md promises printf's "%.9g" for f32, "%.5g" for f16 and
// "%.4g" for bf16; the formatter uses to_chars, so every float case is
// also checked against snprintf over many bit patterns.
//
//===----------------------------------------------------------------------===//

#include "SymbolText.h"

#include "tessera/Support/Float16.h"

#include <catch2/catch.hpp>

#include <bit>
#include <cstdio>
#include <cstring>
#include <random>

using namespace tessera;

namespace {

pe::Symbol symbolOf(pe::ElemType type, uint32_t count) {
  pe::Symbol symbol;
  symbol.name = "x";
  symbol.elemType = type;
  symbol.count = count;
  return symbol;
}

template <typename T> std::vector<uint8_t> bytesOf(std::vector<T> values) {
  std::vector<uint8_t> bytes(values.size() * sizeof(T));
  std::memcpy(bytes.data(), values.data(), bytes.size());
  return bytes;
}

std::string printfText(const char *format, double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof buffer, format, value);
  return buffer;
}

} // namespace

TEST_CASE("scalars print with a leading space", "[symboltext]") {
  CHECK(formatSymbolValue(symbolOf(pe::ElemType::I32, 1),
                          bytesOf<int32_t>({-42})) == " -42");
  CHECK(formatSymbolValue(symbolOf(pe::ElemType::U32, 1),
                          bytesOf<uint32_t>({4000000000u})) == " 4000000000");
  CHECK(formatSymbolValue(symbolOf(pe::ElemType::Bool, 1),
                          bytesOf<uint8_t>({1})) == " true");
  CHECK(formatSymbolValue(symbolOf(pe::ElemType::F32, 1),
                          bytesOf<float>({0.1f})) == " 0.100000001");
}

TEST_CASE("arrays print in brackets, comma separated", "[symboltext]") {
  CHECK(formatSymbolValue(symbolOf(pe::ElemType::I8, 4),
                          bytesOf<int8_t>({-128, 127, 0, -1})) ==
        " [-128, 127, 0, -1]");
  CHECK(formatSymbolValue(symbolOf(pe::ElemType::U8, 2),
                          bytesOf<uint8_t>({255, 7})) == " [255, 7]");
  CHECK(formatSymbolValue(symbolOf(pe::ElemType::I16, 2),
                          bytesOf<int16_t>({-32768, 12})) == " [-32768, 12]");
  CHECK(formatSymbolValue(symbolOf(pe::ElemType::I64, 2),
                          bytesOf<int64_t>({INT64_MIN, 5})) ==
        " [-9223372036854775808, 5]");
  CHECK(formatSymbolValue(symbolOf(pe::ElemType::U64, 2),
                          bytesOf<uint64_t>({UINT64_MAX, 0})) ==
        " [18446744073709551615, 0]");
  CHECK(formatSymbolValue(symbolOf(pe::ElemType::Bool, 2),
                          bytesOf<uint8_t>({0, 1})) == " [false, true]");
  CHECK(formatSymbolValue(
            symbolOf(pe::ElemType::F32, 5),
            bytesOf<float>({1.5f, -0.0f, 1e30f, std::bit_cast<float>(1u),
                            std::bit_cast<float>(0x7f800000u)})) ==
        " [1.5, -0, 1.00000002e+30, 1.40129846e-45, inf]");
  CHECK(formatSymbolValue(symbolOf(pe::ElemType::F32, 0), {}) == " []");
}

TEST_CASE("half floats print with 5 and 4 digits", "[symboltext]") {
  CHECK(formatSymbolValue(symbolOf(pe::ElemType::F16, 3),
                          bytesOf<uint16_t>({0x3555, 0xfc00, 0x0001})) ==
        " [0.33325, -inf, 5.9605e-08]");
  CHECK(formatSymbolValue(symbolOf(pe::ElemType::BF16, 2),
                          bytesOf<uint16_t>({0x3eab, 0x7fc0})) ==
        " [0.334, nan]");
}

TEST_CASE("floats print as printf's %g does", "[symboltext]") {
  std::mt19937 random(11);
  for (int i = 0; i < 20000; ++i) {
    uint32_t bits = random();
    float value = std::bit_cast<float>(bits);
    INFO("bits " << bits);
    CHECK(formatSymbolValue(symbolOf(pe::ElemType::F32, 1),
                            bytesOf<uint32_t>({bits})) ==
          " " + printfText("%.9g", double(value)));
    uint16_t half = uint16_t(bits);
    CHECK(formatSymbolValue(symbolOf(pe::ElemType::F16, 1),
                            bytesOf<uint16_t>({half})) ==
          " " + printfText("%.5g", double(halfBitsToFloat(half))));
    CHECK(formatSymbolValue(symbolOf(pe::ElemType::BF16, 1),
                            bytesOf<uint16_t>({half})) ==
          " " + printfText("%.4g", double(bfloat16BitsToFloat(half))));
  }
}
