//===- LayerStoreAccess.h - assembling a LayerStore from parts --*- C++ -*-===//
//
// Library-internal: the checkpoint reader fills a layer's arrays directly
// instead of making a zero layer and copying over it (in column order;
// finish() arranges them), the writer reads them, and the optimizers update
// the stored (active-first) arrays in place.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_MEMORYX_LIB_LAYERSTOREACCESS_H
#define TESSERA_MEMORYX_LIB_LAYERSTOREACCESS_H

#include "tessera/MemoryX/LayerStore.h"

namespace tessera::memoryx {

/// Checks a spec: name, shape and optimizer kind.
Status validateLayerSpec(const LayerSpec &spec);

struct LayerStoreAccess {
  /// A layer with `spec`'s fields and unallocated arrays.
  static LayerStore blank(const LayerSpec &spec, uint64_t steps) {
    LayerStore layer;
    layer.layerName = spec.name;
    layer.rowCount = spec.rows;
    layer.colCount = spec.cols;
    layer.optimizerKind = spec.optimizer;
    layer.stepCount = steps;
    return layer;
  }
  /// The stored arrays: active first, except in a layer being read.
  static LargeArray<float> &master(LayerStore &layer) {
    return layer.masterWeights;
  }
  static LargeArray<float> &state(LayerStore &layer, unsigned which) {
    return layer.state[which];
  }
  /// Array 0 is the master, 1 + i optimizer state i.
  static const LargeArray<float> &stored(const LayerStore &layer,
                                         unsigned array) {
    return layer.storedArray(array);
  }
  /// The column-order view of `array` if it holds the values (it is newer
  /// than the stored array after a write), else empty.
  static std::span<const float> viewIfCurrent(const LayerStore &layer,
                                              unsigned array) {
    const LayerStore::ColumnView &view = layer.views[array];
    if (view.state == LayerStore::ViewState::Stale)
      return {};
    return view.values.span();
  }
  /// Before a writer of the stored arrays: takes pending writes.
  static void settle(LayerStore &layer) { layer.settleViews(); }
  /// After it: every view is stale.
  static void storedChanged(LayerStore &layer) {
    layer.storedChanged(0, LayerStore::ArrayCount);
  }
  static Mask &weightMask(LayerStore &layer) { return layer.activeMask; }
  static Mask &gradientMask(LayerStore &layer) { return layer.requestMask; }
  static Status finish(LayerStore &layer) { return layer.finish(); }
  static SparseMatrix &sparse(LayerStore &layer) { return layer.sparseCopy; }
  /// After a writer of the master re-rounded what it changed itself.
  static void markSparseCurrent(LayerStore &layer) {
    layer.valuesStale = false;
  }
};

/// Writing single values of a SparseMatrix, for an owner that keeps them
/// equal to its master.
struct SparseMatrixAccess {
  static uint16_t *values(SparseMatrix &matrix) {
    return matrix.halfValues.data();
  }
};

} // namespace tessera::memoryx

#endif // TESSERA_MEMORYX_LIB_LAYERSTOREACCESS_H
