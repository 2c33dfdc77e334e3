//===- LayerStore.h - one layer's parameters in MemoryX ---------*- C++ -*-===//
//
// Everything MemoryX keeps for one layer: the dense FP32 master weights
// (rows = output features, cols = input features, row-major), the weight
// mask (which weights are active and streamed), the gradient-request mask
// (which gradients the wafer computes; it may include inactive weights so
// that they can regrow), the per-weight optimizer state, and what is
// derived from them: the streamed FP16 SparseMatrix and the request mask's
// IndexStream.
//
// Every operation leaves the derived data current, except writing through
// mutableMaster(), after which rebuild() must run before the sparse copy is
// streamed again.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_MEMORYX_LAYERSTORE_H
#define TESSERA_MEMORYX_LAYERSTORE_H

#include "tessera/MemoryX/Expected.h"
#include "tessera/MemoryX/IndexStream.h"
#include "tessera/MemoryX/LargeArray.h"
#include "tessera/MemoryX/Mask.h"
#include "tessera/MemoryX/SparseMatrix.h"

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace tessera::memoryx {

/// Which optimizer a layer keeps state for; fixed when the layer is made.
enum class OptimizerKind : uint32_t { SGD = 0, Momentum = 1, Adam = 2 };

/// "sgd", "momentum" or "adam"; "unknown" for any other value.
std::string_view optimizerName(OptimizerKind kind);
/// FP32 values kept per weight: 0 for SGD, 1 for momentum (the velocity),
/// 2 for Adam (the first and second moments).
unsigned optimizerStateCount(OptimizerKind kind);

/// The longest layer name, in bytes.
inline constexpr size_t MaxLayerNameLength = 1024;

struct LayerSpec {
  std::string name;
  uint32_t rows = 0; ///< Output features.
  uint32_t cols = 0; ///< Input features.
  OptimizerKind optimizer = OptimizerKind::SGD;
};

class LayerStore {
public:
  /// A layer of zero weights with every weight active and requested.
  static Expected<LayerStore> create(const LayerSpec &spec);

  const std::string &name() const { return layerName; }
  uint32_t rows() const { return rowCount; }
  uint32_t cols() const { return colCount; }
  size_t weightCount() const { return size_t(rowCount) * colCount; }
  OptimizerKind optimizer() const { return optimizerKind; }
  /// Optimizer steps applied so far (Adam's bias correction counts them).
  uint64_t steps() const { return stepCount; }

  std::span<const float> master() const { return masterWeights.span(); }
  /// Copies `weights` (rows x cols) into the master and re-rounds the
  /// sparse copy.
  Status setMaster(std::span<const float> weights);
  /// Direct access; call rebuild() before streaming again.
  std::span<float> mutableMaster();

  const Mask &weightMask() const { return activeMask; }
  const Mask &gradientMask() const { return requestMask; }
  /// Replaces the weight mask and rebuilds the sparse copy's structure.
  Status setWeightMask(Mask mask);
  /// Replaces the gradient-request mask and re-encodes its stream.
  Status setGradientMask(Mask mask);

  /// State array `which`, one FP32 per weight; empty unless `which` is
  /// below optimizerStateCount(optimizer()).
  std::span<const float> optimizerState(unsigned which) const;
  std::span<float> mutableOptimizerState(unsigned which);
  void setSteps(uint64_t steps) { stepCount = steps; }

  /// The streamed FP16 copy of the active weights.
  const SparseMatrix &sparse() const { return sparseCopy; }
  /// The gradient-request mask in the streamed index format; gradients
  /// come back in its order.
  const IndexStream &gradientStream() const { return requestStream; }

  /// Re-rounds the sparse copy from the master (and re-encodes the
  /// structure if it is stale).
  Status rebuild();
  /// Whether the sparse copy reflects the master and masks.
  bool isSparseCurrent() const { return !valuesStale && !structureStale; }

private:
  friend struct LayerStoreAccess;
  LayerStore() = default;
  /// Builds the derived data from scratch.
  Status finish();

  std::string layerName;
  uint32_t rowCount = 0;
  uint32_t colCount = 0;
  OptimizerKind optimizerKind = OptimizerKind::SGD;
  uint64_t stepCount = 0;
  LargeArray<float> masterWeights;
  Mask activeMask;
  Mask requestMask;
  std::array<LargeArray<float>, 2> state;
  SparseMatrix sparseCopy;
  IndexStream requestStream;
  bool structureStale = true;
  bool valuesStale = true;
};

} // namespace tessera::memoryx

#endif // TESSERA_MEMORYX_LAYERSTORE_H
