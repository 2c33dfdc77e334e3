//===- LayoutBuiltins.h - The builtins of a layout block --------*- C++ -*-===//
//
// `@set_rectangle`, `@set_tile_code`, `@set_color_config` and
// `@export_name`, registered with the interpreter; running the top-level
// file's layout block with them fills a LayoutDescription. `@get_rectangle`
// reads the rectangle back, in the layout and in tile code.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_FRONTEND_ELABORATION_LAYOUTBUILTINS_H
#define TESSERA_FRONTEND_ELABORATION_LAYOUTBUILTINS_H

#include "tessera/Frontend/Elaboration/LayoutDescription.h"
#include "tessera/Frontend/Elaboration/ModuleLoader.h"

namespace tessera::frontend::elaboration {

class LayoutBuilder {
public:
  LayoutBuilder(sema::Interpreter &interp, ModuleLoader &loader,
                LayoutDescription &layout)
      : interp(interp), loader(loader), layout(layout) {}

  /// Registers the layout builtins with the interpreter.
  void install();
  /// Runs `module`'s layout block; false after reporting errors (a missing
  /// layout block or `@set_rectangle` is one).
  bool run(sema::ModuleInstance &module);

private:
  std::optional<sema::Value> setRectangle(sema::BuiltinArgs &args);
  std::optional<sema::Value> setTileCode(sema::BuiltinArgs &args);
  std::optional<sema::Value> setColorConfig(sema::BuiltinArgs &args);
  std::optional<sema::Value> exportName(sema::BuiltinArgs &args);
  std::optional<sema::Value> getRectangle(sema::BuiltinArgs &args);

  bool expectArgs(sema::BuiltinArgs &args, unsigned min, unsigned max);
  std::optional<int64_t> intArg(sema::BuiltinArgs &args, unsigned i);
  /// Evaluates arguments 0 and 1 as a PE of the rectangle.
  std::optional<std::pair<int64_t, int64_t>> peArgs(sema::BuiltinArgs &args);
  std::optional<unsigned> programFor(sema::BuiltinArgs &args);

  /// A tile file and its declared params, each with whether its program
  /// can depend on it (findProgramParams); worked out once per path.
  struct TileFile {
    LoadedFile *file = nullptr;
    llvm::StringMap<bool> params;
  };
  /// Loads `path` on first use; null after reporting why it cannot be.
  const TileFile *getTileFile(llvm::StringRef path, llvm::SMLoc callLoc);

  sema::Interpreter &interp;
  ModuleLoader &loader;
  LayoutDescription &layout;
  InstanceCache programCache;
  llvm::StringMap<TileFile> tileFiles;
};

/// Reads the config struct of `@set_color_config`; reports errors at `loc`.
std::optional<ColorConfig> parseColorConfig(sema::DiagnosticEngine &diags,
                                            const sema::Value &config,
                                            llvm::SMLoc loc);

} // namespace tessera::frontend::elaboration

#endif // TESSERA_FRONTEND_ELABORATION_LAYOUTBUILTINS_H
