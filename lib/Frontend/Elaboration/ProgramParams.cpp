//===- ProgramParams.cpp - The params a tile program can depend on --------===//

#include "tessera/Frontend/Elaboration/ProgramParams.h"

#include "llvm/ADT/SmallVector.h"
#include "llvm/Support/Casting.h"
#include "llvm/ADT/StringMap.h"

using namespace tessera::frontend;
using namespace tessera::frontend::elaboration;

static llvm::StringRef getTopLevelName(const ast::Node *decl) {
  if (auto *var = llvm::dyn_cast<ast::VarDecl>(decl))
    return var->name.text;
  if (auto *fn = llvm::dyn_cast<ast::FnDecl>(decl))
    return fn->name.text;
  return "";
}

static bool isRoot(const ast::Node *decl) {
  if (llvm::isa<ast::ComptimeBlock>(decl))
    return true;
  if (auto *var = llvm::dyn_cast<ast::VarDecl>(decl)) {
    // An import runs even when nothing names it (Evaluator's
    // runComptimeBlocks), so what it is given is reached.
    if (auto *call = llvm::dyn_cast_or_null<ast::BuiltinCall>(var->init))
      if (var->varKind == ast::VarKind::Const &&
          call->name.text == "import_module")
        return true;
    return var->isExport || var->isExtern;
  }
  if (auto *fn = llvm::dyn_cast<ast::FnDecl>(decl))
    return fn->isExport || fn->isExtern;
  return false;
}

llvm::StringSet<>
elaboration::findReachableDecls(const ast::SourceFile &file) {
  // A redefined name keeps every declaration: the interpreter reports the
  // redefinition, and reaching both is the safe side.
  llvm::StringMap<llvm::SmallVector<const ast::Node *, 1>> byName;
  for (const ast::Node *decl : file.decls) {
    llvm::StringRef name = getTopLevelName(decl);
    if (!name.empty())
      byName[name].push_back(decl);
  }

  llvm::StringSet<> reached;
  llvm::SmallVector<const ast::Node *> work;
  auto reach = [&](llvm::StringRef name) {
    auto it = byName.find(name);
    if (it == byName.end() || !reached.insert(name).second)
      return;
    work.append(it->second.begin(), it->second.end());
  };
  for (const ast::Node *decl : file.decls)
    if (isRoot(decl)) {
      llvm::StringRef name = getTopLevelName(decl);
      if (name.empty())
        work.push_back(decl);
      else
        reach(name);
    }
  // An explicit stack: a file's trees are visited once each, in any order.
  while (!work.empty()) {
    const ast::Node *node = work.pop_back_val();
    if (auto *id = llvm::dyn_cast<ast::Identifier>(node))
      reach(id->name.text);
    ast::forEachChild(node, [&](const ast::Node *child) {
      work.push_back(child);
    });
  }
  return reached;
}

llvm::StringSet<>
elaboration::findProgramParams(const ast::SourceFile &file) {
  llvm::StringSet<> reachable = findReachableDecls(file);
  llvm::StringSet<> params;
  for (const ast::Node *decl : file.decls)
    if (auto *var = llvm::dyn_cast<ast::VarDecl>(decl))
      if (var->varKind == ast::VarKind::Param &&
          reachable.contains(var->name.text))
        params.insert(var->name.text);
  return params;
}
