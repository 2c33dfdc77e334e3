//===- LayerStoreViews.cpp - the column-order views of a layer ------------===//
//
// master() and optimizerState() return spans in column order, which the
// active-first arrays are not. Each array therefore has a column-order copy,
// made on demand and kept: a span handed out stays valid, and asking again
// costs nothing until the stored array changes. Writes through
// mutableMaster() or mutableOptimizerState() go to the copy; the next
// operation that reads the stored array arranges them into it first.
//
//===----------------------------------------------------------------------===//

#include "tessera/MemoryX/LayerStore.h"

using namespace tessera::memoryx;

std::span<float> LayerStore::columnView(unsigned array) const {
  ColumnView &view = views[array];
  if (view.state == ViewState::Stale) {
    view.values.resize(weightCount());
    toColumnOrder(activeMask, storedArray(array).span(), view.values.span());
    view.state = ViewState::Current;
  }
  return view.values.span();
}

void LayerStore::settleViews() {
  for (unsigned array = 0; array < arrayCount(); ++array) {
    ColumnView &view = views[array];
    if (view.state != ViewState::Written)
      continue;
    float *stored = storedArray(array).data();
    for (uint32_t row = 0; row < rowCount; ++row) {
      size_t at = size_t(row) * colCount;
      arrangeRow(activeMask.rowWords(row), colCount, view.values.data() + at,
                 stored + at);
    }
    view.state = ViewState::Current;
  }
}

void LayerStore::storedChanged(unsigned first, unsigned end) {
  for (unsigned array = first; array < end; ++array)
    views[array].state = ViewState::Stale;
}
