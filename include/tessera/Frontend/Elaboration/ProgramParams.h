//===- ProgramParams.h - The params a tile program can depend on -*- C++ -*-===//
//
// The interpreter evaluates top-level declarations lazily, and a tile
// program is what its `comptime` blocks reach: the tasks they bind, the
// symbols they export and everything those name. A param outside that
// closure cannot change the program, so `@set_tile_code` leaves it out of
// the instance key and the `fabric.instance` params.
//
// The walk is syntactic and errs towards "reachable": every identifier
// counts as a use of the top-level declaration of that name, whether or not
// a local shadows it, and both branches of every `if` and `switch` count.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_FRONTEND_ELABORATION_PROGRAMPARAMS_H
#define TESSERA_FRONTEND_ELABORATION_PROGRAMPARAMS_H

#include "tessera/Frontend/AST.h"

#include "llvm/ADT/StringSet.h"

namespace tessera::frontend::elaboration {

/// Names of the top-level declarations of `file` reachable from its roots:
/// the `comptime` blocks and the `export` or `extern` declarations.
llvm::StringSet<> findReachableDecls(const ast::SourceFile &file);

/// The `param`s among findReachableDecls(file).
llvm::StringSet<> findProgramParams(const ast::SourceFile &file);

} // namespace tessera::frontend::elaboration

#endif // TESSERA_FRONTEND_ELABORATION_PROGRAMPARAMS_H
