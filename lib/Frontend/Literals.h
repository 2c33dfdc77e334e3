//===- Literals.h - Scanning and decoding of CSL literals -------*- C++ -*-===//

#ifndef TESSERA_LIB_FRONTEND_LITERALS_H
#define TESSERA_LIB_FRONTEND_LITERALS_H

#include "tessera/Frontend/AST.h"

#include <string>

namespace tessera::frontend::detail {

struct LiteralResult {
  ast::Expr *node = nullptr; // null on error
  const char *end = nullptr; // one past the literal
  const char *errorLoc = nullptr;
  std::string error;
};

/// Scans the number, character or string literal starting at `p` (a digit or
/// a quote) and builds its node in `file`. Malformed literals produce an
/// error message and location instead.
LiteralResult lexLiteral(ast::SourceFile &file, const char *p, const char *end);

} // namespace tessera::frontend::detail

#endif // TESSERA_LIB_FRONTEND_LITERALS_H
