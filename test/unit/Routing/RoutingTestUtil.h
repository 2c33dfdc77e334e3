//===- RoutingTestUtil.h - building routing problems in tests ---*- C++ -*-===//

#ifndef TESSERA_TEST_UNIT_ROUTING_ROUTINGTESTUTIL_H
#define TESSERA_TEST_UNIT_ROUTING_ROUTINGTESTUTIL_H

#include "tessera/Routing/FlowVerifier.h"
#include "tessera/Routing/RoutingProblem.h"

#include <optional>
#include <string>
#include <vector>

namespace tessera::routing::test {

/// Colors 0..count-1.
inline std::vector<unsigned> getColors(unsigned count) {
  std::vector<unsigned> colors;
  for (unsigned color = 0; color < count; ++color)
    colors.push_back(color);
  return colors;
}

/// A mesh with colors 0..23 and no flows.
inline RoutingProblem makeMesh(int width, int height, unsigned colors = 24) {
  RoutingProblem problem;
  problem.width = width;
  problem.height = height;
  problem.colors = getColors(colors);
  return problem;
}

/// A flow from the CE of `source` to the CEs of `sinks`.
inline Flow makeFlow(std::string name, PE source, std::vector<PE> sinks,
                     std::optional<unsigned> pinnedColor = std::nullopt) {
  Flow flow;
  flow.name = std::move(name);
  flow.source = {source, Port::Ramp};
  for (PE sink : sinks)
    flow.sinks.push_back({sink, Port::Ramp});
  flow.pinnedColor = pinnedColor;
  return flow;
}

inline std::vector<std::string>
getMessages(const std::vector<Finding> &findings) {
  std::vector<std::string> messages;
  for (const Finding &finding : findings)
    messages.push_back(finding.message);
  return messages;
}

} // namespace tessera::routing::test

#endif // TESSERA_TEST_UNIT_ROUTING_ROUTINGTESTUTIL_H
