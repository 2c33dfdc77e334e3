//===- Grammar.h - Entry point into the X3 grammar --------------*- C++ -*-===//

#ifndef TESSERA_LIB_FRONTEND_GRAMMAR_H
#define TESSERA_LIB_FRONTEND_GRAMMAR_H

#include "ParserState.h"

namespace tessera::frontend::detail {

/// Parses one top-level declaration starting at `first` and advances
/// `first` past it. Returns false, leaving `first` unspecified, when no
/// declaration starts there. Throws SyntaxError (an x3::expectation_failure
/// whose which() is the whole message) for a malformed declaration that no
/// statement-level recovery absorbed, and TooManyErrors at the error limit.
bool parseTopLevelDecl(ParserState &state, const char *&first, ast::Node *&out);


} // namespace tessera::frontend::detail

#endif // TESSERA_LIB_FRONTEND_GRAMMAR_H
