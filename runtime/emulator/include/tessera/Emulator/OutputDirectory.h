//===- OutputDirectory.h - load what `cslc -o DIR` wrote --------*- C++ -*-===//
//
// The emulator's and host runtime's entry to a compiled program: reads
// out.json, the fabric file and every program binary, checks that they agree
// with each other and with the target, and expands the fabric into a
// FabricLayout. Bad input of any kind gives an error naming the file;
// nothing throws. docs/EmulatorLoading.md lists what is checked.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_OUTPUTDIRECTORY_H
#define TESSERA_EMULATOR_OUTPUTDIRECTORY_H

#include "tessera/Emulator/FabricLayout.h"
#include "tessera/Target/PEBinary/Binary.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::emulator {

/// One entry of out.json's `exports`: what the host can reach by name.
struct ExportInfo {
  std::string name;
  pe::SymbolKind kind = pe::SymbolKind::Data;
  pe::ElemType type = pe::ElemType::None; ///< data: element type
  bool isMutable = false;                 ///< data: the host may write it
  std::vector<pe::ElemType> params;       ///< functions: parameter types
  bool operator==(const ExportInfo &) const = default;
};

/// One entry of out.json's `host_streams`: words the host sends into the
/// fabric at an edge PE, or receives from it there (docs/Emulator.md "Edge
/// ports"). The loader checks that `port` faces off the rectangle at
/// (x, y) and that `color` is routable.
struct HostStream {
  std::string name;
  bool output = false; ///< "out": the fabric sends to the host
  uint16_t x = 0, y = 0;
  pe::Port port = pe::Port::West;
  uint8_t color = 0;
  bool operator==(const HostStream &) const = default;
};

/// out.json, except its per-program entries, which are in LoadedProgram.
/// The geometry equals the fabric file's (the loader checks it).
struct OutputMetadata {
  std::string compiler;
  std::string formatVersion; ///< "1.1"
  target::Arch arch = target::Arch::WSE2;
  uint16_t dimsWidth = 0, dimsHeight = 0; ///< fabric_dims
  uint16_t offsetX = 0, offsetY = 0;      ///< fabric_offsets
  uint16_t rectWidth = 0, rectHeight = 0; ///< rectangle
  bool memcpy = false;
  uint16_t channels = 0;
  /// Values as out.json has them: strings, as the SDK writes them.
  std::map<std::string, std::string> params;
  std::map<std::string, std::string> colors;
  std::vector<ExportInfo> exports;
  /// Indexed by stream ID; empty when out.json has no `host_streams`.
  std::vector<HostStream> hostStreams;
  std::string fabricFile; ///< relative to the output directory
  bool operator==(const OutputMetadata &) const = default;
};

/// One program binary with its out.json entry.
struct LoadedProgram {
  std::string file; ///< as the fabric file lists it: "bin/pe.tpeb"
  std::string name; ///< out.json programs[i].name
  std::string source;
  std::vector<std::string> instances;
  uint64_t stackBytes = 0; ///< the compiler's stack reservation
  pe::ProgramBinary binary;
};

struct LoadedOutput {
  std::string directory;
  OutputMetadata metadata;
  /// Indexed as the fabric file's program list (and FabricLayout).
  std::vector<LoadedProgram> programs;
  /// Per-PE bytes to write at load; each names a data symbol of its PE's
  /// program and stays inside it.
  std::vector<pe::PEValue> values;
  FabricLayout layout;

  /// The program PE (x, y) of the rectangle runs, or null.
  const LoadedProgram *programAt(unsigned x, unsigned y) const;
  /// Symbol `name` of the program PE (x, y) runs, or null.
  const pe::Symbol *findSymbolAt(unsigned x, unsigned y,
                                 std::string_view name) const;
};

/// Either a loaded output directory or why it could not be loaded.
struct LoadResult {
  std::optional<LoadedOutput> value;
  std::string error; ///< "PATH: what is wrong" when there is no value
  explicit operator bool() const { return value.has_value(); }
};

/// Loads DIR/out.json, the fabric file it names and every program binary
/// the fabric file lists (relative to the fabric file).
LoadResult loadOutputDirectory(const std::string &directory);
/// As above with out.json at `jsonPath` (`cslc --output-json=PATH`).
LoadResult loadOutputDirectory(const std::string &directory,
                               const std::string &jsonPath);

//===----------------------------------------------------------------------===//
// Symbols, for the host runtime
//===----------------------------------------------------------------------===//

/// The exported symbol `name` of a program, or null.
const pe::Symbol *findSymbol(const pe::ProgramBinary &program,
                             std::string_view name);
/// As above, only a symbol of `kind` (a data symbol for memcpy, a function
/// for launch).
const pe::Symbol *findSymbol(const pe::ProgramBinary &program,
                             std::string_view name, pe::SymbolKind kind);
/// The functions the host may launch, in the binary's order.
std::vector<const pe::Symbol *>
getEntryPoints(const pe::ProgramBinary &program);
/// The entry point `name`, or null if there is none of that name.
const pe::Symbol *findEntryPoint(const pe::ProgramBinary &program,
                                 std::string_view name);
/// Data `name` the host may read: the exported data symbol of that name,
/// else the global variable of the debug information (as a read-only
/// symbol), else nothing.
std::optional<pe::Symbol> findReadableData(const pe::ProgramBinary &program,
                                           std::string_view name);
/// Bytes of a data symbol: count times the element size (0 for functions).
uint64_t getSymbolBytes(const pe::Symbol &symbol);

} // namespace tessera::emulator

#endif // TESSERA_EMULATOR_OUTPUTDIRECTORY_H
