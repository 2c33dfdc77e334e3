//===- ParserState.cpp - Diagnostics and recovery helpers -----------------===//

#include "ParserState.h"

#include "llvm/Support/Format.h"

#include <cstring>

using namespace tessera::frontend::detail;

void ParserState::error(const char *loc, const llvm::Twine &message) {
  if (loc == lastErrorLoc)
    return;
  lastErrorLoc = loc;
  sm.PrintMessage(diagOS, llvm::SMLoc::getFromPointer(loc),
                  llvm::SourceMgr::DK_Error, message);
  if (++numErrors >= maxErrors) {
    sm.PrintMessage(
        diagOS, llvm::SMLoc::getFromPointer(loc), llvm::SourceMgr::DK_Note,
        "too many errors (" + llvm::Twine(maxErrors) + "), stopping now");
    throw TooManyErrors();
  }
}

const char *ParserState::recover(const char *start, const char *errorPos,
                                 const std::string &message, bool topLevel) {
  // A `;` missing at the end of a line is reported right after the last
  // token, where it belongs, rather than at the start of the next line.
  bool semicolonAtLineEnd =
      llvm::StringRef(message).starts_with("expected ';'") &&
      lastTokenEnd > start && lastTokenEnd <= errorPos &&
      std::memchr(lastTokenEnd, '\n', errorPos - lastTokenEnd);
  error(semicolonAtLineEnd ? lastTokenEnd : errorPos, message);
  // An unterminated literal runs to the end of its line; its text is not
  // code, so resume on the next line.
  if (llvm::StringRef(message).starts_with("unterminated")) {
    const void *nl = std::memchr(errorPos, '\n', end - errorPos);
    return nl ? static_cast<const char *>(nl) + 1 : end;
  }
  // The next line starts a new declaration or statement: resume there.
  if (semicolonAtLineEnd)
    return errorPos;
  return resynchronize(start, errorPos, end, topLevel,
                       llvm::StringRef(message).starts_with("expected '}'"));
}

std::string tessera::frontend::detail::describeToken(const char *p,
                                                     const char *end) {
  if (p == end)
    return "end of file";
  char c = *p;
  if (c == '"')
    return "string literal";
  if (c == '\'')
    return "character literal";
  const char *q = p;
  if (isIdentChar(c)) {
    while (q != end && isIdentChar(*q) && q - p < 32)
      ++q;
    return "'" + std::string(p, q) + "'";
  }
  static const char *const puncts[] = {
      "<<=", ">>=", ".*", ".{", "=>", "->", "==", "!=", "<=", ">=",
      "<<",  ">>",  "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^="};
  for (const char *s : puncts) {
    size_t n = std::strlen(s);
    if (static_cast<size_t>(end - p) >= n && std::memcmp(p, s, n) == 0)
      return "'" + std::string(s) + "'";
  }
  unsigned char u = static_cast<unsigned char>(c);
  if (u < 0x20 || u >= 0x7f) {
    std::string out;
    llvm::raw_string_ostream os(out);
    os << "'\\x" << llvm::format_hex_no_prefix(u, 2, /*Upper=*/true) << "'";
    return out;
  }
  return "'" + std::string(1, c) + "'";
}

std::string tessera::frontend::detail::expectedMessage(llvm::StringRef what,
                                                       const char *p,
                                                       const char *end) {
  return ("expected " + what + ", found " + describeToken(p, end)).str();
}

namespace {
/// Skips a string or character literal starting at the quote `p`; stops at
/// the end of the line for an unterminated one.
const char *skipQuoted(const char *p, const char *end) {
  char quote = *p++;
  while (p != end && *p != quote && *p != '\n') {
    if (*p == '\\' && end - p >= 2 && p[1] != '\n')
      ++p;
    ++p;
  }
  return p != end && *p == quote ? p + 1 : p;
}
} // namespace

const char *tessera::frontend::detail::resynchronize(const char *start,
                                                     const char *errorPos,
                                                     const char *end,
                                                     bool topLevel,
                                                     bool missingBrace) {
  // Count braces from the start of the construct so that a brace opened
  // before the error (say, of a struct literal) is closed before we stop.
  int braces = 0;
  const char *p = start;
  while (p != end) {
    char c = *p;
    if (c == '/' && end - p >= 2 && p[1] == '/') {
      p = skipTrivia(p, end);
      continue;
    }
    if (c == '"' || c == '\'') {
      p = skipQuoted(p, end);
      continue;
    }
    bool past = p >= errorPos;
    if (past && missingBrace) {
      missingBrace = false;
      if (braces > 0)
        --braces;
    }
    if (c == '{') {
      ++braces;
    } else if (c == '}') {
      const char *q = skipTrivia(p + 1, end);
      if (braces == 0) {
        // A brace closing an enclosing block: stop before it, so the block
        // ends normally. At top level there is no block; drop it. A `;`
        // right after it means it closed an expression: take both.
        if (past) {
          if (q != end && *q == ';')
            return q + 1;
          return topLevel ? p + 1 : p;
        }
      } else if (--braces == 0 && past) {
        // The construct ended with a block (a function body, a loop). Also
        // take a following `;` or `else` branch along, and keep going when
        // an operator shows the braces were part of an expression.
        if (q != end && *q == ';')
          return q + 1;
        if (end - q >= 4 && std::memcmp(q, "else", 4) == 0 &&
            (end - q == 4 || !isIdentChar(q[4]))) {
          p = q + 4;
          continue;
        }
        if (q == end || !std::strchr("-+*/%&|^=<>!.,)]", *q))
          return p + 1;
      }
    } else if (c == ';' && braces == 0 && past) {
      return p + 1;
    }
    ++p;
  }
  return end;
}
