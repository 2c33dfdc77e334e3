//===- IndexOrder.h - PE indices in ascending order -------------*- C++ -*-===//
//
// A band orders the PEs whose timers are due every cycle (TimerQueue).
// Thousands at a time cost a sort more than marking them in a bitmap and
// reading the bitmap back, when they are crowded in their span of indices;
// a few, or a sparse spread, are sorted.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_MACHINE_INDEXORDER_H
#define TESSERA_EMULATOR_MACHINE_INDEXORDER_H

#include <algorithm>
#include <bit>
#include <cstdint>
#include <vector>

namespace tessera::emulator::machine {

class IndexOrder {
public:
  /// Sorts `indices` ascending and drops repeats.
  void sortUnique(std::vector<uint32_t> &indices) {
    if (indices.empty())
      return;
    auto [lowest, highest] =
        std::minmax_element(indices.begin(), indices.end());
    size_t firstWord = *lowest / 64, lastWord = *highest / 64;
    if (indices.size() < 16 || lastWord - firstWord >= 4 * indices.size()) {
      std::sort(indices.begin(), indices.end());
      indices.erase(std::unique(indices.begin(), indices.end()), indices.end());
      return;
    }
    if (marks.size() <= lastWord)
      marks.resize(lastWord + 1);
    for (uint32_t index : indices)
      marks[index / 64] |= uint64_t(1) << (index % 64);
    // Every index is marked: the vector can be written over from the front.
    size_t out = 0;
    for (size_t word = firstWord; word <= lastWord; ++word) {
      for (uint64_t bits = marks[word]; bits; bits &= bits - 1)
        indices[out++] = uint32_t(word * 64 + std::countr_zero(bits));
      marks[word] = 0;
    }
    indices.resize(out);
  }

private:
  /// The bitmap of indices, all clear between calls.
  std::vector<uint64_t> marks;
};

} // namespace tessera::emulator::machine

#endif // TESSERA_EMULATOR_MACHINE_INDEXORDER_H
