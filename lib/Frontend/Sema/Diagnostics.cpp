//===- Diagnostics.cpp - Semantic diagnostics -----------------------------===//

#include "tessera/Frontend/Sema/Diagnostics.h"

using namespace tessera::frontend::sema;

void DiagnosticEngine::error(llvm::SMLoc loc, const llvm::Twine &message) {
  if (silenced) {
    ++numSilencedErrors;
    return;
  }
  ++numErrors;
  sm.PrintMessage(os, loc, llvm::SourceMgr::DK_Error, message);
  if (reportHook)
    reportHook(loc);
}

void DiagnosticEngine::warning(llvm::SMLoc loc, const llvm::Twine &message) {
  if (silenced)
    return;
  if (warningsAsErrors) {
    ++numErrors;
    sm.PrintMessage(os, loc, llvm::SourceMgr::DK_Error,
                    message + " [--warnings-as-errors]");
  } else {
    sm.PrintMessage(os, loc, llvm::SourceMgr::DK_Warning, message);
  }
  if (reportHook)
    reportHook(loc);
}

void DiagnosticEngine::note(llvm::SMLoc loc, const llvm::Twine &message) {
  if (silenced)
    return;
  sm.PrintMessage(os, loc, llvm::SourceMgr::DK_Note, message);
}
