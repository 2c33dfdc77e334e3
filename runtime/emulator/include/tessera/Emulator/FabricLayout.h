//===- FabricLayout.h - per-PE programs and router configs ------*- C++ -*-===//
//
// The fabric file stores placement and routes as row runs, which is compact
// but slow to query per PE. The emulator asks "what runs here" and "how does
// this router treat color c" for every PE and wavelet, so the layout expands
// the runs into dense grids once at load. docs/EmulatorLoading.md gives the
// memory cost.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_FABRICLAYOUT_H
#define TESSERA_EMULATOR_FABRICLAYOUT_H

#include "tessera/Target/PEBinary/Binary.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace tessera::emulator {

/// A PE's position relative to the rectangle's north-west corner, as in the
/// fabric file and `@set_tile_code`.
struct PECoord {
  uint16_t x = 0, y = 0;
  bool operator==(const PECoord &) const = default;
};

class FabricLayout {
public:
  /// The grid value of a PE that runs no program; also why a layout holds
  /// at most 65,535 programs.
  static constexpr uint16_t NoProgram = 0xFFFF;
  static constexpr size_t MaxPrograms = NoProgram;

  /// An empty 0x0 layout.
  FabricLayout() = default;
  /// Expands the runs of a fabric file as readFabric returns it (runs inside
  /// the rectangle, program indices in range, runs disjoint). Runs outside
  /// the rectangle or naming a missing program are skipped rather than
  /// trusted, and of overlapping runs the later wins, so that no input can
  /// make the layout touch memory outside its grids; the reader refuses all
  /// of these anyway.
  explicit FabricLayout(const pe::FabricFile &fabric);

  uint16_t getWidth() const { return width; }
  uint16_t getHeight() const { return height; }
  size_t getNumPrograms() const { return numPrograms; }

  /// The program index PE (x, y) runs, or none (also outside the rectangle).
  std::optional<uint16_t> programAt(unsigned x, unsigned y) const;
  /// The PEs that run `program`, sorted by (y, x); empty if out of range.
  std::span<const PECoord> getPEsOf(size_t program) const;

  /// How PE (x, y) routes `color`, or null where the PE does not configure
  /// it. The pointer stays valid as long as the layout.
  const pe::RouterConfig *routerAt(unsigned x, unsigned y,
                                   unsigned color) const;
  /// The colors PE (x, y) configures, ascending.
  std::vector<uint8_t> colorsAt(unsigned x, unsigned y) const;
  /// The colors some route run configures, ascending.
  std::vector<uint8_t> getRoutedColors() const;
  /// The distinct configurations of `color` (each stored once), in order of
  /// first appearance among its runs; empty for an unrouted color.
  std::span<const pe::RouterConfig> getConfigsOf(unsigned color) const;

  /// Bytes of the grids, PE lists and configs (a few hundred bytes of
  /// bookkeeping aside): 2 per PE for programs, 4 per placed PE for the PE
  /// lists, and per routed color 1 (2 or 4 beyond 255 or 65,535 configs)
  /// per PE plus its configs.
  size_t getMemoryBytes() const;
  /// The (PE, color) pairs rows [firstRow, endRow) configure: the lanes a
  /// network of those rows makes at least.
  size_t countConfigured(unsigned firstRow, unsigned endRow) const;

private:
  /// One routed color: its distinct configs and, per PE, 1 + the index of
  /// its config (0: not configured). Cells are 1, 2 or 4 bytes wide, the
  /// narrowest that numbers the color's configs, so the common case of a
  /// few configs per color costs one byte per PE.
  struct ColorGrid {
    uint8_t color = 0;
    uint8_t cellBytes = 1;
    std::vector<pe::RouterConfig> configs;
    std::vector<uint8_t> cells8;
    std::vector<uint16_t> cells16;
    std::vector<uint32_t> cells32;
    uint32_t cellAt(size_t index) const;
  };

  void placePrograms(const pe::FabricFile &fabric);
  void listPEs();
  void placeRoutes(const pe::FabricFile &fabric);
  bool contains(unsigned x, unsigned y) const {
    return x < width && y < height;
  }
  /// Whether a run lies inside the rectangle.
  bool fits(unsigned x, unsigned y, unsigned length) const {
    return length && y < height && x + length <= width;
  }
  size_t indexOf(unsigned x, unsigned y) const { return size_t(y) * width + x; }

  uint16_t width = 0, height = 0;
  size_t numPrograms = 0;
  std::vector<uint16_t> programGrid; ///< row-major, NoProgram where none
  std::vector<PECoord> pes;          ///< grouped by program
  std::vector<size_t> pesBegin;      ///< program i: pes[begin[i], begin[i+1])
  std::vector<ColorGrid> colorGrids; ///< ascending color
  std::array<int16_t, 256> gridOfColor = noColorGrids(); ///< or -1

  static constexpr std::array<int16_t, 256> noColorGrids() {
    std::array<int16_t, 256> none{};
    none.fill(-1);
    return none;
  }
};

} // namespace tessera::emulator

#endif // TESSERA_EMULATOR_FABRICLAYOUT_H
