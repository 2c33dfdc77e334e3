//===- LayerStore.cpp - one layer's parameters in MemoryX -----------------===//

#include "tessera/MemoryX/LayerStore.h"

#include "LayerStoreAccess.h"

#include <new>
#include <vector>

using namespace tessera::memoryx;

namespace {
std::string shapeText(uint32_t rows, uint32_t cols) {
  return std::to_string(rows) + "x" + std::to_string(cols);
}
} // namespace

std::string_view tessera::memoryx::optimizerName(OptimizerKind kind) {
  switch (kind) {
  case OptimizerKind::SGD:
    return "sgd";
  case OptimizerKind::Momentum:
    return "momentum";
  case OptimizerKind::Adam:
    return "adam";
  }
  return "unknown";
}

unsigned tessera::memoryx::optimizerStateCount(OptimizerKind kind) {
  switch (kind) {
  case OptimizerKind::SGD:
    return 0;
  case OptimizerKind::Momentum:
    return 1;
  case OptimizerKind::Adam:
    return 2;
  }
  return 0;
}

Status tessera::memoryx::validateLayerSpec(const LayerSpec &spec) {
  if (spec.name.empty())
    return Error("layer name is empty");
  if (spec.name.size() > MaxLayerNameLength)
    return Error("layer name of " + std::to_string(spec.name.size()) +
                 " bytes is longer than " + std::to_string(MaxLayerNameLength));
  std::string layer = "layer '" + spec.name + "'";
  if (spec.rows == 0 || spec.cols == 0)
    return Error(layer + " has an empty shape " +
                 shapeText(spec.rows, spec.cols));
  uint64_t weights = uint64_t(spec.rows) * spec.cols;
  if (weights > MaxWeights)
    return Error(layer + " of " + shapeText(spec.rows, spec.cols) + " has " +
                 std::to_string(weights) + " weights, more than " +
                 std::to_string(MaxWeights));
  if (optimizerName(spec.optimizer) == "unknown")
    return Error(layer + " has unknown optimizer kind " +
                 std::to_string(static_cast<uint32_t>(spec.optimizer)));
  return Status();
}

Expected<LayerStore> LayerStore::create(const LayerSpec &spec) {
  if (Status valid = validateLayerSpec(spec); !valid)
    return valid.takeError();
  LayerStore layer = LayerStoreAccess::blank(spec, 0);
  try {
    size_t weights = layer.weightCount();
    layer.masterWeights.resize(weights);
    layer.masterWeights.fill(0.0f);
    for (unsigned i = 0; i < optimizerStateCount(spec.optimizer); ++i) {
      layer.state[i].resize(weights);
      layer.state[i].fill(0.0f);
    }
    layer.activeMask = Mask(spec.rows, spec.cols, true);
    layer.requestMask = Mask(spec.rows, spec.cols, true);
  } catch (const std::bad_alloc &) {
    return Error("out of memory allocating layer '" + spec.name + "' of " +
                 shapeText(spec.rows, spec.cols));
  }
  if (Status built = layer.finish(); !built)
    return built.takeError();
  return layer;
}

Error LayerStore::outOfMemoryReordering() const {
  return Error("out of memory reordering layer '" + layerName + "' of " +
               shapeText(rowCount, colCount));
}

Status LayerStore::finish() {
  try {
    std::vector<float> scratch;
    for (unsigned array = 0; array < arrayCount(); ++array)
      arrangeActiveFirst(activeMask, storedArray(array).span(), scratch);
  } catch (const std::bad_alloc &) {
    return outOfMemoryReordering();
  }
  Expected<IndexStream> stream = IndexStream::encodeRows(requestMask);
  if (!stream)
    return stream.takeError();
  requestStream = std::move(*stream);
  if (Status built = sparseCopy.rebuild(masterWeights.span(), activeMask,
                                        MasterOrder::ActiveFirst);
      !built)
    return built;
  structureStale = valuesStale = false;
  return Status();
}

Status LayerStore::setMaster(std::span<const float> weights) {
  if (weights.size() != weightCount())
    return Error("layer '" + layerName + "' has " +
                 std::to_string(weightCount()) + " weights, got " +
                 std::to_string(weights.size()));
  for (uint32_t row = 0; row < rowCount; ++row) {
    size_t at = size_t(row) * colCount;
    arrangeRow(activeMask.rowWords(row), colCount, weights.data() + at,
               masterWeights.data() + at);
  }
  // Pending writes to the master are overwritten, not taken.
  views[0].state = ViewState::Stale;
  valuesStale = true;
  return rebuild();
}

std::span<const float> LayerStore::master() const { return columnView(0); }

std::span<float> LayerStore::mutableMaster() {
  std::span<float> view = columnView(0);
  views[0].state = ViewState::Written;
  valuesStale = true;
  return view;
}

std::span<const float> LayerStore::storedMaster() {
  settleViews();
  return masterWeights.span();
}

std::span<const float> LayerStore::optimizerState(unsigned which) const {
  if (which >= optimizerStateCount(optimizerKind))
    return {};
  return columnView(1 + which);
}

std::span<float> LayerStore::mutableOptimizerState(unsigned which) {
  if (which >= optimizerStateCount(optimizerKind))
    return {};
  std::span<float> view = columnView(1 + which);
  views[1 + which].state = ViewState::Written;
  return view;
}

std::span<const float> LayerStore::storedOptimizerState(unsigned which) {
  if (which >= optimizerStateCount(optimizerKind))
    return {};
  settleViews();
  return state[which].span();
}

Status LayerStore::setWeightMask(Mask mask) {
  if (mask.rows() != rowCount || mask.cols() != colCount)
    return Error("layer '" + layerName + "' is " +
                 shapeText(rowCount, colCount) + ", the weight mask is " +
                 shapeText(mask.rows(), mask.cols()));
  settleViews();
  // Move every weight to its new place, then build the structure aside; a
  // failure moves them back (the scratch is then large enough already) and
  // leaves the layer as it was. The column-order views stay current.
  std::vector<float> scratch;
  unsigned arrays = arrayCount(), moved = 0;
  try {
    for (; moved < arrays; ++moved)
      reorderActiveFirst(activeMask, mask, storedArray(moved).span(), scratch);
  } catch (const std::bad_alloc &) {
    // Only the first array can fail: it sizes the scratch.
    return outOfMemoryReordering();
  }
  SparseMatrix rebuilt;
  if (Status built =
          rebuilt.rebuild(masterWeights.span(), mask, MasterOrder::ActiveFirst);
      !built) {
    for (unsigned array = 0; array < arrays; ++array)
      reorderActiveFirst(mask, activeMask, storedArray(array).span(), scratch);
    return built;
  }
  sparseCopy = std::move(rebuilt);
  activeMask = std::move(mask);
  structureStale = valuesStale = false;
  return Status();
}

Status LayerStore::setGradientMask(Mask mask) {
  if (mask.rows() != rowCount || mask.cols() != colCount)
    return Error("layer '" + layerName + "' is " +
                 shapeText(rowCount, colCount) +
                 ", the gradient-request mask is " +
                 shapeText(mask.rows(), mask.cols()));
  Expected<IndexStream> stream = IndexStream::encodeRows(mask);
  if (!stream)
    return stream.takeError();
  requestStream = std::move(*stream);
  requestMask = std::move(mask);
  return Status();
}

Status LayerStore::rebuild() {
  settleViews();
  Status built = structureStale
                     ? sparseCopy.rebuild(masterWeights.span(), activeMask,
                                          MasterOrder::ActiveFirst)
                     : sparseCopy.refreshValues(masterWeights.span(),
                                                MasterOrder::ActiveFirst);
  if (!built)
    return built;
  structureStale = valuesStale = false;
  return Status();
}

Status LayerStore::readyToRefresh() {
  settleViews();
  if (!structureStale)
    return Status();
  return rebuild();
}
