//===- ASTPrinter.h - Textual dump of the CSL AST ---------------*- C++ -*-===//
//
// The stable, indented form printed by `cslc --emit=ast`: one node per line,
// `Kind 'name' details <line:col-line:col>`, children indented by two spaces
// and labelled with their role where a node has several single children.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_FRONTEND_ASTPRINTER_H
#define TESSERA_FRONTEND_ASTPRINTER_H

#include "tessera/Frontend/AST.h"

#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

namespace tessera::frontend {

struct ASTPrintOptions {
  /// Print `<line:col-line:col>` after each node. Tests that compare trees
  /// parsed from differently formatted sources turn this off.
  bool locations = true;
};

void printAST(const ast::SourceFile &file, const llvm::SourceMgr &sm,
              llvm::raw_ostream &os);
void printAST(const ast::SourceFile &file, const llvm::SourceMgr &sm,
              llvm::raw_ostream &os, const ASTPrintOptions &options);

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_ASTPRINTER_H
