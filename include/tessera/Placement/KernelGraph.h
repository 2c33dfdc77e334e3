//===- KernelGraph.h - the kernels and connections of a kgraph --*- C++ -*-===//
//
// What a kgraph file of the ISPD 2020 wafer-scale placement contest says:
// the fabric (grid size, memory per tile), the score weights, the kernels
// with their formal arguments and the directed connections between them.
// docs/Placement.md describes the format and the model.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PLACEMENT_KERNELGRAPH_H
#define TESSERA_PLACEMENT_KERNELGRAPH_H

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::placement {

enum class NodeKind { Input, Output, Conv, DBlock, CBlock };

/// "conv", "dblock", ... as the kgraph spells the kind.
std::string_view getNodeKindName(NodeKind kind);

/// Input and output nodes only name the graph's boundary; the others are
/// kernels that get execution parameters and a rectangle on the grid.
inline bool isPlaceable(NodeKind kind) {
  return kind != NodeKind::Input && kind != NodeKind::Output;
}

/// The formal arguments of a convolution, in the README's order
/// (H, W, R, S, C, K, T).
struct ConvShape {
  int64_t H = 1, W = 1, R = 1, S = 1, C = 1, K = 1, T = 1;
};

struct Node {
  int id = 0; ///< The number in `conv[12]`.
  NodeKind kind = NodeKind::Conv;
  /// conv: the convolution itself (`U`, which the cost model does not use,
  /// is kept in `unused`); dblock and cblock: F, H and W.
  ConvShape conv;
  int64_t unused = 0;
  bool hasUnused = false;
  int64_t F = 0, H = 0, W = 0;
  std::vector<int64_t> dims; ///< input/output: the `n=[...]` tensor.
  std::string name;          ///< The last `name='...'`, if any.
  int line = 0;              ///< Where the node is defined.

  /// The name solutions use for the kernel: "k" and the node's number.
  std::string label() const { return "k" + std::to_string(id); }
};

struct Connection {
  int from = 0, to = 0; ///< Indices into KernelGraph::nodes.
  std::string fromPort, toPort;
  std::vector<int64_t> shape;
  int line = 0;
};

struct KernelGraph {
  std::string test; ///< The header's `test=` name, if any.
  int64_t gridWidth = 0, gridHeight = 0, memLimit = 0;
  double weightDeltaT = 0, weightLength = 0, weightAdapter = 0;
  std::vector<Node> nodes;
  std::vector<Connection> connections;

  /// Indices of the placeable nodes, in file order.
  std::vector<int> kernels() const;
  /// The index of the node numbered `id`, or -1.
  int findNode(int id) const;
};

} // namespace tessera::placement

#endif // TESSERA_PLACEMENT_KERNELGRAPH_H
