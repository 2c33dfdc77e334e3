//===- Port.h - PEs, router ports and port sets -----------------*- C++ -*-===//
//
// Coordinates are the fabric's: (0, 0) is the north-west corner, x grows
// east and y south. A router has four mesh ports and RAMP, the link to and
// from its own CE. Port sets are bit masks in the config word's order
// (docs/Routing.md): west 1, east 2, south 4, north 8, ramp 16.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_ROUTING_PORT_H
#define TESSERA_ROUTING_PORT_H

#include <cstdint>
#include <string>
#include <string_view>

namespace tessera::routing {

/// The position of a processing element.
struct PE {
  int x = 0, y = 0;

  bool operator==(const PE &) const = default;
  /// Row-major: the order in which messages and tables list PEs.
  bool operator<(const PE &other) const {
    return y != other.y ? y < other.y : x < other.x;
  }
};

/// A router port; the value is its bit index in a PortMask.
enum class Port : uint8_t { West, East, South, North, Ramp };

inline constexpr int NumPorts = 5;
/// West, east, south and north: the ports that lead to a neighbour.
inline constexpr int NumMeshPorts = 4;

using PortMask = uint8_t;

constexpr PortMask getMask(Port port) {
  return static_cast<PortMask>(1u << static_cast<unsigned>(port));
}
constexpr bool containsPort(PortMask mask, Port port) {
  return (mask & getMask(port)) != 0;
}
constexpr Port getPort(int index) { return static_cast<Port>(index); }
constexpr int getPortIndex(Port port) { return static_cast<int>(port); }

/// The port a wavelet sent through `port` arrives by at the neighbour
/// (RAMP stays RAMP).
Port getOpposite(Port port);

/// The PE one hop away through a mesh port (RAMP: the PE itself).
PE getNeighbour(PE pe, Port port);

bool isHorizontal(Port port);
bool isVertical(Port port);

/// "west", "east", "south", "north", "ramp".
std::string_view getPortName(Port port);

/// "PE (3, 0)".
std::string formatPE(PE pe);

/// The ports of `mask` in port order: "west", "west and north",
/// "west, east and ramp"; "no port" when empty.
std::string formatPortMask(PortMask mask);

} // namespace tessera::routing

#endif // TESSERA_ROUTING_PORT_H
