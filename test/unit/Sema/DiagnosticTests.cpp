//===- DiagnosticTests.cpp - Diagnostic format ----------------------------===//

#include "SemaHelpers.h"

#include <catch2/catch.hpp>

using namespace tessera::frontend::sema;
using namespace tessera::frontend::test;

TEST_CASE("diagnostics print the source line, caret and notes",
          "[sema][diag]") {
  auto s = load("const a = 1;\nconst a = 2;\nconst x: u16 = 70000;\n");
  CHECK(s->str("x") == "<error>");
  CHECK(s->diagText ==
        "test.csl:2:7: error: redefinition of 'a'\n"
        "const a = 2;\n"
        "      ^\n"
        "test.csl:1:7: note: 'a' first defined here\n"
        "const a = 1;\n"
        "      ^\n"
        "test.csl:3:16: error: value 70000 does not fit in 'u16'\n"
        "const x: u16 = 70000;\n"
        "               ^\n");
  CHECK(s->diags->getNumErrors() == 2);
}

TEST_CASE("misc declaration and expression errors", "[sema][diag]") {
  auto s = load("const a = nope;\nconst b: (5) = 1;\nconst c;\n"
                "var d = 1;\nvar e;\nconst f = |i|{4} -> A[i];\n"
                "const g = [_]u8;\nconst h = ?u8;\nconst k = 3.*;\n"
                "const l = (1).x;\nconst m = i16.x;\nconst n = 4[0];\n"
                "const o = union { a: u8 };\nconst layout_twice = 1;\n"
                "layout {}\nlayout {}\n");
  for (const char *name :
       {"a", "b", "c", "d", "e", "f", "g", "h", "k", "l", "m", "n", "o"})
    CHECK(s->str(name) == "<error>");
  CHECK(
      s->messages() ==
      std::vector<std::string>{
          "test.csl:16:1: error: more than one layout block",
          "test.csl:15:1: note: first layout block is here",
          "test.csl:1:11: error: use of undeclared identifier 'nope'",
          "test.csl:2:10: error: expected 'type', found 'comptime_int'",
          "test.csl:3:7: error: const 'c' needs an initializer",
          "test.csl:4:5: error: global var 'd' cannot have comptime-only type "
          "'comptime_int'",
          "test.csl:5:5: error: var 'e' needs a type or an initializer",
          "test.csl:6:11: error: a tensor access is only allowed as a DSD's "
          "'.tensor_access'",
          "test.csl:7:12: error: array length '_' is only allowed in an array "
          "literal",
          "test.csl:8:11: error: optional types are not supported",
          "test.csl:9:11: error: expected a pointer, found 'comptime_int'",
          "test.csl:10:15: error: no field named 'x' in 'comptime_int'",
          "test.csl:11:15: error: type 'i16' has no member named 'x'",
          "test.csl:12:11: error: cannot index a value of type 'comptime_int'",
          "test.csl:13:11: error: union types are not supported yet"});
}

TEST_CASE("conditions must be comptime-known bools", "[sema][diag]") {
  auto s = load("var rt: bool = true;\nconst a = if (rt) 1 else 2;\n"
                "const b = if (1) 1 else 2;\nconst c = comptime rt;\n");
  CHECK(s->str("a") == "<error>");
  CHECK(s->str("b") == "<error>");
  CHECK(s->str("c") == "<error>");
  CHECK(s->messages() ==
        std::vector<std::string>{
            "test.csl:2:15: error: condition is not comptime-known",
            "test.csl:3:15: error: expected 'bool', found 'comptime_int'",
            "test.csl:4:20: error: expression is not comptime-known"});
}

TEST_CASE("statement and call diagnostics", "[sema][diag]") {
  auto s = load(
      "fn a() void { param p: u16; }\n"                              // 1
      "fn b() void { 1 = 2; }\n"                                     // 2
      "fn c() void { for (5) |x| {} }\n"                             // 3
      "fn d() void { var arr = [2]u8{ 1, 2 }; for (arr) |*x| {} }\n" // 4
      "fn e(comptime n: u16) u16 { return n; }\nvar rt: u16 = 1;\n"  // 5-6
      "const re = e(rt);\n"                                          // 7
      "extern fn ext() void;\nconst rx = ext();\n"                   // 8-9
      "fn g() void { var p = &rt; p[0] = 1; }\n"                     // 10
      "const ra = a();\nconst rb = b();\nconst rc = c();\nconst rd = d();\n"
      "const rg = g();\n");
  for (const char *n : {"ra", "rb", "rc", "rd", "re", "rx", "rg"})
    CHECK(s->str(n) == "<error>");
  CHECK(
      s->messages() ==
      std::vector<std::string>{
          "test.csl:1:15: error: param declarations are only allowed at the "
          "top "
          "level of a file",
          "test.csl:2:15: error: cannot assign to this expression at comptime",
          "test.csl:3:20: error: cannot iterate over a value of type "
          "'comptime_int'",
          "test.csl:4:51: error: pointer captures are not supported at "
          "comptime",
          "test.csl:7:12: error: argument for comptime parameter 'n' is not "
          "comptime-known",
          "test.csl:9:12: error: cannot call extern fn 'ext' at comptime",
          "test.csl:10:28: error: cannot assign to an element of '*u16' at "
          "comptime"});
}

TEST_CASE("type construction diagnostics", "[sema][diag]") {
  auto s = load(
      "const S = struct { a: u8, a: u16 };\n"
      "const E = enum(u8) { x, x };\nconst F = enum(f32) { x };\n"
      "const G = enum(u8) { x = 255, y };\n"
      "const A = [-1]u8;\nconst B = [1.5]u8;\nconst C = @zeros([2]color);\n");
  for (const char *n : {"S", "E", "F", "G", "A", "B", "C"})
    CHECK(s->str(n) == "<error>");
  CHECK(s->messages() ==
        std::vector<std::string>{
            "test.csl:1:27: error: duplicate field 'a' in struct",
            "test.csl:2:25: error: duplicate enum member 'x'",
            "test.csl:3:16: error: enum tag type must be an integer type, "
            "found 'f32'",
            "test.csl:4:31: error: value 256 of enum member 'y' does not fit "
            "in 'u8'",
            "test.csl:5:12: error: array length -1 is out of range",
            "test.csl:6:12: error: expected an integer array length, found "
            "'comptime_float'",
            "test.csl:7:18: error: type 'color' has no zero value"});
}

TEST_CASE("operator and builtin diagnostics", "[sema][diag]") {
  auto s =
      load("const t = .{ 1, 2 };\nconst a = t[2];\nvar rt: u16 = 0;\n"
           "const b = t[rt];\nconst c = @as(u16, \"x\");\n"
           "const d = @bitcast(u16, true);\nconst e = 1 << rt;\n"
           "const f = 1e308 * 10.0 - 1e308 * 10.0;\nconst g = ~@as(f32, 1.0);\n"
           "const P = struct { x: u8 };\nconst p: P = .{ .x = 1 };\n"
           "const h = @concat_structs(p, .{});\nconst k = @get_int(5);\n"
           "const l = @range(comptime_int, 3);\n"
           "const m = blk: { for (@range(u64, 0xFFFFFFFFFFFFFFFF)) |i| {} "
           "break :blk 0; };\n");
  for (const char *n : {"a", "b", "c", "d", "e", "f", "g", "h", "k", "l", "m"})
    CHECK(s->str(n) == "<error>");
  CHECK(s->messages() ==
        std::vector<std::string>{
            "test.csl:2:13: error: index 2 is out of bounds for a tuple of 2 "
            "elements",
            "test.csl:4:11: error: a tuple needs one comptime-known index",
            "test.csl:5:20: error: cannot convert 'comptime_string' to 'u16' "
            "with @as",
            "test.csl:6:11: error: cannot @bitcast 'bool' to 'u16'",
            "test.csl:7:11: error: shifting a 'comptime_int' by a run-time "
            "amount",
            "test.csl:8:11: error: comptime_float operation '-' produced nan",
            "test.csl:9:11: error: invalid operand to '~': 'f32'",
            "test.csl:12:11: error: '@concat_structs' needs anonymous structs, "
            "found "
            "'P'",
            "test.csl:13:20: error: expected a color, queue or task ID, found "
            "'comptime_int'",
            "test.csl:14:11: error: '@range' outside a for loop needs a sized "
            "integer type, found 'comptime_int'",
            "test.csl:15:23: error: '@range' has too many elements"});
}

TEST_CASE("remaining argument diagnostics", "[sema][diag]") {
  auto s = load("const a: direction = .UP;\nconst b = @strcat();\n"
                "const c = @get_color(true);\nvar rt: u16 = 0;\n"
                "const d = switch (rt) { else => 1 };\n"
                "const e = [2]u8{ 1, 2 }[1.5];\nconst f = @strlen(\"x\") + "
                "@get_color(rt);\n"
                "const g: direction = .NORTH;\n");
  for (const char *n : {"a", "b", "c", "d", "e", "f"})
    CHECK(s->str(n) == "<error>");
  CHECK(s->str("g") == "NORTH");
  CHECK(s->messages() ==
        std::vector<std::string>{
            "test.csl:1:22: error: '.UP' is not a direction; expected one of "
            "NORTH, "
            "SOUTH, EAST, WEST, RAMP",
            "test.csl:2:11: error: '@strcat' expects at least 1 argument, "
            "found 0",
            "test.csl:3:22: error: expected an integer, found 'bool'",
            "test.csl:5:19: error: switch subject is not comptime-known",
            "test.csl:6:25: error: expected an integer index, found "
            "'comptime_float'",
            "test.csl:7:37: error: argument of '@get_color' is not "
            "comptime-known"});
}
