//===- IndexStream.h - 16-bit delta-coded positions of a CSR ----*- C++ -*-===//
//
// The index half of a compressed sparse matrix as MemoryX streams it: for
// each line (a row in forward order, a column in transposed order) a run of
// 16-bit words. A word d below 0xFFFF is an entry at position p + d, where p
// is the line's cursor (0 at the start of the line), and the cursor moves
// to that entry. The word 0xFFFF is the escape: it moves the cursor by 65535
// and is no entry. Gaps of 65535 or more therefore cost one escape word per
// 65535 positions, and a line shorter than 65536 positions never has one.
// The cursor advances by the word's own value either way, so a decoder adds
// every word and only tests for the escape to decide whether to emit.
//
// Example: a 200,000-column row with entries at 0, 70000 and 199999 is the
// five words 0, ESC, 4465, ESC, 64464.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_MEMORYX_INDEXSTREAM_H
#define TESSERA_MEMORYX_INDEXSTREAM_H

#include "tessera/MemoryX/LargeArray.h"
#include "tessera/MemoryX/Mask.h"

#include <cstdint>
#include <span>
#include <vector>

namespace tessera::memoryx {

/// The word that advances the cursor 65535 positions without an entry.
inline constexpr uint16_t EscapeWord = 0xFFFF;
/// How far an escape moves the cursor; also the smallest gap that needs one.
inline constexpr uint32_t EscapeStride = 0xFFFF;
/// The most weights one layer may hold (8 GiB of FP32 master), so that
/// every stream offset, escapes included, fits in 32 bits.
inline constexpr uint64_t MaxWeights = uint64_t(1) << 31;

class IndexStream {
public:
  /// The set bits of `mask`, one line per row.
  static Expected<IndexStream> encodeRows(const Mask &mask);
  /// The same into this stream, reusing its memory; on failure the stream
  /// is empty.
  Status assignRows(const Mask &mask);

  uint32_t lineCount() const { return lines; }
  /// Positions per line: the mask's columns in forward order.
  uint32_t lineLength() const { return length; }
  /// Entries, escapes excluded.
  size_t nonzeroCount() const { return nonzeros; }
  /// Words in the stream, escapes included.
  size_t streamLength() const { return words.size(); }
  bool hasEscapes() const { return streamLength() != nonzeroCount(); }

  /// Where each line starts in deltas(); lineCount() + 1 entries.
  std::span<const uint32_t> offsets() const { return lineOffsets.span(); }
  std::span<const uint16_t> deltas() const { return words.span(); }

  /// Calls sink(line, position) for every entry, line by line.
  template <typename Sink> void forEach(Sink &&sink) const {
    for (uint32_t line = 0; line < lines; ++line)
      forEachInLine(line, sink);
  }

  template <typename Sink>
  void forEachInLine(uint32_t line, Sink &&sink) const {
    const uint16_t *delta = words.data();
    uint32_t position = 0;
    for (uint32_t k = lineOffsets[line], end = lineOffsets[line + 1]; k < end;
         ++k) {
      position += delta[k];
      if (delta[k] != EscapeWord)
        sink(line, position);
    }
  }

  /// dense[line * lineLength() + position] for every entry, in stream
  /// order: how a dense gradient becomes the FP32 stream in mask order.
  Expected<std::vector<float>> gather(std::span<const float> dense) const;

private:
  void encodeRowsUnchecked(const Mask &mask);

  uint32_t lines = 0;
  uint32_t length = 0;
  size_t nonzeros = 0;
  LargeArray<uint32_t> lineOffsets;
  LargeArray<uint16_t> words;
};

} // namespace tessera::memoryx

#endif // TESSERA_MEMORYX_INDEXSTREAM_H
