//===- Parser.h - CSL parser entry point ------------------------*- C++ -*-===//
//
// Parses one CSL buffer into an AST, reporting syntax errors through the
// SourceMgr. The parser never aborts on bad input: it reports an error,
// resynchronises at the next statement or declaration, and returns whatever
// it could build.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_FRONTEND_PARSER_H
#define TESSERA_FRONTEND_PARSER_H

#include "tessera/Frontend/AST.h"

#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <memory>

namespace tessera::frontend {

struct ParseOptions {
  /// Nesting of expressions, types and statements beyond this is an error.
  /// This bounds the parser's stack use; see docs/Language.md.
  unsigned maxNestingDepth = 256;
  /// Parsing stops after this many errors.
  unsigned maxErrors = 50;
};

struct ParseResult {
  std::unique_ptr<ast::SourceFile>
      file; // always non-null: a partial AST when there were errors
  unsigned numErrors = 0;
};

/// Parses buffer `bufferID` of `sm`; diagnostics are printed with
/// sm.PrintMessage(os, ...) to `diagOS`. The AST refers to the buffer's
/// memory, so `sm` must outlive the result.
ParseResult parseSourceFile(llvm::SourceMgr &sm, unsigned bufferID,
                            llvm::raw_ostream &diagOS,
                            const ParseOptions &options = {});

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_PARSER_H
