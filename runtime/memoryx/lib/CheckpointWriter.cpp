//===- CheckpointWriter.cpp - saving a store to a checkpoint file ---------===//

#include "AtomicFile.h"
#include "Checkpoint.h"
#include "LayerStoreAccess.h"

#include "tessera/MemoryX/CheckpointFormat.h"
#include "tessera/Support/Crc32.h"

#include <algorithm>
#include <bit>
#include <cstring>

using namespace tessera::memoryx;
using namespace tessera::memoryx::checkpoint;

// The arrays are written as they lie in memory.
static_assert(std::endian::native == std::endian::little,
              "checkpoints are little-endian");

namespace {

void putU32(unsigned char *at, uint32_t value) { std::memcpy(at, &value, 4); }
void putU64(unsigned char *at, uint64_t value) { std::memcpy(at, &value, 8); }

/// Writes one section. `produce(emit)` hands the payload to
/// `emit(data, size)` piece by piece, in order, and returns the first
/// failure; it runs twice, for the checksum (which the header holds) and
/// for the bytes, so that a payload made on the fly needs no copy of its
/// own.
template <typename Produce>
Status writeSection(AtomicFileWriter &file, SectionKind kind,
                    uint32_t layerIndex, uint64_t size, Produce &&produce) {
  tessera::Crc32 payloadCrc;
  (void)produce([&](const void *data, size_t bytes) {
    payloadCrc.update(data, bytes);
    return Status();
  });

  unsigned char header[SectionHeaderSize];
  putU32(header, static_cast<uint32_t>(kind));
  putU32(header + 4, layerIndex);
  putU64(header + 8, size);
  putU32(header + 16, payloadCrc.value());
  putU32(header + 20, tessera::crc32(header, 20));
  Status written = file.write(header, sizeof(header));
  if (written)
    written = produce([&](const void *data, size_t bytes) {
      return file.write(data, bytes);
    });
  if (written)
    reachSaveStage(SaveStage::SectionWritten);
  return written;
}

/// A payload that lies in memory as it is written.
auto bytesOf(const void *data, size_t size) {
  return [=](auto &&emit) { return size ? emit(data, size) : Status(); };
}

/// Array `array` of `layer` (0 master, 1 + i state i) in column order: the
/// column-order view when it holds the values, else the stored
/// active-first rows put back in column order a block at a time.
auto columnOrderOf(const LayerStore &layer, unsigned array) {
  return [&layer, array](auto &&emit) -> Status {
    std::span<const float> view = LayerStoreAccess::viewIfCurrent(layer, array);
    if (!view.empty())
      return emit(view.data(), view.size_bytes());
    const float *stored = LayerStoreAccess::stored(layer, array).data();
    uint32_t cols = layer.cols();
    constexpr uint32_t BlockFloats = 8192;
    float block[BlockFloats];
    for (uint32_t row = 0; row < layer.rows(); ++row) {
      std::span<const uint64_t> words = layer.weightMask().rowWords(row);
      uint32_t active = activeCount(words);
      const float *line = stored + size_t(row) * cols;
      for (uint32_t first = 0; first < cols; first += BlockFloats) {
        uint32_t end = first + std::min(BlockFloats, cols - first);
        restoreColumns(words, active, first, end, line, block);
        if (Status ok = emit(block, (end - first) * sizeof(float)); !ok)
          return ok;
      }
    }
    return Status();
  };
}

auto maskPayload(const Mask &mask) {
  return bytesOf(mask.words().data(), mask.words().size_bytes());
}

Status writeLayer(AtomicFileWriter &file, const LayerStore &layer,
                  uint32_t index) {
  unsigned char header[LayerHeaderFixedSize];
  putU32(header, layer.rows());
  putU32(header + 4, layer.cols());
  putU32(header + 8, static_cast<uint32_t>(layer.optimizer()));
  putU32(header + 12, static_cast<uint32_t>(layer.name().size()));
  putU64(header + 16, layer.steps());
  auto layerHeader = [&](auto &&emit) {
    Status ok = emit(header, sizeof(header));
    return ok ? emit(layer.name().data(), layer.name().size()) : ok;
  };
  uint64_t arrayBytes = uint64_t(layer.weightCount()) * sizeof(float);
  Status written =
      writeSection(file, SectionKind::Layer, index,
                   sizeof(header) + layer.name().size(), layerHeader);
  if (written)
    written = writeSection(file, SectionKind::Master, index, arrayBytes,
                           columnOrderOf(layer, 0));
  if (written)
    written = writeSection(file, SectionKind::WeightMask, index,
                           layer.weightMask().words().size_bytes(),
                           maskPayload(layer.weightMask()));
  if (written)
    written = writeSection(file, SectionKind::GradientMask, index,
                           layer.gradientMask().words().size_bytes(),
                           maskPayload(layer.gradientMask()));
  unsigned states = optimizerStateCount(layer.optimizer());
  if (written && states > 0)
    written = writeSection(file, SectionKind::FirstMoment, index, arrayBytes,
                           columnOrderOf(layer, 1));
  if (written && states > 1)
    written = writeSection(file, SectionKind::SecondMoment, index, arrayBytes,
                           columnOrderOf(layer, 2));
  return written;
}

} // namespace

Status tessera::memoryx::writeCheckpointFile(const LayerList &layers,
                                             const std::string &path) {
  Expected<AtomicFileWriter> file = AtomicFileWriter::create(path);
  if (!file)
    return file.takeError();

  unsigned char header[HeaderSize];
  std::memcpy(header, Magic, sizeof(Magic));
  putU32(header + 8, Version);
  putU32(header + 12, static_cast<uint32_t>(layers.size()));
  putU32(header + 16, tessera::crc32(header, 16));
  if (Status written = file->write(header, sizeof(header)); !written)
    return written;
  for (size_t i = 0; i < layers.size(); ++i)
    if (Status written = writeLayer(*file, *layers[i], uint32_t(i)); !written)
      return written;
  // Until here an error (or a crash) drops the temporary file and leaves
  // the previous checkpoint in place.
  return file->commit();
}
