//===- WeightStore.cpp - the layers of MemoryX and their checkpoints ------===//

#include "tessera/MemoryX/WeightStore.h"

#include "Checkpoint.h"

#include <new>

using namespace tessera::memoryx;

Expected<LayerStore *> WeightStore::addLayer(const LayerSpec &spec) {
  if (findLayer(spec.name))
    return Error("the store already has a layer '" + spec.name + "'");
  Expected<LayerStore> layer = LayerStore::create(spec);
  if (!layer)
    return layer.takeError();
  try {
    layerList.push_back(std::make_unique<LayerStore>(std::move(*layer)));
  } catch (const std::bad_alloc &) {
    return Error("out of memory adding layer '" + spec.name + "'");
  }
  return layerList.back().get();
}

LayerStore *WeightStore::findLayer(std::string_view name) {
  for (const std::unique_ptr<LayerStore> &layer : layerList)
    if (layer->name() == name)
      return layer.get();
  return nullptr;
}

Status WeightStore::saveCheckpoint(const std::string &path) const {
  return writeCheckpointFile(layerList, path);
}

Expected<WeightStore> WeightStore::readCheckpoint(const std::string &path) {
  Expected<CheckpointContents> contents = readCheckpointFile(path);
  if (!contents)
    return contents.takeError();
  WeightStore store;
  store.layerList = std::move(contents->layers);
  return store;
}

Status WeightStore::loadCheckpoint(const std::string &path) {
  Expected<CheckpointContents> contents = readCheckpointFile(path);
  if (!contents)
    return contents.takeError();
  LayerList &loaded = contents->layers;
  if (loaded.size() != layerList.size())
    return checkpointError(
        path, 12,
        "the checkpoint has " + std::to_string(loaded.size()) +
            " layers, the store has " + std::to_string(layerList.size()));
  for (size_t i = 0; i < loaded.size(); ++i) {
    const LayerStore &found = *loaded[i], &expected = *layerList[i];
    uint64_t at = contents->layerOffsets[i];
    std::string layer = "layer " + std::to_string(i);
    if (found.name() != expected.name())
      return checkpointError(path, at + 24,
                             layer + " is '" + found.name() +
                                 "' in the checkpoint, '" + expected.name() +
                                 "' in the store");
    layer += " '" + found.name() + "'";
    if (found.rows() != expected.rows() || found.cols() != expected.cols())
      return checkpointError(
          path, at,
          layer + " is " + std::to_string(found.rows()) + "x" +
              std::to_string(found.cols()) + " in the checkpoint, " +
              std::to_string(expected.rows()) + "x" +
              std::to_string(expected.cols()) + " in the store");
    if (found.optimizer() != expected.optimizer())
      return checkpointError(
          path, at + 8,
          layer + " keeps " + std::string(optimizerName(found.optimizer())) +
              " state in the checkpoint, " +
              std::string(optimizerName(expected.optimizer())) +
              " in the store");
  }
  // Swap whole layers: pointers the caller holds stay valid.
  for (size_t i = 0; i < loaded.size(); ++i)
    *layerList[i] = std::move(*loaded[i]);
  return Status();
}
