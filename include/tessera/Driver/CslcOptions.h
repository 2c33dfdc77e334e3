//===- CslcOptions.h - cslc's command line ----------------------*- C++ -*-===//
//
// The command line of `cslc`, compatible with the Cerebras SDK's `cslc`: the
// same flag names, both `--flag=value` and `--flag value` spellings, and
// repeatable `--params`/`--colors`/`--import-path`. Parsing is separate from
// the driver so that it can be tested in-process.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_DRIVER_CSLCOPTIONS_H
#define TESSERA_DRIVER_CSLCOPTIONS_H

#include "tessera/Target/TargetModel.h"
#include "llvm/ADT/ArrayRef.h"
#include "llvm/ADT/StringRef.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera::driver {

/// How far `cslc` runs the pipeline and what it prints.
enum class EmitKind {
  Binary, // the default: write the output directory (-o)
  AST,    // the parsed syntax tree
  CSL,    // the syntax tree printed back as CSL source
  MLIR,   // the csl and fabric modules after semantic analysis
  Fabric, // the placed and routed fabric module
  PE,     // the lowered PE programs
};

/// The 16-bit floating-point format `f16` denotes.
enum class Fp16Format { IEEE, CB16, BF16 };

/// A width and height, or an x and y offset, as given to --fabric-*.
struct Extent {
  unsigned x = 0;
  unsigned y = 0;
  bool operator==(const Extent &) const = default;
};

struct NamedValue {
  std::string name;
  uint64_t value = 0;
  bool operator==(const NamedValue &) const = default;
};

struct CslcOptions {
  std::string inputFile;
  std::string outputDir = "out";
  target::Arch arch = target::Arch::WSE2;
  std::optional<Extent> fabricDims;
  std::optional<Extent> fabricOffsets;
  /// --params, in the order given (all occurrences concatenated).
  std::vector<NamedValue> params;
  /// --colors, in the order given.
  std::vector<NamedValue> colors;
  bool memcpy = false;
  unsigned channels = 1;
  Fp16Format fp16Format = Fp16Format::IEEE;
  std::vector<std::string> importPaths;
  unsigned widthWestBuf = 0;
  unsigned widthEastBuf = 0;
  /// Set when --output-json is given; empty means the default path.
  std::optional<std::string> outputJson;
  bool outRoutes = false;
  std::optional<unsigned> maxInlinedIterations;
  std::optional<unsigned> comptimeFuncDepthLimit;
  std::optional<unsigned> maxParallelism;
  bool debugInfo = true; // -g0 turns it off
  bool warningsAsErrors = false;
  bool verbose = false;
  EmitKind emit = EmitKind::Binary;
  bool showHelp = false;
  bool showVersion = false;
};

/// Parses `args` (without the program name). On error the message names the
/// flag and says what was expected, e.g.
/// "invalid value 'wse4' for '--arch': expected one of wse2, wse3".
llvm::Expected<CslcOptions> parseCslcArguments(llvm::ArrayRef<std::string> args);

/// Prints `cslc --help`.
void printCslcHelp(llvm::raw_ostream &os);

llvm::StringRef getEmitKindName(EmitKind kind);

} // namespace tessera::driver

#endif // TESSERA_DRIVER_CSLCOPTIONS_H
