//===- ConnectionResolver.cpp - Route connections, color symbols ----------===//
//
// Every color (symbolic, or physical where the layout configures it by
// hand) is one group for coloring: the PEs its routes cross and the PEs the
// layout configures it at. Two groups sharing a PE need distinct physical
// colors; a group's own routes must not share a PE, since a router holds
// one configuration per color.
//
//===----------------------------------------------------------------------===//

#include "tessera/Frontend/Elaboration/ConnectionResolver.h"

#include "tessera/Routing/ColorAssigner.h"
#include "tessera/Routing/FlowRouter.h"
#include "tessera/Routing/FlowVerifier.h"

#include "llvm/ADT/STLExtras.h"

#include <map>
#include <set>
#include <span>

using namespace tessera;
using namespace tessera::frontend;
using namespace tessera::frontend::elaboration;

namespace {

using routing::Port;
using routing::PortMask;

/// The layout's directions and the router's ports, pair by pair (their
/// bit orders differ).
constexpr std::pair<Direction, Port> DirectionPorts[] = {
    {Direction::West, Port::West},
    {Direction::East, Port::East},
    {Direction::South, Port::South},
    {Direction::North, Port::North},
    {Direction::Ramp, Port::Ramp}};

Direction toDirection(Port port) {
  for (auto [direction, p] : DirectionPorts)
    if (p == port)
      return direction;
  return Direction::Ramp;
}

DirectionMask toDirectionMask(PortMask ports) {
  DirectionMask mask = 0;
  for (auto [direction, port] : DirectionPorts)
    if (routing::containsPort(ports, port))
      mask |= DirectionMask(1u << unsigned(direction));
  return mask;
}

PortMask toPortMask(DirectionMask mask) {
  PortMask ports = 0;
  for (auto [direction, port] : DirectionPorts)
    if (mask & (1u << unsigned(direction)))
      ports |= routing::getMask(port);
  return ports;
}

/// Every port a config may receive from (rx) or send to (tx), over its
/// base routes and its switch positions.
PortMask getAllPorts(const ColorConfig &config, bool rx) {
  DirectionMask mask = rx ? config.rx : config.tx;
  for (const std::optional<SwitchPosition> &position :
       {config.pos1, config.pos2, config.pos3})
    if (position && position->isRx == rx)
      mask |= DirectionMask(1u << unsigned(position->direction));
  return toPortMask(mask);
}

/// The one mesh port of `ports`, if it has exactly one.
std::optional<Port> getSingleMeshPort(PortMask ports) {
  std::optional<Port> found;
  for (int i = 0; i < routing::NumMeshPorts; ++i)
    if (routing::containsPort(ports, routing::getPort(i))) {
      if (found)
        return std::nullopt;
      found = routing::getPort(i);
    }
  return found;
}

std::string formatPE(PEPos pe) {
  return "PE (" + std::to_string(pe.first) + ", " + std::to_string(pe.second) +
         ")";
}

/// One flow of the routing problem: a connection's, or a host stream's.
struct FlowOrigin {
  int64_t color = 0;
  llvm::SMLoc loc;
  PEPos source;
  std::vector<PEPos> sinks;
  bool edgeSource = false, edgeSink = false;
};

class Resolver {
public:
  Resolver(LayoutDescription &layout, sema::TypeContext &types,
           sema::DiagnosticEngine &diags, const ResolverOptions &options)
      : layout(layout), types(types), diags(diags), options(options),
        model(target::TargetModel::get(options.arch)),
        width(layout.rectangle->first), height(layout.rectangle->second) {}

  bool run();

private:
  bool isSymbolic(int64_t color) const { return color >= SymbolicColorBase; }
  std::string describeColor(int64_t color) const {
    if (isSymbolic(color))
      return "color '" + layout.symbolicColors[color - SymbolicColorBase].name +
             "'";
    return "color " + std::to_string(color);
  }
  /// The name of a symbolic color, "color N" for a physical one; the
  /// routing library quotes it.
  std::string getPlainName(int64_t color) const {
    if (isSymbolic(color))
      return layout.symbolicColors[color - SymbolicColorBase].name;
    return "color " + std::to_string(color);
  }
  /// The hand-written config of `color` at `pe`, if any.
  const ColorConfig *getConfig(int64_t color, PEPos pe) const;
  /// The edge PE and port a host stream of `pe` crosses: towards the
  /// direction the layout already fixed there, else the nearest edge.
  std::pair<PEPos, Port> chooseEdge(PEPos pe, std::optional<Port> via) const;
  /// The port a hand-written config at an endpoint forces; reports a config
  /// that leaves no mesh port to use.
  bool getRequiredPort(int64_t color, PEPos pe, bool isSource, llvm::SMLoc loc,
                       std::optional<Port> &via);
  bool buildFlows();
  bool route();
  bool color();
  bool writeRoutes();
  /// Follows every flow through the configs now in the layout with
  /// TesseraRouting's independent verifier: a finding is a bug here.
  bool verifyRoutes();
  void substituteParams();

  LayoutDescription &layout;
  sema::TypeContext &types;
  sema::DiagnosticEngine &diags;
  const ResolverOptions &options;
  const target::TargetModel &model;
  int64_t width, height;

  std::vector<unsigned> allowedColors;
  routing::RoutingProblem problem;
  std::vector<FlowOrigin> origins;
  std::vector<routing::FlowRoute> routes;
  /// Physical color of every color ID in use.
  std::map<int64_t, unsigned> physical;
};

const ColorConfig *Resolver::getConfig(int64_t color, PEPos pe) const {
  auto grid = layout.colorConfigs.find(color);
  if (grid == layout.colorConfigs.end())
    return nullptr;
  std::optional<unsigned> index = grid->second.get(pe.first, pe.second);
  return index ? &layout.configs[*index] : nullptr;
}

std::pair<PEPos, Port> Resolver::chooseEdge(PEPos pe,
                                            std::optional<Port> via) const {
  auto edgeTowards = [&](Port port) -> std::pair<PEPos, Port> {
    switch (port) {
    case Port::West:
      return {{0, pe.second}, Port::West};
    case Port::East:
      return {{width - 1, pe.second}, Port::East};
    case Port::North:
      return {{pe.first, 0}, Port::North};
    default:
      return {{pe.first, height - 1}, Port::South};
    }
  };
  if (via)
    return edgeTowards(*via);
  std::pair<int64_t, Port> best{pe.first, Port::West};
  for (auto [distance, port] :
       {std::pair<int64_t, Port>{width - 1 - pe.first, Port::East},
        {pe.second, Port::North},
        {height - 1 - pe.second, Port::South}})
    if (distance < best.first)
      best = {distance, port};
  return edgeTowards(best.second);
}

bool Resolver::getRequiredPort(int64_t color, PEPos pe, bool isSource,
                               llvm::SMLoc loc, std::optional<Port> &via) {
  const ColorConfig *config = getConfig(color, pe);
  if (!config)
    return true;
  PortMask ports = getAllPorts(*config, /*rx=*/!isSource);
  via = getSingleMeshPort(ports);
  if (via || (ports & ~routing::getMask(Port::Ramp)))
    return true;
  diags.error(loc, "the layout configures " + describeColor(color) + " at " +
                       formatPE(pe) + " to " +
                       (isSource ? "send to no neighbour, but the route "
                                   "starts there"
                                 : "receive from no neighbour, but the "
                                   "route ends there"));
  diags.note(config->loc, "configured here");
  return false;
}

bool Resolver::buildFlows() {
  problem.width = static_cast<int>(width);
  problem.height = static_cast<int>(height);
  std::span<const unsigned> reserved = model.getMemcpyReservedColors();
  for (unsigned c = 0; c < model.getNumRoutableColors(); ++c)
    if (!options.memcpy || !llvm::is_contained(reserved, c))
      allowedColors.push_back(c);
  problem.colors = allowedColors;
  auto toPE = [](PEPos pe) {
    return routing::PE{static_cast<int>(pe.first), static_cast<int>(pe.second)};
  };
  auto pin = [&](routing::Flow &flow, int64_t color) {
    if (!isSymbolic(color))
      flow.pinnedColor = static_cast<unsigned>(color);
  };

  for (const Connection &connection : layout.connections) {
    routing::Flow flow;
    auto formatPos = [](PEPos pe) {
      return "(" + std::to_string(pe.first) + ", " + std::to_string(pe.second) +
             ")";
    };
    flow.name = getPlainName(connection.color) + " " +
                formatPos(connection.from.pe) + " ->";
    for (size_t i = 0; i < connection.to.size(); ++i)
      flow.name += (i ? ", " : " ") + formatPos(connection.to[i].pe);
    std::optional<Port> via;
    if (!getRequiredPort(connection.color, connection.from.pe, true,
                         connection.loc, via))
      return false;
    flow.source = {toPE(connection.from.pe), Port::Ramp};
    flow.sourceVia = via;
    std::vector<PEPos> sinks;
    for (const PERef &ref : connection.to) {
      PEPos sink = ref.pe;
      sinks.push_back(sink);
      std::optional<Port> sinkVia;
      if (!getRequiredPort(connection.color, sink, false, connection.loc,
                           sinkVia))
        return false;
      flow.sinks.push_back({toPE(sink), Port::Ramp});
      flow.sinkVias.push_back(sinkVia);
    }
    pin(flow, connection.color);
    problem.flows.push_back(std::move(flow));
    origins.push_back({connection.color, connection.loc, connection.from.pe,
                       sinks, false, false});
  }

  for (HostStream &stream : layout.hostStreams) {
    bool in = stream.direction == StreamDirection::In;
    std::optional<Port> via;
    if (!getRequiredPort(stream.color, stream.pe.pe, !in, stream.loc, via))
      return false;
    auto [edgePE, edgePort] = chooseEdge(stream.pe.pe, via);
    stream.edgePE = edgePE;
    stream.edgePort = toDirection(edgePort);
    routing::Flow flow;
    flow.name = "host stream " + stream.name;
    routing::Endpoint edge{toPE(edgePE), edgePort};
    routing::Endpoint ce{toPE(stream.pe.pe), Port::Ramp};
    flow.source = in ? edge : ce;
    flow.sinks = {in ? ce : edge};
    // On the edge already, the stream crosses it through that very port;
    // otherwise it must come in (go out) the way the config says.
    if (edgePE != stream.pe.pe) {
      if (in)
        flow.sinkVias = {via};
      else
        flow.sourceVia = via;
    }
    pin(flow, stream.color);
    problem.flows.push_back(std::move(flow));
    FlowOrigin origin{stream.color,
                      stream.loc,
                      in ? edgePE : stream.pe.pe,
                      {in ? stream.pe.pe : edgePE},
                      in,
                      !in};
    origins.push_back(std::move(origin));
  }
  return true;
}

bool Resolver::route() {
  if (problem.flows.empty())
    return true;
  routing::RoutingResult result = routing::routeFlows(problem);
  if (!result.succeeded()) {
    llvm::SMLoc loc = result.unroutedFlows.empty()
                          ? origins.front().loc
                          : origins[result.unroutedFlows.front()].loc;
    diags.error(loc, "cannot route the layout's connections: " +
                         result.errors.front());
    for (size_t i = 1; i < result.errors.size(); ++i)
      diags.note(loc, result.errors[i]);
    return false;
  }
  routes = std::move(result.routes);
  return true;
}

bool Resolver::color() {
  // Groups in a fixed order: symbolic colors by index, then physical ones.
  std::map<int64_t, std::set<routing::PE>> groups;
  for (size_t k = 0; k < layout.symbolicColors.size(); ++k)
    groups[SymbolicColorBase + static_cast<int64_t>(k)];
  for (const auto &[color, grid] : layout.colorConfigs) {
    // Reserved colors are memcpy's: never given out, so never in conflict.
    if (!isSymbolic(color) &&
        !llvm::is_contained(allowedColors, static_cast<unsigned>(color)))
      continue;
    std::set<routing::PE> &pes = groups[color];
    for (const auto &[y, runs] : grid.getRows())
      for (const Run &run : runs)
        for (int64_t x = run.begin; x < run.end; ++x)
          pes.insert({static_cast<int>(x), static_cast<int>(y)});
  }
  // A PE whose program takes a symbolic color as a param uses it there
  // (binds a queue to it, sends on it), routed or not.
  std::vector<std::vector<int64_t>> programColors(layout.programs.size());
  for (size_t p = 0; p < layout.programs.size(); ++p)
    for (const auto &entry : layout.programs[p].params) {
      const sema::Value &value = entry.getValue();
      if (value.is(sema::Value::Kind::Handle) &&
          value.getType()->is(sema::Type::Kind::Color) &&
          isSymbolic(static_cast<int64_t>(value.getHandleID())))
        programColors[p].push_back(static_cast<int64_t>(value.getHandleID()));
    }
  for (const auto &[y, runs] : layout.placement.getRows())
    for (const Run &run : runs)
      for (int64_t color : programColors[run.value])
        for (int64_t x = run.begin; x < run.end; ++x)
          groups[color].insert({static_cast<int>(x), static_cast<int>(y)});
  for (size_t f = 0; f < routes.size(); ++f) {
    // A physical color outside the allowed ones was refused by the router.
    std::set<routing::PE> &pes = groups[origins[f].color];
    for (const routing::RouteHop &hop : routes[f].hops)
      pes.insert(hop.pe);
  }

  std::vector<routing::ColorGroup> colorGroups;
  std::vector<int64_t> ids;
  for (const auto &[color, pes] : groups) {
    std::optional<unsigned> pinned;
    if (!isSymbolic(color))
      pinned = static_cast<unsigned>(color);
    colorGroups.push_back(
        {getPlainName(color), std::vector<routing::PE>(pes.begin(), pes.end()),
         pinned});
    ids.push_back(color);
  }
  routing::ColoringResult result = routing::assignGroupColors(
      problem.width, problem.height, allowedColors, colorGroups);
  if (!result.succeeded()) {
    llvm::SMLoc loc = layout.rectangleLoc;
    for (int flow : result.conflictFlows)
      if (isSymbolic(ids[flow])) {
        loc = layout.symbolicColors[ids[flow] - SymbolicColorBase].loc;
        break;
      }
    std::string why = result.errors.front();
    if (result.conflictPE) {
      // Say it in the layout's terms: colors, not the assigner's flows.
      std::string names;
      for (size_t i = 0; i < result.conflictFlows.size(); ++i)
        names += (i == 0                                 ? "'"
                  : i + 1 == result.conflictFlows.size() ? " and '"
                                                         : ", '") +
                 getPlainName(ids[result.conflictFlows[i]]) + "'";
      why = "out of colors at " + routing::formatPE(*result.conflictPE) + ": " +
            std::to_string(result.conflictFlows.size()) + " colors (" + names +
            ") meet there, and " + std::to_string(allowedColors.size()) +
            " are free (" + routing::formatColorList(allowedColors) + ")";
    }
    diags.error(loc, "cannot give the layout's colors physical values: " + why);
    return false;
  }
  for (size_t i = 0; i < ids.size(); ++i)
    physical[ids[i]] = result.colors[i];
  for (size_t k = 0; k < layout.symbolicColors.size(); ++k)
    layout.symbolicColors[k].physical =
        physical[SymbolicColorBase + static_cast<int64_t>(k)];
  return true;
}

bool Resolver::writeRoutes() {
  // A color's routes may share no PE with each other, nor cross a PE where
  // the layout configures the color, except at their own ends.
  std::map<std::pair<int64_t, routing::PE>, size_t> claimed;
  for (size_t f = 0; f < routes.size(); ++f) {
    const FlowOrigin &origin = origins[f];
    auto isEnd = [&](routing::PE pe) {
      PEPos pos{pe.x, pe.y};
      return pos == origin.source || llvm::is_contained(origin.sinks, pos);
    };
    for (const routing::RouteHop &hop : routes[f].hops) {
      PEPos pos{hop.pe.x, hop.pe.y};
      auto [it, fresh] = claimed.insert({{origin.color, hop.pe}, f});
      if (!fresh) {
        diags.error(origin.loc, "two routes of " + describeColor(origin.color) +
                                    " would cross " + formatPE(pos) +
                                    ", whose router holds one configuration "
                                    "per color");
        diags.note(origins[it->second].loc, "the other route's connection");
        return false;
      }
      const ColorConfig *config = getConfig(origin.color, pos);
      if (config && !isEnd(hop.pe)) {
        diags.error(origin.loc,
                    "the route of " + describeColor(origin.color) +
                        " would cross " + formatPE(pos) +
                        ", where the layout configures the color by hand");
        diags.note(config->loc, "configured here");
        return false;
      }
    }
  }

  for (size_t f = 0; f < routes.size(); ++f) {
    const FlowOrigin &origin = origins[f];
    unsigned color = physical[origin.color];
    for (const routing::RouteHop &hop : routes[f].hops) {
      PEPos pos{hop.pe.x, hop.pe.y};
      // At an end the layout configured by hand, that config stays; the
      // route must fit it.
      if (const ColorConfig *config = getConfig(origin.color, pos)) {
        bool isSource = pos == origin.source && !origin.edgeSource;
        PortMask rx = getAllPorts(*config, true);
        PortMask tx = getAllPorts(*config, false);
        bool fits =
            isSource ? (hop.tx & ~tx) == 0 : routing::containsPort(rx, hop.rx);
        if (!fits) {
          diags.error(
              origin.loc,
              "the route of " + describeColor(origin.color) +
                  (isSource ? " leaves " : " enters ") + formatPE(pos) +
                  (isSource ? " to the " + routing::formatPortMask(hop.tx)
                            : " from the " +
                                  std::string(routing::getPortName(hop.rx))) +
                  ", which the layout's configuration there does not "
                  "allow");
          diags.note(config->loc, "configured here");
          return false;
        }
        continue;
      }
      ColorConfig config;
      config.rx = toDirectionMask(routing::getMask(hop.rx));
      config.tx = toDirectionMask(hop.tx);
      config.loc = origin.loc;
      unsigned index = layout.internConfig(config);
      if (layout.colorConfigs[color].set(pos.first, pos.second, index,
                                         origin.loc)) {
        diags.error(origin.loc, "the route of " + describeColor(origin.color) +
                                    " crosses " + formatPE(pos) +
                                    ", where color " + llvm::Twine(color) +
                                    " is configured already");
        return false;
      }
    }
  }
  // Hand-written configs of symbolic colors move to their physical colors
  // (after the routes, which look them up by symbol).
  for (size_t k = 0; k < layout.symbolicColors.size(); ++k) {
    int64_t id = SymbolicColorBase + static_cast<int64_t>(k);
    auto grid = layout.colorConfigs.find(id);
    if (grid == layout.colorConfigs.end())
      continue;
    RunGrid &target = layout.colorConfigs[physical[id]];
    for (const auto &[y, runs] : grid->second.getRows())
      for (const Run &run : runs)
        for (int64_t x = run.begin; x < run.end; ++x)
          if (target.set(x, y, run.value, run.loc)) {
            diags.error(run.loc,
                        "internal error: color " + llvm::Twine(physical[id]) +
                            " is configured twice at " + formatPE({x, y}));
            return false;
          }
    layout.colorConfigs.erase(id);
  }

  for (HostStream &stream : layout.hostStreams)
    stream.physicalColor = physical[stream.color];
  return true;
}

bool Resolver::verifyRoutes() {
  routing::RouterTables tables;
  std::vector<unsigned> colors;
  for (size_t f = 0; f < routes.size(); ++f) {
    unsigned color = physical[origins[f].color];
    colors.push_back(color);
    for (const routing::RouteHop &hop : routes[f].hops) {
      const ColorConfig *config = getConfig(color, {hop.pe.x, hop.pe.y});
      if (!config)
        continue; // the verifier reports the flow's missing config
      // A hand-written end keeps its own config, which may do more than
      // the flow (forward it on, switch positions); writeRoutes checked it
      // holds the route, so the route stands for it.
      bool written = config->loc.getPointer() == origins[f].loc.getPointer();
      routing::PortMask rx =
          written ? toPortMask(config->rx) : routing::getMask(hop.rx);
      routing::PortMask tx = written ? toPortMask(config->tx) : hop.tx;
      tables.configs.push_back({hop.pe, color, rx, tx, problem.flows[f].name});
    }
  }
  std::vector<routing::Finding> findings =
      routing::verifyFlows(problem, colors, tables);
  for (const routing::Finding &finding : findings) {
    diags.error(layout.rectangleLoc,
                "internal error: the routes written for the layout's "
                "connections do not realise them: " +
                    finding.message);
    return false;
  }
  return true;
}

void Resolver::substituteParams() {
  const sema::Type *colorType = types.get(sema::Type::Kind::Color);
  for (ProgramInstance &program : layout.programs)
    for (auto &entry : program.params) {
      const sema::Value &value = entry.getValue();
      if (!value.is(sema::Value::Kind::Handle) ||
          !value.getType()->is(sema::Type::Kind::Color) ||
          !isSymbolic(static_cast<int64_t>(value.getHandleID())))
        continue;
      sema::Value resolved = sema::Value::getHandle(
          colorType, physical[static_cast<int64_t>(value.getHandleID())]);
      entry.getValue() = resolved;
      program.module->replaceParam(entry.getKey(), resolved);
    }
}

bool Resolver::run() {
  if (!buildFlows() || !route() || !color() || !writeRoutes() ||
      !verifyRoutes())
    return false;
  substituteParams();
  return true;
}

} // namespace

bool elaboration::resolveConnections(LayoutDescription &layout,
                                     sema::TypeContext &types,
                                     sema::DiagnosticEngine &diags,
                                     const ResolverOptions &options) {
  if (layout.symbolicColors.empty() && layout.connections.empty() &&
      layout.hostStreams.empty())
    return true;
  return Resolver(layout, types, diags, options).run();
}
