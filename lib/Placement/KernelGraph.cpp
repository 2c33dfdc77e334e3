//===- KernelGraph.cpp - the kernels and connections of a kgraph ----------===//

#include "tessera/Placement/KernelGraph.h"

namespace tessera::placement {

std::string_view getNodeKindName(NodeKind kind) {
  switch (kind) {
  case NodeKind::Input:
    return "input";
  case NodeKind::Output:
    return "output";
  case NodeKind::Conv:
    return "conv";
  case NodeKind::DBlock:
    return "dblock";
  case NodeKind::CBlock:
    return "cblock";
  }
  return "?";
}

std::vector<int> KernelGraph::kernels() const {
  std::vector<int> result;
  for (int i = 0, e = static_cast<int>(nodes.size()); i < e; ++i)
    if (isPlaceable(nodes[i].kind))
      result.push_back(i);
  return result;
}

int KernelGraph::findNode(int id) const {
  for (int i = 0, e = static_cast<int>(nodes.size()); i < e; ++i)
    if (nodes[i].id == id)
      return i;
  return -1;
}

} // namespace tessera::placement
