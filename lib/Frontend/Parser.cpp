//===- Parser.cpp - Top-level parse loop ----------------------------------===//
//
// Parses declarations one at a time. A declaration that fails is reported
// and skipped (see resynchronize), so each top-level declaration can yield
// its own error.
//
//===----------------------------------------------------------------------===//

#include "tessera/Frontend/Parser.h"

#include "Grammar.h"
#include "Tokens.h"

#include <vector>

using namespace tessera::frontend;
using namespace tessera::frontend::detail;

ParseResult tessera::frontend::parseSourceFile(llvm::SourceMgr &sm,
                                               unsigned bufferID,
                                               llvm::raw_ostream &diagOS,
                                               const ParseOptions &options) {
  ParseResult result;
  result.file = std::make_unique<ast::SourceFile>();
  ast::SourceFile &file = *result.file;
  file.bufferID = bufferID;
  const llvm::MemoryBuffer *buffer = sm.getMemoryBuffer(bufferID);
  const char *begin = buffer->getBufferStart();
  const char *end = buffer->getBufferEnd();
  file.setRange(llvm::SMRange(llvm::SMLoc::getFromPointer(begin),
                              llvm::SMLoc::getFromPointer(end)));

  ParserState state(file, sm, diagOS, begin, end,
                    std::max(1u, options.maxNestingDepth),
                    std::max(1u, options.maxErrors));
  std::vector<ast::Node *> decls;
  const char *p = begin;
  try {
    for (;;) {
      p = skipTrivia(p, end);
      if (p == end)
        break;
      const char *start = p;
      try {
        ast::Node *decl = nullptr;
        if (parseTopLevelDecl(state, p, decl)) {
          if (decl)
            decls.push_back(decl);
          continue;
        }
        state.error(start, expectedMessage("declaration", start, end));
        p = resynchronize(start, start, end, /*topLevel=*/true);
      } catch (const SyntaxError &e) {
        p = state.recover(start, e.where(), e.which(), /*topLevel=*/true);
      }
    }
  } catch (const TooManyErrors &) {
  }
  file.decls = file.copyArray(llvm::ArrayRef<ast::Node *>(decls));
  unsigned height = 0;
  for (const ast::Node *decl : decls)
    height = std::max(height, decl->getHeight());
  file.setHeight(height + 1);
  result.numErrors = state.numErrors;
  return result;
}
