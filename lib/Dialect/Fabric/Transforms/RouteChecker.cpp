//===- RouteChecker.cpp - the checks of tessera-verify-routes -------------===//

#include "RouteChecker.h"

#include "llvm/ADT/STLExtras.h"

#include <bit>
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
    text += " (and " + formatCount(otherPEs) + " other PE" +
            (otherPEs == 1 ? "" : "s") + " of this range)";
  return text;
}

} // namespace

std::string tessera::fabric::formatCount(uint64_t count) {
  std::string digits = std::to_string(count);
  std::string text;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0)
      text += ',';
    text += digits[i];
  }
  return text;
}

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

std::vector<RouteProblem> RouteChecker::check(const ColorRoute &route) const {
  std::vector<RouteProblem> problems;
  const PERange &range = route.range;
  uint64_t otherPEs = getNumColumns(range) * getNumRows(range) - 1;
  // Problems that every PE of the range shares are named at its origin.
  auto addEverywhere = [&](RouteProblemKind kind, const std::string &what) {
    problems.push_back(
        {kind, range.x, range.y, otherPEs,
         formatProblem(route, range.x, range.y, otherPEs, what)});
  };

  if (llvm::is_contained(reservedColors, route.color))
    addEverywhere(RouteProblemKind::ReservedColor,
                  "is reserved by the memcpy infrastructure (--memcpy)");

  // A position on the rx side replaces the whole rx set with its one port
  // and one on the tx side keeps the base set, so no position receives from
  // more ports than the base route (position 0, always reachable) does.
  if (countPorts(route.rx) > 1)
    addEverywhere(RouteProblemKind::ReceivedFromSeveral,
                  "is received from " + formatPorts(route.rx) + " at once");

  // Every port any position may use must stay on the fabric.
  uint8_t rxPorts = route.rx, txPorts = route.tx;
  for (const RouteSwitch &position : route.positions)
    (position.rxSide ? rxPorts : txPorts) |= routePortBit(position.port);
  EdgeScan edges(geometry, range);
  if (auto problem = edges.scan(txPorts, RouteProblemKind::SentOffFabric)) {
    uint8_t off = edges.getOffPorts(txPorts, problem->x, problem->y);
    problem->message =
        formatProblem(route, problem->x, problem->y, problem->otherPEs,
                      "is sent " + formatPorts(off) + ", off the fabric edge");
    problems.push_back(std::move(*problem));
  }
  if (auto problem =
          edges.scan(rxPorts, RouteProblemKind::ReceivedFromOffFabric)) {
    uint8_t off = edges.getOffPorts(rxPorts, problem->x, problem->y);
    problem->message = formatProblem(
        route, problem->x, problem->y, problem->otherPEs,
        "is received from " + formatPorts(off) + ", off the fabric edge");
    problems.push_back(std::move(*problem));
  }

  if (route.positions.empty()) {
    llvm::SmallVector<const char *, 3> settings;
    if (route.setsCurrentPosition)
      settings.push_back("current_switch_pos");
    if (route.setsRingMode)
      settings.push_back("ring_mode");
    if (route.setsPopMode)
      settings.push_back("pop_mode");
    if (!settings.empty()) {
      std::string what = "sets ";
      for (size_t i = 0; i < settings.size(); ++i) {
        if (i)
          what += i + 1 == settings.size() ? " and " : ", ";
        what += settings[i];
      }
      addEverywhere(RouteProblemKind::SwitchWithoutPositions,
                    what + " but has no switch positions");
    }
  }
  return problems;
}
