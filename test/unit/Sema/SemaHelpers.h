//===- SemaHelpers.h - Run the comptime interpreter in unit tests -*- C++
//-*-===//

#ifndef TESSERA_TEST_UNIT_SEMA_SEMAHELPERS_H
#define TESSERA_TEST_UNIT_SEMA_SEMAHELPERS_H

#include "ParseHelpers.h"

#include "tessera/Frontend/Sema/Interpreter.h"

#include "llvm/ADT/StringExtras.h"

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tessera::frontend::test {

/// A parsed file, an interpreter over it and everything they printed.
struct Session {
  Parsed parsed;
  std::string diagText;
  std::string printed;
  llvm::raw_string_ostream diagOS{diagText};
  llvm::raw_string_ostream printOS{printed};
  sema::TypeContext types;
  std::unique_ptr<sema::DiagnosticEngine> diags;
  std::unique_ptr<sema::Interpreter> interp;
  sema::ModuleInstance *module = nullptr;

  /// Evaluates global `name`, reporting errors at its declaration.
  std::optional<sema::Value> get(llvm::StringRef name) {
    sema::GlobalSlot *slot = module->findGlobal(name);
    llvm::SMLoc loc = slot ? slot->decl->getLoc() : llvm::SMLoc();
    return interp->getGlobal(*module, name, loc);
  }
  /// The printed form of global `name`, or "<error>".
  std::string str(llvm::StringRef name) {
    std::optional<sema::Value> v = get(name);
    return v ? v->str() : "<error>";
  }
  /// The "error:"/"note:" lines of the diagnostics, without source lines.
  std::vector<std::string> messages() const {
    std::vector<std::string> out;
    llvm::SmallVector<llvm::StringRef> lines;
    llvm::StringRef(diagText).split(lines, '\n');
    for (llvm::StringRef l : lines)
      if (l.contains(": error: ") || l.contains(": note: ") ||
          l.contains(": warning: "))
        out.push_back(l.str());
    return out;
  }
  /// The first error line, or "".
  std::string firstError() const {
    for (const std::string &m : messages())
      if (llvm::StringRef(m).contains(": error: "))
        return m;
    return "";
  }
};

/// Builds param values in the session's TypeContext.
using ParamBuilder = std::function<void(sema::TypeContext &, sema::ParamMap &)>;

inline std::unique_ptr<Session> load(const std::string &text,
                                     ParamBuilder buildParams = {},
                                     sema::InterpreterOptions options = {}) {
  auto s = std::make_unique<Session>();
  sema::ParamMap params;
  if (buildParams)
    buildParams(s->types, params);
  s->parsed = parse(text);
  s->diags = std::make_unique<sema::DiagnosticEngine>(*s->parsed.sm, s->diagOS);
  s->interp = std::make_unique<sema::Interpreter>(s->types, *s->diags,
                                                  s->printOS, options);
  s->module =
      &s->interp->createModule(s->parsed.file(), "test.csl", std::move(params));
  return s;
}

} // namespace tessera::frontend::test

#endif // TESSERA_TEST_UNIT_SEMA_SEMAHELPERS_H
