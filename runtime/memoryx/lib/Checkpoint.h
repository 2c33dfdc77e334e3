//===- Checkpoint.h - reading and writing checkpoint files ------*- C++ -*-===//
//
// Library-internal: the file side of WeightStore's checkpoints.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_MEMORYX_LIB_CHECKPOINT_H
#define TESSERA_MEMORYX_LIB_CHECKPOINT_H

#include "tessera/MemoryX/Expected.h"
#include "tessera/MemoryX/LayerStore.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace tessera::memoryx {

using LayerList = std::vector<std::unique_ptr<LayerStore>>;

struct CheckpointContents {
  LayerList layers;
  /// Where each layer's header payload starts, for messages about it.
  std::vector<uint64_t> layerOffsets;
};

Status writeCheckpointFile(const LayerList &layers, const std::string &path);
Expected<CheckpointContents> readCheckpointFile(const std::string &path);

/// "<path>: offset <offset>: <what>", the form of every format error.
Error checkpointError(const std::string &path, uint64_t offset,
                      const std::string &what);

} // namespace tessera::memoryx

#endif // TESSERA_MEMORYX_LIB_CHECKPOINT_H
