//===- ConnectionResolver.h - Route connections, color symbols --*- C++ -*-===//
//
// After the layout block has run and before any tile program is
// elaborated: routes every `@connect` and `@host_stream` through the
// rectangle (TesseraRouting's PathFinder), gives every symbolic color one
// physical color no other color shares a router with (its DSatur assigner),
// writes the routes as color configurations, and replaces symbolic colors
// in tile params and hand-written configurations by their physical colors.
// docs/Language.md ("Connections") gives the rules.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_FRONTEND_ELABORATION_CONNECTIONRESOLVER_H
#define TESSERA_FRONTEND_ELABORATION_CONNECTIONRESOLVER_H

#include "tessera/Frontend/Elaboration/LayoutDescription.h"
#include "tessera/Frontend/Sema/Diagnostics.h"
#include "tessera/Target/TargetModel.h"

namespace tessera::frontend::elaboration {

struct ResolverOptions {
  target::Arch arch = target::Arch::WSE2;
  /// memcpy's colors are then not given out.
  bool memcpy = false;
};

/// False after reporting why the layout's connections cannot be routed or
/// colored. A layout without symbolic colors, connections or streams is
/// left unchanged.
bool resolveConnections(LayoutDescription &layout, sema::TypeContext &types,
                        sema::DiagnosticEngine &diags,
                        const ResolverOptions &options);

} // namespace tessera::frontend::elaboration

#endif // TESSERA_FRONTEND_ELABORATION_CONNECTIONRESOLVER_H
