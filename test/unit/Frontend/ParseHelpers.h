//===- ParseHelpers.h - Parse strings in Frontend unit tests ----*- C++ -*-===//

#ifndef TESSERA_TEST_UNIT_FRONTEND_PARSEHELPERS_H
#define TESSERA_TEST_UNIT_FRONTEND_PARSEHELPERS_H

#include "tessera/Frontend/ASTPrinter.h"
#include "tessera/Frontend/CSLPrinter.h"
#include "tessera/Frontend/Parser.h"

#include "llvm/Support/MemoryBuffer.h"

#include <memory>
#include <string>

namespace tessera::frontend::test {

/// A parsed string with its SourceMgr (which the tree points into) and the
/// diagnostics it produced.
struct Parsed {
  std::unique_ptr<llvm::SourceMgr> sm = std::make_unique<llvm::SourceMgr>();
  ParseResult result;
  std::string diagnostics;

  const ast::SourceFile &file() const { return *result.file; }
  std::string ast(bool locations = false) const {
    std::string out;
    llvm::raw_string_ostream os(out);
    printAST(*result.file, *sm, os, ASTPrintOptions{locations});
    return out;
  }
  std::string csl() const {
    std::string out;
    llvm::raw_string_ostream os(out);
    printCSL(*result.file, os);
    return out;
  }
};

inline Parsed parse(const std::string &text, ParseOptions options = {}) {
  Parsed p;
  unsigned id = p.sm->AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "test.csl"), llvm::SMLoc());
  llvm::raw_string_ostream os(p.diagnostics);
  p.result = parseSourceFile(*p.sm, id, os, options);
  return p;
}

} // namespace tessera::frontend::test

#endif // TESSERA_TEST_UNIT_FRONTEND_PARSEHELPERS_H
