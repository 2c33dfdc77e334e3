//===- Binary.h - PE program binaries and the fabric file -------*- C++ -*-===//
//
// The versioned container the compiler writes and the emulator loads: one
// program binary per distinct PE program, and one fabric file saying which
// PE runs which program and how each router is configured. This is the only
// contract between compiler and emulator; docs/BinaryFormat.md gives every
// byte. Plain C++ with no LLVM or MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_TARGET_PEBINARY_BINARY_H
#define TESSERA_TARGET_PEBINARY_BINARY_H

#include "tessera/Target/PEBinary/ISA.h"
#include "tessera/Target/TargetModel.h"

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::pe {

/// Readers accept exactly this major version and any minor version; a minor
/// version only ever adds optional sections, which older readers skip.
inline constexpr uint16_t FormatMajorVersion = 1;
inline constexpr uint16_t FormatMinorVersion = 3;
inline constexpr std::array<uint8_t, 4> ProgramMagic = {'T', 'P', 'E', 'B'};
inline constexpr std::array<uint8_t, 4> FabricMagic = {'T', 'F', 'A', 'B'};

//===----------------------------------------------------------------------===//
// Program binary
//===----------------------------------------------------------------------===//

enum class SymbolKind : uint8_t { Data, Function };

/// Element and parameter types as the host sees them.
enum class ElemType : uint8_t {
  None,
  I8,
  U8,
  I16,
  U16,
  I32,
  U32,
  I64,
  U64,
  F16,
  BF16,
  F32,
  Bool
};
inline constexpr unsigned NumElemTypes = 13;
/// Bytes of one element (Bool is one byte; None is 0).
unsigned getElemTypeBytes(ElemType type);
/// out.json's name of an element type: "none", "i8", ..., "f32", "bool".
std::string_view getElemTypeName(ElemType type);
/// The element type out.json names so, or none.
std::optional<ElemType> parseElemTypeName(std::string_view name);
/// "data", "local", "control".
const char *getTaskKindName(target::TaskKind kind);

struct Symbol {
  std::string name;
  uint16_t address = 0; ///< byte address
  SymbolKind kind = SymbolKind::Data;
  ElemType elemType = ElemType::None; ///< data: element type
  uint32_t count = 0;                 ///< data: number of elements
  bool isMutable = false;             ///< data: the host may write it
  std::vector<ElemType> params;       ///< functions: parameter types
  bool operator==(const Symbol &) const = default;
};

/// A global variable of the program, for debuggers: the host may read it
/// but not write it (that takes an @export_symbol). Omitted by `cslc -g0`.
struct Variable {
  std::string name; ///< as in the source; module members are qualified
  uint16_t address = 0;
  ElemType elemType = ElemType::None;
  uint32_t count = 0; ///< number of elements
  bool operator==(const Variable &) const = default;
};

struct TaskEntry {
  target::TaskKind kind = target::TaskKind::Local;
  uint8_t id = 0;
  uint16_t entry = 0; ///< code byte address of the task's first instruction
  bool operator==(const TaskEntry &) const = default;
};

/// Binds a queue to a color at load (WSE-3's @initialize_queue).
struct QueueInit {
  bool output = false;
  uint8_t queue = 0;
  uint8_t color = 0;
  /// Input queues of a program with a separate control task table: offsets
  /// the control task entries of its control wavelets (`.ctrl_table_id`).
  uint8_t ctrlTableID = 0;
  bool operator==(const QueueInit &) const = default;
};

/// What the loader does, in order, before any task runs.
enum class StartupKind : uint8_t { Activate, Block, Unblock, Call };
struct StartupAction {
  StartupKind kind = StartupKind::Activate;
  BlockSpace space = BlockSpace::Task; ///< what Block/Unblock name
  uint16_t value = 0;                  ///< an ID, or for Call the code address
  bool operator==(const StartupAction &) const = default;
};

struct LineEntry {
  uint16_t address = 0; ///< code byte address of an instruction
  uint16_t file = 0;    ///< index into ProgramBinary::files
  uint32_t line = 0;
  uint16_t column = 0;
  bool operator==(const LineEntry &) const = default;
};

struct ProgramBinary {
  target::Arch arch = target::Arch::WSE2;
  uint16_t codeAddress = 0; ///< where the code is loaded (byte address)
  std::vector<uint16_t> code;
  uint16_t dataAddress = 0; ///< where the initialised data is loaded
  std::vector<uint8_t> data;
  uint16_t bssAddress = 0; ///< zero-filled region
  uint16_t bssSize = 0;
  /// WSE-3's `@set_control_task_table`: instructions per entry (2, 4 or 8)
  /// and the stride of `ctrlTableID`; 0 when control tasks share the task
  /// table with data and local tasks.
  uint8_t controlTableInstructions = 0;
  uint8_t controlTableStride = 0;
  std::vector<Symbol> symbols;
  std::vector<TaskEntry> tasks;
  std::vector<QueueInit> queues;
  std::vector<StartupAction> startup;
  /// Exported functions the host may launch, as indices into `symbols`.
  std::vector<uint32_t> entryPoints;
  std::vector<std::string> files;  ///< source file names for `lines`
  std::vector<LineEntry> lines;    ///< sorted by address
  std::vector<Variable> variables; ///< debug information

  /// Bytes of PE memory the program occupies: code, data and bss.
  size_t getMemoryBytes() const {
    return code.size() * 2 + data.size() + bssSize;
  }
  bool hasSeparateControlTable() const { return controlTableInstructions != 0; }
  bool operator==(const ProgramBinary &) const = default;
};

//===----------------------------------------------------------------------===//
// Fabric file
//===----------------------------------------------------------------------===//

/// Router ports, numbered as in the switch config word (docs/Library.md).
enum class Port : uint8_t { West, East, South, North, Ramp };
/// "west", "east", "south", "north", "ramp".
const char *getPortName(Port port);
/// Direction-set bits, as in the color config word: W 1, E 2, S 4, N 8,
/// RAMP 16.
inline constexpr uint8_t portBit(Port port) {
  return uint8_t(1u << static_cast<unsigned>(port));
}

enum class PopMode : uint8_t { NoPop, AlwaysPop, PopOnAdvance };

struct SwitchPosition {
  bool rxSide = true; ///< replaces the rx set (else the tx set)
  Port port = Port::Ramp;
  bool operator==(const SwitchPosition &) const = default;
};

struct Filter {
  enum class Kind : uint8_t { None, Range, Counter };
  Kind kind = Kind::None;
  uint16_t min = 0, max = 0; ///< range: the accepted index interval
  uint16_t initCounter = 0, maxCounter = 0, limit1 = 0; ///< counter
  bool countData = false, countControl = false, fastMode = false;
  bool operator==(const Filter &) const = default;
};

/// How one PE's router handles one color (fabric.color_config).
struct RouterConfig {
  uint8_t rx = 0; ///< direction set
  uint8_t tx = 0;
  std::array<std::optional<SwitchPosition>, 3> positions; ///< pos1..pos3
  uint8_t currentPosition = 0;
  bool ringMode = false;
  PopMode popMode = PopMode::NoPop;
  Filter filter;
  bool teardown = false;
  bool colorSwapX = false;
  bool colorSwapY = false;
  bool operator==(const RouterConfig &) const = default;
};

/// PEs (x..x+length-1, y) of the rectangle run program `program`.
struct ProgramRun {
  uint16_t x = 0, y = 0, length = 1;
  uint16_t program = 0; ///< index into FabricFile::programs
  bool operator==(const ProgramRun &) const = default;
};

/// PEs (x..x+length-1, y) configure `color` as `config`.
struct RouteRun {
  uint8_t color = 0;
  uint16_t x = 0, y = 0, length = 1;
  RouterConfig config;
  bool operator==(const RouteRun &) const = default;
};

/// Bytes written into one PE's memory at `symbol` + `offset` at load.
struct PEValue {
  uint16_t x = 0, y = 0;
  std::string symbol;
  uint16_t offset = 0;
  std::vector<uint8_t> bytes;
  bool operator==(const PEValue &) const = default;
};

struct FabricFile {
  target::Arch arch = target::Arch::WSE2;
  uint16_t dimsWidth = 0, dimsHeight = 0; ///< --fabric-dims
  uint16_t offsetX = 0, offsetY = 0;      ///< --fabric-offsets
  uint16_t rectWidth = 0, rectHeight = 0; ///< @set_rectangle
  bool memcpy = false;
  uint16_t channels = 0;
  std::vector<std::string> programs; ///< program binary file names
  std::vector<ProgramRun> placement; ///< sorted by (y, x), disjoint
  std::vector<RouteRun> routes;      ///< sorted by (color, y, x), disjoint
  std::vector<PEValue> values;
  bool operator==(const FabricFile &) const = default;
};

//===----------------------------------------------------------------------===//
// Writing and reading
//===----------------------------------------------------------------------===//

/// What is wrong with a file, and the byte offset where it was found.
struct FormatError {
  size_t offset = 0;
  std::string message;
  /// "offset N: message".
  std::string str() const;
};

template <typename T> struct ReadResult {
  std::optional<T> value;
  std::optional<FormatError> error;
  explicit operator bool() const { return value.has_value(); }
};

std::vector<uint8_t> writeProgram(const ProgramBinary &program);
std::vector<uint8_t> writeFabric(const FabricFile &fabric);

/// Parse and check a file. Any input is safe: corruption gives an error and
/// memory use stays proportional to the input's size.
ReadResult<ProgramBinary> readProgram(std::span<const uint8_t> bytes);
ReadResult<FabricFile> readFabric(std::span<const uint8_t> bytes);

/// CRC-32 (IEEE 802.3, reflected, as zlib computes it).
uint32_t crc32(std::span<const uint8_t> bytes);

/// Byte offsets of the header fields, for tools and tests.
inline constexpr size_t HeaderSize = 16;
inline constexpr size_t ChecksumOffset = 12;
inline constexpr size_t DirectoryEntrySize = 12;

} // namespace tessera::pe

#endif // TESSERA_TARGET_PEBINARY_BINARY_H
