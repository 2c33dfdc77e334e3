//===- HostStreams.cpp - out.json's host streams against the rectangle ----===//
//
// A host stream's far end is beyond the rectangle's edge, so its port must
// face off the rectangle at its PE; the emulator trusts that and never
// checks it again.
//
//===----------------------------------------------------------------------===//

#include "Consistency.h"

namespace tessera::emulator::loader {

namespace {

const char *portText(pe::Port port) {
  switch (port) {
  case pe::Port::West:
    return "west";
  case pe::Port::East:
    return "east";
  case pe::Port::North:
    return "north";
  case pe::Port::South:
    return "south";
  case pe::Port::Ramp:
    break;
  }
  return "ramp";
}

bool facesOff(const HostStreamEntry &s, int64_t width, int64_t height) {
  switch (s.port) {
  case pe::Port::West:
    return s.x == 0;
  case pe::Port::East:
    return s.x == width - 1;
  case pe::Port::North:
    return s.y == 0;
  case pe::Port::South:
    return s.y == height - 1;
  case pe::Port::Ramp:
    break;
  }
  return false;
}

} // namespace

std::string checkHostStreams(OutputJson &json, const LoadPaths &paths) {
  OutputMetadata &m = json.metadata;
  const target::TargetModel &model = target::TargetModel::get(m.arch);
  int64_t colors = model.getNumRoutableColors();
  std::string rectangle = std::to_string(m.rectWidth) + "x" +
                          std::to_string(m.rectHeight) + " rectangle";
  for (size_t i = 0; i < json.hostStreams.size(); ++i) {
    const HostStreamEntry &s = json.hostStreams[i];
    std::string name = "'host_streams[" + std::to_string(i) + "]";
    auto fail = [&](const std::string &field, const std::string &what) {
      return paths.json + ": " + name + "." + field + "' " + what;
    };
    if (s.x >= m.rectWidth)
      return fail("x", std::to_string(s.x) + " is outside the " + rectangle +
                           " (x from 0 to " +
                           std::to_string(int(m.rectWidth) - 1) + ")");
    if (s.y >= m.rectHeight)
      return fail("y", std::to_string(s.y) + " is outside the " + rectangle +
                           " (y from 0 to " +
                           std::to_string(int(m.rectHeight) - 1) + ")");
    if (!facesOff(s, m.rectWidth, m.rectHeight))
      return fail("port", std::string("\"") + portText(s.port) +
                              "\" does not face off the " + rectangle +
                              " at PE (" + std::to_string(s.x) + ", " +
                              std::to_string(s.y) + ")");
    if (s.color >= colors)
      return fail("color", std::to_string(s.color) + " is not routable on " +
                               std::string(model.getName()) + " (colors 0 to " +
                               std::to_string(colors - 1) + ")");
    for (size_t j = 0; j < i; ++j) {
      const HostStreamEntry &o = json.hostStreams[j];
      if (o.output == s.output && o.x == s.x && o.y == s.y &&
          o.port == s.port && o.color == s.color)
        return paths.json + ": " + name + "' uses the same PE, port, color " +
               "and direction as 'host_streams[" + std::to_string(j) + "]'";
    }
    m.hostStreams.push_back({s.name, s.output, uint16_t(s.x), uint16_t(s.y),
                             s.port, uint8_t(s.color)});
  }
  return {};
}

} // namespace tessera::emulator::loader
