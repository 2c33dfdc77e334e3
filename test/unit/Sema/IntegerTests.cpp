//===- IntegerTests.cpp - Integer and float semantics at comptime ---------===//

#include "SemaHelpers.h"

#include <catch2/catch.hpp>

using namespace tessera::frontend::test;

TEST_CASE("comptime_int grows without bound", "[sema][int]") {
  auto s = load("const a = 1 << 100;\n"
                "const b = a * a - 1;\n"
                "const c = 0xFFFF_FFFF_FFFF_FFFF_FFFF + 1;\n"
                "const d = -(1 << 70) / 3;\n"
                "const e = @type_of(b);\n");
  CHECK(s->str("a") == "1267650600228229401496703205376");
  CHECK(s->str("b") ==
        "1606938044258990275541962092341162602522202993782792835301375");
  CHECK(s->str("c") == "1208925819614629174706176");
  CHECK(s->str("d") == "-393530540239137101141");
  CHECK(s->str("e") == "comptime_int");
  CHECK(s->diagText.empty());
}

TEST_CASE("integer operators follow C-like truncation", "[sema][int]") {
  auto s =
      load("const q = -7 / 2;\nconst r = -7 % 2;\nconst x = 0b1100 ^ 0b1010;\n"
           "const y = ~@as(u16, 0);\nconst z = ~5;\nconst sh = -16 >> 2;\n"
           "const cmp = (3 < 4) and !(4 <= 3) and 5 == 5 and 5 != 6;\n"
           "const m = 0x8b009249 & 0xFFFF | (5 << 22);\n");
  CHECK(s->str("q") == "-3");
  CHECK(s->str("r") == "-1");
  CHECK(s->str("x") == "6");
  CHECK(s->str("y") == "65535");
  CHECK(s->str("z") == "-6");
  CHECK(s->str("sh") == "-4");
  CHECK(s->str("cmp") == "true");
  CHECK(s->str("m") == "21008969"); // & and | share a level
}

TEST_CASE("sized arithmetic keeps the type and checks the range",
          "[sema][int]") {
  auto s =
      load("const a: u16 = 65535;\nconst b = a - 1;\nconst t = @type_of(b);\n"
           "const c: i16 = -32768;\nconst d = c + 100;\n");
  CHECK(s->str("b") == "65534");
  CHECK(s->str("t") == "u16");
  CHECK(s->str("d") == "-32668");
  CHECK(s->diagText.empty());
}

TEST_CASE("sized overflow at comptime is an error", "[sema][int]") {
  auto s = load("const a: u16 = 65535;\nconst b = a + 1;\n");
  CHECK(s->str("b") == "<error>");
  CHECK(s->firstError() == "test.csl:2:11: error: overflow: 65535 + 1 = 65536 "
                           "does not fit in 'u16'");
  auto m = load("const a: i8 = -128;\nconst b = -a;\nconst c = a * 2;\n"
                "const u: u8 = 0;\nconst d = u - 1;\n");
  CHECK(m->str("b") == "<error>");
  CHECK(m->str("c") == "<error>");
  CHECK(m->str("d") == "<error>");
  CHECK(
      m->messages() ==
      std::vector<std::string>{
          "test.csl:2:11: error: overflow: -(-128) = 128 does not fit in 'i8'",
          "test.csl:3:11: error: overflow: -128 * 2 = -256 does not fit in "
          "'i8'",
          "test.csl:5:11: error: overflow: 0 - 1 = -1 does not fit in 'u8'"});
}

TEST_CASE("comptime_int coerces to a sized type with a range check",
          "[sema][int]") {
  auto s = load("const ok: u16 = 65535;\nconst bad: u16 = 70000;\n"
                "const neg: u32 = -1;\nconst mixed = ok + 70000;\n");
  CHECK(s->str("ok") == "65535");
  CHECK(s->str("bad") == "<error>");
  CHECK(s->str("neg") == "<error>");
  CHECK(s->str("mixed") == "<error>");
  CHECK(s->messages() ==
        std::vector<std::string>{
            "test.csl:2:18: error: value 70000 does not fit in 'u16'",
            "test.csl:3:18: error: value -1 does not fit in 'u32'",
            "test.csl:4:15: error: value 70000 does not fit in 'u16'"});
}

TEST_CASE("division by zero is an error", "[sema][int]") {
  auto s = load("const a = 1 / 0;\nconst b: u16 = 5;\nconst c = b % 0;\n"
                "const d = 1.0 / 0.0;\n");
  CHECK(s->str("a") == "<error>");
  CHECK(s->str("c") == "<error>");
  CHECK(s->str("d") == "<error>");
  CHECK(s->messages() ==
        std::vector<std::string>{"test.csl:1:11: error: division by zero",
                                 "test.csl:3:11: error: division by zero",
                                 "test.csl:4:11: error: division by zero"});
}

TEST_CASE("shifts check their amount", "[sema][int]") {
  auto s = load("const a: u16 = 1;\nconst b = a << 15;\nconst c = a << 16;\n"
                "const d = a << -1;\nconst e: u16 = 3;\nconst f = e << 15;\n"
                "const g: i16 = -8;\nconst h = g >> 1;\n");
  CHECK(s->str("b") == "32768");
  CHECK(s->str("c") == "<error>");
  CHECK(s->str("d") == "<error>");
  CHECK(s->str("f") == "<error>");
  CHECK(s->str("h") == "-4");
  CHECK(s->messages() ==
        std::vector<std::string>{
            "test.csl:3:11: error: shift amount 16 is too large for 'u16'",
            "test.csl:4:11: error: shift amount -1 is negative",
            "test.csl:6:11: error: overflow: 3 << 15 = 98304 does not fit in "
            "'u16'"});
}

TEST_CASE("mixed sized types must widen", "[sema][int]") {
  auto s = load("const a: u16 = 1;\nconst b: i32 = 2;\nconst c = a + b;\n"
                "const t = @type_of(c);\nconst d: i16 = 3;\nconst e = a + d;\n"
                "const f: f32 = 1.5;\nconst g = f + d;\nconst h: u32 = 7;\n"
                "const k = f + h;\n");
  CHECK(s->str("t") == "i32");
  CHECK(s->str("c") == "3");
  CHECK(s->str("e") == "<error>");
  CHECK(s->str("g") == "4.5");
  CHECK(s->str("k") == "<error>");
  CHECK(s->messages() ==
        std::vector<std::string>{
            "test.csl:6:11: error: mismatched types 'u16' and 'i16' in '+'",
            "test.csl:10:11: error: mismatched types 'f32' and 'u32' in '+'"});
}

TEST_CASE("comptime-known sized integers coerce when the value fits",
          "[sema][int]") {
  auto s = load("const p: u16 = 5;\nconst z: i16 = p - 1;\n"
                "const big: u16 = 40000;\nconst w: i16 = big;\n"
                "var rt: u16 = 0;\nconst r: i16 = rt;\nconst r32: i32 = rt;\n");
  CHECK(s->str("z") == "4");
  CHECK(s->str("w") == "<error>");
  CHECK(s->str("r") == "<error>");
  CHECK(s->str("r32") == "run-time value of type 'i32'");
  CHECK(s->messages() ==
        std::vector<std::string>{
            "test.csl:4:16: error: value 40000 does not fit in 'i16'",
            "test.csl:6:16: error: expected 'i16', found 'u16'"});
}

TEST_CASE("@as converts numbers", "[sema][int]") {
  auto s =
      load("const big: u32 = 70000;\nconst a = @as(u16, big);\n"
           "const b = @as(i16, @as(u16, 65535));\nconst c = @as(i16, -3.9);\n"
           "const d = @as(f32, 3);\nconst e = @as(u16, true);\n"
           "const f = @as(bool, 0.0);\nconst g = @as(bool, 2);\n"
           "const h = @as(u8, 300);\nconst k = @as(i16, 1e10);\n"
           "const l = @as(f16, 0.1);\n");
  CHECK(s->str("a") == "4464");
  CHECK(s->str("b") == "-1");
  CHECK(s->str("c") == "-3");
  CHECK(s->str("d") == "3.0");
  CHECK(s->str("e") == "1");
  CHECK(s->str("f") == "false");
  CHECK(s->str("g") == "true");
  CHECK(s->str("h") == "<error>");
  CHECK(s->str("k") == "<error>");
  CHECK(s->str("l") == "0.099975586");
  CHECK(s->messages() ==
        std::vector<std::string>{
            "test.csl:9:19: error: value 300 does not fit in 'u8'",
            "test.csl:10:20: error: value 1e+10 does not fit in 'i16'"});
}

TEST_CASE("floats: comptime_float folding and f32 rounding", "[sema][float]") {
  auto s = load("const dx2 = 0.5;\nconst c = -205.0 / 72.0 / dx2;\n"
                "const x: f32 = 0.1;\nconst y = x * 3;\nconst z = 1 + 0.5;\n"
                "const w: i16 = 1.0;\nconst v: i16 = 1.5;\n"
                "const lt = 0.1 < 0.2;\n");
  CHECK(s->str("c") == "-5.694444444444445");
  CHECK(s->str("y") == "0.3");
  CHECK(s->str("z") == "1.5");
  CHECK(s->str("w") == "1");
  CHECK(s->str("v") == "<error>");
  CHECK(s->str("lt") == "true");
  CHECK(
      s->messages() ==
      std::vector<std::string>{
          "test.csl:7:16: error: fractional value 1.5 cannot coerce to 'i16'"});
}

TEST_CASE("type mismatches name both types", "[sema][int]") {
  auto s = load("const a: i16 = @as(f32, 1.0);\nconst b: bool = 1;\n"
                "const c = true + 1;\nconst d = !5;\nconst e = 1 and true;\n");
  CHECK(s->str("a") == "<error>");
  CHECK(s->str("b") == "<error>");
  CHECK(s->str("c") == "<error>");
  CHECK(s->str("d") == "<error>");
  CHECK(s->str("e") == "<error>");
  CHECK(s->messages() ==
        std::vector<std::string>{
            "test.csl:1:16: error: expected 'i16', found 'f32'",
            "test.csl:2:17: error: expected 'bool', found 'comptime_int'",
            "test.csl:3:11: error: invalid operands to '+': 'bool' and "
            "'comptime_int'",
            "test.csl:4:11: error: expected 'bool', found 'comptime_int'",
            "test.csl:5:11: error: expected 'bool', found 'comptime_int'"});
}

TEST_CASE("run-time values propagate types, not values", "[sema][int]") {
  auto s =
      load("var x: u16 = 3;\nconst y = x + 1;\nconst p = &x;\n"
           "const q: [*]f32 = &arr;\nvar arr: [4]f32;\nconst r = arr[2];\n");
  CHECK(s->str("y") == "run-time value of type 'u16'");
  CHECK(s->str("p") == "run-time value of type '*u16'");
  CHECK(s->str("q") == "run-time value of type '[*]f32'");
  CHECK(s->str("r") == "run-time value of type 'f32'");
  CHECK(s->diagText.empty());
}
