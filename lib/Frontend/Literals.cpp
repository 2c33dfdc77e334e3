//===- Literals.cpp - Scanning and decoding of CSL literals ---------------===//
//
// Integers: decimal, 0x hex, 0o octal, 0b binary, with `_` between digits.
// Floats: decimal digits with a fraction and/or an exponent. Characters and
// strings take the escapes \n \r \t \\ \' \" \xNN and \u{N...}.
//
//===----------------------------------------------------------------------===//

#include "Literals.h"
#include "ParserState.h"

#include "llvm/ADT/SmallString.h"
#include "llvm/Support/ConvertUTF.h"

#include <cstdlib>

using namespace tessera::frontend;
using namespace tessera::frontend::detail;

namespace {

LiteralResult fail(const char *loc, std::string message) {
  LiteralResult r;
  r.errorLoc = loc;
  r.error = std::move(message);
  return r;
}

int digitValue(char c) {
  if (c >= '0' && c <= '9')
    return c - '0';
  if (c >= 'a' && c <= 'f')
    return c - 'a' + 10;
  if (c >= 'A' && c <= 'F')
    return c - 'A' + 10;
  return 99;
}

/// Scans digits of `radix` with `_` separators from `p`. Returns the end, or
/// null with `err` set.
const char *scanDigits(const char *p, const char *end, unsigned radix,
                       const char *&errLoc, std::string &err) {
  const char *start = p;
  while (p != end) {
    if (*p == '_') {
      if (p == start || p + 1 == end ||
          static_cast<unsigned>(digitValue(p[1])) >= radix) {
        errLoc = p;
        err = "'_' in a number literal must be between two digits";
        return nullptr;
      }
      ++p;
      continue;
    }
    if (static_cast<unsigned>(digitValue(*p)) >= radix)
      break;
    ++p;
  }
  return p;
}

LiteralResult lexNumber(ast::SourceFile &file, const char *p, const char *end) {
  const char *start = p;
  unsigned radix = 10;
  const char *radixName = "decimal";
  if (end - p >= 2 && p[0] == '0') {
    switch (p[1]) {
    case 'x':
      radix = 16, radixName = "hexadecimal";
      break;
    case 'o':
      radix = 8, radixName = "octal";
      break;
    case 'b':
      radix = 2, radixName = "binary";
      break;
    default:
      break;
    }
  }
  const char *digits = radix == 10 ? p : p + 2;
  const char *errLoc = nullptr;
  std::string err;
  const char *q = scanDigits(digits, end, radix, errLoc, err);
  if (!q)
    return fail(errLoc, err);
  if (q == digits)
    return fail(digits, std::string("expected ") + radixName +
                            " digits after '" + std::string(p, 2) + "'");
  bool isFloat = false;
  if (radix == 10) {
    if (end - q >= 2 && q[0] == '.' && isDigit(q[1])) {
      q = scanDigits(q + 1, end, 10, errLoc, err);
      if (!q)
        return fail(errLoc, err);
      isFloat = true;
    }
    if (q != end && (*q == 'e' || *q == 'E')) {
      const char *e = q + 1;
      if (e != end && (*e == '+' || *e == '-'))
        ++e;
      if (e == end || !isDigit(*e))
        return fail(e, "expected digits in the exponent of a float literal");
      q = scanDigits(e, end, 10, errLoc, err);
      if (!q)
        return fail(errLoc, err);
      isFloat = true;
    }
  }
  if (q != end && isIdentChar(*q))
    return fail(q, "invalid character '" + std::string(1, *q) + "' in " +
                       radixName + " number literal");

  llvm::StringRef spelling(start, q - start);
  LiteralResult r;
  r.end = q;
  if (isFloat) {
    llvm::SmallString<32> clean;
    for (char c : spelling)
      if (c != '_')
        clean.push_back(c);
    auto *lit = file.create<ast::FloatLiteral>();
    lit->spelling = spelling;
    lit->value = std::strtod(clean.c_str(), nullptr);
    r.node = lit;
    return r;
  }
  auto *lit = file.create<ast::IntegerLiteral>();
  lit->spelling = spelling;
  uint64_t value = 0;
  for (const char *d = digits; d != q; ++d) {
    if (*d == '_')
      continue;
    if (__builtin_mul_overflow(value, radix, &value) ||
        __builtin_add_overflow(value, digitValue(*d), &value)) {
      lit->overflows = true;
      break;
    }
  }
  lit->value = lit->overflows ? 0 : value;
  r.node = lit;
  return r;
}

/// Decodes one character or escape of a quoted literal at `p` (not the
/// closing quote). Appends UTF-8 to `out` and sets `codePoint`.
const char *decodeOne(const char *p, const char *end, std::string *out,
                      uint32_t &codePoint, const char *&errLoc,
                      std::string &err) {
  if (*p != '\\') {
    unsigned char c = static_cast<unsigned char>(*p);
    unsigned n = c < 0x80    ? 1
                 : c >= 0xf0 ? 4
                 : c >= 0xe0 ? 3
                 : c >= 0xc0 ? 2
                             : 1;
    if (static_cast<size_t>(end - p) < n)
      n = 1;
    codePoint = c;
    if (n > 1) {
      llvm::UTF32 cp = 0;
      const llvm::UTF8 *src = reinterpret_cast<const llvm::UTF8 *>(p);
      llvm::UTF32 *dst = &cp;
      if (llvm::ConvertUTF8toUTF32(&src, src + n, &dst, dst + 1,
                                   llvm::strictConversion) ==
          llvm::conversionOK)
        codePoint = cp;
    }
    if (out)
      out->append(p, n);
    return p + n;
  }
  const char *esc = p;
  ++p;
  if (p == end || *p == '\n' || *p == '\r') {
    errLoc = esc;
    err = "unterminated escape sequence";
    return nullptr;
  }
  char c = *p++;
  switch (c) {
  case 'n':
    codePoint = '\n';
    break;
  case 'r':
    codePoint = '\r';
    break;
  case 't':
    codePoint = '\t';
    break;
  case '\\':
  case '\'':
  case '"':
    codePoint = static_cast<unsigned char>(c);
    break;
  case 'x': {
    if (end - p < 2 || digitValue(p[0]) > 15 || digitValue(p[1]) > 15) {
      errLoc = esc;
      err = "expected two hexadecimal digits after '\\x'";
      return nullptr;
    }
    codePoint = digitValue(p[0]) * 16 + digitValue(p[1]);
    p += 2;
    if (out) {
      out->push_back(static_cast<char>(codePoint));
      return p;
    }
    break;
  }
  case 'u': {
    if (p == end || *p != '{') {
      errLoc = esc;
      err = "expected '{' after '\\u'";
      return nullptr;
    }
    ++p;
    uint32_t v = 0;
    unsigned n = 0;
    while (p != end && digitValue(*p) <= 15 && n < 7)
      v = v * 16 + digitValue(*p++), ++n;
    if (n == 0 || n > 6 || p == end || *p != '}' || v > 0x10ffff ||
        (v >= 0xd800 && v <= 0xdfff)) {
      errLoc = esc;
      err = "invalid Unicode escape; expected '\\u{' with 1 to 6 hexadecimal "
            "digits of a code point and '}'";
      return nullptr;
    }
    ++p;
    codePoint = v;
    break;
  }
  default:
    errLoc = esc;
    err = "invalid escape sequence '\\" +
          (static_cast<unsigned char>(c) >= 0x20 &&
                   static_cast<unsigned char>(c) < 0x7f
               ? std::string(1, c)
               : std::string("?")) +
          "'";
    return nullptr;
  }
  if (out) {
    char buf[4];
    char *dst = buf;
    llvm::ConvertCodePointToUTF8(codePoint, dst);
    out->append(buf, dst);
  }
  return p;
}

LiteralResult lexQuoted(ast::SourceFile &file, const char *p, const char *end) {
  const char *start = p;
  char quote = *p++;
  bool isChar = quote == '\'';
  bool hasEscape = false;
  std::string decoded;
  uint32_t codePoint = 0;
  unsigned count = 0;
  const char *errLoc = nullptr;
  std::string err;
  // Strings without escapes (the usual case) are not copied.
  for (const char *q = p; q != end && *q != quote && *q != '\n'; ++q)
    if (*q == '\\') {
      hasEscape = true;
      break;
    }
  while (true) {
    if (p == end || *p == '\n')
      return fail(start, isChar ? "unterminated character literal"
                                : "unterminated string literal");
    if (*p == quote)
      break;
    p = decodeOne(p, end, hasEscape && !isChar ? &decoded : nullptr, codePoint,
                  errLoc, err);
    if (!p)
      return fail(errLoc, err);
    ++count;
  }
  LiteralResult r;
  r.end = p + 1;
  llvm::StringRef spelling(start, r.end - start);
  if (isChar) {
    if (count != 1)
      return fail(start, count == 0
                             ? "empty character literal"
                             : "character literal must contain exactly one "
                               "character");
    auto *lit = file.create<ast::CharLiteral>();
    lit->spelling = spelling;
    lit->value = codePoint;
    r.node = lit;
    return r;
  }
  auto *lit = file.create<ast::StringLiteral>();
  lit->spelling = spelling;
  lit->value =
      hasEscape ? file.copyString(decoded) : spelling.drop_front().drop_back();
  r.node = lit;
  return r;
}

} // namespace

LiteralResult tessera::frontend::detail::lexLiteral(ast::SourceFile &file,
                                                    const char *p,
                                                    const char *end) {
  if (*p == '"' || *p == '\'')
    return lexQuoted(file, p, end);
  return lexNumber(file, p, end);
}
