//===- TopLevelParams.h - --params and --colors for the top file *- C++ -*-===//
//
// Turns `--params` and `--colors` into the top-level file's module instance:
// every name must be a param of the file, given by one flag only, and a
// `--colors` value must go to a param declared as `color`.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_TOOLS_CSLC_TOPLEVELPARAMS_H
#define TESSERA_TOOLS_CSLC_TOPLEVELPARAMS_H

#include "tessera/Driver/CslcOptions.h"
#include "tessera/Frontend/Elaboration/ModuleLoader.h"

namespace tessera::driver {

/// The top file's module instance, or null after printing a
/// `cslc: error:` (or a source diagnostic, when a param's type does not
/// evaluate).
frontend::sema::ModuleInstance *
createTopLevelModule(const CslcOptions &options,
                     frontend::sema::Interpreter &interp,
                     const frontend::elaboration::LoadedFile &top);

} // namespace tessera::driver

#endif // TESSERA_TOOLS_CSLC_TOPLEVELPARAMS_H
