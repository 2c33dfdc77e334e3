//===- Traversal.h - the order the rows take the kernels --------*- C++ -*-===//
#ifndef TESSERA_PLACEMENT_TRAVERSAL_H
#define TESSERA_PLACEMENT_TRAVERSAL_H

#include "tessera/Placement/KernelGraph.h"

#include <vector>

namespace tessera::placement {

/// The placeable kernels (node indices) in a topological order that goes
/// depth first from the inputs: after a kernel come its successors, the
/// first connection's first, as soon as all their predecessors are placed,
/// so that connected kernels sit close together in the order. Nodes on a
/// cycle follow in file order.
std::vector<int> getTraversalOrder(const KernelGraph &graph);

} // namespace tessera::placement

#endif // TESSERA_PLACEMENT_TRAVERSAL_H
