//===- Diagnostics.h - Semantic diagnostics ---------------------*- C++ -*-===//
//
// Prints errors and notes through the SourceMgr in the parser's format
// (`file:line:col: error: message`, the source line and a caret) and counts
// them.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_FRONTEND_SEMA_DIAGNOSTICS_H
#define TESSERA_FRONTEND_SEMA_DIAGNOSTICS_H

#include "llvm/ADT/Twine.h"
#include "llvm/Support/SMLoc.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/raw_ostream.h"

#include <functional>

namespace tessera::frontend::sema {

class DiagnosticEngine {
public:
  DiagnosticEngine(llvm::SourceMgr &sm, llvm::raw_ostream &os)
      : sm(sm), os(os) {}

  void error(llvm::SMLoc loc, const llvm::Twine &message);
  void warning(llvm::SMLoc loc, const llvm::Twine &message);
  /// A note about the last error or warning.
  void note(llvm::SMLoc loc, const llvm::Twine &message);

  /// Called after every error and warning with its location, so that a
  /// later stage can add notes (the chain of imports leading to a file).
  void setReportHook(std::function<void(llvm::SMLoc)> hook) {
    reportHook = std::move(hook);
  }

  unsigned getNumErrors() const { return numErrors; }
  /// --warnings-as-errors: a warning prints and counts as an error.
  void setWarningsAsErrors(bool enable) { warningsAsErrors = enable; }
  /// Errors reported while silenced (see Silence).
  unsigned getNumSilencedErrors() const { return numSilencedErrors; }

  /// While one is alive, diagnostics are dropped and errors counted apart:
  /// a stage tries an evaluation that may legitimately fail and falls back.
  class Silence {
  public:
    explicit Silence(DiagnosticEngine &engine) : engine(engine) {
      ++engine.silenced;
    }
    ~Silence() { --engine.silenced; }
    Silence(const Silence &) = delete;
    Silence &operator=(const Silence &) = delete;

  private:
    DiagnosticEngine &engine;
  };
  llvm::SourceMgr &getSourceMgr() { return sm; }

private:
  llvm::SourceMgr &sm;
  llvm::raw_ostream &os;
  unsigned numErrors = 0;
  bool warningsAsErrors = false;
  unsigned silenced = 0;
  unsigned numSilencedErrors = 0;
  std::function<void(llvm::SMLoc)> reportHook;
};

} // namespace tessera::frontend::sema

#endif // TESSERA_FRONTEND_SEMA_DIAGNOSTICS_H
