//===- LayoutDescription.h - What a layout block describes -----*- C++ -*-===//
//
// The result of running a `layout` block: the rectangle, which program
// instance each PE runs, each PE's color configurations and the names the
// host sees. Per-PE facts are stored as runs of equal values along each row,
// so a 750x994 rectangle running one program is 994 runs, not 745,500
// entries. FabricGen turns this into a `fabric.fabric` module.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_FRONTEND_ELABORATION_LAYOUTDESCRIPTION_H
#define TESSERA_FRONTEND_ELABORATION_LAYOUTDESCRIPTION_H

#include "tessera/Frontend/Sema/ModuleInstance.h"

#include "llvm/Support/SMLoc.h"

#include <cstdint>
#include <map>
#include <tuple>
#include <optional>
#include <string>
#include <vector>

namespace tessera::frontend::elaboration {

/// PEs [begin, end) of one row holding value `value`, set by the call at
/// `loc`. Runs only merge PEs set by the same call, so that "set twice"
/// errors can point at the call that set a PE first.
struct Run {
  int64_t begin = 0;
  int64_t end = 0;
  unsigned value = 0;
  llvm::SMLoc loc;
};

/// One value (an index into some table) per PE, as sorted runs per row.
class RunGrid {
public:
  /// Sets PE (x, y); when it is set already, returns the run holding it and
  /// changes nothing.
  std::optional<Run> set(int64_t x, int64_t y, unsigned value,
                         llvm::SMLoc loc);
  /// The value of PE (x, y), if set.
  std::optional<unsigned> get(int64_t x, int64_t y) const;
  /// Rows by y, each with its runs sorted by x.
  const std::map<int64_t, std::vector<Run>> &getRows() const { return rows; }
  uint64_t getNumRuns() const;

private:
  std::map<int64_t, std::vector<Run>> rows;
};

/// A rectangle of PEs with one value: rows [y, y + height) of the columns
/// [x, x + width).
struct ValueRect {
  int64_t x = 0;
  int64_t y = 0;
  int64_t width = 1;
  int64_t height = 1;
  unsigned value = 0;
};

/// Merges equal runs of consecutive rows into rectangles, sorted by origin
/// (row, then column).
std::vector<ValueRect> mergeRuns(const RunGrid &grid);

enum class Direction : uint8_t { Ramp, North, South, East, West };

/// A direction set as a bit mask (1 << Direction).
using DirectionMask = uint8_t;

struct SwitchPosition {
  bool isRx = true;
  Direction direction = Direction::Ramp;
  bool operator==(const SwitchPosition &) const = default;
};

enum class PopMode : uint8_t { NoPop, AlwaysPop, PopOnAdvance };

struct RangeFilter {
  int64_t minIndex = 0;
  int64_t maxIndex = 0;
  bool operator==(const RangeFilter &) const = default;
};

struct CounterFilter {
  int64_t initCounter = 0;
  int64_t maxCounter = 0;
  int64_t limit1 = 0;
  bool countData = false;
  bool countControl = false;
  bool fastMode = false;
  bool operator==(const CounterFilter &) const = default;
};

/// Every field of `@set_color_config`'s config struct.
struct ColorConfig {
  DirectionMask rx = 0;
  DirectionMask tx = 0;
  bool colorSwapX = false;
  bool colorSwapY = false;
  std::optional<SwitchPosition> pos1, pos2, pos3;
  std::optional<int64_t> currentSwitchPos;
  bool ringMode = false;
  std::optional<PopMode> popMode;
  std::optional<RangeFilter> rangeFilter;
  std::optional<CounterFilter> counterFilter;
  bool teardown = false;
  /// The @set_color_config call, where route errors point; configs made by
  /// different calls stay distinct.
  llvm::SMLoc loc;
  bool operator==(const ColorConfig &other) const {
    return std::tie(rx, tx, colorSwapX, colorSwapY, pos1, pos2, pos3,
                    currentSwitchPos, ringMode, popMode, rangeFilter,
                    counterFilter, teardown) ==
               std::tie(other.rx, other.tx, other.colorSwapX, other.colorSwapY,
                        other.pos1, other.pos2, other.pos3,
                        other.currentSwitchPos, other.ringMode, other.popMode,
                        other.rangeFilter, other.counterFilter,
                        other.teardown) &&
           loc.getPointer() == other.loc.getPointer();
  }
};

/// A distinct (file, params) pair of `@set_tile_code`.
struct ProgramInstance {
  std::string path;        // canonical
  std::string displayName; // as the layout spelled it
  /// The params the call gave that the program can depend on
  /// (findProgramParams).
  sema::ParamMap params;
  sema::ModuleInstance *module = nullptr;
  llvm::SMLoc loc; // the first @set_tile_code naming it
};

/// `@export_name(name, type, mutable)`.
struct ExportedName {
  std::string name;
  const sema::Type *type = nullptr;
  bool isMutable = false;
  llvm::SMLoc loc;
};

/// Color handles from this ID up are symbolic colors (`@get_symbolic_color`):
/// index ID - SymbolicColorBase of LayoutDescription::symbolicColors. The
/// connection resolver replaces them with physical colors before any tile
/// program is elaborated.
inline constexpr int64_t SymbolicColorBase = int64_t(1) << 20;

struct SymbolicColor {
  std::string name;
  llvm::SMLoc loc;
  /// Set by resolveConnections.
  std::optional<unsigned> physical;
};

/// A PE of the rectangle.
using PEPos = std::pair<int64_t, int64_t>;

/// `@create_code_region(name, w, h)`: a rectangle of PEs addressed from
/// its own north-west corner, placed by `@place_region` or by the compiler
/// (placeLayoutRegions).
struct LayoutRegion {
  std::string name;
  int64_t width = 1, height = 1;
  std::optional<PEPos> origin;
  llvm::SMLoc loc;
  /// Set when the region placer, not `@place_region`, chose the origin.
  bool placedByCompiler = false;
};

/// `@set_tile_code(region, x, y, ...)`, applied once the region is placed.
struct RegionTile {
  unsigned region = 0;
  PEPos local;
  unsigned program = 0;
  llvm::SMLoc loc;
};

/// `@set_color_config(region, x, y, color, config)`, likewise.
struct RegionColorConfig {
  unsigned region = 0;
  PEPos local;
  int64_t color = 0;
  unsigned config = 0;
  llvm::SMLoc loc;
};

/// A PE of the rectangle, or of a region (then `pe` is region-relative
/// until the region is placed).
struct PERef {
  std::optional<unsigned> region;
  PEPos pe;
  bool operator==(const PERef &) const = default;
};

/// `@connect(color, .{.from = .{x, y}, .to = ...})`: the compiler routes
/// the color from the CE of `from` to the CEs of `to`.
struct Connection {
  int64_t color = 0; ///< physical, or a symbolic handle ID
  PERef from;
  std::vector<PERef> to;
  llvm::SMLoc loc;
};

enum class StreamDirection : uint8_t { In, Out };

/// `@host_stream(name, .{.color = c, .to = .{x, y}})` (In) or `.from`
/// (Out): words between the host and a PE's CE, through a fabric edge.
struct HostStream {
  std::string name;
  StreamDirection direction = StreamDirection::In;
  int64_t color = 0; ///< as in Connection
  PERef pe;          ///< the PE that receives (In) or sends (Out)
  llvm::SMLoc loc;
  // Set by resolveConnections: the edge PE and the port facing off the
  // rectangle through which the words cross, and the physical color.
  PEPos edgePE;
  Direction edgePort = Direction::West;
  unsigned physicalColor = 0;
};

struct LayoutDescription {
  std::optional<std::pair<int64_t, int64_t>> rectangle;
  llvm::SMLoc rectangleLoc;
  std::vector<ProgramInstance> programs;
  /// Per PE: an index into `programs`.
  RunGrid placement;
  /// Distinct configurations; color grids index into it.
  std::vector<ColorConfig> configs;
  /// Per color: per PE an index into `configs`.
  std::map<int64_t, RunGrid> colorConfigs;
  std::vector<ExportedName> exports;
  std::vector<LayoutRegion> regions;
  std::vector<RegionTile> regionTiles;
  std::vector<RegionColorConfig> regionConfigs;
  std::vector<SymbolicColor> symbolicColors;
  std::vector<Connection> connections;
  std::vector<HostStream> hostStreams;

  /// "color 3", or "color 'name'" for a symbolic one.
  std::string describeColor(int64_t color) const;
  /// The index of `config` in `configs`, adding it when new.
  unsigned internConfig(const ColorConfig &config);
};

} // namespace tessera::frontend::elaboration

#endif // TESSERA_FRONTEND_ELABORATION_LAYOUTDESCRIPTION_H
