//===- RouteChecker.cpp - the checks of tessera-verify-routes -------------===//

#include "RouteChecker.h"
#include "tessera/Support/Format.h"

#include "llvm/ADT/STLExtras.h"

#include <algorithm>
#include <bit>
#include <map>
#include <optional>

using namespace tessera::fabric;

namespace {

constexpr RoutePort allPorts[] = {RoutePort::West, RoutePort::East,
                                  RoutePort::South, RoutePort::North,
                                  RoutePort::Ramp};

const char *getPortName(RoutePort port) {
  switch (port) {
  case RoutePort::West:
    return "west";
  case RoutePort::East:
    return "east";
  case RoutePort::South:
    return "south";
  case RoutePort::North:
    return "north";
  case RoutePort::Ramp:
    return "ramp";
  }
  return "?";
}

/// "west", "west and east", "west, east and north".
std::string formatPorts(uint8_t ports) {
  llvm::SmallVector<const char *, 5> names;
  for (RoutePort port : allPorts)
    if (ports & routePortBit(port))
      names.push_back(getPortName(port));
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i)
      text += i + 1 == names.size() ? " and " : ", ";
    text += names[i];
  }
  return text;
}

int countPorts(uint8_t ports) { return std::popcount(ports); }

constexpr uint8_t neighbourPorts =
    routePortBit(RoutePort::West) | routePortBit(RoutePort::East) |
    routePortBit(RoutePort::South) | routePortBit(RoutePort::North);

/// The PEs of a range: columns times rows.
uint64_t getNumColumns(const PERange &r) { return (r.width - 1) / r.stepX + 1; }
uint64_t getNumRows(const PERange &r) { return (r.height - 1) / r.stepY + 1; }

/// Whether the progression first, first + step, ... <= last holds `value`.
bool holds(int64_t first, int64_t step, int64_t last, int64_t value) {
  return value >= first && value <= last && (value - first) % step == 0;
}

/// "PE (3, 0) color 5 " + what + " (and 9 other PEs of this range)".
std::string formatProblem(const ColorRoute &route, int64_t x, int64_t y,
                          uint64_t otherPEs, const std::string &what) {
  std::string text = "PE (" + std::to_string(x) + ", " + std::to_string(y) +
                     ") color " + std::to_string(route.color) + " " + what;
  if (otherPEs)
    text += " (and " + tessera::formatThousands(otherPEs) + " other PE" +
            (otherPEs == 1 ? "" : "s") + " of this range)";
  return text;
}

} // namespace

namespace {

/// Finds the PEs of a route whose `ports` face off the fabric.
class EdgeScan {
public:
  EdgeScan(const FabricGeometry &geometry, const PERange &range)
      : range(range), westColumn(-geometry.offsetX),
        eastColumn(geometry.dimsWidth - 1 - geometry.offsetX),
        northRow(-geometry.offsetY),
        southRow(geometry.dimsHeight - 1 - geometry.offsetY) {}

  /// The first such PE (by row, then column) and the count of the others,
  /// without a message; nullopt when every port stays on the fabric.
  std::optional<RouteProblem> scan(uint8_t ports, RouteProblemKind kind) const {
    // Off-fabric PEs fill whole columns (west, east) and whole rows (north,
    // south) of the range; count their union.
    llvm::SmallVector<int64_t, 2> columns, rows;
    auto addColumn = [&](RoutePort port, int64_t column) {
      if ((ports & routePortBit(port)) &&
          holds(range.x, range.stepX, range.lastX(), column) &&
          !llvm::is_contained(columns, column))
        columns.push_back(column);
    };
    auto addRow = [&](RoutePort port, int64_t row) {
      if ((ports & routePortBit(port)) &&
          holds(range.y, range.stepY, range.lastY(), row) &&
          !llvm::is_contained(rows, row))
        rows.push_back(row);
    };
    addColumn(RoutePort::West, westColumn);
    addColumn(RoutePort::East, eastColumn);
    addRow(RoutePort::North, northRow);
    addRow(RoutePort::South, southRow);
    if (columns.empty() && rows.empty())
      return std::nullopt;
    llvm::sort(columns);
    llvm::sort(rows);

    RouteProblem problem;
    problem.kind = kind;
    uint64_t count = columns.size() * getNumRows(range) +
                     rows.size() * getNumColumns(range) -
                     columns.size() * rows.size();
    problem.otherPEs = count - 1;
    if (!columns.empty()) {
      problem.y = range.y;
      problem.x = llvm::is_contained(rows, range.y) ? range.x : columns[0];
    } else {
      problem.y = rows[0];
      problem.x = range.x;
    }
    return problem;
  }

  /// The ports of `ports` that face off the fabric at PE (x, y).
  uint8_t getOffPorts(uint8_t ports, int64_t x, int64_t y) const {
    uint8_t off = 0;
    if (x == westColumn)
      off |= routePortBit(RoutePort::West);
    if (x == eastColumn)
      off |= routePortBit(RoutePort::East);
    if (y == northRow)
      off |= routePortBit(RoutePort::North);
    if (y == southRow)
      off |= routePortBit(RoutePort::South);
    return ports & off;
  }

private:
  const PERange &range;
  // The rectangle's coordinates of the fabric's outermost columns and rows.
  int64_t westColumn, eastColumn, northRow, southRow;
};

} // namespace

namespace {

/// PEs from (x0, y0) to (x1, y1), both included.
struct Box {
  int64_t x0, y0, x1, y1;

  bool isEmpty() const { return x0 > x1 || y0 > y1; }
  Box intersect(const Box &other) const {
    return {std::max(x0, other.x0), std::max(y0, other.y0),
            std::min(x1, other.x1), std::min(y1, other.y1)};
  }
};

/// The first value of the progression first, first + step, ... that is at
/// least `value`.
int64_t firstAtOrAfter(int64_t first, int64_t step, int64_t value) {
  if (value <= first)
    return first;
  return first + (value - first + step - 1) / step * step;
}

/// Calls `fn(x, y)` for the PEs of `range` inside `box`, by row, then column.
template <typename Fn>
void forEachPEIn(const PERange &range, const Box &box, Fn fn) {
  int64_t firstX = firstAtOrAfter(range.x, range.stepX, box.x0);
  int64_t firstY = firstAtOrAfter(range.y, range.stepY, box.y0);
  int64_t lastX = std::min(range.lastX(), box.x1);
  int64_t lastY = std::min(range.lastY(), box.y1);
  for (int64_t y = firstY; y <= lastY; y += range.stepY)
    for (int64_t x = firstX; x <= lastX; x += range.stepX)
      fn(x, y);
}

/// The base tx sets of one color on a box of PEs, and the directions
/// streams arrive from at a PE of it.
class TxGrid {
public:
  /// Clears the grid to cover `box`; PEs outside it send nothing.
  void reset(const Box &box) {
    this->box = box;
    width = box.x1 - box.x0 + 1;
    cells.assign(width * (box.y1 - box.y0 + 1), 0);
  }

  void addSender(const PERange &range, uint8_t tx) {
    forEachPEIn(range, box, [&](int64_t x, int64_t y) {
      cells[getCell(x, y)] |= tx & neighbourPorts;
    });
  }

  /// The ports of `rx` whose neighbour of PE (x, y) sends towards it.
  uint8_t getStreamsInto(int64_t x, int64_t y, uint8_t rx) const {
    int64_t cell = getCell(x, y);
    auto sendsBack = [&](RoutePort from, int64_t neighbour, RoutePort to) {
      return (rx & routePortBit(from)) && (cells[neighbour] & routePortBit(to));
    };
    uint8_t from = 0;
    if (x > box.x0 && sendsBack(RoutePort::West, cell - 1, RoutePort::East))
      from |= routePortBit(RoutePort::West);
    if (x < box.x1 && sendsBack(RoutePort::East, cell + 1, RoutePort::West))
      from |= routePortBit(RoutePort::East);
    if (y < box.y1 &&
        sendsBack(RoutePort::South, cell + width, RoutePort::North))
      from |= routePortBit(RoutePort::South);
    if (y > box.y0 &&
        sendsBack(RoutePort::North, cell - width, RoutePort::South))
      from |= routePortBit(RoutePort::North);
    return from;
  }

private:
  int64_t getCell(int64_t x, int64_t y) const {
    return (y - box.y0) * width + (x - box.x0);
  }

  Box box{0, 0, -1, -1};
  int64_t width = 0;
  std::vector<uint8_t> cells;
};

/// A route that receives from two neighbours or more, and what the scan
/// found on its PEs.
struct Receiver {
  size_t route;
  uint64_t count = 0;
  int64_t x = 0, y = 0;
  /// The directions streams arrive from at the first PE (x, y).
  uint8_t from = 0;
};

/// The routes of one color that the scan needs.
struct ColorStreams {
  std::vector<Receiver> receivers;
  std::vector<size_t> senders;
};

// A TxGrid spans at most this many PEs (16 MiB); a larger area is scanned
// in tiles, so a huge rectangle costs time, not memory.
constexpr int64_t maxGridPEs = int64_t(1) << 24;

} // namespace

std::vector<RouteProblem>
RouteChecker::findConvergingStreams(std::span<const ColorRoute> routes) const {
  // Only a PE that receives from two directions can have streams converge
  // on it; most colors have none, and then nothing below runs.
  std::map<int64_t, ColorStreams> colors;
  for (auto [index, route] : llvm::enumerate(routes))
    if (countPorts(route.rx & neighbourPorts) >= 2)
      colors[route.color].receivers.push_back({index});
  if (colors.empty())
    return {};
  for (auto [index, route] : llvm::enumerate(routes)) {
    if (!(route.tx & neighbourPorts))
      continue;
    auto it = colors.find(route.color);
    if (it != colors.end())
      it->second.senders.push_back(index);
  }

  Box rectangle{0, 0, geometry.rectangleWidth - 1,
                geometry.rectangleHeight - 1};
  TxGrid grid;
  std::vector<RouteProblem> problems;
  for (auto &[color, streams] : colors) {
    Box area{INT64_MAX, INT64_MAX, INT64_MIN, INT64_MIN};
    for (const Receiver &receiver : streams.receivers) {
      const PERange &range = routes[receiver.route].range;
      area = {std::min(area.x0, range.x), std::min(area.y0, range.y),
              std::max(area.x1, range.lastX()),
              std::max(area.y1, range.lastY())};
    }
    area = area.intersect(rectangle);
    if (area.isEmpty())
      continue;

    // Tiles span the area's width or are one row high, so in row-major
    // tile order the scan meets PEs by row, then column.
    int64_t areaWidth = area.x1 - area.x0 + 1;
    int64_t areaHeight = area.y1 - area.y0 + 1;
    int64_t tileWidth = std::min(areaWidth, maxGridPEs / 4);
    int64_t tileHeight = 1;
    if (tileWidth == areaWidth)
      tileHeight = std::min(maxGridPEs / (tileWidth + 2) - 2, areaHeight);
    for (int64_t tileY = area.y0; tileY <= area.y1; tileY += tileHeight) {
      for (int64_t tileX = area.x0; tileX <= area.x1; tileX += tileWidth) {
        Box tile{tileX, tileY, std::min(tileX + tileWidth - 1, area.x1),
                 std::min(tileY + tileHeight - 1, area.y1)};
        // The tile's neighbours inside the rectangle send too; beyond it
        // no PE configures the program's colors.
        grid.reset(
            Box{tile.x0 - 1, tile.y0 - 1, tile.x1 + 1, tile.y1 + 1}.intersect(
                rectangle));
        for (size_t sender : streams.senders)
          grid.addSender(routes[sender].range, routes[sender].tx);
        for (Receiver &receiver : streams.receivers) {
          const ColorRoute &route = routes[receiver.route];
          forEachPEIn(route.range, tile, [&](int64_t x, int64_t y) {
            uint8_t from = grid.getStreamsInto(x, y, route.rx);
            if (countPorts(from) < 2 || receiver.count++ > 0)
              return;
            // The first PE with converging streams names them.
            receiver.x = x;
            receiver.y = y;
            receiver.from = from;
          });
        }
      }
    }

    // Naming a problem's senders scans the color's senders, so only the
    // first few problems of a color name them (a wafer of one-PE routes
    // may have a problem at every PE).
    constexpr unsigned MaxNamedSenders = 16;
    unsigned named = 0;
    for (const Receiver &receiver : streams.receivers) {
      if (!receiver.count)
        continue;
      uint64_t otherPEs = receiver.count - 1;
      // Name the neighbours that send into the first such PE.
      std::vector<std::pair<size_t, std::pair<int64_t, int64_t>>> senders;
      for (auto [port, dx, dy, toward] :
           {std::tuple{RoutePort::West, -1, 0, RoutePort::East},
            {RoutePort::East, 1, 0, RoutePort::West},
            {RoutePort::South, 0, 1, RoutePort::North},
            {RoutePort::North, 0, -1, RoutePort::South}}) {
        if (named >= MaxNamedSenders || !(receiver.from & routePortBit(port)))
          continue;
        int64_t nx = receiver.x + dx, ny = receiver.y + dy;
        for (size_t sender : streams.senders)
          if (routes[sender].range.contains(nx, ny) &&
              (routes[sender].tx & routePortBit(toward))) {
            senders.push_back({sender, {nx, ny}});
            break;
          }
      }
      RouteProblem problem{
          RouteProblemKind::ReceivedFromSeveral,
          receiver.route,
          receiver.x,
          receiver.y,
          otherPEs,
          formatProblem(
              routes[receiver.route], receiver.x, receiver.y, otherPEs,
              "is received from " + formatPorts(receiver.from) + " at once"),
          {}};
      named += !senders.empty();
      problem.senders = std::move(senders);
      problems.push_back(std::move(problem));
    }
  }
  llvm::sort(problems, [](const RouteProblem &a, const RouteProblem &b) {
    return a.route < b.route;
  });
  return problems;
}

std::vector<RouteProblem>
RouteChecker::checkAll(std::span<const ColorRoute> routes) const {
  std::vector<RouteProblem> converging = findConvergingStreams(routes);
  std::vector<RouteProblem> problems;
  auto next = converging.begin();
  for (auto [index, route] : llvm::enumerate(routes)) {
    const RouteProblem *problem = nullptr;
    if (next != converging.end() && next->route == index)
      problem = &*next++;
    checkRoute(route, index, problem, problems);
  }
  return problems;
}

void RouteChecker::checkRoute(const ColorRoute &route, size_t index,
                              const RouteProblem *converging,
                              std::vector<RouteProblem> &problems) const {
  const PERange &range = route.range;
  uint64_t otherPEs = getNumColumns(range) * getNumRows(range) - 1;
  // Problems that every PE of the range shares are named at its origin.
  auto addEverywhere = [&](RouteProblemKind kind, const std::string &what) {
    problems.push_back(
        {kind, index, range.x, range.y, otherPEs,
         formatProblem(route, range.x, range.y, otherPEs, what),
         /*senders=*/{}});
  };

  if (llvm::is_contained(reservedColors, route.color))
    addEverywhere(RouteProblemKind::ReservedColor,
                  "is reserved by the memcpy infrastructure (--memcpy)");

  if (converging)
    problems.push_back(*converging);

  // Every port any position may use must stay on the fabric.
  uint8_t rxPorts = route.rx, txPorts = route.tx;
  for (const RouteSwitch &position : route.positions)
    (position.rxSide ? rxPorts : txPorts) |= routePortBit(position.port);
  EdgeScan edges(geometry, range);
  if (auto problem = edges.scan(txPorts, RouteProblemKind::SentOffFabric)) {
    uint8_t off = edges.getOffPorts(txPorts, problem->x, problem->y);
    problem->route = index;
    problem->message =
        formatProblem(route, problem->x, problem->y, problem->otherPEs,
                      "is sent " + formatPorts(off) + ", off the fabric edge");
    problems.push_back(std::move(*problem));
  }
  if (auto problem =
          edges.scan(rxPorts, RouteProblemKind::ReceivedFromOffFabric)) {
    uint8_t off = edges.getOffPorts(rxPorts, problem->x, problem->y);
    problem->route = index;
    problem->message = formatProblem(
        route, problem->x, problem->y, problem->otherPEs,
        "is received from " + formatPorts(off) + ", off the fabric edge");
    problems.push_back(std::move(*problem));
  }

  if (!route.positions.empty())
    return;
  llvm::SmallVector<const char *, 2> settings;
  if (route.setsCurrentPosition)
    settings.push_back("current_switch_pos");
  if (route.setsRingMode)
    settings.push_back("ring_mode");
  // pop_mode needs no positions: a router without them still pops the
  // commands of control wavelets for the routers after it (fft-1d-2d).
  if (settings.empty())
    return;
  std::string what = "sets ";
  for (size_t i = 0; i < settings.size(); ++i) {
    if (i)
      what += i + 1 == settings.size() ? " and " : ", ";
    what += settings[i];
  }
  addEverywhere(RouteProblemKind::SwitchWithoutPositions,
                what + " but has no switch positions");
}
