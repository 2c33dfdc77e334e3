//===- ActiveFirstTest.cpp - the active-first order of dense arrays -------===//

#include "TestSupport.h"

#include "tessera/MemoryX/ActiveFirst.h"

#include <catch2/catch.hpp>

using namespace tessera::memoryx;
using namespace memoryxtest;

namespace {

/// The order by definition: each row's kept columns, then the others.
std::vector<float> expectedOrder(const Mask &mask,
                                 const std::vector<float> &columnOrder) {
  std::vector<float> result;
  for (uint32_t r = 0; r < mask.rows(); ++r) {
    for (bool active : {true, false})
      for (uint32_t c = 0; c < mask.cols(); ++c)
        if (mask.test(r, c) == active)
          result.push_back(columnOrder[size_t(r) * mask.cols() + c]);
  }
  return result;
}

/// Values that name their place: row * 1e5 + column.
std::vector<float> namedValues(uint32_t rows, uint32_t cols) {
  std::vector<float> values(size_t(rows) * cols);
  for (size_t i = 0; i < values.size(); ++i)
    values[i] = float(i / cols * 100000 + i % cols);
  return values;
}

} // namespace

TEST_CASE("a row is arranged active first and restored") {
  // Columns 1, 3, 4 and 8 of ten are active.
  Mask mask(1, 10);
  for (uint32_t c : {1u, 3u, 4u, 8u})
    mask.set(0, c);
  std::vector<float> row{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, arranged(10);
  CHECK(activeCount(mask.rowWords(0)) == 4);
  arrangeRow(mask.rowWords(0), 10, row.data(), arranged.data());
  CHECK(arranged == std::vector<float>{1, 3, 4, 8, 0, 2, 5, 6, 7, 9});

  std::vector<float> restored(10, -1);
  restoreColumns(mask.rowWords(0), 4, 0, 10, arranged.data(), restored.data());
  CHECK(restored == row);
  // Part of a row: columns 2 to 5.
  std::vector<float> part(3, -1);
  restoreColumns(mask.rowWords(0), 4, 2, 5, arranged.data(), part.data());
  CHECK(part == std::vector<float>{2, 3, 4});

  RowPositions positions(mask.rowWords(0), 4);
  std::vector<uint32_t> at;
  for (uint32_t c = 0; c < 10; ++c)
    at.push_back(positions.positionOf(c));
  CHECK(at == std::vector<uint32_t>{4, 0, 5, 1, 2, 6, 7, 8, 3, 9});
}

TEST_CASE("random rows round-trip and positions agree") {
  std::mt19937_64 random(5);
  for (uint32_t cols : {1u, 63u, 64u, 65u, 130u, 200u, 4096u}) {
    for (double density : {0.0, 0.1, 0.5, 0.9, 1.0}) {
      INFO(cols << " columns at density " << density);
      Mask mask = randomMask(3, cols, density, random);
      // Row 2 mixes whole set and clear words with random ones.
      for (uint32_t c = 0; c < cols; ++c)
        if (c / 64 % 3 != 2)
          mask.set(2, c, c / 64 % 3 == 0);
      std::vector<float> values = namedValues(3, cols);
      std::vector<float> expected = expectedOrder(mask, values);
      for (uint32_t r = 0; r < 3; ++r) {
        std::span<const uint64_t> words = mask.rowWords(r);
        uint32_t active = activeCount(words);
        const float *row = values.data() + size_t(r) * cols;
        std::vector<float> arranged(cols, -1);
        arrangeRow(words, cols, row, arranged.data());
        CHECK(std::equal(arranged.begin(), arranged.end(),
                         expected.begin() + size_t(r) * cols));
        RowPositions positions(words, active);
        for (uint32_t c = 0; c < cols; ++c)
          CHECK(arranged[positions.positionOf(c)] == row[c]);
        // Any range, from inside a word to past several.
        for (int trial = 0; trial < 5; ++trial) {
          uint32_t first = uint32_t(random() % cols);
          uint32_t end = first + 1 + uint32_t(random() % (cols - first));
          std::vector<float> part(end - first, -1);
          restoreColumns(words, active, first, end, arranged.data(),
                         part.data());
          CHECK(std::equal(part.begin(), part.end(), row + first));
        }
      }
    }
  }
}

TEST_CASE("whole arrays: in place, back, and from one mask to another") {
  std::mt19937_64 random(6);
  const uint32_t rows = 7, cols = 150;
  std::vector<float> values = namedValues(rows, cols);
  Mask before = randomMask(rows, cols, 0.5, random);
  Mask after = randomMask(rows, cols, 0.3, random);
  // Row 0 keeps its mask, row 1 is all active, row 2 has none active.
  for (uint32_t c = 0; c < cols; ++c) {
    after.set(0, c, before.test(0, c));
    before.set(1, c, true);
    after.set(2, c, false);
  }

  std::vector<float> stored = values, scratch;
  arrangeActiveFirst(before, stored, scratch);
  CHECK(stored == expectedOrder(before, values));
  CHECK(scratch.size() == cols);

  std::vector<float> back(values.size(), -1);
  toColumnOrder(before, stored, back);
  CHECK(back == values);

  reorderActiveFirst(before, after, stored, scratch);
  CHECK(stored == expectedOrder(after, values));
  toColumnOrder(after, stored, back);
  CHECK(back == values);
}

TEST_CASE("rows all active or none need no work and no scratch") {
  Mask mask(4, 100);
  for (uint32_t c = 0; c < 100; ++c) {
    mask.set(0, c);
    mask.set(2, c);
  }
  std::vector<float> values = namedValues(4, 100), stored = values, scratch;
  arrangeActiveFirst(mask, stored, scratch);
  CHECK(stored == values);
  CHECK(scratch.empty());
  // The same mask again: nothing moves.
  reorderActiveFirst(mask, mask, stored, scratch);
  CHECK(stored == values);
  CHECK(scratch.empty());
  // Row 3 becomes all active: still column order.
  Mask next = mask;
  for (uint32_t c = 0; c < 100; ++c)
    next.set(3, c);
  reorderActiveFirst(mask, next, stored, scratch);
  CHECK(stored == values);
}
