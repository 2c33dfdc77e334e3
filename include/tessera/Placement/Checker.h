//===- Checker.h - verify a solution file against its kgraph ----*- C++ -*-===//
//
// An independent check of what the placer writes: it shares only the kgraph
// parser and the cost model with the placer. It reads the solution text,
// checks that every kernel is defined once with the graph's formal
// arguments and placed once, inside the grid, without overlap and within
// the memory limit, and recomputes δT, wire length and score.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PLACEMENT_CHECKER_H
#define TESSERA_PLACEMENT_CHECKER_H

#include "tessera/Placement/KernelGraph.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::placement {

struct CheckReport {
  /// One `FILE:LINE: error: MESSAGE` per problem; empty if legal.
  std::vector<std::string> errors;
  int kernels = 0;
  int64_t deltaT = 0;
  double wireLength = 0;
  double score = 0;
  double utilisation = 0;

  bool isLegal() const { return errors.empty(); }
};

CheckReport checkSolution(const KernelGraph &graph,
                          std::string_view solutionText,
                          std::string_view fileName);

} // namespace tessera::placement

#endif // TESSERA_PLACEMENT_CHECKER_H
