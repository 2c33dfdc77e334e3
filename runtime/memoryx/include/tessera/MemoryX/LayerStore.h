//===- LayerStore.h - one layer's parameters in MemoryX ---------*- C++ -*-===//
//
// Everything MemoryX keeps for one layer: the dense FP32 master weights
// (rows = output features, cols = input features), the weight mask (which
// weights are active and streamed), the gradient-request mask (which
// gradients the wafer computes; it may include inactive weights so that
// they can regrow), the per-weight optimizer state, and what is derived
// from them: the streamed FP16 SparseMatrix and the request mask's
// IndexStream.
//
// The master and the optimizer state are stored active first
// (ActiveFirst.h): each row holds its active weights, in column order, then
// its inactive ones, so that a refresh of the FP16 copy reads only the
// active run of each row. Every weight keeps its value and state wherever
// it lies; a weight-mask change moves them to their new places. The
// accessors master() and optimizerState() show column order (row-major) as
// before, through a column-order copy of the array made when asked for.
//
// Every operation leaves the derived data current, except writing through
// mutableMaster(), after which rebuild() must run before the sparse copy is
// streamed again.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_MEMORYX_LAYERSTORE_H
#define TESSERA_MEMORYX_LAYERSTORE_H

#include "tessera/MemoryX/ActiveFirst.h"
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

  /// The master in column order (rows x cols, row-major). This is a
  /// column-order copy kept beside the stored array: it is brought up to
  /// date on the first call after the master changed (one pass over the
  /// layer) and then stays allocated, 4 bytes per weight. The span is valid
  /// until the next call that changes the layer. Throws std::bad_alloc if
  /// the copy cannot be allocated.
  std::span<const float> master() const;
  /// Copies `weights` (rows x cols, row-major) into the master and
  /// re-rounds the sparse copy.
  Status setMaster(std::span<const float> weights);
  /// The column-order copy, for writing: the next operation that reads the
  /// stored master (rebuild(), a mask change, an optimizer step,
  /// storedMaster()) takes the writes into it, and a save writes them as
  /// they are. Call rebuild() before streaming again, and call this again
  /// to write after that.
  std::span<float> mutableMaster();
  /// The master as stored: row by row, the active weights first (in column
  /// order), then the inactive ones. Takes pending writes first.
  std::span<const float> storedMaster();

  const Mask &weightMask() const { return activeMask; }
  const Mask &gradientMask() const { return requestMask; }
  /// Replaces the weight mask, moves every weight's value and optimizer
  /// state to its place in the new active-first order (rows whose mask is
  /// unchanged stay as they are), and rebuilds the sparse copy's structure.
  Status setWeightMask(Mask mask);
  /// Replaces the gradient-request mask and re-encodes its stream.
  Status setGradientMask(Mask mask);

  /// State array `which`, one FP32 per weight, in column order like
  /// master() (a column-order copy, with the same rules); empty unless
  /// `which` is below optimizerStateCount(optimizer()).
  std::span<const float> optimizerState(unsigned which) const;
  std::span<float> mutableOptimizerState(unsigned which);
  /// State array `which` as stored, in the master's active-first order.
  std::span<const float> storedOptimizerState(unsigned which);
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

  /// What a step streams: re-rounds the whole sparse copy from the stored
  /// master and hands over the forward wire stream in the same pass
  /// (SparseMatrix::refreshAndStreamForward, active-first order).
  template <typename Consume>
  Status refreshAndStreamForward(std::span<uint32_t> buffer,
                                 Consume &&consume) {
    if (Status ready = readyToRefresh(); !ready)
      return ready;
    Status done = sparseCopy.refreshAndStreamForward(
        masterWeights.span(), buffer, consume, MasterOrder::ActiveFirst);
    if (done)
      valuesStale = false;
    return done;
  }

private:
  friend struct LayerStoreAccess;
  LayerStore() = default;
  /// Puts the arrays, read in column order, in active-first order and
  /// builds the derived data from scratch.
  Status finish();
  /// Takes pending writes and rebuilds a stale structure.
  Status readyToRefresh();
  Error outOfMemoryReordering() const;

  /// The arrays with a column-order view: the master, then the states.
  static constexpr unsigned ArrayCount = 3;
  unsigned arrayCount() const { return 1 + optimizerStateCount(optimizerKind); }
  LargeArray<float> &storedArray(unsigned array) {
    return array == 0 ? masterWeights : state[array - 1];
  }
  const LargeArray<float> &storedArray(unsigned array) const {
    return array == 0 ? masterWeights : state[array - 1];
  }
  enum class ViewState : uint8_t {
    Stale,   ///< Out of date, or never made.
    Current, ///< Equal to the stored array.
    Written, ///< Handed out for writing: newer than the stored array.
  };
  struct ColumnView {
    LargeArray<float> values;
    ViewState state = ViewState::Stale;
  };
  /// The view of `array`, brought up to date.
  std::span<float> columnView(unsigned array) const;
  /// Arranges written views into their stored arrays.
  void settleViews();
  /// After the stored arrays [first, end) changed: their views are stale.
  void storedChanged(unsigned first, unsigned end);

  std::string layerName;
  uint32_t rowCount = 0;
  uint32_t colCount = 0;
  OptimizerKind optimizerKind = OptimizerKind::SGD;
  uint64_t stepCount = 0;
  /// Active first, like the state.
  LargeArray<float> masterWeights;
  Mask activeMask;
  Mask requestMask;
  std::array<LargeArray<float>, 2> state;
  /// A cache: const accessors bring it up to date.
  mutable std::array<ColumnView, ArrayCount> views;
  SparseMatrix sparseCopy;
  IndexStream requestStream;
  bool structureStale = true;
  bool valuesStale = true;
};

} // namespace tessera::memoryx

#endif // TESSERA_MEMORYX_LAYERSTORE_H
