//===- LiteralTests.cpp - Decoded values of CSL literals ------------------===//

#include "ParseHelpers.h"

#include "llvm/Support/Casting.h"

#include <catch2/catch.hpp>

using namespace tessera::frontend;
using namespace tessera::frontend::test;
using llvm::cast;

namespace {
/// Parses `const x = <literal>;` and returns the initializer.
const ast::Expr *literal(const Parsed &p) {
  REQUIRE(p.result.numErrors == 0);
  REQUIRE(p.file().decls.size() == 1);
  return cast<ast::VarDecl>(p.file().decls[0])->init;
}
} // namespace

TEST_CASE("integer literals decode in every radix", "[literals]") {
  struct Case {
    const char *text;
    uint64_t value;
  } cases[] = {{"0", 0},
               {"1_000", 1000},
               {"0xff", 255},
               {"0xFF_FF", 65535},
               {"0o17", 15},
               {"0b1010", 10},
               {"18446744073709551615", UINT64_MAX}};
  for (const Case &c : cases) {
    INFO(c.text);
    Parsed p = parse(std::string("const x = ") + c.text + ";");
    auto *lit = cast<ast::IntegerLiteral>(literal(p));
    CHECK_FALSE(lit->overflows);
    CHECK(lit->value == c.value);
    CHECK(lit->spelling == c.text);
  }
}

TEST_CASE("integers wider than 64 bits are flagged, not rejected",
          "[literals]") {
  Parsed p = parse("const x = 18446744073709551616;");
  CHECK(cast<ast::IntegerLiteral>(literal(p))->overflows);
}

TEST_CASE("float literals", "[literals]") {
  Parsed p = parse("const x = 1_0.5e-1;");
  CHECK(cast<ast::FloatLiteral>(literal(p))->value == Approx(1.05));
}

TEST_CASE("character literals give code points", "[literals]") {
  struct Case {
    const char *text;
    uint32_t value;
  } cases[] = {{"'a'", 97},      {"'\\n'", 10},       {"'\\''", 39},
               {"'\\x7f'", 127}, {"'\\u{3bb}'", 955}, {"'\xce\xbb'", 955},
               {"'\\\\'", 92}};
  for (const Case &c : cases) {
    INFO(c.text);
    Parsed p = parse(std::string("const x = ") + c.text + ";");
    CHECK(cast<ast::CharLiteral>(literal(p))->value == c.value);
  }
}

TEST_CASE("string literals decode escapes", "[literals]") {
  Parsed p = parse(R"(const x = "a\tb\n\"q\"\\ \x41\u{3bb}";)");
  CHECK(cast<ast::StringLiteral>(literal(p))->value ==
        "a\tb\n\"q\"\\ A\xce\xbb");
  Parsed plain = parse(R"(const x = "<memcpy/memcpy>";)");
  auto *s = cast<ast::StringLiteral>(literal(plain));
  CHECK(s->value == "<memcpy/memcpy>");
  // No escapes: the value points into the source buffer.
  CHECK(s->value.data() == s->spelling.data() + 1);
}
