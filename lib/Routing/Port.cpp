//===- Port.cpp - PEs, router ports and port sets -------------------------===//

#include "tessera/Routing/Port.h"

#include <vector>

namespace tessera::routing {

Port getOpposite(Port port) {
  switch (port) {
  case Port::West:
    return Port::East;
  case Port::East:
    return Port::West;
  case Port::South:
    return Port::North;
  case Port::North:
    return Port::South;
  case Port::Ramp:
    break;
  }
  return Port::Ramp;
}

PE getNeighbour(PE pe, Port port) {
  switch (port) {
  case Port::West:
    return {pe.x - 1, pe.y};
  case Port::East:
    return {pe.x + 1, pe.y};
  case Port::South:
    return {pe.x, pe.y + 1};
  case Port::North:
    return {pe.x, pe.y - 1};
  case Port::Ramp:
    break;
  }
  return pe;
}

bool isHorizontal(Port port) {
  return port == Port::West || port == Port::East;
}

bool isVertical(Port port) {
  return port == Port::South || port == Port::North;
}

std::string_view getPortName(Port port) {
  switch (port) {
  case Port::West:
    return "west";
  case Port::East:
    return "east";
  case Port::South:
    return "south";
  case Port::North:
    return "north";
  case Port::Ramp:
    break;
  }
  return "ramp";
}

std::string formatPE(PE pe) {
  return "PE (" + std::to_string(pe.x) + ", " + std::to_string(pe.y) + ")";
}

std::string formatPortMask(PortMask mask) {
  std::vector<std::string_view> names;
  for (int i = 0; i < NumPorts; ++i)
    if (containsPort(mask, getPort(i)))
      names.push_back(getPortName(getPort(i)));
  if (names.empty())
    return "no port";
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0)
      text += i + 1 == names.size() ? " and " : ", ";
    text += names[i];
  }
  return text;
}

} // namespace tessera::routing
