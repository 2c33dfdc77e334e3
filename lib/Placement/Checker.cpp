//===- Checker.cpp - verify a solution file against its kgraph ------------===//
//
// Deliberately written without the placer's helpers (rectangles, wire
// length, variants): a bug there must not hide a bug here.
//
//===----------------------------------------------------------------------===//

#include "tessera/Placement/Checker.h"
#include "tessera/Placement/CostModel.h"
#include "tessera/Placement/SolutionReader.h"

#include <algorithm>
#include <cstdlib>
#include <map>

namespace tessera::placement {
namespace {

/// A kernel as the solution gives it, once everything about it parsed.
struct CheckedKernel {
  const SolutionDefinition *definition = nullptr;
  const SolutionPlacement *placement = nullptr;
  bool paramsValid = false;
  KernelCost cost;
  int64_t left = 0, top = 0, right = 0, bottom = 0; ///< Half-open.
};

class SolutionChecker {
public:
  SolutionChecker(const KernelGraph &graph, std::string_view fileName,
                  CheckReport &report)
      : graph(graph), fileName(fileName), report(report),
        kernels(graph.nodes.size()) {}

  void check(const SolutionText &solution) {
    std::map<std::string, int> nodeOf;
    for (int i = 0, e = static_cast<int>(graph.nodes.size()); i < e; ++i)
      nodeOf[graph.nodes[i].label()] = i;
    for (const SolutionDefinition &definition : solution.definitions) {
      int node = lookUp(nodeOf, definition.label, definition.line);
      if (node < 0)
        continue;
      CheckedKernel &kernel = kernels[node];
      if (kernel.definition) {
        error(definition.line,
              definition.label + " is defined twice (first at line " +
                  std::to_string(kernel.definition->line) + ")");
        continue;
      }
      kernel.definition = &definition;
      checkDefinition(graph.nodes[node], kernel);
    }
    for (const SolutionPlacement &placement : solution.placements) {
      int node = lookUp(nodeOf, placement.label, placement.line);
      if (node < 0)
        continue;
      CheckedKernel &kernel = kernels[node];
      if (kernel.placement) {
        error(placement.line, placement.label +
                                  " is placed twice (first at line " +
                                  std::to_string(kernel.placement->line) + ")");
        continue;
      }
      kernel.placement = &placement;
    }
    checkCompleteness();
    checkGeometry();
    measure();
  }

private:
  void error(int line, const std::string &message) {
    report.errors.push_back(std::string(fileName) + ":" + std::to_string(line) +
                            ": error: " + message);
  }

  int lookUp(const std::map<std::string, int> &nodeOf, const std::string &label,
             int line) {
    auto found = nodeOf.find(label);
    if (found == nodeOf.end()) {
      error(line, "'" + label + "' names no node of the graph");
      return -1;
    }
    const Node &node = graph.nodes[found->second];
    if (!isPlaceable(node.kind)) {
      error(line, label + " is an " + std::string(getNodeKindName(node.kind)) +
                      " node, which is not placed");
      return -1;
    }
    return found->second;
  }

  /// The formal arguments must repeat the graph's; the execution
  /// parameters must be positive, one c' and k' per convolution.
  void checkDefinition(const Node &node, CheckedKernel &kernel) {
    const SolutionDefinition &definition = *kernel.definition;
    int line = definition.line;
    const std::string &label = definition.label;
    std::string kind(getNodeKindName(node.kind));
    if (definition.kind != kind) {
      error(line, label + " is a " + kind + " in the graph, not a " +
                      definition.kind);
      return;
    }
    std::vector<std::pair<std::string, int64_t>> formals;
    if (node.kind == NodeKind::Conv) {
      const ConvShape &conv = node.conv;
      formals = {{"H", conv.H}, {"W", conv.W}, {"R", conv.R}, {"S", conv.S},
                 {"C", conv.C}, {"K", conv.K}, {"T", conv.T}};
      if (node.hasUnused)
        formals.emplace_back("U", node.unused);
    } else {
      formals = {{"f", node.F}, {"h", node.H}, {"w", node.W}};
    }
    size_t convCount = getKernelConvs(node).size();
    bool valid = true;
    for (const auto &[name, value] : formals) {
      auto found = definition.arguments.find(name);
      if (found == definition.arguments.end()) {
        error(line, label + " lacks the formal argument '" + name + "'");
        valid = false;
      } else if (definition.isList.at(name) || found->second[0] != value) {
        error(line, label + ": '" + name + "' must be " +
                        std::to_string(value) + " as in the graph");
        valid = false;
      }
    }
    for (const auto &[name, values] : definition.arguments) {
      bool known = name == "h'" || name == "w'" || name == "c'" || name == "k'";
      for (const auto &formal : formals)
        known = known || formal.first == name;
      if (!known) {
        error(line, label + ": unknown argument '" + name + "'");
        valid = false;
      }
    }
    auto get = [&](const std::string &name,
                   size_t count) -> std::vector<int64_t> {
      auto found = definition.arguments.find(name);
      if (found == definition.arguments.end()) {
        error(line, label + " lacks the execution parameter '" + name + "'");
        return {};
      }
      bool list = definition.isList.at(name);
      if ((count == 0 && list) ||
          (count > 0 && found->second.size() != count) ||
          (count > 1 && !list)) {
        error(line, label + ": '" + name + "' must be " +
                        (count == 0 ? std::string("one number")
                                    : "a list of " + std::to_string(count) +
                                          " numbers, one per convolution"));
        return {};
      }
      for (int64_t value : found->second)
        if (value < 1) {
          error(line, label + ": '" + name + "' must be positive");
          return {};
        }
      return found->second;
    };
    std::vector<int64_t> h = get("h'", 0), w = get("w'", 0);
    size_t perConv = node.kind == NodeKind::Conv ? 1 : convCount;
    std::vector<int64_t> c = get("c'", perConv), k = get("k'", perConv);
    if (!valid || h.empty() || w.empty() || c.empty() || k.empty())
      return;
    ExecParams params;
    params.h = h[0];
    params.w = w[0];
    for (size_t i = 0; i < convCount; ++i)
      params.convs.push_back({c[i], k[i]});
    kernel.cost = getKernelCost(node, params);
    kernel.paramsValid = true;
    if (kernel.cost.memory > graph.memLimit)
      error(line, label + " needs " + std::to_string(kernel.cost.memory) +
                      " words per tile, more than the memory limit " +
                      std::to_string(graph.memLimit));
  }

  void checkCompleteness() {
    for (size_t i = 0; i < graph.nodes.size(); ++i) {
      const Node &node = graph.nodes[i];
      const CheckedKernel &kernel = kernels[i];
      if (!isPlaceable(node.kind))
        continue;
      if (!kernel.definition && !kernel.placement)
        report.errors.push_back(std::string(fileName) +
                                ": error: " + node.label() +
                                " is neither defined nor "
                                "placed");
      else if (!kernel.definition)
        error(kernel.placement->line, node.label() + " is placed but not "
                                                     "defined");
      else if (!kernel.placement)
        error(kernel.definition->line, node.label() + " is defined but not "
                                                      "placed");
    }
  }

  void checkGeometry() {
    std::vector<size_t> placed;
    for (size_t i = 0; i < kernels.size(); ++i) {
      CheckedKernel &kernel = kernels[i];
      if (!kernel.placement || !kernel.paramsValid)
        continue;
      const SolutionPlacement &at = *kernel.placement;
      int64_t sizeX = at.rotated ? kernel.cost.height : kernel.cost.width;
      int64_t sizeY = at.rotated ? kernel.cost.width : kernel.cost.height;
      kernel.left = at.x;
      kernel.top = at.y;
      kernel.right = at.x + sizeX;
      kernel.bottom = at.y + sizeY;
      if (at.x < 0 || at.y < 0 || kernel.right > graph.gridWidth ||
          kernel.bottom > graph.gridHeight) {
        error(at.line, at.label + " covers columns " + std::to_string(at.x) +
                           ".." + std::to_string(kernel.right - 1) +
                           " and rows " + std::to_string(at.y) + ".." +
                           std::to_string(kernel.bottom - 1) +
                           ", outside the " + std::to_string(graph.gridWidth) +
                           "x" + std::to_string(graph.gridHeight) + " grid");
        continue;
      }
      placed.push_back(i);
    }
    for (size_t a = 0; a < placed.size(); ++a)
      for (size_t b = a + 1; b < placed.size(); ++b) {
        const CheckedKernel &first = kernels[placed[a]];
        const CheckedKernel &second = kernels[placed[b]];
        if (first.left < second.right && second.left < first.right &&
            first.top < second.bottom && second.top < first.bottom) {
          const CheckedKernel &later =
              first.placement->line > second.placement->line ? first : second;
          const CheckedKernel &earlier = &later == &first ? second : first;
          error(later.placement->line,
                later.placement->label + " overlaps " +
                    earlier.placement->label + " (line " +
                    std::to_string(earlier.placement->line) + ")");
        }
      }
  }

  void measure() {
    int64_t area = 0;
    for (const CheckedKernel &kernel : kernels) {
      if (!kernel.paramsValid)
        continue;
      ++report.kernels;
      report.deltaT = std::max(report.deltaT, kernel.cost.time);
      area += kernel.cost.height * kernel.cost.width;
    }
    // Centres are (left + right) / 2; sums of doubled centres stay exact.
    int64_t doubled = 0;
    for (const Connection &connection : graph.connections) {
      const CheckedKernel &from = kernels[connection.from];
      const CheckedKernel &to = kernels[connection.to];
      if (!from.placement || !to.placement || !from.paramsValid ||
          !to.paramsValid)
        continue;
      doubled += std::llabs((from.left + from.right) - (to.left + to.right)) +
                 std::llabs((from.top + from.bottom) - (to.top + to.bottom));
    }
    report.wireLength = double(doubled) / 2;
    report.score = graph.weightDeltaT * double(report.deltaT) +
                   graph.weightLength * report.wireLength;
    report.utilisation =
        double(area) / double(graph.gridWidth * graph.gridHeight);
  }

  const KernelGraph &graph;
  std::string_view fileName;
  CheckReport &report;
  std::vector<CheckedKernel> kernels;
};

} // namespace

CheckReport checkSolution(const KernelGraph &graph,
                          std::string_view solutionText,
                          std::string_view fileName) {
  CheckReport report;
  SolutionTextOrError parsed = parseSolutionText(solutionText, fileName);
  if (!parsed.solution) {
    report.errors.push_back(parsed.error);
    return report;
  }
  SolutionChecker(graph, fileName, report).check(*parsed.solution);
  return report;
}

} // namespace tessera::placement
