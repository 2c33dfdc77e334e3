//===- RouteChecker.h - the checks of tessera-verify-routes -----*- C++ -*-===//
//
// Plain C++ (no MLIR): a color configuration is a route on a strided range
// of PEs. Most checks are decided per range (which of its columns and rows
// lie on a fabric edge, ...), so they cost one step per configuration however
// many PEs it covers; only streams converging on a PE look at neighbours, PE
// by PE, and only for colors some PE receives from two directions.
// docs/Routing.md lists the checks and their messages.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_LIB_DIALECT_FABRIC_TRANSFORMS_ROUTECHECKER_H
#define TESSERA_LIB_DIALECT_FABRIC_TRANSFORMS_ROUTECHECKER_H

#include "tessera/Dialect/Fabric/IR/PERange.h"

#include "llvm/ADT/SmallVector.h"

#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace tessera::fabric {

/// Router ports in the switch config word's numbering; a port's bit in a
/// direction set is `1 << port` (W 1, E 2, S 4, N 8, RAMP 16).
enum class RoutePort : uint8_t { West, East, South, North, Ramp };

inline constexpr uint8_t routePortBit(RoutePort port) {
  return uint8_t(1u << static_cast<unsigned>(port));
}

/// A switch position: one port replacing the rx or the tx side.
struct RouteSwitch {
  bool rxSide = true;
  RoutePort port = RoutePort::Ramp;
};

/// One color's route on a range of PEs (a fabric.color_config), with what
/// the checks need to know of it.
struct ColorRoute {
  PERange range;
  int64_t color = 0;
  uint8_t rx = 0; ///< direction set
  uint8_t tx = 0;
  llvm::SmallVector<RouteSwitch, 3> positions; ///< pos1.. in order
  bool setsCurrentPosition = false;
  bool setsRingMode = false;
};

/// The fabric and where the program rectangle sits in it. Color
/// configurations cover only the rectangle: the PEs around it (memcpy's)
/// send nothing on the program's colors.
struct FabricGeometry {
  int64_t dimsWidth = 1, dimsHeight = 1;
  int64_t offsetX = 0, offsetY = 0;
  int64_t rectangleWidth = 0, rectangleHeight = 0;
};

enum class RouteProblemKind {
  ReservedColor,           ///< memcpy owns the color
  ReceivedFromSeveral,     ///< neighbours stream the color in from two sides
  SentOffFabric,           ///< a tx port leads off the fabric
  ReceivedFromOffFabric,   ///< an rx port faces off the fabric
  SwitchWithoutPositions,  ///< switch settings but no pos1..pos3
};

/// One problem of one route: the first PE that has it (by row, then
/// column) and how many more PEs of the range have it too.
struct RouteProblem {
  RouteProblemKind kind = RouteProblemKind::ReservedColor;
  /// The index of the route in the checked list.
  size_t route = 0;
  int64_t x = 0, y = 0;
  uint64_t otherPEs = 0;
  /// The diagnostic text, naming the PE and the color.
  std::string message;
  /// For converging streams: the routes that send them and the PE of each
  /// that does (for notes at their source lines).
  std::vector<std::pair<size_t, std::pair<int64_t, int64_t>>> senders;
};

class RouteChecker {
public:
  /// `reservedColors` are the colors memcpy owns, empty without memcpy.
  RouteChecker(const FabricGeometry &geometry,
               std::span<const unsigned> reservedColors)
      : geometry(geometry), reservedColors(reservedColors) {}

  /// The problems of a fabric's routes, ordered by route index, then kind;
  /// a route has at most one of each kind. Ranges should lie inside the
  /// rectangle (the fabric verifier checks it); PEs outside it are not
  /// checked for converging streams.
  std::vector<RouteProblem> checkAll(std::span<const ColorRoute> routes) const;

  /// The problems of a fabric with `route` as its only route.
  std::vector<RouteProblem> check(const ColorRoute &route) const {
    return checkAll(std::span(&route, 1));
  }

private:
  /// The problems `route` has on its own, at index `index`, with
  /// `converging` (its ReceivedFromSeveral problem, if any) in kind order.
  void checkRoute(const ColorRoute &route, size_t index,
                  const RouteProblem *converging,
                  std::vector<RouteProblem> &problems) const;
  /// The ReceivedFromSeveral problems of all routes, by route index.
  std::vector<RouteProblem>
  findConvergingStreams(std::span<const ColorRoute> routes) const;

  FabricGeometry geometry;
  std::span<const unsigned> reservedColors;
};

} // namespace tessera::fabric

#endif // TESSERA_LIB_DIALECT_FABRIC_TRANSFORMS_ROUTECHECKER_H
