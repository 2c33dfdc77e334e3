//===- IndexStream.cpp - 16-bit delta-coded positions of a CSR ------------===//

#include "tessera/MemoryX/IndexStream.h"

#include "DeltaCoding.h"

#include <new>
#include <string>

using namespace tessera::memoryx;

Expected<IndexStream> IndexStream::encodeRows(const Mask &mask) {
  IndexStream stream;
  if (Status encoded = stream.assignRows(mask); !encoded)
    return encoded.takeError();
  return stream;
}

Status IndexStream::assignRows(const Mask &mask) {
  std::string shape =
      std::to_string(mask.rows()) + "x" + std::to_string(mask.cols());
  uint64_t weights = uint64_t(mask.rows()) * mask.cols();
  if (weights > MaxWeights) {
    *this = IndexStream();
    return Error("a " + shape + " mask has " + std::to_string(weights) +
                 " weights, more than " + std::to_string(MaxWeights));
  }
  try {
    encodeRowsUnchecked(mask);
  } catch (const std::bad_alloc &) {
    *this = IndexStream();
    return Error("out of memory encoding a " + shape + " mask");
  }
  return Status();
}

void IndexStream::encodeRowsUnchecked(const Mask &mask) {
  uint32_t rows = mask.rows();
  size_t perRow = mask.wordsPerRow();
  bool mayEscape = lineMayEscape(mask.cols());
  const uint64_t *bits = mask.words().data();

  // Sizes first, so that the words are written once into their final place.
  lineOffsets.resize(size_t(rows) + 1);
  size_t total = 0;
  lineOffsets[0] = 0;
  for (uint32_t row = 0; row < rows; ++row) {
    total += countRowWords(bits + row * perRow, perRow, mayEscape);
    lineOffsets[row + 1] = static_cast<uint32_t>(total);
  }

  // Room for the encoder's whole-vector stores past the end, kept as
  // capacity.
  words.resize(total + EncoderSlackWords);
  words.resize(total);
  uint16_t *out = words.data();
  for (uint32_t row = 0; row < rows; ++row) {
    const uint64_t *rowBits = bits + row * perRow;
    out = mayEscape ? encodeRowWords<true>(rowBits, perRow, out)
                    : encodeRowWords<false>(rowBits, perRow, out);
  }
  lines = rows;
  length = mask.cols();
  nonzeros = mask.count();
}

Expected<std::vector<float>>
IndexStream::gather(std::span<const float> dense) const {
  if (dense.size() != size_t(lines) * length)
    return Error("cannot gather " + std::to_string(dense.size()) +
                 " values through a " + std::to_string(lines) + "x" +
                 std::to_string(length) + " index stream: expected " +
                 std::to_string(size_t(lines) * length));
  std::vector<float> values;
  values.reserve(nonzeros);
  forEach([&](uint32_t line, uint32_t position) {
    values.push_back(dense[size_t(line) * length + position]);
  });
  return values;
}
