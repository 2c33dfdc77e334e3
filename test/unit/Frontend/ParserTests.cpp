//===- ParserTests.cpp - Parser API, recovery and limits ------------------===//

#include "ParseHelpers.h"

#include "llvm/Support/Casting.h"

#include <catch2/catch.hpp>

using namespace tessera::frontend;
using namespace tessera::frontend::test;

TEST_CASE("an empty file parses to an empty tree", "[parser]") {
  Parsed p = parse("// only a comment");
  CHECK(p.result.numErrors == 0);
  CHECK(p.file().decls.empty());
  CHECK(p.diagnostics.empty());
}

TEST_CASE("every node has a source range inside the buffer", "[parser]") {
  Parsed p = parse("fn f(a: [*]f32) void { for (@range(u16, 4)) |i| "
                   "{ a[i] = .{ 1, 2 }[0] + -x.*; } }");
  REQUIRE(p.result.numErrors == 0);
  const char *begin = p.sm->getMemoryBuffer(1)->getBufferStart();
  const char *end = p.sm->getMemoryBuffer(1)->getBufferEnd();
  unsigned count = 0;
  std::function<void(const ast::Node *)> walk = [&](const ast::Node *n) {
    ++count;
    const char *s = n->getRange().Start.getPointer();
    const char *e = n->getRange().End.getPointer();
    CHECK(s >= begin);
    CHECK(s < e);
    CHECK(e <= end);
    ast::forEachChild(n, [&](const ast::Node *child) {
      // Children lie within their parent.
      CHECK(child->getRange().Start.getPointer() >= s);
      CHECK(child->getRange().End.getPointer() <= e);
      CHECK(child->getHeight() < n->getHeight());
      walk(child);
    });
  };
  walk(&p.file());
  CHECK(count > 20);
}

TEST_CASE("one error per declaration and per statement", "[parser][recovery]") {
  Parsed p = parse("const a = ;\n"
                   "fn f() void {\n"
                   "  x = ;\n"
                   "  y = 1;\n"
                   "  z = );\n"
                   "}\n"
                   "var b = 1 +;\n"
                   "const ok = 1;\n");
  CHECK(p.result.numErrors == 4);
  // The partial tree keeps what parsed: f (with only `y = 1`) and `ok`;
  // the declarations and statements with errors are dropped.
  REQUIRE(p.file().decls.size() == 2);
  auto *f = llvm::cast<ast::FnDecl>(p.file().decls[0]);
  CHECK(f->body->stmts.size() == 1);
  CHECK(llvm::cast<ast::VarDecl>(p.file().decls[1])->name.text == "ok");
}

TEST_CASE("the error limit stops the parse", "[parser][recovery]") {
  std::string text;
  for (int i = 0; i < 20; ++i)
    text += "const x = ;\n";
  ParseOptions options;
  options.maxErrors = 5;
  Parsed p = parse(text, options);
  CHECK(p.result.numErrors == 5);
  CHECK(p.diagnostics.find("too many errors (5), stopping now") !=
        std::string::npos);
}

TEST_CASE("nesting beyond the limit is one error", "[parser][limits]") {
  std::string deep(100000, '(');
  Parsed p = parse("const x = " + deep + "1" + std::string(100000, ')') +
                   ";\nconst y = 2;");
  CHECK(p.result.numErrors == 1);
  CHECK(p.diagnostics.find("nesting is deeper than the limit of 256 levels") !=
        std::string::npos);
  // Recovery continues after the bad declaration.
  REQUIRE(p.file().decls.size() == 1);

  ParseOptions shallow;
  shallow.maxNestingDepth = 3;
  CHECK(parse("const x = ((1));", shallow).result.numErrors == 0);
  CHECK(parse("const x = (((1)));", shallow).result.numErrors == 1);
}

TEST_CASE("tree height is bounded", "[parser][limits]") {
  std::string sum = "const x = 1";
  for (int i = 0; i < 5000; ++i)
    sum += " + 1";
  Parsed p = parse(sum + ";");
  CHECK(p.result.numErrors == 1);
  std::string ok = "const x = 1";
  for (int i = 0; i < 4000; ++i)
    ok += " + 1";
  Parsed q = parse(ok + ";");
  REQUIRE(q.result.numErrors == 0);
  CHECK(q.file().decls[0]->getHeight() == 4002);
}

TEST_CASE("garbage input never crashes", "[parser][recovery]") {
  // Every byte value, alone and in runs, at top level and inside a body.
  for (int c = 0; c < 256; ++c) {
    std::string s(1, static_cast<char>(c));
    parse(s);
    parse(std::string(50, static_cast<char>(c)));
    parse("fn f() void { " + s + " }");
    parse("const x = .{ " + s);
  }
  SUCCEED();
}
