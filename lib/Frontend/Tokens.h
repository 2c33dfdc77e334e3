//===- Tokens.h - X3 primitive parsers for CSL tokens -----------*- C++ -*-===//
//
// The grammar runs directly over characters. These primitives match one token
// each (after the skipper has run), build the literal nodes, and record the
// end of the last matched token in the ParserState, which gives every node
// rule an exact end position without trailing whitespace. They never backtrack
// over more than one token, which keeps parsing linear.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_LIB_FRONTEND_TOKENS_H
#define TESSERA_LIB_FRONTEND_TOKENS_H

#include "Literals.h"
#include "ParserState.h"

#include <boost/spirit/home/x3.hpp>

#include <cstring>

namespace tessera::frontend::detail {

namespace x3 = boost::spirit::x3;

template <typename Context> ParserState &getState(const Context &ctx) {
  return x3::get<StateTag>(ctx).get();
}

/// Thrown for a hard syntax error; the full message is `which()`.
using SyntaxError = x3::expectation_failure<Iterator>;

[[noreturn]] inline void throwExpected(llvm::StringRef what, const char *p,
                                       const char *end) {
  p = skipTrivia(p, end);
  throw SyntaxError(p, expectedMessage(what, p, end));
}

/// Whitespace and `//` comments.
struct SkipperParser : x3::parser<SkipperParser> {
  using attribute_type = x3::unused_type;
  static bool const has_attribute = false;
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It const &last, Ctx const &, RCtx &, Attr &) const {
    It p = skipTrivia(first, last);
    if (p == first)
      return false;
    first = p;
    return true;
  }
};
inline constexpr SkipperParser skipper{};

/// `text` starts with the `len` characters of `word` (short, so no memcmp).
inline bool startsWith(const char *text, const char *word, size_t len) {
  for (size_t i = 0; i < len; ++i)
    if (text[i] != word[i])
      return false;
  return true;
}

/// A reserved word, not followed by an identifier character.
struct KeywordParser : x3::parser<KeywordParser> {
  using attribute_type = x3::unused_type;
  static bool const has_attribute = false;
  constexpr explicit KeywordParser(const char *word)
      : word(word), len(std::char_traits<char>::length(word)) {}
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It const &last, Ctx const &ctx, RCtx &, Attr &) const {
    x3::skip_over(first, last, ctx);
    if (static_cast<size_t>(last - first) < len || *first != *word ||
        !startsWith(first, word, len))
      return false;
    if (static_cast<size_t>(last - first) > len && isIdentChar(first[len]))
      return false;
    first += len;
    getState(ctx).lastTokenEnd = first;
    return true;
  }
  const char *word;
  size_t len;
};
constexpr KeywordParser kw(const char *word) { return KeywordParser(word); }

/// A punctuation token that must not be followed by any character of
/// `notBefore` (so `=` does not match the start of `==` or `=>`).
struct PunctParser : x3::parser<PunctParser> {
  using attribute_type = x3::unused_type;
  static bool const has_attribute = false;
  constexpr PunctParser(const char *text, const char *notBefore)
      : text(text), len(std::char_traits<char>::length(text)),
        notBefore(notBefore) {}
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It const &last, Ctx const &ctx, RCtx &, Attr &) const {
    x3::skip_over(first, last, ctx);
    if (static_cast<size_t>(last - first) < len || first[0] != text[0] ||
        !startsWith(first, text, len))
      return false;
    if (static_cast<size_t>(last - first) > len)
      for (const char *n = notBefore; *n; ++n)
        if (first[len] == *n)
          return false;
    first += len;
    getState(ctx).lastTokenEnd = first;
    return true;
  }
  const char *text;
  size_t len;
  const char *notBefore;
};
constexpr PunctParser punct(const char *text, const char *notBefore = "") {
  return PunctParser(text, notBefore);
}

/// An identifier that is not a keyword.
struct IdentParser : x3::parser<IdentParser> {
  using attribute_type = ast::Name;
  static bool const has_attribute = true;
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It const &last, Ctx const &ctx, RCtx &,
             Attr &attr) const {
    x3::skip_over(first, last, ctx);
    if (first == last || !isIdentStart(*first))
      return false;
    It p = first + 1;
    while (p != last && isIdentChar(*p))
      ++p;
    llvm::StringRef text(first, p - first);
    if (isKeyword(text))
      return false;
    x3::traits::move_to(ast::Name{text}, attr);
    first = p;
    getState(ctx).lastTokenEnd = p;
    return true;
  }
};
inline constexpr IdentParser ident{};

/// `@name` of a builtin call; the attribute is the name without `@`.
struct BuiltinNameParser : x3::parser<BuiltinNameParser> {
  using attribute_type = ast::Name;
  static bool const has_attribute = true;
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It const &last, Ctx const &ctx, RCtx &,
             Attr &attr) const {
    x3::skip_over(first, last, ctx);
    if (first == last || *first != '@')
      return false;
    It p = first + 1;
    if (p == last || !isIdentStart(*p))
      throwExpected("builtin name after '@'", p, last);
    It nameStart = p;
    while (p != last && isIdentChar(*p))
      ++p;
    x3::traits::move_to(ast::Name{llvm::StringRef(nameStart, p - nameStart)},
                        attr);
    first = p;
    getState(ctx).lastTokenEnd = p;
    return true;
  }
};
inline constexpr BuiltinNameParser builtinName{};

/// Integer, float, character and string literals; the attribute is the new
/// literal node.
struct LiteralParser : x3::parser<LiteralParser> {
  using attribute_type = ast::Expr *;
  static bool const has_attribute = true;
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It const &last, Ctx const &ctx, RCtx &,
             Attr &attr) const {
    x3::skip_over(first, last, ctx);
    if (first == last)
      return false;
    char c = *first;
    if (!isDigit(c) && c != '"' && c != '\'')
      return false;
    ParserState &state = getState(ctx);
    LiteralResult r = lexLiteral(state.file, first, last);
    if (!r.node)
      throw SyntaxError(r.errorLoc, r.error);
    r.node->setRange(llvm::SMRange(llvm::SMLoc::getFromPointer(first),
                                   llvm::SMLoc::getFromPointer(r.end)));
    x3::traits::move_to(r.node, attr);
    first = r.end;
    state.lastTokenEnd = r.end;
    return true;
  }
};
inline constexpr LiteralParser literal{};

/// A binary operator with its position, for the precedence-climbing loop.
struct BinaryOpToken {
  ast::BinaryOp op;
  const char *loc;
};

/// Matches a binary operator, but not the start of a compound assignment
/// (`<<=`) or of the `->`/`=>` arrows.
struct BinaryOpParser : x3::parser<BinaryOpParser> {
  using attribute_type = BinaryOpToken;
  static bool const has_attribute = true;
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It const &last, Ctx const &ctx, RCtx &,
             Attr &attr) const {
    using ast::BinaryOp;
    x3::skip_over(first, last, ctx);
    if (first == last)
      return false;
    auto at = [&](size_t i) { return first + i < last ? first[i] : '\0'; };
    BinaryOp op;
    size_t len = 1;
    switch (*first) {
    case 'a':
    case 'o': {
      bool isAnd = *first == 'a';
      len = isAnd ? 3 : 2;
      if (static_cast<size_t>(last - first) < len ||
          !startsWith(first, isAnd ? "and" : "or", len) || isIdentChar(at(len)))
        return false;
      op = isAnd ? BinaryOp::And : BinaryOp::Or;
      break;
    }
    case '=':
      if (at(1) != '=')
        return false;
      op = BinaryOp::Eq, len = 2;
      break;
    case '!':
      if (at(1) != '=')
        return false;
      op = BinaryOp::Ne, len = 2;
      break;
    case '<':
      if (at(1) == '<')
        op = BinaryOp::Shl, len = 2;
      else if (at(1) == '=')
        op = BinaryOp::Le, len = 2;
      else
        op = BinaryOp::Lt;
      break;
    case '>':
      if (at(1) == '>')
        op = BinaryOp::Shr, len = 2;
      else if (at(1) == '=')
        op = BinaryOp::Ge, len = 2;
      else
        op = BinaryOp::Gt;
      break;
    case '&':
      op = BinaryOp::BitAnd;
      break;
    case '^':
      op = BinaryOp::BitXor;
      break;
    case '|':
      op = BinaryOp::BitOr;
      break;
    case '+':
      op = BinaryOp::Add;
      break;
    case '-':
      if (at(1) == '>')
        return false;
      op = BinaryOp::Sub;
      break;
    case '*':
      op = BinaryOp::Mul;
      break;
    case '/':
      op = BinaryOp::Div;
      break;
    case '%':
      op = BinaryOp::Rem;
      break;
    default:
      return false;
    }
    // `a <<= b`, `a += b`: an assignment, not a binary operator.
    bool isWord = op == BinaryOp::And || op == BinaryOp::Or;
    bool endsWithEq = first[len - 1] == '=';
    if (!isWord && !endsWithEq && at(len) == '=')
      return false;
    x3::traits::move_to(BinaryOpToken{op, first}, attr);
    first += len;
    getState(ctx).lastTokenEnd = first;
    return true;
  }
};
inline constexpr BinaryOpParser binaryOp{};

/// `=`, `+=`, `<<=`, ...
struct AssignOpParser : x3::parser<AssignOpParser> {
  using attribute_type = ast::AssignOp;
  static bool const has_attribute = true;
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It const &last, Ctx const &ctx, RCtx &,
             Attr &attr) const {
    using ast::AssignOp;
    x3::skip_over(first, last, ctx);
    auto at = [&](size_t i) { return first + i < last ? first[i] : '\0'; };
    size_t len = 2;
    AssignOp op;
    switch (at(0)) {
    case '=':
      if (at(1) == '=' || at(1) == '>')
        return false;
      op = AssignOp::Assign, len = 1;
      break;
    case '+':
      op = AssignOp::Add;
      break;
    case '-':
      op = AssignOp::Sub;
      break;
    case '*':
      op = AssignOp::Mul;
      break;
    case '/':
      op = AssignOp::Div;
      break;
    case '%':
      op = AssignOp::Rem;
      break;
    case '&':
      op = AssignOp::And;
      break;
    case '|':
      op = AssignOp::Or;
      break;
    case '^':
      op = AssignOp::Xor;
      break;
    case '<':
    case '>':
      if (at(1) != at(0))
        return false;
      op = at(0) == '<' ? AssignOp::Shl : AssignOp::Shr, len = 3;
      break;
    default:
      return false;
    }
    if (at(len - 1) != '=')
      return false;
    x3::traits::move_to(op, attr);
    first += len;
    getState(ctx).lastTokenEnd = first;
    return true;
  }
};
inline constexpr AssignOpParser assignOp{};

/// A prefix operator with its position.
struct UnaryOpToken {
  ast::UnaryOp op;
  const char *loc;
};

struct UnaryOpParser : x3::parser<UnaryOpParser> {
  using attribute_type = UnaryOpToken;
  static bool const has_attribute = true;
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It const &last, Ctx const &ctx, RCtx &,
             Attr &attr) const {
    using ast::UnaryOp;
    x3::skip_over(first, last, ctx);
    if (first == last)
      return false;
    UnaryOp op;
    switch (*first) {
    case '-':
      op = UnaryOp::Neg;
      break;
    case '!':
      op = UnaryOp::Not;
      break;
    case '~':
      op = UnaryOp::BitNot;
      break;
    case '&':
      op = UnaryOp::AddressOf;
      break;
    default:
      return false;
    }
    x3::traits::move_to(UnaryOpToken{op, first}, attr);
    ++first;
    getState(ctx).lastTokenEnd = first;
    return true;
  }
};
inline constexpr UnaryOpParser unaryOp{};

/// Lookahead that matches `identifier :` without consuming it or touching
/// the token bookkeeping; used to spot labels.
struct LabelAheadParser : x3::parser<LabelAheadParser> {
  using attribute_type = x3::unused_type;
  static bool const has_attribute = false;
  /// Also require a `{` after the colon (labelled block expressions).
  bool needBrace;
  constexpr explicit LabelAheadParser(bool needBrace) : needBrace(needBrace) {}
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It const &last, Ctx const &, RCtx &, Attr &) const {
    It p = skipTrivia(first, last);
    if (p == last || !isIdentStart(*p))
      return false;
    It q = p;
    while (q != last && isIdentChar(*q))
      ++q;
    if (isKeyword(llvm::StringRef(p, q - p)))
      return false;
    q = skipTrivia(q, last);
    if (q == last || *q != ':')
      return false;
    if (!needBrace)
      return true;
    q = skipTrivia(q + 1, last);
    return q != last && *q == '{';
  }
};
inline constexpr LabelAheadParser labelAhead{false};
inline constexpr LabelAheadParser labelBraceAhead{true};

/// Lookahead: `.name =` (the start of a struct literal field).
struct FieldInitAheadParser : x3::parser<FieldInitAheadParser> {
  using attribute_type = x3::unused_type;
  static bool const has_attribute = false;
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It const &last, Ctx const &, RCtx &, Attr &) const {
    It p = skipTrivia(first, last);
    if (p == last || *p != '.')
      return false;
    p = skipTrivia(p + 1, last);
    if (p == last || !isIdentStart(*p))
      return false;
    while (p != last && isIdentChar(*p))
      ++p;
    p = skipTrivia(p, last);
    return p != last && *p == '=' && (p + 1 == last || p[1] != '=');
  }
};
inline constexpr FieldInitAheadParser fieldInitAhead{};

/// Matches only at the end of the input (after trivia).
struct EndParser : x3::parser<EndParser> {
  using attribute_type = x3::unused_type;
  static bool const has_attribute = false;
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It const &last, Ctx const &, RCtx &, Attr &) const {
    return skipTrivia(first, last) == last;
  }
};
inline constexpr EndParser atEnd{};

//===----------------------------------------------------------------------===//
// Directives
//===----------------------------------------------------------------------===//

/// `expect(what)[p]`: p must match here; otherwise a syntax error
/// "expected <what>, found <token>" is thrown.
template <typename Subject>
struct ExpectDirective : x3::unary_parser<Subject, ExpectDirective<Subject>> {
  using base_type = x3::unary_parser<Subject, ExpectDirective<Subject>>;
  static bool const is_pass_through_unary = true;
  constexpr ExpectDirective(Subject const &subject, const char *what)
      : base_type(subject), what(what) {}
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It const &last, Ctx const &ctx, RCtx &rctx,
             Attr &attr) const {
    It start = first;
    if (this->subject.parse(first, last, ctx, rctx, attr))
      return true;
    throwExpected(what, start, last);
  }
  const char *what;
};

struct ExpectGen {
  const char *what;
  template <typename Subject>
  constexpr ExpectDirective<
      typename x3::extension::as_parser<Subject>::value_type>
  operator[](Subject const &subject) const {
    return {x3::as_parser(subject), what};
  }
};
constexpr ExpectGen expect(const char *what) { return ExpectGen{what}; }

/// Always fails with "expected <what>"; the last alternative of a choice.
struct FailParser : x3::parser<FailParser> {
  using attribute_type = x3::unused_type;
  static bool const has_attribute = false;
  constexpr explicit FailParser(const char *what) : what(what) {}
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It const &last, Ctx const &, RCtx &, Attr &) const {
    throwExpected(what, first, last);
  }
  const char *what;
};
constexpr FailParser failWith(const char *what) { return FailParser(what); }

/// `nest[p]`: counts nesting depth around p and rejects input nested deeper
/// than the limit, which bounds the recursion (and so the stack) of the
/// recursive rules.
template <typename Subject>
struct NestDirective : x3::unary_parser<Subject, NestDirective<Subject>> {
  using base_type = x3::unary_parser<Subject, NestDirective<Subject>>;
  static bool const is_pass_through_unary = true;
  constexpr explicit NestDirective(Subject const &subject)
      : base_type(subject) {}
  template <typename It, typename Ctx, typename RCtx, typename Attr>
  bool parse(It &first, It const &last, Ctx const &ctx, RCtx &rctx,
             Attr &attr) const {
    ParserState &state = getState(ctx);
    if (state.depth >= state.maxDepth) {
      It p = skipTrivia(first, last);
      // Nothing can start here; let the caller report what it expects.
      if (p == last || *p == '}' || *p == ')' || *p == ']')
        return false;
      throw SyntaxError(p, "nesting is deeper than the limit of " +
                               std::to_string(state.maxDepth) + " levels");
    }
    struct Guard {
      unsigned &depth;
      ~Guard() { --depth; }
    } guard{++state.depth};
    return this->subject.parse(first, last, ctx, rctx, attr);
  }
};

struct NestGen {
  template <typename Subject>
  constexpr NestDirective<
      typename x3::extension::as_parser<Subject>::value_type>
  operator[](Subject const &subject) const {
    return NestDirective<
        typename x3::extension::as_parser<Subject>::value_type>(
        x3::as_parser(subject));
  }
};
inline constexpr NestGen nest{};

} // namespace tessera::frontend::detail

#endif // TESSERA_LIB_FRONTEND_TOKENS_H
