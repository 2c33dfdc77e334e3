//===- LinearArrangement.h - an order that keeps wires short ----*- C++ -*-===//
//
// Serpentine rows fold the order of the kernels into the grid, so a wire is
// short when its ends are close in the order. The traversal order keeps a
// chain's neighbours together but not the ends of a long skip connection
// (a U-Net's encoder and decoder levels). This local search looks for the
// order that minimises the wires' lengths along a single line, each kernel
// taking its width: it folds such graphs so that the two ends of a skip
// connection sit side by side.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PLACEMENT_LINEARARRANGEMENT_H
#define TESSERA_PLACEMENT_LINEARARRANGEMENT_H

#include <cstdint>
#include <utility>
#include <vector>

namespace tessera::placement {

/// Twice the length of `wires` (pairs of items) when items stand on a line
/// in `order`, each as wide as `widths` says.
int64_t getLineLength(const std::vector<int> &order,
                      const std::vector<int64_t> &widths,
                      const std::vector<std::pair<int, int>> &wires);

/// An order of the items with a short line length, found by annealing from
/// `start` for `iterations` steps.
std::vector<int> arrangeLinearly(std::vector<int> start,
                                 const std::vector<int64_t> &widths,
                                 const std::vector<std::pair<int, int>> &wires,
                                 int iterations, uint64_t seed);

} // namespace tessera::placement

#endif // TESSERA_PLACEMENT_LINEARARRANGEMENT_H
