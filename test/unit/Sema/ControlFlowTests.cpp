//===- ControlFlowTests.cpp - Loops, branches, blocks and calls -----------===//

#include "SemaHelpers.h"

#include <catch2/catch.hpp>

using namespace tessera::frontend::sema;
using namespace tessera::frontend::test;

TEST_CASE("@range forms: stop, start-stop, start-stop-step", "[sema][range]") {
  auto s =
      load("const a = @range(u16, 4);\nconst b = @range(u16, 1, 4);\n"
           "const c = @range(u16, 1, 4, 1);\nconst d = @range(i16, 0, 10, 3);\n"
           "const e = @range(i16, 5, 0, -2);\nconst f = @range(u16, 4, 1);\n"
           "const g = @range(u16, 0, 4, 0);\nconst h = @range(u16);\n"
           "const k = @range(f32, 3);\nconst l = @range(u8, 300);\n");
  CHECK(s->str("a") == "[4]u16{ 0, 1, 2, 3 }");
  CHECK(s->str("b") == "[3]u16{ 1, 2, 3 }");
  CHECK(s->str("c") == "[3]u16{ 1, 2, 3 }");
  CHECK(s->str("d") == "[4]i16{ 0, 3, 6, 9 }");
  CHECK(s->str("e") == "[3]i16{ 5, 3, 1 }");
  CHECK(s->str("f") == "[0]u16{}");
  CHECK(s->str("g") == "<error>");
  CHECK(s->str("h") == "<error>");
  CHECK(s->str("k") == "<error>");
  CHECK(s->str("l") == "<error>");
  CHECK(s->messages() ==
        std::vector<std::string>{
            "test.csl:7:29: error: '@range' step must not be zero",
            "test.csl:8:11: error: '@range' expects 2 to 4 arguments, found 1",
            "test.csl:9:18: error: '@range' needs an integer type, found 'f32'",
            "test.csl:10:22: error: value 300 does not fit in 'u8'"});
}

TEST_CASE("for loops over ranges and arrays with captures", "[sema][loop]") {
  auto s = load("fn sum(n: u16) u16 {\n  var total: u16 = 0;\n"
                "  for (@range(u16, 1, n + 1)) |i| { total += i; }\n"
                "  return total;\n}\n"
                "fn weighted() comptime_int {\n  var t = 0;\n"
                "  for ([3]u8{ 5, 6, 7 }) |x, i| { t += x * i; }\n"
                "  for (@zeros([4]u8)) |_, j| { t += j; }\n  return t;\n}\n"
                "const a = sum(10);\nconst b = weighted();\n");
  CHECK(s->str("a") == "55");
  CHECK(s->str("b") == "26");
  CHECK(s->diagText.empty());
}

TEST_CASE("while with a continue expression, break and continue",
          "[sema][loop]") {
  auto s =
      load("fn f() comptime_int {\n  var x = 0;\n  var n = 0;\n"
           "  while (x < 100) : (x += 1) {\n"
           "    if (x % 2 == 0) continue;\n    if (x > 9) break;\n"
           "    n += x;\n  }\n  return n * 1000 + x;\n}\nconst r = f();\n");
  CHECK(s->str("r") == "25011");
  CHECK(s->diagText.empty());
}

TEST_CASE("labelled loops and blocks", "[sema][loop]") {
  auto s = load("fn f() comptime_int {\n  var n = 0;\n"
                "  outer: for (@range(u16, 3)) |i| {\n"
                "    for (@range(u16, 3)) |j| {\n"
                "      if (j == 2) continue :outer;\n"
                "      if (i == 2) break :outer;\n      n += 1;\n    }\n  }\n"
                "  return n;\n}\nconst r = f();\n"
                "const b = blk: { const t = 4; break :blk t * 2; };\n"
                "const c = blk: { if (true) break :blk 1; break :blk 2; };\n");
  CHECK(s->str("r") == "4");
  CHECK(s->str("b") == "8");
  CHECK(s->str("c") == "1");
  CHECK(s->diagText.empty());
}

TEST_CASE("bad break, continue and return", "[sema][loop]") {
  auto s =
      load("fn f() void { break; }\nfn g() void { continue :nope; }\n"
           "fn h() void { b: { for (@range(u16, 1)) |i| { continue :b; } } }\n"
           "const x = f();\nconst y = g();\nconst z = h();\n"
           "comptime { return; }\n");
  CHECK(s->str("x") == "<error>");
  CHECK(s->str("y") == "<error>");
  CHECK(s->str("z") == "<error>");
  CHECK_FALSE(s->interp->runComptimeBlocks(*s->module));
  CHECK(s->messages() ==
        std::vector<std::string>{
            "test.csl:1:15: error: 'break' outside of a loop",
            "test.csl:2:25: error: use of undeclared label 'nope'",
            "test.csl:3:57: error: 'continue' needs a loop label, but 'b' "
            "labels a "
            "block",
            "test.csl:7:12: error: 'return' outside of a function"});
}

TEST_CASE("if and switch at comptime", "[sema][branch]") {
  auto s =
      load("fn kind(x: u16) comptime_int {\n"
           "  switch (x) {\n    1, 2 => return 10,\n    3 => { return 30; },\n"
           "    else => return 0,\n  }\n}\n"
           "const a = kind(2);\nconst b = kind(3);\nconst c = kind(9);\n"
           "const d = switch (.b) { .a => 1, .b => 2, else => 3 };\n"
           "const e = if (a > 5) \"big\" else \"small\";\n"
           "const f = switch (4) { 1 => 1 };\n"
           "const g = if (false) 1;\n");
  CHECK(s->str("a") == "10");
  CHECK(s->str("b") == "30");
  CHECK(s->str("c") == "0");
  CHECK(s->str("d") == "2");
  CHECK(s->str("e") == "big");
  CHECK(s->str("f") == "<error>");
  CHECK(s->str("g") == "{}");
  CHECK(s->messages() ==
        std::vector<std::string>{
            "test.csl:13:11: error: no switch prong matches 4"});
}

TEST_CASE("comptime function calls check arguments", "[sema][call]") {
  auto s = load("fn add(a: i16, b: i16) i16 { return a + b; }\n"
                "fn gen(comptime T: type, x: T) T { return x; }\n"
                "task t() void {}\n"
                "const ok = add(1, 2);\nconst g = gen(u8, 200);\n"
                "const few = add(1);\nconst wrong = add(1, 2.5);\n"
                "const range = add(1, 40000);\nconst tk = t();\n"
                "const nf = ok(1);\nfn noret() u16 { }\nconst nr = noret();\n");
  CHECK(s->str("ok") == "3");
  CHECK(s->str("g") == "200");
  CHECK(s->str("few") == "<error>");
  CHECK(s->str("wrong") == "<error>");
  CHECK(s->str("range") == "<error>");
  CHECK(s->str("tk") == "<error>");
  CHECK(s->str("nf") == "<error>");
  CHECK(s->str("nr") == "<error>");
  CHECK(
      s->messages() ==
      std::vector<std::string>{
          "test.csl:6:13: error: 'add' expects 2 arguments, found 1",
          "test.csl:1:4: note: 'add' declared here",
          "test.csl:7:15: error: fractional value 2.5 cannot coerce to 'i16'",
          "test.csl:1:16: note: parameter 'b' declared here",
          "test.csl:8:15: error: value 40000 does not fit in 'i16'",
          "test.csl:1:16: note: parameter 'b' declared here",
          "test.csl:9:12: error: task 't' cannot be called",
          "test.csl:3:6: note: 't' declared here",
          "test.csl:10:12: error: cannot call a value of type 'i16'",
          "test.csl:11:18: error: 'noret' must return a value of type 'u16'"});
}

TEST_CASE("functions are comptime values", "[sema][call]") {
  auto s = load("fn twice(f: fn(i16) i16, x: i16) i16 { return f(f(x)); }\n"
                "fn inc(x: i16) i16 { return x + 1; }\n"
                "const cb = .{ .f = inc };\nconst r = twice(cb.f, 5);\n"
                "const t = @type_of(inc);\n");
  CHECK(s->str("r") == "7");
  CHECK(s->str("t") == "fn(i16) i16");
  CHECK(s->diagText.empty());
}

TEST_CASE("recursion works at comptime", "[sema][call]") {
  auto s = load("fn fib(n: u32) u32 { if (n < 2) return n; "
                "return fib(n - 1) + fib(n - 2); }\nconst f = fib(20);\n");
  CHECK(s->str("f") == "6765");
  CHECK(s->diagText.empty());
}
