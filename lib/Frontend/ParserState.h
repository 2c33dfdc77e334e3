//===- ParserState.h - Mutable state shared by the grammar rules *- C++ -*-===//
//
// One ParserState lives for one parse. The X3 rules reach it through the
// parse context (`x3::with<StateTag>`); it owns nothing but counters and
// references to the file being built and the diagnostic sink.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_LIB_FRONTEND_PARSERSTATE_H
#define TESSERA_LIB_FRONTEND_PARSERSTATE_H

#include "tessera/Frontend/AST.h"

#include "llvm/ADT/Twine.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <cstring>
#include <string>

namespace tessera::frontend::detail {

using Iterator = const char *;

/// Thrown once the error limit is reached; unwinds the whole parse.
struct TooManyErrors {};

class ParserState {
public:
  ParserState(ast::SourceFile &file, llvm::SourceMgr &sm,
              llvm::raw_ostream &diagOS, const char *begin, const char *end,
              unsigned maxDepth, unsigned maxErrors)
      : file(file), sm(sm), diagOS(diagOS), begin(begin), end(end),
        lastTokenEnd(begin), maxDepth(maxDepth),
        maxTreeHeight(static_cast<unsigned>(std::min<uint64_t>(
            16 * uint64_t(maxDepth), ast::Node::kMaxHeight - 1))),
        maxErrors(maxErrors) {}

  ast::SourceFile &file;
  llvm::SourceMgr &sm;
  llvm::raw_ostream &diagOS;
  const char *const begin;
  const char *const end;
  /// One past the last token that was successfully matched; the end of the
  /// range of a node is this position when its rule succeeds.
  const char *lastTokenEnd;
  unsigned depth = 0;
  const unsigned maxDepth;
  /// Long operator chains build deep trees without nesting in the source;
  /// this bounds the height of any tree (see ast::Node::getHeight).
  const unsigned maxTreeHeight;
  const unsigned maxErrors;
  unsigned numErrors = 0;

  template <typename T> T *create(const char *start) {
    T *n = file.create<T>();
    n->setRange(llvm::SMRange(llvm::SMLoc::getFromPointer(start),
                              llvm::SMLoc::getFromPointer(start)));
    return n;
  }

  /// Reports an error at `loc`. A second error at the same location as the
  /// previous one is dropped: it is a consequence of the first. Throws
  /// TooManyErrors when the limit is reached.
  void error(const char *loc, const llvm::Twine &message);

  /// Reports a syntax error raised inside the construct that starts at
  /// `start` and returns where parsing should resume (see resynchronize).
  /// A `;` missing at the end of a line resumes at the next line, so the
  /// following statement is not lost.
  const char *recover(const char *start, const char *errorPos,
                      const std::string &message, bool topLevel);

private:
  const char *lastErrorLoc = nullptr;
};

/// Tag under which the grammar finds its ParserState in the X3 context.
struct StateTag;

/// Skips whitespace and `//` comments. Inline: every token attempt calls it,
/// and most of the time there is nothing to skip.
inline const char *skipTrivia(const char *p, const char *end) {
  while (p != end) {
    char c = *p;
    if (c == ' ' || c == '\n' || c == '\t' || c == '\r' || c == '\f' ||
        c == '\v') {
      ++p;
    } else if (c == '/' && end - p >= 2 && p[1] == '/') {
      const void *nl = std::memchr(p, '\n', end - p);
      p = nl ? static_cast<const char *>(nl) : end;
    } else {
      break;
    }
  }
  return p;
}

/// A short description of the token at `p` for "found ..." in diagnostics:
/// `'foo'`, `'<<='`, `string literal`, `end of file`.
std::string describeToken(const char *p, const char *end);

/// "expected <what>, found <token at p>".
std::string expectedMessage(llvm::StringRef what, const char *p,
                            const char *end);

/// Where to resume after a syntax error inside the statement or declaration
/// that starts at `start`; the error was found at `errorPos`. Skips to just
/// after the next `;` or the `}` closing a brace opened since `start`, and
/// stops before a `}` that closes an enclosing block. At top level such a
/// stray `}` is consumed instead. `missingBrace` says the error was a
/// missing `}`: the innermost open brace then counts as closed.
const char *resynchronize(const char *start, const char *errorPos,
                          const char *end, bool topLevel,
                          bool missingBrace = false);

inline bool isIdentStart(char c) {
  return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}
inline bool isIdentChar(char c) {
  return isIdentStart(c) || (c >= '0' && c <= '9');
}
inline bool isDigit(char c) { return c >= '0' && c <= '9'; }

/// True for the reserved words of the language (they cannot be identifiers).
/// Inline and keyed on the first letter: every identifier is checked.
inline bool isKeyword(llvm::StringRef w) {
  if (w.size() < 2 || w.size() > 11)
    return false;
  auto is = [&](llvm::StringRef k) {
    return w.size() == k.size() &&
           std::memcmp(w.data(), k.data(), k.size()) == 0;
  };
  switch (w[0]) {
  case 'a':
    return is("align") || is("and");
  case 'b':
    return is("break");
  case 'c':
    return is("comptime") || is("const") || is("continue");
  case 'e':
    return is("else") || is("enum") || is("export") || is("extern");
  case 'f':
    return is("false") || is("fn") || is("for");
  case 'i':
    return is("if") || is("inline");
  case 'l':
    return is("layout") || is("linksection");
  case 'n':
    return is("noinline");
  case 'o':
    return is("or");
  case 'p':
    return is("packed") || is("param");
  case 'r':
    return is("return");
  case 's':
    return is("struct") || is("switch");
  case 't':
    return is("task") || is("true");
  case 'u':
    return is("union");
  case 'v':
    return is("var");
  case 'w':
    return is("while");
  default:
    return false;
  }
}

} // namespace tessera::frontend::detail

#endif // TESSERA_LIB_FRONTEND_PARSERSTATE_H
