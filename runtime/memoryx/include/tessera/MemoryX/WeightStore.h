//===- WeightStore.h - MemoryX's layers and their checkpoints ---*- C++ -*-===//
//
// The whole of MemoryX's state: its layers, in order, and checkpoints of
// them. A checkpoint holds each layer's shape, name, optimizer kind, step
// count, master weights, both masks and optimizer state; the sparse copy
// and the index streams are derived again when it is loaded.
//
// saveCheckpoint writes a temporary file beside the target, syncs it,
// renames it over the target and syncs the directory, so the target is
// always either the previous checkpoint or the new one, whole. Loading
// verifies every byte (format, checksums, shapes) before it changes the
// store, and reports the file, the offset and what is wrong.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_MEMORYX_WEIGHTSTORE_H
#define TESSERA_MEMORYX_WEIGHTSTORE_H

#include "tessera/MemoryX/Expected.h"
#include "tessera/MemoryX/LayerStore.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::memoryx {

class WeightStore {
public:
  /// Adds a layer of zero weights, every weight active and requested.
  /// Names are unique.
  Expected<LayerStore *> addLayer(const LayerSpec &spec);

  size_t layerCount() const { return layerList.size(); }
  LayerStore &layer(size_t index) { return *layerList[index]; }
  const LayerStore &layer(size_t index) const { return *layerList[index]; }
  /// The layer called `name`, or nullptr.
  LayerStore *findLayer(std::string_view name);

  Status saveCheckpoint(const std::string &path) const;
  /// Replaces every layer's contents with the checkpoint's, which must have
  /// the same layers (names, shapes, optimizers) in the same order. On
  /// failure the store is unchanged.
  Status loadCheckpoint(const std::string &path);
  /// A store with exactly the checkpoint's layers.
  static Expected<WeightStore> readCheckpoint(const std::string &path);

private:
  std::vector<std::unique_ptr<LayerStore>> layerList;
};

} // namespace tessera::memoryx

#endif // TESSERA_MEMORYX_WEIGHTSTORE_H
