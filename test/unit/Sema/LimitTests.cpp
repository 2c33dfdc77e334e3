//===- LimitTests.cpp - Step and depth limits end runaway evaluation ------===//

#include "SemaHelpers.h"

#include <catch2/catch.hpp>

using namespace tessera::frontend::sema;
using namespace tessera::frontend::test;

TEST_CASE("an endless loop hits the step limit", "[sema][limits]") {
  InterpreterOptions o;
  o.maxSteps = 1000;
  auto s =
      load("fn spin() void { while (true) {} }\nconst x = spin();\n"
           "fn count(n: u32) u32 { var i: u32 = 0; while (i < n) : (i += 1) {} "
           "return i; }\nconst ok = count(999);\nconst bad = count(2000);\n",
           {}, o);
  CHECK(s->str("x") == "<error>");
  CHECK(s->str("ok") == "999");
  CHECK(s->str("bad") == "<error>");
  CHECK(
      s->messages() ==
      std::vector<std::string>{
          "test.csl:1:18: error: comptime evaluation exceeded 1000 steps (loop "
          "iterations and calls); raise the limit with "
          "--max-inlined-iterations",
          "test.csl:3:40: error: comptime evaluation exceeded 1000 steps (loop "
          "iterations and calls); raise the limit with "
          "--max-inlined-iterations"});
}

TEST_CASE("runaway recursion hits the depth limit", "[sema][limits]") {
  InterpreterOptions o;
  o.maxCallDepth = 50;
  auto s =
      load("fn down(n: comptime_int) comptime_int { return down(n + 1); }\n"
           "const x = down(0);\nfn ok(n: u16) u16 { if (n == 0) return 0; "
           "return ok(n - 1) + 1; }\nconst y = ok(40);\n",
           {}, o);
  CHECK(s->str("x") == "<error>");
  CHECK(s->str("y") == "40");
  CHECK(s->messages() ==
        std::vector<std::string>{
            "test.csl:1:48: error: comptime evaluation nested deeper than 50 "
            "calls; "
            "raise the limit with --comptime-func-depth-limit"});
}

TEST_CASE("the default depth limit does not overflow the stack",
          "[sema][limits]") {
  auto s =
      load("fn down(n: comptime_int) comptime_int { return down(n + 1); }\n"
           "const x = down(0);\n");
  CHECK(s->str("x") == "<error>");
  CHECK(s->firstError() ==
        "test.csl:1:48: error: comptime evaluation nested deeper than 256 "
        "calls; raise the limit with --comptime-func-depth-limit");
}

TEST_CASE("long chains of globals count toward the depth limit",
          "[sema][limits]") {
  std::string src;
  for (int i = 0; i < 300; ++i)
    src += "const g" + std::to_string(i) + " = g" + std::to_string(i + 1) +
           " + 1;\n";
  src += "const g300 = 0;\n";
  auto s = load(src);
  CHECK(s->str("g0") == "<error>");
  CHECK(llvm::StringRef(s->firstError())
            .ends_with("error: comptime evaluation nested deeper than 256 "
                       "calls; raise the limit with "
                       "--comptime-func-depth-limit"));
  CHECK(s->str("g280") == "20");
}

TEST_CASE("comptime arrays and integers have size limits", "[sema][limits]") {
  InterpreterOptions o;
  o.maxArrayElements = 100;
  o.maxComptimeIntBits = 200;
  auto s =
      load("const ok = @zeros([10, 10]u8);\nconst big = @zeros([10, 11]u8);\n"
           "const r = @range(u16, 101);\nconst huge = @zeros([1 << 40, 1 << "
           "40]u8);\n"
           "fn grow() comptime_int { var x = 3; while (true) { x = x * x; } "
           "return x; }\nconst g = grow();\nconst sh = 1 << 199;\n",
           {}, o);
  CHECK(s->str("ok") != "<error>");
  CHECK(s->str("big") == "<error>");
  CHECK(s->str("r") == "<error>");
  CHECK(s->str("huge") == "<error>");
  CHECK(s->str("g") == "<error>");
  CHECK(s->str("sh") == "<error>");
  CHECK(
      s->messages() ==
      std::vector<std::string>{
          "test.csl:2:20: error: array '[10, 11]u8' has 110 elements; comptime "
          "arrays are limited to 100",
          "test.csl:3:11: error: array '[101]u16' has 101 elements; comptime "
          "arrays are limited to 100",
          "test.csl:4:21: error: array '[1099511627776, 1099511627776]u8' has "
          "too "
          "many elements; comptime arrays are limited to 100",
          "test.csl:5:56: error: comptime_int result needs 204 bits, more than "
          "the "
          "limit of 200",
          "test.csl:7:12: error: comptime_int result needs 201 bits, more than "
          "the "
          "limit of 200"});
}
