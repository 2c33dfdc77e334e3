//===- CSLPrinter.h - Print the AST back as CSL source ----------*- C++ -*-===//
//
// `cslc --emit=csl`: a canonical rendering of the tree (two-space indent, one
// statement per line, comments dropped). Parsing the output yields the same
// tree, which the round-trip property test checks.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_FRONTEND_CSLPRINTER_H
#define TESSERA_FRONTEND_CSLPRINTER_H

#include "tessera/Frontend/AST.h"

#include "llvm/Support/raw_ostream.h"

namespace tessera::frontend {

void printCSL(const ast::SourceFile &file, llvm::raw_ostream &os);

} // namespace tessera::frontend

#endif // TESSERA_FRONTEND_CSLPRINTER_H
