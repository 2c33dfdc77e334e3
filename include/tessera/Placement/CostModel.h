//===- CostModel.h - rectangle, time and memory of a kernel -----*- C++ -*-===//
//
// The contest's kernel library: a convolution with execution parameters
// h', w', c', k' occupies h'w'(c'+1) x 3k' tiles, takes
// ceil(H/h')ceil(W/w')ceil(C/c')ceil(K/k') R S / T^2 cycles per sample and
// needs C/c' K/k' R S + (W+S-1)/w' (H+R-1)/h' K/k' words per tile. Blocks
// are convolutions side by side that share h' and w'. Every quotient is
// rounded up (a tile holds whole words, a sample takes whole cycles), so a
// variant legal here is legal under exact division too; docs/Placement.md.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PLACEMENT_COSTMODEL_H
#define TESSERA_PLACEMENT_COSTMODEL_H

#include "tessera/Placement/KernelGraph.h"

#include <cstdint>
#include <vector>

namespace tessera::placement {

/// c' and k' of one convolution.
struct ConvParams {
  int64_t c = 1, k = 1;
  bool operator==(const ConvParams &) const = default;
};

/// The execution parameters of a kernel: h' and w', shared by all its
/// convolutions, and c', k' for each convolution.
struct ExecParams {
  int64_t h = 1, w = 1;
  std::vector<ConvParams> convs;
  bool operator==(const ExecParams &) const = default;
};

/// What a kernel costs with given parameters; height and width are those
/// of the unrotated rectangle (R0).
struct KernelCost {
  int64_t height = 0, width = 0, time = 0, memory = 0;
  bool operator==(const KernelCost &) const = default;
};

/// ceil(a / b) for positive a and b.
inline int64_t ceilDiv(int64_t a, int64_t b) { return (a + b - 1) / b; }

/// a * b, clamped to a value far above any legal cost instead of
/// overflowing.
int64_t saturatingMultiply(int64_t a, int64_t b);
constexpr int64_t SaturatedCost = int64_t(1) << 62;
/// a + b for values in [0, SaturatedCost], clamped the same way.
inline int64_t saturatingAdd(int64_t a, int64_t b) {
  return a >= SaturatedCost - b ? SaturatedCost : a + b;
}

/// The time of a convolution as the product of its rounded-up quotients
/// times R S, before the division by T^2 (kept exact for comparisons).
int64_t getConvWork(const ConvShape &conv, int64_t h, int64_t w, int64_t c,
                    int64_t k);

/// One convolution with parameters h', w', c', k'.
KernelCost getConvCost(const ConvShape &conv, int64_t h, int64_t w, int64_t c,
                       int64_t k);

/// The convolutions a kernel is made of: one for conv, three for dblock,
/// four for cblock (README order). Empty for input and output nodes.
std::vector<ConvShape> getKernelConvs(const Node &node);

/// The kernel's cost; `params.convs` must have one entry per convolution.
KernelCost getKernelCost(const Node &node, const ExecParams &params);

} // namespace tessera::placement

#endif // TESSERA_PLACEMENT_COSTMODEL_H
