//===- FlowRouter.cpp - negotiated-congestion routing of flows ------------===//
//
// The graph has two nodes per port of every PE: an in-node (the flow enters
// the router there) and an out-node (the router sends it there). An in-node
// leads to the out-nodes of its PE (never back out through the port it came
// in by), a mesh out-node to the neighbour's in-node facing it. Costs sit on
// the links and on entering a router, so each flow pays once for each link
// and each PE its tree uses.
//
//===----------------------------------------------------------------------===//

#include "tessera/Routing/FlowRouter.h"
#include "tessera/Routing/Mesh.h"

#include "Format.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <functional>
#include <limits>
#include <queue>

namespace tessera::routing {
namespace {

/// Path costs are integers, in units of an uncongested link (or router), so
/// that sums are exact and ties break the same way on every machine.
using Cost = int64_t;
constexpr Cost BaseCost = 1024;
/// Congestion cannot raise one step above this, which keeps path sums far
/// from overflowing; beyond it a step is simply very expensive.
constexpr Cost MaxStepCost = Cost(1) << 40;
/// Equal-length paths prefer going straight, then turning from x to y over
/// turning from y to x (so an L runs along x first). Far below one link's
/// cost, they only break ties.
constexpr Cost TurnToVerticalCost = 1;
constexpr Cost TurnToHorizontalCost = 2;

constexpr int NodesPerPE = 2 * NumPorts;

int getInNode(int pe, Port port) {
  return pe * NodesPerPE + getPortIndex(port);
}
int getOutNode(int pe, Port port) {
  return pe * NodesPerPE + NumPorts + getPortIndex(port);
}
int getNodePE(int node) { return node / NodesPerPE; }
bool isOutNode(int node) { return node % NodesPerPE >= NumPorts; }
Port getNodePort(int node) { return getPort(node % NodesPerPE % NumPorts); }

Cost getTurnCost(Port rx, Port tx) {
  if (rx == Port::Ramp || tx == Port::Ramp)
    return 0;
  Port travel = getOpposite(rx);
  if (isHorizontal(travel) && isVertical(tx))
    return TurnToVerticalCost;
  if (isVertical(travel) && isHorizontal(tx))
    return TurnToHorizontalCost;
  return 0;
}

/// Flows using a resource, what it holds and its history of overuse.
struct Resource {
  int use = 0;
  int capacity = 0;
  double history = 0;

  int getOveruse() const { return std::max(0, use - capacity); }
  /// PathFinder's cost for one more flow: (base + history) * present.
  Cost getCost(double presentFactor) const {
    int over = std::max(0, use + 1 - capacity);
    double cost = BaseCost * (1 + history) * (1 + presentFactor * over);
    return cost >= static_cast<double>(MaxStepCost) ? MaxStepCost
                                                    : std::llround(cost);
  }
};

/// A flow's tree while it is routed: its PEs in the order they joined, with
/// the port each receives by and the ports it sends to.
struct Tree {
  std::vector<int> pes;
  std::vector<Port> rx;
  std::vector<PortMask> tx;
};

class Router {
public:
  Router(const RoutingProblem &problem, const RouterOptions &options)
      : problem(problem), options(options), mesh(problem),
        numNodes(mesh.getNumPEs() * NodesPerPE),
        links(mesh.getNumPEs() * NumMeshPorts),
        edgeEntries(mesh.getNumPEs() * NumMeshPorts), routers(mesh.getNumPEs()),
        trees(problem.flows.size()), distance(numNodes), parent(numNodes),
        nodeStamp(numNodes, 0), targetStamp(numNodes, 0),
        treeStamp(mesh.getNumPEs(), 0), treeSlot(mesh.getNumPEs(), 0) {
    for (int pe = 0; pe < mesh.getNumPEs(); ++pe) {
      routers[pe].capacity = mesh.getPECapacity();
      for (int i = 0; i < NumMeshPorts; ++i) {
        links[pe * NumMeshPorts + i].capacity =
            mesh.getLinkCapacity(mesh.getPE(pe), getPort(i));
        edgeEntries[pe * NumMeshPorts + i].capacity =
            mesh.getEdgeEntryCapacity();
      }
    }
    for (const Flow &flow : problem.flows)
      if (flow.pinnedColor)
        pinnedColors.push_back(*flow.pinnedColor);
    std::sort(pinnedColors.begin(), pinnedColors.end());
    pinnedColors.erase(std::unique(pinnedColors.begin(), pinnedColors.end()),
                       pinnedColors.end());
    // One flow per pinned color and router: two would need to share it.
    pinned.resize(mesh.getNumPEs() * pinnedColors.size());
    for (Resource &resource : pinned)
      resource.capacity = 1;
  }

  RoutingResult run();

private:
  Resource &getLink(int pe, Port port) {
    return links[pe * NumMeshPorts + getPortIndex(port)];
  }
  Resource &getEdgeEntry(int pe, Port port) {
    return edgeEntries[pe * NumMeshPorts + getPortIndex(port)];
  }
  /// The pinned-color resource of flow `flow` at `pe`, if it is pinned.
  Resource *getPinned(int flow, int pe) {
    const std::optional<unsigned> &color = problem.flows[flow].pinnedColor;
    if (!color)
      return nullptr;
    size_t k =
        std::lower_bound(pinnedColors.begin(), pinnedColors.end(), *color) -
        pinnedColors.begin();
    return &pinned[pe * pinnedColors.size() + k];
  }

  /// Adds `delta` to the use of every resource flow `flow`'s tree takes.
  void occupy(int flow, int delta);
  /// The cost of the flow entering the router of `pe`.
  Cost getRouterCost(int flow, int pe);
  /// Routes one flow; false if a sink cannot be reached at all.
  bool routeFlow(int flow);
  /// Grows `tree` to the nearest unreached target; false if none is left
  /// reachable.
  bool growTree(int flow, Tree &tree);
  void addToTree(Tree &tree, int pe, Port rx);

  bool isInTree(int pe) const { return treeStamp[pe] == currentTree; }
  /// A sink that must be entered through one port is entered only there,
  /// also on the way to other PEs: a path through it would pass it twice.
  bool mayEnter(const Flow &spec, int pe, Port rx) const {
    for (size_t i = 0; i < spec.sinkVias.size(); ++i)
      if (spec.sinkVias[i] && mesh.getIndex(spec.sinks[i].pe) == pe)
        return rx == *spec.sinkVias[i];
    return true;
  }
  /// Whether reaching target `out` from in-port `rx` of its PE meets the
  /// arrival port its sink may require.
  bool arrivesAsRequired(const Flow &spec, int out, Port rx) const {
    for (size_t i = 0; i < spec.sinkVias.size(); ++i) {
      const Endpoint &sink = spec.sinks[i];
      if (spec.sinkVias[i] &&
          getOutNode(mesh.getIndex(sink.pe), sink.port) == out)
        return rx == *spec.sinkVias[i];
    }
    return true;
  }
  bool isTarget(int node) const { return targetStamp[node] == currentSearch; }

  RoutingResult fail(const std::vector<Overuse> &overuses);
  std::vector<Overuse> collectOveruses();
  FlowRoute getRoute(const Tree &tree) const;

  const RoutingProblem &problem;
  const RouterOptions &options;
  Mesh mesh;
  int numNodes;
  std::vector<Resource> links, edgeEntries, routers, pinned;
  std::vector<unsigned> pinnedColors;
  std::vector<Tree> trees;
  double presentFactor = 0;

  // Search state, reset by bumping a stamp rather than clearing arrays.
  std::vector<Cost> distance;
  std::vector<int> parent;
  std::vector<unsigned> nodeStamp, targetStamp, treeStamp;
  std::vector<int> treeSlot; ///< A tree PE's index into Tree::pes.
  unsigned currentSearch = 0, currentTree = 0;
  std::vector<bool> sinkReached;
  int unreachableSink = -1;
};

void Router::occupy(int flow, int delta) {
  const Tree &tree = trees[flow];
  if (tree.pes.empty())
    return;
  const Endpoint &source = problem.flows[flow].source;
  if (source.port != Port::Ramp)
    getEdgeEntry(mesh.getIndex(source.pe), source.port).use += delta;
  for (size_t i = 0; i < tree.pes.size(); ++i) {
    int pe = tree.pes[i];
    routers[pe].use += delta;
    if (Resource *resource = getPinned(flow, pe))
      resource->use += delta;
    for (int p = 0; p < NumMeshPorts; ++p)
      if (containsPort(tree.tx[i], getPort(p)))
        getLink(pe, getPort(p)).use += delta;
  }
}

Cost Router::getRouterCost(int flow, int pe) {
  Cost cost = routers[pe].getCost(presentFactor);
  if (Resource *resource = getPinned(flow, pe))
    cost += resource->getCost(presentFactor) - BaseCost;
  return cost;
}

void Router::addToTree(Tree &tree, int pe, Port rx) {
  treeStamp[pe] = currentTree;
  treeSlot[pe] = static_cast<int>(tree.pes.size());
  tree.pes.push_back(pe);
  tree.rx.push_back(rx);
  tree.tx.push_back(0);
}

bool Router::routeFlow(int flow) {
  const Flow &spec = problem.flows[flow];
  Tree tree;
  ++currentTree;
  addToTree(tree, mesh.getIndex(spec.source.pe), spec.source.port);
  sinkReached.assign(spec.sinks.size(), false);
  for (size_t reached = 0; reached < spec.sinks.size(); ++reached)
    if (!growTree(flow, tree))
      return false;
  trees[flow] = std::move(tree);
  return true;
}

bool Router::growTree(int flow, Tree &tree) {
  const Flow &spec = problem.flows[flow];
  ++currentSearch;
  for (size_t i = 0; i < spec.sinks.size(); ++i) {
    if (sinkReached[i])
      continue;
    int node = getOutNode(mesh.getIndex(spec.sinks[i].pe), spec.sinks[i].port);
    targetStamp[node] = currentSearch;
  }

  // A*: every hop costs at least BaseCost for the link and BaseCost for the
  // router it enters, so twice that per hop to the nearest unreached sink
  // never overestimates what is left, and never drops by more than a step
  // costs, so the first target popped is the nearest.
  std::vector<PE> targets;
  for (size_t i = 0; i < spec.sinks.size(); ++i)
    if (!sinkReached[i])
      targets.push_back(spec.sinks[i].pe);
  auto getDistanceLeft = [&](PE pe) {
    int nearest = std::numeric_limits<int>::max();
    for (PE target : targets)
      nearest = std::min(nearest,
                         std::abs(pe.x - target.x) + std::abs(pe.y - target.y));
    return 2 * BaseCost * nearest;
  };
  auto getEstimate = [&](int node) {
    PE pe = mesh.getPE(getNodePE(node));
    if (!isOutNode(node))
      return getDistanceLeft(pe);
    Port port = getNodePort(node);
    if (port == Port::Ramp || mesh.facesEdge(pe, port))
      return Cost(0); // Only targets get here.
    return BaseCost + getDistanceLeft(getNeighbour(pe, port));
  };

  // Ordered by estimated total, then node: ties pop the lower node first,
  // which keeps the search deterministic.
  struct Entry {
    Cost estimate;
    int node;
    Cost cost;
    bool operator>(const Entry &other) const {
      return estimate != other.estimate ? estimate > other.estimate
                                        : node > other.node;
    }
  };
  std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>> queue;
  auto relax = [&](int node, Cost cost, int from) {
    if (nodeStamp[node] == currentSearch && distance[node] <= cost)
      return;
    nodeStamp[node] = currentSearch;
    distance[node] = cost;
    parent[node] = from;
    queue.push({cost + getEstimate(node), node, cost});
  };
  for (size_t i = 0; i < tree.pes.size(); ++i)
    relax(getInNode(tree.pes[i], tree.rx[i]), 0, -1);

  int sourcePE = mesh.getIndex(spec.source.pe);
  std::optional<Port> sourceExit = spec.sourceVia;
  int found = -1;
  while (!queue.empty()) {
    auto [estimate, node, cost] = queue.top();
    queue.pop();
    if (cost > distance[node])
      continue;
    int pe = getNodePE(node);
    Port port = getNodePort(node);
    if (isOutNode(node)) {
      if (isTarget(node)) {
        found = node;
        break;
      }
      int next = mesh.getIndex(getNeighbour(mesh.getPE(pe), port));
      if (!mayEnter(spec, next, getOpposite(port)))
        continue;
      relax(getInNode(next, getOpposite(port)),
            cost + getRouterCost(flow, next), node);
      continue;
    }
    PE here = mesh.getPE(pe);
    for (int i = 0; i < NumPorts; ++i) {
      Port tx = getPort(i);
      int out = getOutNode(pe, tx);
      Cost step = getTurnCost(port, tx);
      if (sourceExit && pe == sourcePE && tx != *sourceExit)
        continue;
      if (tx == Port::Ramp || mesh.facesEdge(here, tx)) {
        // Delivering to a CE or leaving the fabric ends the flow: only at
        // a sink, and only arriving by the port the sink asks for.
        if (!isTarget(out) || !arrivesAsRequired(spec, out, port))
          continue;
        if (tx != Port::Ramp) {
          if (getLink(pe, tx).capacity == 0)
            continue;
          step += getLink(pe, tx).getCost(presentFactor);
        }
        relax(out, cost + step, node);
        continue;
      }
      PE next = getNeighbour(here, tx);
      if (tx == port || mesh.isBlocked(next) || getLink(pe, tx).capacity == 0 ||
          isInTree(mesh.getIndex(next)))
        continue;
      relax(out, cost + step + getLink(pe, tx).getCost(presentFactor), node);
    }
  }
  if (found < 0) {
    for (size_t i = 0; i < spec.sinks.size(); ++i)
      if (!sinkReached[i]) {
        unreachableSink = static_cast<int>(i);
        break;
      }
    return false;
  }

  for (size_t i = 0; i < spec.sinks.size(); ++i)
    if (getOutNode(mesh.getIndex(spec.sinks[i].pe), spec.sinks[i].port) ==
        found)
      sinkReached[i] = true;
  // Walk back to the tree; out-nodes add tx ports, in-nodes add new PEs.
  std::vector<int> path;
  for (int node = found; node >= 0; node = parent[node])
    path.push_back(node);
  for (auto it = path.rbegin(); it != path.rend(); ++it) {
    int pe = getNodePE(*it);
    if (isOutNode(*it))
      tree.tx[treeSlot[pe]] |= getMask(getNodePort(*it));
    else if (!isInTree(pe))
      addToTree(tree, pe, getNodePort(*it));
  }
  return true;
}

std::vector<Overuse> Router::collectOveruses() {
  std::vector<Overuse> overuses;
  for (int pe = 0; pe < mesh.getNumPEs(); ++pe) {
    PE here = mesh.getPE(pe);
    for (int i = 0; i < NumMeshPorts; ++i) {
      const Resource &link = links[pe * NumMeshPorts + i];
      if (link.getOveruse() > 0)
        overuses.push_back({Overuse::Kind::Link, here, getPort(i), 0, link.use,
                            link.capacity});
    }
    for (int i = 0; i < NumMeshPorts; ++i) {
      const Resource &entry = edgeEntries[pe * NumMeshPorts + i];
      if (entry.getOveruse() > 0)
        overuses.push_back({Overuse::Kind::EdgeEntry, here, getPort(i), 0,
                            entry.use, entry.capacity});
    }
    if (routers[pe].getOveruse() > 0)
      overuses.push_back({Overuse::Kind::Router, here, Port::Ramp, 0,
                          routers[pe].use, routers[pe].capacity});
    for (size_t k = 0; k < pinnedColors.size(); ++k) {
      const Resource &resource = pinned[pe * pinnedColors.size() + k];
      if (resource.getOveruse() > 0)
        overuses.push_back({Overuse::Kind::PinnedColor, here, Port::Ramp,
                            pinnedColors[k], resource.use, resource.capacity});
    }
  }
  return overuses;
}

std::string describe(const Overuse &overuse, const Mesh &mesh) {
  std::string counts = formatCount(overuse.flows, "flow") + " but holds " +
                       std::to_string(overuse.capacity);
  std::string port(getPortName(overuse.port));
  switch (overuse.kind) {
  case Overuse::Kind::Link: {
    std::string text = "the link from " + formatPE(overuse.pe) + " " + port;
    if (mesh.facesEdge(overuse.pe, overuse.port))
      text += " off the fabric";
    else
      text += " to " + formatPE(getNeighbour(overuse.pe, overuse.port));
    return text + " is needed by " + counts;
  }
  case Overuse::Kind::EdgeEntry:
    return "the link into " + formatPE(overuse.pe) + " from the " + port +
           " edge is needed by " + counts;
  case Overuse::Kind::Router:
    return formatPE(overuse.pe) + " is crossed by " + counts;
  case Overuse::Kind::PinnedColor:
    return formatPE(overuse.pe) + " is crossed by " +
           std::to_string(overuse.flows) + " flows pinned to color " +
           std::to_string(overuse.color) + " but holds " +
           std::to_string(overuse.capacity);
  }
  return "";
}

/// At most this many overused resources are spelled out in the message.
constexpr size_t MaxListedOveruses = 3;

RoutingResult Router::fail(const std::vector<Overuse> &overuses) {
  RoutingResult result;
  result.overuses = overuses;
  std::vector<std::string> names;
  for (size_t flow = 0; flow < trees.size(); ++flow) {
    const Tree &tree = trees[flow];
    bool overusing = false;
    for (const Overuse &overuse : overuses) {
      int pe = mesh.getIndex(overuse.pe);
      bool inTree =
          std::find(tree.pes.begin(), tree.pes.end(), pe) != tree.pes.end();
      size_t slot =
          std::find(tree.pes.begin(), tree.pes.end(), pe) - tree.pes.begin();
      const Endpoint &source = problem.flows[flow].source;
      switch (overuse.kind) {
      case Overuse::Kind::Link:
        overusing |= inTree && containsPort(tree.tx[slot], overuse.port);
        break;
      case Overuse::Kind::EdgeEntry:
        overusing |= source == Endpoint{overuse.pe, overuse.port};
        break;
      case Overuse::Kind::Router:
        overusing |= inTree;
        break;
      case Overuse::Kind::PinnedColor:
        overusing |= inTree && problem.flows[flow].pinnedColor == overuse.color;
        break;
      }
    }
    if (overusing) {
      result.unroutedFlows.push_back(static_cast<int>(flow));
      names.push_back(problem.flows[flow].name);
    }
  }
  std::string message = "cannot route " + formatFlowNames(names) + ": ";
  for (size_t i = 0; i < overuses.size() && i < MaxListedOveruses; ++i)
    message += (i > 0 ? "; " : "") + describe(overuses[i], mesh);
  if (overuses.size() > MaxListedOveruses)
    message += "; and " + std::to_string(overuses.size() - MaxListedOveruses) +
               (overuses.size() - MaxListedOveruses == 1
                    ? " more overused link or router"
                    : " more overused links or routers");
  result.errors.push_back(message);
  return result;
}

FlowRoute Router::getRoute(const Tree &tree) const {
  FlowRoute route;
  for (size_t i = 0; i < tree.pes.size(); ++i)
    route.hops.push_back({mesh.getPE(tree.pes[i]), tree.rx[i], tree.tx[i]});
  std::sort(route.hops.begin(), route.hops.end(),
            [](const RouteHop &a, const RouteHop &b) { return a.pe < b.pe; });
  return route;
}

RoutingResult Router::run() {
  presentFactor = options.initialPresentFactor;
  std::vector<Overuse> overuses;
  for (int iteration = 1; iteration <= options.maxIterations; ++iteration) {
    for (size_t flow = 0; flow < trees.size(); ++flow) {
      int index = static_cast<int>(flow);
      occupy(index, -1);
      trees[flow] = {};
      if (!routeFlow(index)) {
        // Congestion never closes a path, so this holds for every
        // iteration: report it at once.
        const Flow &spec = problem.flows[flow];
        RoutingResult result;
        result.unroutedFlows = {index};
        result.iterations = iteration;
        result.errors.push_back("cannot route flow '" + spec.name +
                                "': no path from " +
                                formatEndpoint(spec.source) + " to its sink " +
                                formatEndpoint(spec.sinks[unreachableSink]) +
                                " avoids the blocked PEs and closed links" +
                                (spec.sourceVia || !spec.sinkVias.empty()
                                     ? " and uses the required ports"
                                     : ""));
        return result;
      }
      occupy(index, +1);
    }
    overuses = collectOveruses();
    if (overuses.empty()) {
      RoutingResult result;
      result.iterations = iteration;
      for (const Tree &tree : trees)
        result.routes.push_back(getRoute(tree));
      return result;
    }
    for (std::vector<Resource> *resources :
         {&links, &edgeEntries, &routers, &pinned})
      for (Resource &resource : *resources)
        resource.history += options.historyFactor * resource.getOveruse();
    presentFactor *= options.presentFactorGrowth;
  }
  RoutingResult result = fail(overuses);
  result.iterations = options.maxIterations;
  return result;
}

} // namespace

RoutingResult routeFlows(const RoutingProblem &problem,
                         const RouterOptions &options) {
  RoutingResult result;
  result.errors = validateProblem(problem);
  if (!result.errors.empty())
    return result;
  if (options.maxIterations < 1) {
    result.errors.push_back("the router needs at least 1 iteration, got " +
                            std::to_string(options.maxIterations));
    return result;
  }
  return Router(problem, options).run();
}

} // namespace tessera::routing
