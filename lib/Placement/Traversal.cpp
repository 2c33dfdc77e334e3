//===- Traversal.cpp - the order the rows take the kernels ----------------===//

#include "tessera/Placement/Traversal.h"

#include <algorithm>

namespace tessera::placement {

std::vector<int> getTraversalOrder(const KernelGraph &graph) {
  size_t n = graph.nodes.size();
  std::vector<std::vector<int>> successors(n);
  std::vector<int> waiting(n, 0);
  for (const Connection &connection : graph.connections) {
    successors[connection.from].push_back(connection.to);
    ++waiting[connection.to];
  }
  std::vector<bool> done(n, false);
  std::vector<int> order;
  std::vector<int> stack;
  auto visit = [&](int start) {
    stack.push_back(start);
    while (!stack.empty()) {
      int node = stack.back();
      stack.pop_back();
      if (done[node])
        continue;
      done[node] = true;
      if (isPlaceable(graph.nodes[node].kind))
        order.push_back(node);
      const std::vector<int> &next = successors[node];
      for (auto it = next.rbegin(); it != next.rend(); ++it)
        if (--waiting[*it] == 0)
          stack.push_back(*it);
    }
  };
  for (size_t i = 0; i < n; ++i)
    if (waiting[i] == 0 && !done[i])
      visit(static_cast<int>(i));
  // What is left lies on or behind a cycle.
  for (size_t i = 0; i < n; ++i)
    if (!done[i]) {
      waiting[i] = 0;
      visit(static_cast<int>(i));
    }
  return order;
}

} // namespace tessera::placement
