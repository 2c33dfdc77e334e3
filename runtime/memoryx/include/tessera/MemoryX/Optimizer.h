//===- Optimizer.h - weight updates from streamed gradients -----*- C++ -*-===//
//
// One optimizer step on one layer. Gradients arrive as FP32 in the order of
// the layer's gradient-request stream (one per requested weight, escapes
// excluded), and only requested weights change: their master value and
// their optimizer state. A requested weight outside the weight mask is
// updated too, so that it has a trained value when the mask admits it
// (regrowth), but it stays out of the sparse copy until then. A weight in
// the weight mask that was not requested keeps its value and state.
//
// Each update is computed in double from the FP32 master and state and
// rounded once to FP32 when stored; the step count goes up by one. An
// updated weight that is active has its FP16 value in the sparse copy
// re-rounded as it is stored (the others did not change), so a step is a
// single pass over the requested weights.
//
//   SGD       w <- w - lr * g
//   momentum  v <- mu * v + g;  w <- w - lr * v
//   Adam      t = steps + 1
//             m <- b1 * m + (1 - b1) * g
//             v <- b2 * v + (1 - b2) * g^2
//             w <- w - lr * (m / (1 - b1^t)) / (sqrt(v / (1 - b2^t)) + eps)
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_MEMORYX_OPTIMIZER_H
#define TESSERA_MEMORYX_OPTIMIZER_H

#include "tessera/MemoryX/Expected.h"
#include "tessera/MemoryX/LayerStore.h"

#include <span>

namespace tessera::memoryx {

struct SGDParams {
  float learningRate = 0.01f;
};

struct MomentumParams {
  float learningRate = 0.01f;
  float momentum = 0.9f;
};

struct AdamParams {
  float learningRate = 0.001f;
  float beta1 = 0.9f;
  float beta2 = 0.999f;
  float epsilon = 1e-8f;
};

Status applySGD(LayerStore &layer, std::span<const float> gradients,
                const SGDParams &params);
Status applyMomentum(LayerStore &layer, std::span<const float> gradients,
                     const MomentumParams &params);
Status applyAdam(LayerStore &layer, std::span<const float> gradients,
                 const AdamParams &params);

} // namespace tessera::memoryx

#endif // TESSERA_MEMORYX_OPTIMIZER_H
