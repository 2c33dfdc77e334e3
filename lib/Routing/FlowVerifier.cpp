//===- FlowVerifier.cpp - follow each flow through router tables ----------===//
//
// Deliberately written without the router's graph, the Mesh helper, the
// color assigner or the table builder (it shares only the problem's checks
// and the port helpers): a bug there must not hide a bug here.
//
//===----------------------------------------------------------------------===//

#include "tessera/Routing/FlowVerifier.h"

#include "Format.h"

#include <algorithm>
#include <deque>
#include <map>
#include <set>

namespace tessera::routing {
namespace {

/// The flow's wavelets arriving at `pe` through `port`, sent by `from` (a
/// PE index; -1 at the source).
struct Arrival {
  int pe;
  Port port;
  int from;
};

/// Where a flow went while it was followed.
struct Trace {
  /// The port and sender of each PE's first arrival, by PE index.
  std::map<int, std::pair<Port, int>> reached;
  std::vector<int> deliveries;
  std::vector<std::pair<int, Port>> exits;
};

class FlowChecker {
public:
  FlowChecker(const RoutingProblem &problem,
              const std::vector<unsigned> &colors, const RouterTables &tables)
      : problem(problem), colors(colors), configs(tables.configs),
        width(problem.width), height(problem.height) {}

  std::vector<Finding> run();

private:
  void add(FindingKind kind, std::vector<std::string> flows, PE pe,
           unsigned color, std::string message) {
    findings.push_back({kind, std::move(flows), pe, color, std::move(message)});
  }

  bool isInside(PE pe) const {
    return pe.x >= 0 && pe.y >= 0 && pe.x < width && pe.y < height;
  }
  int getIndex(PE pe) const { return pe.y * width + pe.x; }
  PE getPE(int index) const { return {index % width, index / width}; }
  /// How many flows the link leaving `pe` through `port` holds.
  int getCapacity(PE pe, Port port) const;

  void scanTables();
  void follow(int flow);
  void arrive(int flow, const Arrival &arrival, Trace &trace,
              std::deque<Arrival> &queue);
  void checkEnds(int flow, const Trace &trace);
  void checkLinks();

  const RoutingProblem &problem;
  const std::vector<unsigned> &colors;
  const std::vector<ColorConfig> &configs;
  int width, height;
  std::vector<Finding> findings;

  std::set<int> blocked;
  std::map<std::string, int> flowOf;
  /// The first entry of each (PE index, color).
  std::map<std::pair<int, unsigned>, size_t> configAt;
  std::vector<bool> configReached;
  std::set<std::tuple<std::string, std::string, int>> meetings;
};

int FlowChecker::getCapacity(PE pe, Port port) const {
  for (const LinkCapacity &link : problem.linkCapacities)
    if (link.from == pe && link.direction == port)
      return link.capacity;
  return problem.linkCapacity.value_or(static_cast<int>(problem.colors.size()));
}

void FlowChecker::scanTables() {
  configReached.assign(configs.size(), false);
  for (size_t i = 0; i < configs.size(); ++i) {
    const ColorConfig &config = configs[i];
    std::string where =
        formatPE(config.pe) + " color " + std::to_string(config.color);
    if (!isInside(config.pe)) {
      add(FindingKind::OutsideMesh, {config.owner}, config.pe, config.color,
          where + " (flow '" + config.owner + "') lies outside " +
              formatMesh(width, height));
      continue;
    }
    auto [it, inserted] =
        configAt.insert({{getIndex(config.pe), config.color}, i});
    if (!inserted) {
      const std::string &first = configs[it->second].owner;
      std::vector<std::string> owners = {first};
      if (config.owner != first)
        owners.push_back(config.owner);
      add(FindingKind::DuplicateConfig, owners, config.pe, config.color,
          where + " is configured twice, for " + formatFlowNames(owners));
      continue;
    }
    if (!flowOf.count(config.owner))
      add(FindingKind::UnknownOwner, {config.owner}, config.pe, config.color,
          where + " belongs to '" + config.owner + "', which names no flow");
  }
}

void FlowChecker::arrive(int flow, const Arrival &arrival, Trace &trace,
                         std::deque<Arrival> &queue) {
  const std::string &name = problem.flows[flow].name;
  unsigned color = colors[flow];
  PE pe = getPE(arrival.pe);
  std::string what = "flow '" + name + "' color " + std::to_string(color);
  std::string from(getPortName(arrival.port));
  if (blocked.count(arrival.pe)) {
    add(FindingKind::BlockedPE, {name}, pe, color,
        what + " crosses blocked " + formatPE(pe));
    return;
  }
  auto found = configAt.find({arrival.pe, color});
  if (found == configAt.end()) {
    add(FindingKind::NotConfigured, {name}, pe, color,
        what + " arrives at " + formatPE(pe) + " from " + from +
            ", where color " + std::to_string(color) + " is not configured");
    return;
  }
  const ColorConfig &config = configs[found->second];
  if (config.owner != name) {
    // Once per pair and PE, whichever of the two arrives first.
    std::string a = std::min(name, config.owner);
    std::string b = std::max(name, config.owner);
    if (meetings.insert({a, b, arrival.pe}).second)
      add(FindingKind::Meet, {name, config.owner}, pe, color,
          "flows '" + name + "' and '" + config.owner + "' of color " +
              std::to_string(color) + " meet at " + formatPE(pe));
    return;
  }
  if (!containsPort(config.rx, arrival.port)) {
    add(FindingKind::NotAccepted, {name}, pe, color,
        what + " arrives at " + formatPE(pe) + " from " + from +
            ", which the rx set (" + formatPortMask(config.rx) +
            ") does not accept");
    return;
  }
  auto earlier = trace.reached.find(arrival.pe);
  if (earlier != trace.reached.end()) {
    bool onPath = false;
    for (int sender = arrival.from; sender >= 0 && !onPath;
         sender = trace.reached.at(sender).second)
      onPath = sender == arrival.pe;
    if (onPath)
      add(FindingKind::Loop, {name}, pe, color,
          what + " loops back to " + formatPE(pe) + " from " + from);
    else
      add(FindingKind::ReceivedTwice, {name}, pe, color,
          what + " is received at " + formatPE(pe) + " from " +
              formatPortMask(getMask(earlier->second.first) |
                             getMask(arrival.port)) +
              " at once");
    return;
  }
  trace.reached[arrival.pe] = {arrival.port, arrival.from};
  configReached[found->second] = true;
  for (int i = 0; i < NumPorts; ++i) {
    Port port = getPort(i);
    if (!containsPort(config.tx, port))
      continue;
    if (port == Port::Ramp) {
      trace.deliveries.push_back(arrival.pe);
      continue;
    }
    PE next = getNeighbour(pe, port);
    if (!isInside(next))
      trace.exits.push_back({arrival.pe, port});
    else
      queue.push_back({getIndex(next), getOpposite(port), arrival.pe});
  }
}

void FlowChecker::follow(int flow) {
  const Endpoint &source = problem.flows[flow].source;
  Trace trace;
  std::deque<Arrival> queue = {{getIndex(source.pe), source.port, -1}};
  while (!queue.empty()) {
    Arrival arrival = queue.front();
    queue.pop_front();
    arrive(flow, arrival, trace, queue);
  }
  checkEnds(flow, trace);
}

void FlowChecker::checkEnds(int flow, const Trace &trace) {
  const Flow &spec = problem.flows[flow];
  unsigned color = colors[flow];
  std::string what = "flow '" + spec.name + "' color " + std::to_string(color);
  auto isSink = [&](const Endpoint &endpoint) {
    return std::find(spec.sinks.begin(), spec.sinks.end(), endpoint) !=
           spec.sinks.end();
  };
  for (const Endpoint &sink : spec.sinks) {
    int pe = getIndex(sink.pe);
    bool reached =
        sink.port == Port::Ramp
            ? std::find(trace.deliveries.begin(), trace.deliveries.end(), pe) !=
                  trace.deliveries.end()
            : std::find(trace.exits.begin(), trace.exits.end(),
                        std::pair<int, Port>(pe, sink.port)) !=
                  trace.exits.end();
    if (!reached)
      add(FindingKind::MissedSink, {spec.name}, sink.pe, color,
          what + " never reaches its sink " + formatEndpoint(sink));
  }
  for (int pe : trace.deliveries)
    if (!isSink({getPE(pe), Port::Ramp}))
      add(FindingKind::StrayDelivery, {spec.name}, getPE(pe), color,
          what + " is delivered to " + formatPE(getPE(pe)) +
              ", which is not one of its sinks");
  for (auto [pe, port] : trace.exits)
    if (!isSink({getPE(pe), port}))
      add(FindingKind::StrayExit, {spec.name}, getPE(pe), color,
          what + " leaves the fabric at " + formatEndpoint({getPE(pe), port}) +
              ", which is not one of its sinks");
}

void FlowChecker::checkLinks() {
  // The flows on each link, by (PE index, port): from the tables in color
  // order, and from beyond the edge in flow order.
  std::map<std::pair<int, Port>, std::vector<std::string>> exitFlows,
      entryFlows;
  for (const auto &[key, index] : configAt)
    for (int i = 0; i < NumMeshPorts; ++i)
      if (containsPort(configs[index].tx, getPort(i)))
        exitFlows[{key.first, getPort(i)}].push_back(configs[index].owner);
  for (const Flow &flow : problem.flows)
    if (flow.source.port != Port::Ramp)
      entryFlows[{getIndex(flow.source.pe), flow.source.port}].push_back(
          flow.name);
  int entryCapacity =
      problem.linkCapacity.value_or(static_cast<int>(problem.colors.size()));
  // Per PE, the links it sends on first, then those from beyond the edge.
  for (int pe = 0; pe < width * height; ++pe) {
    PE here = getPE(pe);
    for (int i = 0; i < NumMeshPorts; ++i) {
      Port port = getPort(i);
      int capacity = getCapacity(here, port);
      auto exit = exitFlows.find({pe, port});
      if (exit == exitFlows.end() ||
          static_cast<int>(exit->second.size()) <= capacity)
        continue;
      PE next = getNeighbour(here, port);
      std::string link = "the link from " + formatPE(here) + " " +
                         std::string(getPortName(port)) +
                         (isInside(next) ? " to " + formatPE(next)
                                         : std::string(" off the fabric"));
      add(FindingKind::LinkOverCapacity, exit->second, here, 0,
          link + " carries " + formatFlowNames(exit->second) + " but holds " +
              std::to_string(capacity));
    }
    for (int i = 0; i < NumMeshPorts; ++i) {
      Port port = getPort(i);
      auto entry = entryFlows.find({pe, port});
      if (entry == entryFlows.end() ||
          static_cast<int>(entry->second.size()) <= entryCapacity)
        continue;
      add(FindingKind::LinkOverCapacity, entry->second, here, 0,
          "the link into " + formatPE(here) + " from the " +
              std::string(getPortName(port)) + " edge carries " +
              formatFlowNames(entry->second) + " but holds " +
              std::to_string(entryCapacity));
    }
  }
}

std::vector<Finding> FlowChecker::run() {
  for (const std::string &error : validateProblem(problem))
    add(FindingKind::InvalidInput, {}, {}, 0, error);
  if (colors.size() != problem.flows.size())
    add(FindingKind::InvalidInput, {}, {}, 0,
        "expected " +
            formatCount(static_cast<long>(problem.flows.size()), "color") +
            " (one per flow), got " + std::to_string(colors.size()));
  if (!findings.empty())
    return findings;

  for (PE pe : problem.blockedPEs)
    blocked.insert(getIndex(pe));
  for (size_t flow = 0; flow < problem.flows.size(); ++flow)
    flowOf[problem.flows[flow].name] = static_cast<int>(flow);
  scanTables();
  for (size_t flow = 0; flow < problem.flows.size(); ++flow)
    follow(static_cast<int>(flow));
  for (const auto &entry : configAt) {
    const ColorConfig &config = configs[entry.second];
    if (!configReached[entry.second] && flowOf.count(config.owner))
      add(FindingKind::UnreachedConfig, {config.owner}, config.pe, config.color,
          "flow '" + config.owner + "' configures color " +
              std::to_string(config.color) + " at " + formatPE(config.pe) +
              ", which its wavelets never reach");
  }
  checkLinks();
  return findings;
}

} // namespace

std::vector<Finding> verifyFlows(const RoutingProblem &problem,
                                 const std::vector<unsigned> &colors,
                                 const RouterTables &tables) {
  return FlowChecker(problem, colors, tables).run();
}

} // namespace tessera::routing
