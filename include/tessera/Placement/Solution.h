//===- Solution.h - execution parameters and positions ----------*- C++ -*-===//
//
// A solution gives every placeable kernel its execution parameters and the
// position of its rectangle: (x, y) is the corner with the smallest column
// and row; R90 swaps the rectangle's height and width. writeSolution prints
// the contest's text format (docs/Placement.md):
//
//   k1 = conv(H=14 W=14 R=1 S=1 C=1024 K=512 T=1 U=1 h'=2 w'=2 c'=40 k'=8)
//   k1 : place(0 17 R0)
//   k5 = dblock(f=2048 h=7 w=7 h'=1 w'=1 c'=[64 32 32] k'=[8 8 16])
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PLACEMENT_SOLUTION_H
#define TESSERA_PLACEMENT_SOLUTION_H

#include "tessera/Placement/CostModel.h"
#include "tessera/Placement/KernelGraph.h"

#include <cstdint>
#include <ostream>
#include <vector>

namespace tessera::placement {

struct KernelPlacement {
  int node = 0; ///< Index into KernelGraph::nodes.
  ExecParams params;
  int64_t x = 0, y = 0;
  bool rotated = false; ///< R90.
};

struct Solution {
  std::vector<KernelPlacement> kernels;
};

/// Writes one definition line and one place line per kernel.
void writeSolution(std::ostream &os, const KernelGraph &graph,
                   const Solution &solution);

} // namespace tessera::placement

#endif // TESSERA_PLACEMENT_SOLUTION_H
