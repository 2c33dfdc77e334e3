//===- ProgramParamsTests.cpp - The params a tile program can depend on ---===//

#include "ParseHelpers.h"

#include "tessera/Frontend/Elaboration/ProgramParams.h"

#include <catch2/catch.hpp>

#include <string>
#include <vector>

using namespace tessera::frontend;
using namespace tessera::frontend::elaboration;

namespace {

std::vector<std::string> sorted(const llvm::StringSet<> &set) {
  std::vector<std::string> out;
  for (const auto &entry : set)
    out.push_back(entry.getKey().str());
  llvm::sort(out);
  return out;
}

std::vector<std::string> reachable(const std::string &text) {
  test::Parsed parsed = test::parse(text);
  REQUIRE(parsed.diagnostics.empty());
  return sorted(findReachableDecls(parsed.file()));
}

std::vector<std::string> params(const std::string &text) {
  test::Parsed parsed = test::parse(text);
  REQUIRE(parsed.diagnostics.empty());
  return sorted(findProgramParams(parsed.file()));
}

using Names = std::vector<std::string>;

} // namespace

TEST_CASE("a file without roots reaches nothing") {
  CHECK(reachable("param a: u16;\nconst b = a;\nfn f() void {}\n").empty());
  CHECK(params("param a: u16;\nlayout { @set_rectangle(a, 1); }\n").empty());
}

TEST_CASE("comptime blocks reach through consts, vars and functions") {
  const char *text = R"(
param a: u16;
param b: u16;
param c: u16;
param d: u16;
const k = a + 1;
var v: u16 = k;
fn helper() u16 { return b; }
task t() void { v = helper(); }
const unused = c;
comptime { @bind_local_task(t, @get_local_task_id(8)); }
)";
  CHECK(reachable(text) == Names{"a", "b", "helper", "k", "t", "v"});
  CHECK(params(text) == Names{"a", "b"});
}

TEST_CASE("types, defaults and other params count as uses") {
  const char *text = R"(
param n: u16 = m * 2;
param m: u16 = 1;
param width: comptime_int;
const T = [width]u16;
var buf: T = @zeros(T);
comptime { @export_symbol(buf); @comptime_assert(n > 0); }
)";
  CHECK(params(text) == Names{"m", "n", "width"});
}

TEST_CASE("both branches and every prong count") {
  const char *text = R"(
param on: bool;
param x: u16;
param y: u16;
param z: u16;
const pick = if (on) x else switch (z) { 0 => y, else => 1 };
comptime { @comptime_print(pick); }
)";
  CHECK(params(text) == Names{"on", "x", "y", "z"});
}

TEST_CASE("shadowing names count as uses of the top-level declaration") {
  const char *text = R"(
param px: u16;
param py: u16;
fn f(px: u16) u16 { const py = px; return py; }
comptime { @comptime_print(f(1)); }
)";
  CHECK(params(text) == Names{"px", "py"});
}

TEST_CASE("export and extern declarations are roots") {
  CHECK(params("param a: u16;\nparam b: u16;\nexport var x: u16 = a;\n") ==
        Names{"a"});
  CHECK(params("param a: u16;\nparam b: u16;\n"
               "export fn f() void { const y = b; }\n") == Names{"b"});
}

TEST_CASE("an import bound to a const is a root even when unused") {
  // It runs its module's comptime blocks, so what it is given is used;
  // any other unused const is not.
  const char *text = R"(
param p: comptime_struct;
param q: u16;
const edge = @import_module("edge.csl", .{ .params = p });
const unused = @import_module("other.csl", .{ .n = q }).n;
)";
  CHECK(reachable(text) == Names{"edge", "p"});
  CHECK(params(text) == Names{"p"});
}

TEST_CASE("field names, struct keys and enum literals are not uses") {
  const char *text = R"(
param a: u16;
param b: u16;
param c: u16;
const s = .{ .a = 1 };
comptime { @comptime_print(s.b, .c); }
)";
  CHECK(params(text) == Names{});
  CHECK(reachable(text) == Names{"s"});
}

TEST_CASE("cycles and redefinitions end") {
  const char *text = R"(
param p: u16;
const x = y + p;
const y = x;
const y = 2;
comptime { @comptime_print(y); }
)";
  CHECK(reachable(text) == Names{"p", "x", "y"});
}
