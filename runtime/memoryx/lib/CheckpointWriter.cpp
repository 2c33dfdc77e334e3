//===- CheckpointWriter.cpp - saving a store to a checkpoint file ---------===//

#include "AtomicFile.h"
#include "Checkpoint.h"

#include "tessera/MemoryX/CheckpointFormat.h"
#include "tessera/MemoryX/Crc32.h"

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

/// A section's payload in up to two pieces (the layer header and its name).
struct Payload {
  const void *first;
  size_t firstSize;
  const void *second = nullptr;
  size_t secondSize = 0;
};

Status writeSection(AtomicFileWriter &file, SectionKind kind,
                    uint32_t layerIndex, const Payload &payload) {
  Crc32 payloadCrc;
  payloadCrc.update(payload.first, payload.firstSize);
  payloadCrc.update(payload.second, payload.secondSize);

  unsigned char header[SectionHeaderSize];
  putU32(header, static_cast<uint32_t>(kind));
  putU32(header + 4, layerIndex);
  putU64(header + 8, payload.firstSize + payload.secondSize);
  putU32(header + 16, payloadCrc.value());
  putU32(header + 20, crc32(header, 20));
  Status written = file.write(header, sizeof(header));
  if (written)
    written = file.write(payload.first, payload.firstSize);
  if (written && payload.secondSize)
    written = file.write(payload.second, payload.secondSize);
  if (written)
    reachSaveStage(SaveStage::SectionWritten);
  return written;
}

Payload arrayPayload(std::span<const float> values) {
  return {values.data(), values.size_bytes()};
}
Payload maskPayload(const Mask &mask) {
  return {mask.words().data(), mask.words().size_bytes()};
}

Status writeLayer(AtomicFileWriter &file, const LayerStore &layer,
                  uint32_t index) {
  unsigned char header[LayerHeaderFixedSize];
  putU32(header, layer.rows());
  putU32(header + 4, layer.cols());
  putU32(header + 8, static_cast<uint32_t>(layer.optimizer()));
  putU32(header + 12, static_cast<uint32_t>(layer.name().size()));
  putU64(header + 16, layer.steps());
  Payload layerHeader{header, sizeof(header), layer.name().data(),
                      layer.name().size()};
  Status written = writeSection(file, SectionKind::Layer, index, layerHeader);
  if (written)
    written = writeSection(file, SectionKind::Master, index,
                           arrayPayload(layer.master()));
  if (written)
    written = writeSection(file, SectionKind::WeightMask, index,
                           maskPayload(layer.weightMask()));
  if (written)
    written = writeSection(file, SectionKind::GradientMask, index,
                           maskPayload(layer.gradientMask()));
  unsigned states = optimizerStateCount(layer.optimizer());
  if (written && states > 0)
    written = writeSection(file, SectionKind::FirstMoment, index,
                           arrayPayload(layer.optimizerState(0)));
  if (written && states > 1)
    written = writeSection(file, SectionKind::SecondMoment, index,
                           arrayPayload(layer.optimizerState(1)));
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
  putU32(header + 16, crc32(header, 16));
  if (Status written = file->write(header, sizeof(header)); !written)
    return written;
  for (size_t i = 0; i < layers.size(); ++i)
    if (Status written = writeLayer(*file, *layers[i], uint32_t(i)); !written)
      return written;
  // Until here an error (or a crash) drops the temporary file and leaves
  // the previous checkpoint in place.
  return file->commit();
}
