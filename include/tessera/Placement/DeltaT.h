//===- DeltaT.h - the target time per sample ---------------------*- C++
//-*-===//
//
// δT, the time of the slowest kernel, bounds the throughput of the whole
// pipeline. Every predicate below is monotone in δT (a variant allowed at
// some δT is allowed at every larger one), so the smallest δT that
// satisfies it is found by binary search.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PLACEMENT_DELTAT_H
#define TESSERA_PLACEMENT_DELTAT_H

#include "tessera/Placement/KernelGraph.h"
#include "tessera/Placement/Variants.h"

#include <cstdint>
#include <functional>
#include <optional>
#include <vector>

namespace tessera::placement {

/// One enumerator per placeable kernel, in KernelGraph::kernels() order.
std::vector<VariantEnumerator> makeEnumerators(const KernelGraph &graph);

/// Whether a rectangle fits the grid in R0 or R90.
bool fitsGrid(const KernelGraph &graph, int64_t height, int64_t width);

/// The δT at which every kernel's every memory-legal variant is allowed:
/// larger targets change nothing.
int64_t getSlowestDeltaT(const std::vector<VariantEnumerator> &enumerators);

/// The smallest δT in [low, high] for which `holds` is true, or nullopt if
/// it is false at `high`.
std::optional<int64_t>
findSmallestDeltaT(int64_t low, int64_t high,
                   const std::function<bool(int64_t)> &holds);

/// A lower bound on δT: the smallest value at which every kernel has a
/// variant that fits the grid and the smallest areas of all kernels add up
/// to at most the grid's area. nullopt if no δT satisfies both (the graph
/// cannot be placed at all).
std::optional<int64_t>
getDeltaTLowerBound(const KernelGraph &graph,
                    const std::vector<VariantEnumerator> &enumerators);

} // namespace tessera::placement

#endif // TESSERA_PLACEMENT_DELTAT_H
