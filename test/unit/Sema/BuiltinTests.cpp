//===- BuiltinTests.cpp - Comptime builtins -------------------------------===//

#include "SemaHelpers.h"

#include <catch2/catch.hpp>

using namespace tessera::frontend::sema;
using namespace tessera::frontend::test;

TEST_CASE("@is_arch follows the interpreter's target", "[sema][builtin]") {
  const char *src = "const two = @is_arch(\"wse2\");\n"
                    "const three = @is_arch(\"wse3\");\n"
                    "const bad = @is_arch(\"wse4\");\n";
  auto s = load(src);
  CHECK(s->str("two") == "true");
  CHECK(s->str("three") == "false");
  CHECK(s->str("bad") == "<error>");
  CHECK(s->firstError() == "test.csl:3:22: error: unknown architecture 'wse4'; "
                           "expected 'wse2' or 'wse3'");
  InterpreterOptions o;
  o.arch = tessera::target::Arch::WSE3;
  auto t = load(src, {}, o);
  CHECK(t->str("two") == "false");
  CHECK(t->str("three") == "true");
}

TEST_CASE("handle constructors check the target's ranges", "[sema][builtin]") {
  auto s = load(
      "const c = @get_color(23);\nconst bad = @get_color(24);\n"
      "const q = @get_input_queue(7);\nconst oq = @get_output_queue(8);\n"
      "const l = @get_local_task_id(30);\nconst d = @get_data_task_id(c);\n"
      "const dq = @get_data_task_id(q);\nconst id = @get_int(c);\n"
      "const ut = @get_ut_id(1);\nconst ct = @get_control_task_id(63);\n");
  CHECK(s->str("c") == "color(23)");
  CHECK(s->str("bad") == "<error>");
  CHECK(s->str("q") == "input_queue(7)");
  CHECK(s->str("oq") == "<error>");
  CHECK(s->str("l") == "local_task_id(30)");
  CHECK(s->str("d") == "data_task_id(23)");
  CHECK(s->str("dq") == "<error>");
  CHECK(s->str("id") == "23");
  CHECK(s->str("ut") == "<error>");
  CHECK(s->str("ct") == "control_task_id(63)");
  CHECK(
      s->messages() ==
      std::vector<std::string>{
          "test.csl:2:24: error: color 24 is out of range for 'wse2' (0 to 23)",
          "test.csl:4:30: error: output queue 8 is out of range for 'wse2' (0 "
          "to 7)",
          "test.csl:7:30: error: expected 'color', found 'input_queue'",
          "test.csl:9:12: error: '@get_ut_id' is not available on 'wse2'"});

  InterpreterOptions o;
  o.arch = tessera::target::Arch::WSE3;
  auto t = load("const l = @get_local_task_id(3);\n"
                "const d = @get_data_task_id(@get_input_queue(2));\n"
                "const ut = @get_ut_id(1);\n",
                {}, o);
  CHECK(t->str("l") == "<error>");
  CHECK(t->str("d") == "data_task_id(2)");
  CHECK(t->str("ut") == "ut_id(1)");
  CHECK(t->firstError() == "test.csl:1:30: error: local task ID 3 is out of "
                           "range for 'wse3' (8 to 30)");
}

TEST_CASE("@comptime_assert and @assert at comptime", "[sema][builtin]") {
  auto s = load("comptime {\n  @comptime_assert(1 + 1 == 2);\n"
                "  @comptime_assert(2 < 1, \"two is not less than one\");\n}\n"
                "comptime { @comptime_assert(false); }\n"
                "comptime { @assert(1 == 2); }\n"
                "comptime { @comptime_assert(3); }\n");
  CHECK_FALSE(s->interp->runComptimeBlocks(*s->module));
  CHECK(s->messages() ==
        std::vector<std::string>{
            "test.csl:3:3: error: comptime assertion failed: two is not less "
            "than one",
            "test.csl:5:12: error: comptime assertion failed",
            "test.csl:6:12: error: assertion failed at comptime",
            "test.csl:7:29: error: expected 'bool', found 'comptime_int'"});
}

TEST_CASE("@comptime_print writes to the caller's stream", "[sema][builtin]") {
  auto s =
      load("comptime {\n  @comptime_print(\"n =\", 1 << 70, 1.5, f32, .NORTH, "
           "[2]u16{ 1, 2 }, .{ .a = true }, @get_color(3), {});\n}\n");
  CHECK(s->interp->runComptimeBlocks(*s->module));
  CHECK(s->printed ==
        "n = 1180591620717411303424 1.5 f32 .NORTH [2]u16{ 1, 2 } "
        ".{ .a = true } color(3) {}\n");
}

TEST_CASE("@bitcast reinterprets bits", "[sema][builtin]") {
  auto s = load("const a = @bitcast(u32, @as(f32, 1.0));\n"
                "const b = @bitcast(f32, @as(u32, 0x40490fdb));\n"
                "const c = @bitcast(u16, @as(i16, -1));\n"
                "const d = @bitcast(u16, @as(f16, 1.0));\n"
                "const e = @bitcast(u16, @as(f32, 1.0));\n"
                "const p = @bitcast(*u16, @as(u16, 0x7f20));\n");
  CHECK(s->str("a") == "1065353216");
  CHECK(s->str("b") == "3.1415927");
  CHECK(s->str("c") == "65535");
  CHECK(s->str("d") == "15360");
  CHECK(s->str("e") == "<error>");
  CHECK(s->str("p") == "run-time value of type '*u16'");
  CHECK(s->firstError() == "test.csl:5:11: error: @bitcast from 'f32' to 'u16' "
                           "changes the size (32 to 16 bits)");
}

TEST_CASE("string and type builtins", "[sema][builtin]") {
  auto s =
      load("const a = @strlen(\"hello\");\nconst b = @strcat(\"ab\", \"cd\");\n"
           "const c = @fp16();\nconst d = @is_comptime(1);\nvar v: u16 = 0;\n"
           "const e = @is_comptime(v);\nconst f = @get_array(\"hi\");\n"
           "const g = @strlen(5);\n");
  CHECK(s->str("a") == "5");
  CHECK(s->str("b") == "abcd");
  CHECK(s->str("c") == "f16");
  CHECK(s->str("d") == "true");
  CHECK(s->str("e") == "false");
  CHECK(s->str("f") == "[2]u8{ 104, 105 }");
  CHECK(s->str("g") == "<error>");
  CHECK(
      s->firstError() ==
      "test.csl:8:19: error: expected 'comptime_string', found 'comptime_int'");
}

TEST_CASE("unknown builtins and wrong argument counts", "[sema][builtin]") {
  auto s = load("const a = @frobnicate(1);\nconst b = @as(u16);\n"
                "const c = @zeros([2]u8, 1);\nconst d = @zeros(u8);\n");
  CHECK(s->str("a") == "<error>");
  CHECK(s->str("b") == "<error>");
  CHECK(s->str("c") == "<error>");
  CHECK(s->str("d") == "<error>");
  CHECK(s->messages() ==
        std::vector<std::string>{
            "test.csl:1:12: error: unknown builtin '@frobnicate'",
            "test.csl:2:11: error: '@as' expects 2 arguments, found 1",
            "test.csl:3:11: error: '@zeros' expects 1 argument, found 2",
            "test.csl:4:18: error: expected an array type, found 'u8'"});
}

TEST_CASE("later stages can register builtins", "[sema][builtin]") {
  auto s = load(
      "const w = @get_rectangle().width;\n"
      "const d = @get_dsd(mem1d_dsd, .{ .tensor_access = |i|{4} -> A[i] });\n"
      "var A: [4]f32;\n");
  s->interp->registerBuiltin(
      "get_rectangle", [](BuiltinArgs &args) -> std::optional<Value> {
        TypeContext &t = args.getInterpreter().getTypes();
        return Value::getStruct(t.getComptimeStruct(),
                                {{"width", Value::getComptimeInt(t, 7)},
                                 {"height", Value::getComptimeInt(t, 3)}});
      });
  s->interp->registerBuiltin("get_dsd",
                             [](BuiltinArgs &args) -> std::optional<Value> {
                               const Type *kind = args.evaluateType(0);
                               if (!kind)
                                 return std::nullopt;
                               return Value::getRunTime(kind);
                             });
  CHECK(s->str("w") == "7");
  CHECK(s->str("d") == "run-time value of type 'mem1d_dsd'");
  CHECK(s->diagText.empty());
}
