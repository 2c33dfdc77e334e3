//===- StructTests.cpp - Struct, tuple, array and enum values -------------===//

#include "SemaHelpers.h"

#include <catch2/catch.hpp>

using namespace tessera::frontend::sema;
using namespace tessera::frontend::test;

TEST_CASE("anonymous structs, tuples and field access", "[sema][struct]") {
  auto s =
      load("const cfg = .{ .routes = .{ .rx = .{ WEST }, .tx = .{ RAMP } }, "
           ".n = 4 };\n"
           "const n = cfg.n + 1;\nconst rx = cfg.routes.rx;\n"
           "const ids = .{ 8, 9 };\nconst second = ids[1];\n"
           "const t = @type_of(cfg);\nconst empty = .{};\n");
  CHECK(s->str("cfg") ==
        ".{ .routes = .{ .rx = .{ WEST }, .tx = .{ RAMP } }, .n = 4 }");
  CHECK(s->str("n") == "5");
  CHECK(s->str("rx") == ".{ WEST }");
  CHECK(s->str("second") == "9");
  CHECK(s->str("t") == "comptime_struct");
  CHECK(s->str("empty") == ".{}");
  CHECK(s->diagText.empty());
}

TEST_CASE("@concat_structs merges and rejects overlap", "[sema][struct]") {
  auto s =
      load("const a = .{ .x = 1 };\nconst b = .{ .y = 2 };\n"
           "const c = @concat_structs(a, @concat_structs(b, .{ .z = 3 }));\n"
           "const t = @concat_structs(.{ 1 }, .{ 2, 3 });\n"
           "const e = @concat_structs(.{}, a);\n"
           "const dup = @concat_structs(a, .{ .x = 5 });\n"
           "const mix = @concat_structs(a, .{ 5 });\n"
           "const bad = @concat_structs(a, 5);\n");
  CHECK(s->str("c") == ".{ .x = 1, .y = 2, .z = 3 }");
  CHECK(s->str("t") == ".{ 1, 2, 3 }");
  CHECK(s->str("e") == ".{ .x = 1 }");
  CHECK(s->str("dup") == "<error>");
  CHECK(s->str("mix") == "<error>");
  CHECK(s->str("bad") == "<error>");
  CHECK(s->messages() ==
        std::vector<std::string>{
            "test.csl:6:13: error: '@concat_structs' found field 'x' in both "
            "structs",
            "test.csl:7:13: error: '@concat_structs' cannot mix a struct with "
            "named "
            "fields and a tuple",
            "test.csl:8:32: error: expected a struct, found 'comptime_int'"});
}

TEST_CASE("@has_field and @field", "[sema][struct]") {
  auto s = load("const p = .{ .color = 3, .name = \"x\" };\n"
                "const h1 = @has_field(p, \"color\");\n"
                "const h2 = @has_field(p, \"other\");\n"
                "const f = @field(p, \"name\");\n"
                "const g = @field(p, \"nope\");\n"
                "const k = p.nope;\n"
                "const d = .{ .a = 1, .a = 2 };\n");
  CHECK(s->str("h1") == "true");
  CHECK(s->str("h2") == "false");
  CHECK(s->str("f") == "x");
  CHECK(s->str("g") == "<error>");
  CHECK(s->str("k") == "<error>");
  CHECK(s->str("d") == "<error>");
  CHECK(s->messages() ==
        std::vector<std::string>{
            "test.csl:5:21: error: no field named 'nope' in 'comptime_struct'",
            "test.csl:6:13: error: no field named 'nope' in 'comptime_struct'",
            "test.csl:7:23: error: duplicate field 'a' in struct literal",
            "test.csl:7:15: note: first given here"});
}

TEST_CASE("arrays: literals, @zeros, @constants, indexing", "[sema][array]") {
  auto s = load("const a = [3]i16{ 1, -2, 3 };\nconst b = a[1];\n"
                "const z = @zeros([2, 3]f32);\nconst z12 = z[1, 2];\n"
                "const c = @constants([4]u16, 7);\n"
                "const inferred = [_]u8{ 1, 2 };\n"
                "const oob = a[3];\nconst short = [3]i16{ 1, 2 };\n"
                "const wide = [2]u8{ 1, 256 };\nconst dims = z[1];\n");
  CHECK(s->str("a") == "[3]i16{ 1, -2, 3 }");
  CHECK(s->str("b") == "-2");
  CHECK(s->str("z12") == "0.0");
  CHECK(s->str("c") == "[4]u16{ 7, 7, 7, 7 }");
  CHECK(s->str("inferred") == "[2]u8{ 1, 2 }");
  CHECK(s->str("oob") == "<error>");
  CHECK(s->str("short") == "<error>");
  CHECK(s->str("wide") == "<error>");
  CHECK(s->str("dims") == "<error>");
  CHECK(s->messages() ==
        std::vector<std::string>{
            "test.csl:7:15: error: index 3 is out of bounds for '[3]i16'",
            "test.csl:8:15: error: expected 3 elements for '[3]i16', found 2",
            "test.csl:9:24: error: value 256 does not fit in 'u8'",
            "test.csl:10:14: error: expected 2 indices for '[2, 3]f32', found "
            "1"});
}

TEST_CASE("comptime arrays are mutable in comptime code", "[sema][array]") {
  auto s = load("fn cmds(pattern: u16) [8]u16 {\n"
                "  var c = @constants([8]u16, 0);\n"
                "  c[pattern - 1] = 1;\n  c[0] += 5;\n  return c;\n}\n"
                "const x = cmds(3);\n");
  CHECK(s->str("x") == "[8]u16{ 5, 0, 1, 0, 0, 0, 0, 0 }");
  CHECK(s->diagText.empty());
}

TEST_CASE("enums and enum literals", "[sema][enum]") {
  auto s = load("const mode = enum(u16) { send = 0, receive = 1, other };\n"
                "const m: mode = .receive;\nconst o = mode.other;\n"
                "const v = @as(u16, o);\nconst w = @as(mode, 0);\n"
                "const eq = m == .receive;\nconst bad: mode = .nothing;\n"
                "const badv = @as(mode, 7);\n");
  CHECK(s->str("m") == "mode.receive");
  CHECK(s->str("o") == "mode.other");
  CHECK(s->str("v") == "2");
  CHECK(s->str("w") == "mode.send");
  CHECK(s->str("eq") == "true");
  CHECK(s->str("bad") == "<error>");
  CHECK(s->str("badv") == "<error>");
  CHECK(s->messages() ==
        std::vector<std::string>{
            "test.csl:7:19: error: enum 'mode' has no member named 'nothing'",
            "test.csl:8:24: error: enum 'mode' has no member with value 7"});
}

TEST_CASE("types are values", "[sema][types]") {
  const char *src =
      "param FP: u16;\nconst T: type = if (FP == 1) f16 else f32;\n"
      "const A = [4]T;\nconst P = [*]const T;\nconst F = fn(T) void;\n"
      "const same = @is_same_type(T, f32);\n"
      "const n = @element_count([2, 3]T);\nconst r = @rank([2, 3]T);\n"
      "const et = @element_type(A);\nconst ds = @dimensions([2, 3]T);\n";
  auto s = load(src, [](TypeContext &ctx, ParamMap &p) {
    p["FP"] = Value::getComptimeInt(ctx, 2);
  });
  CHECK(s->str("A") == "[4]f32");
  CHECK(s->str("P") == "[*]const f32");
  CHECK(s->str("F") == "fn(f32) void");
  CHECK(s->str("same") == "true");
  CHECK(s->str("n") == "6");
  CHECK(s->str("r") == "2");
  CHECK(s->str("et") == "f32");
  CHECK(s->str("ds") == ".{ 2, 3 }");
  CHECK(s->diagText.empty());

  auto h = load(src, [](TypeContext &ctx, ParamMap &p) {
    p["FP"] = Value::getComptimeInt(ctx, 1);
  });
  CHECK(h->str("A") == "[4]f16");
}
