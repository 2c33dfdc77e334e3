//===- Backend.h - from verified csl/fabric IR to the output directory ----===//
//
// The backend as cslc, tessera-opt and tests run it: the pass pipeline that
// checks and allocates (docs/Passes.md), the lowering of every program to a
// PE binary, and the writer of `cslc -o out` (docs/OutputDirectory.md).
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PIPELINES_BACKEND_H
#define TESSERA_PIPELINES_BACKEND_H

#include "mlir/IR/BuiltinOps.h"
#include "mlir/Pass/PassManager.h"
#include "tessera/Target/PEBinary/Binary.h"

#include <string>
#include <utility>
#include <vector>

namespace tessera::pipelines {

struct BackendOptions {
  bool memcpy = false;
};

/// On a module of csl.program and fabric.fabric ops: route checks on the
/// fabric; SCF to CFG, resource checks and memory allocation per program.
void buildBackendPipeline(mlir::OpPassManager &pm,
                          const BackendOptions &options);

/// One program binary with what out.json reports about it. Programs whose
/// binaries come out byte for byte the same share one.
struct CompiledProgram {
  std::string symbol;                 ///< the first csl.program lowered to it
  std::vector<std::string> instances; ///< every csl.program that shares it
  std::string fileName;               ///< relative to the output directory
  std::string sourceFile;             ///< the .csl file it was compiled from
  uint32_t stackBytes = 0;
  uint32_t numPEs = 0;
  pe::ProgramBinary binary;
};

/// A name the layout exports (`@export_name`): out.json's description of it
/// comes from here, since the layout states the host's view (element
/// signedness, whether the host may write it).
struct LayoutExport {
  std::string name;
  bool isFunction = false;
  pe::ElemType type = pe::ElemType::None; ///< data: the element type
  bool isMutable = false;
  std::vector<pe::ElemType> params; ///< functions
};

struct CompiledFabric {
  std::vector<CompiledProgram> programs;
  pe::FabricFile fabric;
  std::vector<LayoutExport> exports;
};

/// Lowers every program of `module` (after the backend pipeline) and builds
/// the fabric file. Errors are diagnostics.
mlir::LogicalResult lowerModule(mlir::ModuleOp module, CompiledFabric &result);

/// What out.json says besides the compiled programs.
struct OutputMetadata {
  std::vector<std::pair<std::string, uint64_t>> params; ///< --params
  std::vector<std::pair<std::string, uint64_t>> colors; ///< --colors
  std::string jsonPath; ///< empty: <dir>/out.json
  /// `@get_symbolic_color` names and the physical colors they got; written
  /// to colors.json.
  std::vector<std::pair<std::string, unsigned>> symbolicColors;
  /// `@host_stream`s: where each crosses the rectangle's edge.
  struct HostStream {
    std::string name;
    bool isInput = true;
    int64_t x = 0, y = 0; ///< the edge PE, rectangle coordinates
    std::string port;     ///< "west", "east", "north" or "south"
    unsigned color = 0;
  };
  std::vector<HostStream> hostStreams;
  /// Code regions and where they were placed; written to placement.json.
  struct Region {
    std::string name;
    int64_t x = 0, y = 0, width = 1, height = 1;
    bool placedByCompiler = false;
  };
  std::vector<Region> regions;
};

/// Writes `dir`/bin/<program>.tpeb, `dir`/fabric.tfab and out.json. Returns
/// an error message, or an empty string on success.
std::string writeOutputDirectory(const CompiledFabric &compiled,
                                 const OutputMetadata &metadata,
                                 const std::string &dir);

} // namespace tessera::pipelines

#endif // TESSERA_PIPELINES_BACKEND_H
