//===- LayoutBuiltins.h - The builtins of a layout block --------*- C++ -*-===//
//
// `@set_rectangle`, `@set_tile_code`, `@set_color_config` and
// `@export_name`, registered with the interpreter; running the top-level
// file's layout block with them fills a LayoutDescription. `@get_rectangle`
// reads the rectangle back, in the layout and in tile code, and
// `@set_local_color_config` in a tile program's comptime code configures a
// color on every PE that runs the program.
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
  /// Runs `module`'s layout block, then the comptime blocks of the modules
  /// it imported; false after reporting errors (a missing layout block or
  /// `@set_rectangle` is one).
  bool run(sema::ModuleInstance &module);
  /// The program instance (an index into the layout's programs) whose
  /// comptime code runs next; `@set_local_color_config` applies to its PEs.
  void setCurrentProgram(std::optional<unsigned> index) {
    currentProgram = index;
  }

private:
  std::optional<sema::Value> setRectangle(sema::BuiltinArgs &args);
  std::optional<sema::Value> setTileCode(sema::BuiltinArgs &args);
  std::optional<sema::Value> setColorConfig(sema::BuiltinArgs &args);
  std::optional<sema::Value> setLocalColorConfig(sema::BuiltinArgs &args);
  /// Evaluates arguments `colorArg` and `colorArg + 1` as a routable color
  /// and its config.
  std::optional<std::pair<int64_t, ColorConfig>>
  colorAndConfigArgs(sema::BuiltinArgs &args, unsigned colorArg);
  /// Gives `color` of PE (x, y) config `index`; false after reporting a PE
  /// configured twice.
  bool configurePE(int64_t x, int64_t y, int64_t color, unsigned index,
                   llvm::SMLoc loc);
  std::optional<sema::Value> exportName(sema::BuiltinArgs &args);
  // Connections (ConnectionBuiltins.cpp).
  std::optional<sema::Value> getSymbolicColor(sema::BuiltinArgs &args);
  std::optional<sema::Value> connect(sema::BuiltinArgs &args);
  std::optional<sema::Value> hostStream(sema::BuiltinArgs &args);
  /// A color value (physical or symbolic; with `allowNumber` also a plain
  /// integer) as its ID, checked to be routable and not memcpy's.
  std::optional<int64_t> colorOf(const sema::Value &value, llvm::SMLoc loc,
                                 bool allowNumber = false);
  /// `.{x, y}` as a PE of the rectangle, `.{region, x, y}` as one of a
  /// region; errors name `what`.
  std::optional<PERef> peOf(const sema::Value &value, llvm::StringRef what,
                            llvm::SMLoc loc);
  // Code regions (RegionBuiltins.cpp).
  std::optional<sema::Value> createCodeRegion(sema::BuiltinArgs &args);
  std::optional<sema::Value> placeRegion(sema::BuiltinArgs &args);
  /// The region a value of `@create_code_region` names, if it is one.
  std::optional<unsigned> regionOf(const sema::Value &value) const;
  /// `@set_tile_code(region, x, y, file, params)` and
  /// `@set_color_config(region, x, y, color, config)`: recorded, applied
  /// once the region is placed.
  std::optional<sema::Value> setRegionTileCode(sema::BuiltinArgs &args,
                                               unsigned region);
  std::optional<sema::Value> setRegionColorConfig(sema::BuiltinArgs &args,
                                                  unsigned region);
  /// Arguments 1 and 2 as a PE of `region`.
  std::optional<PEPos> regionPEArgs(sema::BuiltinArgs &args, unsigned region);
  std::optional<sema::Value> getRectangle(sema::BuiltinArgs &args);

  bool expectArgs(sema::BuiltinArgs &args, unsigned min, unsigned max);
  /// False after reporting a call that needs the rectangle before
  /// `@set_rectangle`.
  bool expectRectangle(sema::BuiltinArgs &args);
  /// Argument `i` as a non-empty comptime_string naming a `what`.
  std::optional<std::string> nameArg(sema::BuiltinArgs &args, unsigned i,
                                     llvm::StringRef what);
  std::optional<int64_t> intArg(sema::BuiltinArgs &args, unsigned i);
  /// Evaluates arguments 0 and 1 as a PE of the rectangle.
  std::optional<std::pair<int64_t, int64_t>> peArgs(sema::BuiltinArgs &args);
  /// The program instance of the file and params at `fileArg` and after.
  std::optional<unsigned> programFor(sema::BuiltinArgs &args,
                                     unsigned fileArg = 2);

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
  std::optional<unsigned> currentProgram;
};

/// Reads the config struct of `@set_color_config`; reports errors at `loc`.
std::optional<ColorConfig> parseColorConfig(sema::DiagnosticEngine &diags,
                                            const sema::Value &config,
                                            llvm::SMLoc loc);

} // namespace tessera::frontend::elaboration

#endif // TESSERA_FRONTEND_ELABORATION_LAYOUTBUILTINS_H
