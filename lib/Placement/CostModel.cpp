//===- CostModel.cpp - rectangle, time and memory of a kernel -------------===//

#include "tessera/Placement/CostModel.h"

#include <algorithm>

namespace tessera::placement {

int64_t saturatingMultiply(int64_t a, int64_t b) {
  if (a == 0 || b == 0)
    return 0;
  if (a >= SaturatedCost / b)
    return SaturatedCost;
  return std::min(a * b, SaturatedCost);
}

int64_t getConvWork(const ConvShape &conv, int64_t h, int64_t w, int64_t c,
                    int64_t k) {
  int64_t work = ceilDiv(conv.H, h);
  work = saturatingMultiply(work, ceilDiv(conv.W, w));
  work = saturatingMultiply(work, ceilDiv(conv.C, c));
  work = saturatingMultiply(work, ceilDiv(conv.K, k));
  return saturatingMultiply(work, conv.R * conv.S);
}

KernelCost getConvCost(const ConvShape &conv, int64_t h, int64_t w, int64_t c,
                       int64_t k) {
  KernelCost cost;
  cost.height = saturatingMultiply(saturatingMultiply(h, w), c + 1);
  cost.width = saturatingMultiply(3, k);
  cost.time = ceilDiv(getConvWork(conv, h, w, c, k), conv.T * conv.T);
  int64_t outputs = ceilDiv(conv.K, k);
  int64_t weights = saturatingMultiply(
      saturatingMultiply(ceilDiv(conv.C, c), outputs), conv.R * conv.S);
  int64_t activations =
      saturatingMultiply(saturatingMultiply(ceilDiv(conv.W + conv.S - 1, w),
                                            ceilDiv(conv.H + conv.R - 1, h)),
                         outputs);
  cost.memory = saturatingAdd(weights, activations);
  return cost;
}

std::vector<ConvShape> getKernelConvs(const Node &node) {
  int64_t F = node.F, H = node.H, W = node.W;
  switch (node.kind) {
  case NodeKind::Input:
  case NodeKind::Output:
    return {};
  case NodeKind::Conv:
    return {node.conv};
  case NodeKind::DBlock:
    return {{H, W, 1, 1, F, F / 4, 1},
            {H, W, 3, 3, F / 4, F / 4, 1},
            {H, W, 1, 1, F / 4, F, 1}};
  case NodeKind::CBlock:
    return {{H, W, 1, 1, F / 2, F / 4, 1},
            {H, W, 3, 3, F / 4, F / 4, 2},
            {H / 2, W / 2, 1, 1, F / 4, F, 1},
            {H, W, 1, 1, F / 2, F, 2}};
  }
  return {};
}

KernelCost getKernelCost(const Node &node, const ExecParams &params) {
  std::vector<ConvShape> convs = getKernelConvs(node);
  KernelCost total;
  for (size_t i = 0; i < convs.size() && i < params.convs.size(); ++i) {
    KernelCost cost = getConvCost(convs[i], params.h, params.w,
                                  params.convs[i].c, params.convs[i].k);
    total.height = std::max(total.height, cost.height);
    total.width = saturatingAdd(total.width, cost.width);
    total.time = std::max(total.time, cost.time);
    total.memory = std::max(total.memory, cost.memory);
  }
  return total;
}

} // namespace tessera::placement
