//===- TopLevelParams.cpp - --params and --colors for the top file --------===//

#include "TopLevelParams.h"

#include "llvm/Support/raw_ostream.h"

using namespace tessera;
using namespace tessera::driver;
namespace sema = tessera::frontend::sema;

static sema::ModuleInstance *fail(const llvm::Twine &message) {
  llvm::errs() << "cslc: error: " << message << "\n";
  return nullptr;
}

sema::ModuleInstance *
driver::createTopLevelModule(const CslcOptions &options,
                             sema::Interpreter &interp,
                             const frontend::elaboration::LoadedFile &top) {
  sema::TypeContext &types = interp.getTypes();
  auto undeclared = [&](llvm::StringRef flag, llvm::StringRef name) {
    return fail("'" + flag + "' names '" + name + "', which '" +
                options.inputFile + "' does not declare as a param");
  };
  sema::ParamMap params;
  for (const NamedValue &param : options.params) {
    if (!top.findParam(param.name))
      return undeclared("--params", param.name);
    params[param.name] = sema::Value::getComptimeInt(
        types, llvm::APSInt(llvm::APInt(64, param.value), /*isUnsigned=*/true));
  }
  // A color value is `@get_color(v)`; the driver has checked the range.
  const sema::Type *colorType = types.get(sema::Type::Kind::Color);
  for (const NamedValue &color : options.colors) {
    if (!top.findParam(color.name))
      return undeclared("--colors", color.name);
    if (params.count(color.name))
      return fail("'" + color.name +
                  "' is given by both '--params' and '--colors'");
    params[color.name] = sema::Value::getHandle(colorType, color.value);
  }
  sema::ModuleInstance &module =
      interp.createModule(*top.ast, options.inputFile, std::move(params));
  for (const NamedValue &color : options.colors) {
    const frontend::ast::VarDecl *decl = top.findParam(color.name);
    if (!decl->type)
      continue;
    const sema::Type *type = interp.evaluateType(module, *decl->type);
    if (!type)
      return nullptr;
    if (!type->is(sema::Type::Kind::Color))
      return fail("'--colors' gives a color to '" + color.name + "', which '" +
                  options.inputFile + "' declares as '" + type->str() + "'");
  }
  return &module;
}
