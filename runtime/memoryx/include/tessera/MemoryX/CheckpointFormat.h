//===- CheckpointFormat.h - the bytes of a MemoryX checkpoint ---*- C++ -*-===//
//
// A checkpoint is a file header followed, for each layer in order, by its
// sections: the layer header, the master weights, the weight mask, the
// gradient-request mask, then one section per optimizer state array.
// Every integer is little-endian. docs/MemoryX.md has the byte-by-byte
// table.
//
//   file header (20 bytes): magic "TSMXCKPT", u32 version, u32 layer count,
//     u32 CRC-32 of the 16 bytes before it
//   section header (24 bytes): u32 kind, u32 layer index, u64 payload size,
//     u32 CRC-32 of the payload, u32 CRC-32 of the 20 bytes before it
//   layer header payload: u32 rows, u32 cols, u32 optimizer kind,
//     u32 name length, u64 steps, the name's bytes
//   master and state payloads: rows x cols FP32, row-major
//   mask payloads: per row, ceil(cols / 64) u64 words; bit j of word w is
//     column 64 w + j; bits past the last column are zero
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_MEMORYX_CHECKPOINTFORMAT_H
#define TESSERA_MEMORYX_CHECKPOINTFORMAT_H

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace tessera::memoryx::checkpoint {

inline constexpr char Magic[8] = {'T', 'S', 'M', 'X', 'C', 'K', 'P', 'T'};
inline constexpr uint32_t Version = 1;
inline constexpr size_t HeaderSize = 20;
inline constexpr size_t SectionHeaderSize = 24;
/// The layer header's payload before the name.
inline constexpr size_t LayerHeaderFixedSize = 24;

enum class SectionKind : uint32_t {
  Layer = 1,
  Master = 2,
  WeightMask = 3,
  GradientMask = 4,
  /// Momentum's velocity or Adam's first moment.
  FirstMoment = 5,
  /// Adam's second moment.
  SecondMoment = 6,
};

/// How messages name a section: "layer header", "master weights", ...
std::string_view sectionName(SectionKind kind);

/// Where saveCheckpoint is, for tests that kill the process there.
enum class SaveStage {
  /// A section's bytes are in the temporary file (before any fsync).
  SectionWritten,
  /// The temporary file is complete and synced; the target is untouched.
  BeforeRename,
  /// The temporary file has replaced the target; the directory is not yet
  /// synced.
  AfterRename,
};
using SaveHook = void (*)(SaveStage stage);

/// Installs a hook that saveCheckpoint calls at each stage; nullptr removes
/// it. For tests only.
void setSaveHookForTesting(SaveHook hook);

} // namespace tessera::memoryx::checkpoint

#endif // TESSERA_MEMORYX_CHECKPOINTFORMAT_H
