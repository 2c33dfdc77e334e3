//===- RoundTripTests.cpp - Print, re-parse, compare ----------------------===//
//
// The property: for any program P that parses, printing its tree as CSL and
// parsing that text again yields the same tree (compared through the AST dump
// without locations), and printing is a fixpoint. P ranges over hand-written
// programs and programs generated at random from the grammar.
//
//===----------------------------------------------------------------------===//

#include "ParseHelpers.h"

#include <catch2/catch.hpp>

#include <random>

using namespace tessera::frontend;
using namespace tessera::frontend::test;

namespace {

void checkRoundTrip(const std::string &text) {
  INFO("source:\n" << text);
  Parsed first = parse(text);
  INFO("diagnostics:\n" << first.diagnostics);
  REQUIRE(first.result.numErrors == 0);
  std::string printed = first.csl();
  INFO("printed:\n" << printed);
  Parsed second = parse(printed);
  INFO("diagnostics of the printed form:\n" << second.diagnostics);
  REQUIRE(second.result.numErrors == 0);
  CHECK(second.ast() == first.ast());
  CHECK(second.csl() == printed);
}

/// Generates random syntactically valid CSL.
class Generator {
public:
  explicit Generator(unsigned seed) : rng(seed) {}

  std::string program() {
    std::string out;
    int n = pick(1, 6);
    for (int i = 0; i < n; ++i)
      out += topDecl();
    return out;
  }

private:
  std::mt19937 rng;

  int pick(int lo, int hi) {
    return std::uniform_int_distribution<int>(lo, hi)(rng);
  }
  template <size_t N> const char *one(const char *const (&options)[N]) {
    return options[pick(0, N - 1)];
  }

  std::string name() {
    static const char *const names[] = {"a", "b", "x", "idx", "buf", "_"};
    return one(names);
  }

  std::string type(int depth) {
    if (depth <= 0 || pick(0, 2) == 0) {
      static const char *const types[] = {
          "u16", "f32", "i32", "bool", "comptime_struct", "mod.T"};
      return one(types);
    }
    switch (pick(0, 5)) {
    case 0:
      return "[" + expr(1) + "]" + type(depth - 1);
    case 1:
      return "[*]" + type(depth - 1);
    case 2:
      return "*const " + type(depth - 1);
    case 3:
      return "fn (" + type(depth - 1) + ") " + type(depth - 1);
    case 4:
      return "[" + expr(1) + ", " + expr(1) + "]" + type(depth - 1);
    default:
      return "?" + type(depth - 1);
    }
  }

  std::string exprList(int depth, int max) {
    std::string out;
    int n = pick(0, max);
    for (int i = 0; i < n; ++i)
      out += (i ? ", " : "") + expr(depth);
    return out;
  }

  std::string operand(int depth) {
    if (depth <= 0) {
      static const char *const leaves[] = {"1",   "0x1F",     "0b10", "2.5",
                                           "'c'", "\"s\\n\"", "true", "x",
                                           "{}",  ".RAMP"};
      return one(leaves);
    }
    switch (pick(0, 13)) {
    case 0:
      return "(" + expr(depth - 1) + ")";
    case 1:
      return name() + "(" + exprList(depth - 1, 3) + ")";
    case 2:
      return "@range(" + exprList(depth - 1, 3) + ")";
    case 3:
      return operand(depth - 1) + "[" + expr(depth - 1) + "]";
    case 4:
      return operand(depth - 1) + "." + name();
    case 5:
      return operand(depth - 1) + ".*";
    case 6:
      return ".{ ." + name() + " = " + expr(depth - 1) + " }";
    case 7:
      return ".{ " + exprList(depth - 1, 3) + " }";
    case 8:
      return "[2]u16{" + exprList(depth - 1, 2) + "}";
    case 9:
      return "|i, j|{" + expr(depth - 1) + ", 2} -> A[i + j]";
    case 10:
      return "if (" + expr(depth - 1) + ") " + expr(depth - 1) +
             (pick(0, 1) ? " else " + expr(depth - 1) : "");
    case 11: {
      static const char *const prefixes[] = {"-", "!", "~", "&"};
      return one(prefixes) + operand(depth - 1);
    }
    case 12:
      return "[*]" + type(1);
    default:
      return name();
    }
  }

  std::string expr(int depth) {
    static const char *const ops[] = {"or", "and", "&", "^", "|", "<<",
                                      ">>", "+",   "-", "*", "/", "%"};
    static const char *const cmps[] = {"==", "!=", "<", ">", "<=", ">="};
    std::string out = operand(depth);
    int n = depth > 0 ? pick(0, 3) : 0;
    for (int i = 0; i < n; ++i) {
      // Comparisons do not chain: give them parenthesised operands.
      if (pick(0, 4) == 0)
        out = "(" + out + ") " + one(cmps) + " (" + operand(depth - 1) + ")";
      else
        out += std::string(" ") + one(ops) + " " + operand(depth - 1);
    }
    return out;
  }

  std::string simple(int depth) {
    static const char *const assigns[] = {"=", "+=", "-=", "<<=", "|="};
    switch (pick(0, 4)) {
    case 0:
      return name() + " " + one(assigns) + " " + expr(depth);
    case 1:
      return "return " + expr(depth);
    case 2:
      return "break";
    case 3:
      return "continue";
    default:
      return name() + "(" + exprList(depth, 2) + ")";
    }
  }

  std::string stmt(int depth) {
    if (depth <= 0)
      return simple(0) + ";\n";
    switch (pick(0, 8)) {
    case 0:
      return "var " + name() + ": " + type(1) + " = " + expr(depth) + ";\n";
    case 1:
      return "if (" + expr(depth - 1) + ") " + block(depth - 1) +
             (pick(0, 1) ? " else " + block(depth - 1) : "") + "\n";
    case 2:
      // The then-branch is a call: an open-ended expression there would
      // take the `else` for itself.
      return "if (" + expr(1) + ") " + name() + "(" + exprList(1, 2) + ")" +
             (pick(0, 1) ? " else " + simple(1) : "") + ";\n";
    case 3:
      return "while (" + expr(1) + ") : (" + name() + " += 1) " +
             block(depth - 1) + "\n";
    case 4:
      return "for (" + expr(1) + ") |" + name() + ", " + name() + "| " +
             block(depth - 1) + "\n";
    case 5:
      return "switch (" + expr(1) + ") { 0, 1 => " + simple(1) + ", else => " +
             block(depth - 1) + ", }\n";
    case 6:
      return block(depth - 1) + "\n";
    case 7:
      return "comptime " + block(depth - 1) + "\n";
    default:
      return simple(depth) + ";\n";
    }
  }

  std::string block(int depth) {
    std::string out = "{\n";
    int n = pick(0, 3);
    for (int i = 0; i < n; ++i)
      out += stmt(depth);
    return out + "}";
  }

  std::string topDecl() {
    switch (pick(0, 5)) {
    case 0:
      return "param " + name() + ": " + type(2) + ";\n";
    case 1:
      return "const " + name() + " = " + expr(3) + ";\n";
    case 2:
      return "export var " + name() + ": " + type(2) + ";\n";
    case 3:
      return "fn " + name() + "(a: " + type(1) + ", comptime b: type) " +
             type(1) + " " + block(3) + "\n";
    case 4:
      return "task " + name() + "() void " + block(2) + "\n";
    default:
      return "layout " + block(2) + "\n";
    }
  }
};

} // namespace

TEST_CASE("hand-written programs round-trip", "[roundtrip]") {
  const char *programs[] = {
      "const a = 1 + 2 * (3 - 4);",
      "param p: fn (i16, comptime T: type) [*]const T;",
      "const S = packed struct { a: u8 = 1, b: u8, fn f() void {} };",
      "const E = enum(u16) { a = 0, b, };",
      "fn f() void { if (a) if (b) x(); else y(); }",
      "fn f() void { if (a) { } else if (b) c = 1; else { d(); } }",
      "fn f() void { l: while (true) { break :l; } }",
      "fn f() u16 { return blk: { break :blk 1; }; }",
      "const t = .{ .tensor_access = |i|{4} -> A[i, 0] };",
      "const x = - -a;",
      "const y = &(v[0, 1]);",
      "const z = (A.*)[1] + B.*[2];",
      "const w = switch (m) { 1 => 2, else => 3 };",
      "var q: [3]u16 align(16) linksection(\"s\") = [3]u16{1, 2, 3};",
      "extern fn g(x: u16) void;",
  };
  for (const char *program : programs)
    checkRoundTrip(program);
}

TEST_CASE("random programs round-trip", "[roundtrip][property]") {
  for (unsigned seed = 1; seed <= 400; ++seed) {
    INFO("seed " << seed);
    Generator gen(seed);
    checkRoundTrip(gen.program());
  }
}
