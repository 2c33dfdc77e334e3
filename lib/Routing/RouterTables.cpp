//===- RouterTables.cpp - per-PE, per-color rx and tx sets ----------------===//

#include "tessera/Routing/RouterTables.h"
#include "tessera/Routing/ColorAssigner.h"

#include "Format.h"

#include <algorithm>

namespace tessera::routing {

TablesResult buildRouterTables(const RoutingProblem &problem,
                               const std::vector<FlowRoute> &routes,
                               const std::vector<unsigned> &colors) {
  TablesResult result;
  result.errors = validateProblem(problem);
  if (!result.errors.empty())
    return result;
  long numFlows = static_cast<long>(problem.flows.size());
  if (routes.size() != problem.flows.size())
    result.errors.push_back("expected " + formatCount(numFlows, "route") +
                            " (one per flow), got " +
                            std::to_string(routes.size()));
  if (colors.size() != problem.flows.size())
    result.errors.push_back("expected " + formatCount(numFlows, "color") +
                            " (one per flow), got " +
                            std::to_string(colors.size()));
  if (!result.errors.empty())
    return result;

  // Entries in flow order first, so that two of one PE and color stay in
  // flow order after sorting.
  std::vector<std::pair<ColorConfig, size_t>> ordered;
  for (size_t flow = 0; flow < routes.size(); ++flow) {
    const std::string &name = problem.flows[flow].name;
    if (std::find(problem.colors.begin(), problem.colors.end(), colors[flow]) ==
        problem.colors.end())
      result.errors.push_back("flow '" + name + "' has color " +
                              std::to_string(colors[flow]) +
                              ", which is not among the allowed colors (" +
                              formatColorList(problem.colors) + ")");
    for (const RouteHop &hop : routes[flow].hops)
      ordered.push_back({{hop.pe, colors[flow], getMask(hop.rx), hop.tx, name},
                         ordered.size()});
  }
  std::sort(ordered.begin(), ordered.end(), [](const auto &a, const auto &b) {
    if (!(a.first.pe == b.first.pe))
      return a.first.pe < b.first.pe;
    if (a.first.color != b.first.color)
      return a.first.color < b.first.color;
    return a.second < b.second;
  });
  std::vector<ColorConfig> &configs = result.tables.configs;
  for (auto &[config, order] : ordered)
    configs.push_back(std::move(config));
  for (size_t i = 1; i < configs.size(); ++i) {
    const ColorConfig &first = configs[i - 1], &second = configs[i];
    if (!(first.pe == second.pe) || first.color != second.color)
      continue;
    std::string where =
        "color " + std::to_string(first.color) + " at " + formatPE(first.pe);
    if (first.owner == second.owner)
      result.errors.push_back("flow '" + first.owner + "' configures " + where +
                              " twice");
    else
      result.errors.push_back("flows '" + first.owner + "' and '" +
                              second.owner + "' both configure " + where);
  }
  if (!result.errors.empty())
    result.tables.configs.clear();
  return result;
}

} // namespace tessera::routing
