//===- WireStreamTest.cpp - streaming in wire format, refreshing a band ---===//

#include "TestSupport.h"

#include "tessera/MemoryX/SparseMatrix.h"
#include "tessera/Support/Float16.h"

#include <catch2/catch.hpp>

using namespace tessera;
using namespace tessera::memoryx;
using namespace memoryxtest;

namespace {

struct Shape {
  uint32_t rows, cols;
  double density;
};

/// Packed and tiled layouts, short bands, escapes in rows and columns.
const Shape Shapes[] = {
    {1, 1, 1.0},       {5, 7, 0.5},       {40, 300, 0.5},    {64, 65, 1.0},
    {20, 200, 1.0},    {70, 600, 0.9},    {100, 1000, 0.4},  {64, 4096, 1.0},
    {3, 140000, 1e-4}, {140000, 2, 3e-5}, {33, 66000, 0.02},
};

/// The forward stream by definition: each index word with the value at
/// valueIndex(), the word in the low half.
std::vector<uint32_t> expectedPairs(const SparseMatrix &matrix) {
  std::vector<uint32_t> pairs;
  const IndexStream &index = matrix.forwardIndex();
  for (uint32_t row = 0; row < matrix.rows(); ++row) {
    uint32_t begin = index.offsets()[row];
    for (uint32_t word = 0; word < index.offsets()[row + 1] - begin; ++word)
      pairs.push_back(uint32_t(index.deltas()[begin + word]) |
                      uint32_t(matrix.values()[matrix.valueIndex(row, word)])
                          << 16);
  }
  return pairs;
}

/// Streams rows [first, end) through a buffer of `size` and checks that
/// the blocks are full but the last and say where they start.
std::vector<uint32_t> streamed(const SparseMatrix &matrix, uint32_t first,
                               uint32_t end, size_t size) {
  std::vector<uint32_t> buffer(size), pairs;
  size_t expectedFirst = matrix.forwardIndex().offsets()[first];
  size_t shortBlocks = 0;
  matrix.streamForwardRows(
      first, end, buffer, [&](std::span<const uint32_t> block, size_t at) {
        CHECK(at == expectedFirst);
        CHECK(!block.empty());
        CHECK(block.data() == buffer.data());
        shortBlocks += block.size() < size;
        expectedFirst += block.size();
        pairs.insert(pairs.end(), block.begin(), block.end());
      });
  CHECK(shortBlocks <= 1);
  return pairs;
}

} // namespace

TEST_CASE("the wire stream pairs every word with its value") {
  std::mt19937_64 random(31337);
  for (const Shape &shape : Shapes) {
    INFO(shape.rows << "x" << shape.cols << " at density " << shape.density);
    Mask mask = randomMask(shape.rows, shape.cols, shape.density, random);
    std::vector<float> master =
        randomValues(size_t(shape.rows) * shape.cols, random);
    SparseMatrix matrix;
    REQUIRE(matrix.rebuild(master, mask));
    std::vector<uint32_t> expected = expectedPairs(matrix);
    REQUIRE(expected.size() == matrix.forwardIndex().streamLength());

    // The values of the pairs, escapes skipped, are the forward visit's.
    std::vector<uint16_t> visited, paired;
    matrix.forEachForward(
        [&](uint32_t, uint32_t, uint16_t half) { visited.push_back(half); });
    for (uint32_t pair : expected)
      if ((pair & 0xFFFF) != EscapeWord)
        paired.push_back(static_cast<uint16_t>(pair >> 16));
      else
        CHECK(pair >> 16 == 0);
    CHECK(paired == visited);

    for (size_t size : {1, 7, 32, 33, 4096, 1 << 20})
      CHECK(streamed(matrix, 0, matrix.rows(), size) == expected);
    std::vector<uint32_t> whole, hundred(100);
    matrix.streamForward(hundred, [&](std::span<const uint32_t> block, size_t) {
      whole.insert(whole.end(), block.begin(), block.end());
    });
    CHECK(whole == expected);

    // Row ranges, from inside a band to past the end, cut the same stream.
    uint32_t rows = matrix.rows();
    for (uint32_t first : {0u, 1u, 31u, 32u, rows / 2, rows - 1}) {
      for (uint32_t end : {first, first + 1, first + 33, rows}) {
        if (first >= rows || end > rows || end < first)
          continue;
        const uint32_t *offsets = matrix.forwardIndex().offsets().data();
        std::vector<uint32_t> piece(expected.begin() + offsets[first],
                                    expected.begin() + offsets[end]);
        CHECK(streamed(matrix, first, end, 50) == piece);
      }
    }
  }
}

TEST_CASE("an empty buffer or range streams nothing") {
  SparseMatrix matrix;
  REQUIRE(matrix.rebuild(std::vector<float>(6, 1.0f), Mask(2, 3, true)));
  size_t calls = 0;
  auto count = [&](std::span<const uint32_t>, size_t) { ++calls; };
  std::vector<uint32_t> none;
  matrix.streamForward(none, count);
  std::vector<uint32_t> buffer(4);
  matrix.streamForwardRows(1, 1, buffer, count);
  matrix.streamForwardRows(2, 5, buffer, count);
  CHECK(calls == 0);
  matrix.streamForwardRows(1, 5, buffer, count); // clipped to row 2
  CHECK(calls == 1);
}

TEST_CASE("refreshing rows band by band equals a whole refresh") {
  std::mt19937_64 random(4242);
  for (const Shape &shape : Shapes) {
    INFO(shape.rows << "x" << shape.cols << " at density " << shape.density);
    Mask mask = randomMask(shape.rows, shape.cols, shape.density, random);
    std::vector<float> master =
        randomValues(size_t(shape.rows) * shape.cols, random);
    SparseMatrix whole, banded;
    REQUIRE(whole.rebuild(master, mask));
    REQUIRE(banded.rebuild(master, mask));
    master = randomValues(master.size(), random, 1000.0f);
    REQUIRE(whole.refreshValues(master));
    // Uneven pieces, so that they start and end inside bands.
    for (uint32_t first = 0; first < banded.rows();) {
      uint32_t end = std::min(banded.rows(), first + 1 + first % 45);
      REQUIRE(banded.refreshRows(master, first, end));
      first = end;
    }
    CHECK(sameBits(whole.values(), banded.values()));
    // And the values are FP16 of the master under the mask.
    size_t mismatches = 0;
    whole.forEachForward([&](uint32_t row, uint32_t col, uint16_t half) {
      mismatches +=
          half != floatToHalfBits(master[size_t(row) * shape.cols + col]);
    });
    CHECK(mismatches == 0);
  }
}

TEST_CASE("refreshRows refuses a bad range or master") {
  SparseMatrix matrix;
  REQUIRE(matrix.rebuild(std::vector<float>(6), Mask(2, 3, true)));
  std::vector<float> master(6, 1.0f);
  CHECK(matrix.refreshRows(master, 1, 3).error() ==
        "rows 1 to 3 are not a range of the 2 rows");
  CHECK(matrix.refreshRows(master, 2, 1).error() ==
        "rows 2 to 1 are not a range of the 2 rows");
  CHECK(matrix.refreshRows(std::vector<float>(5), 0, 1).error() ==
        "master has 5 weights, the sparse matrix is 2x3 (6 weights)");
  REQUIRE(matrix.refreshRows(master, 1, 2));
  REQUIRE(matrix.refreshRows(master, 2, 2));
  CHECK(matrix.values()[matrix.valueIndex(0, 0)] == 0);
  CHECK(matrix.values()[matrix.valueIndex(1, 0)] == 0x3C00);
}

TEST_CASE("encoding and streaming in one pass equals one after the other") {
  std::mt19937_64 random(99);
  for (const Shape &shape : Shapes) {
    INFO(shape.rows << "x" << shape.cols << " at density " << shape.density);
    Mask mask = randomMask(shape.rows, shape.cols, shape.density, random);
    std::vector<float> master =
        randomValues(size_t(shape.rows) * shape.cols, random);
    SparseMatrix apart, together;
    REQUIRE(apart.rebuild(master, mask));
    REQUIRE(together.rebuild(master, mask));
    master = randomValues(master.size(), random, 10.0f);
    REQUIRE(apart.refreshValues(master));
    for (size_t size : {1, 33, 4096}) {
      INFO("buffer of " << size);
      // The same blocks, block by block.
      using Block = std::pair<size_t, std::vector<uint32_t>>;
      std::vector<Block> expected, got;
      std::vector<uint32_t> buffer(size);
      apart.streamForward(
          buffer, [&](std::span<const uint32_t> block, size_t at) {
            expected.push_back({at, {block.begin(), block.end()}});
          });
      REQUIRE(together.refreshAndStreamForward(
          master, buffer, [&](std::span<const uint32_t> block, size_t at) {
            got.push_back({at, {block.begin(), block.end()}});
          }));
      CHECK(got == expected);
      CHECK(sameBits(apart.values(), together.values()));
    }
  }
}

TEST_CASE("encoding and streaming in one pass checks the master") {
  SparseMatrix matrix;
  REQUIRE(matrix.rebuild(std::vector<float>(6), Mask(2, 3, true)));
  size_t calls = 0;
  auto count = [&](std::span<const uint32_t>, size_t) { ++calls; };
  std::vector<uint32_t> buffer(4), none;
  CHECK(matrix.refreshAndStreamForward(std::vector<float>(7), buffer, count)
            .error() ==
        "master has 7 weights, the sparse matrix is 2x3 (6 weights)");
  CHECK(calls == 0);
  // An empty buffer still refreshes, and streams nothing.
  REQUIRE(
      matrix.refreshAndStreamForward(std::vector<float>(6, 1.0f), none, count));
  CHECK(calls == 0);
  CHECK(matrix.values()[matrix.valueIndex(1, 2)] == 0x3C00);
}

TEST_CASE("the transposed wire stream pairs every word with its value") {
  std::mt19937_64 random(2718);
  for (const Shape &shape : Shapes) {
    INFO(shape.rows << "x" << shape.cols << " at density " << shape.density);
    Mask mask = randomMask(shape.rows, shape.cols, shape.density, random);
    std::vector<float> master =
        randomValues(size_t(shape.rows) * shape.cols, random);
    SparseMatrix matrix;
    REQUIRE(matrix.rebuild(master, mask));
    const IndexStream &index = matrix.transposedIndex();
    std::vector<uint32_t> expected;
    for (size_t k = 0; k < index.streamLength(); ++k) {
      uint32_t at = matrix.transposedValueIndex()[k];
      uint16_t half = at == NoValue ? 0 : matrix.values()[at];
      expected.push_back(uint32_t(index.deltas()[k]) | uint32_t(half) << 16);
    }
    // Its values, escapes skipped, are the transposed visit's.
    std::vector<uint16_t> visited, paired;
    matrix.forEachTransposed(
        [&](uint32_t, uint32_t, uint16_t half) { visited.push_back(half); });
    for (uint32_t pair : expected)
      if ((pair & 0xFFFF) != EscapeWord)
        paired.push_back(static_cast<uint16_t>(pair >> 16));
    CHECK(paired == visited);

    uint32_t cols = matrix.cols();
    for (size_t size : {1, 7, 33, 4096}) {
      for (uint32_t first : {0u, 1u, cols / 2, cols - 1}) {
        for (uint32_t end : {first, first + 1, cols}) {
          if (end > cols || end < first)
            continue;
          INFO("buffer " << size << ", columns " << first << " to " << end);
          const uint32_t *offsets = index.offsets().data();
          std::vector<uint32_t> piece(expected.begin() + offsets[first],
                                      expected.begin() + offsets[end]);
          std::vector<uint32_t> buffer(size), got;
          size_t next = offsets[first], shortBlocks = 0;
          matrix.streamTransposedColumns(
              first, end, buffer,
              [&](std::span<const uint32_t> block, size_t at) {
                CHECK(at == next);
                next += block.size();
                shortBlocks += block.size() < size;
                got.insert(got.end(), block.begin(), block.end());
              });
          CHECK(shortBlocks <= 1);
          CHECK(got == piece);
        }
      }
    }
  }
}
