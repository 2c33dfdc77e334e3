//===- SparseMatrixTest.cpp - the streamed FP16 copy ----------------------===//

#include "TestSupport.h"

#include "tessera/MemoryX/SparseMatrix.h"
#include "tessera/Support/Float16.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <bit>
#include <tuple>

using namespace tessera;
using namespace tessera::memoryx;
using namespace memoryxtest;

namespace {

struct Entry {
  uint32_t row, col;
  uint16_t half;
  bool operator==(const Entry &) const = default;
};

std::ostream &operator<<(std::ostream &os, const Entry &e) {
  return os << "(" << e.row << ", " << e.col << ", 0x" << std::hex << e.half
            << std::dec << ")";
}

std::vector<Entry> forwardEntries(const SparseMatrix &matrix) {
  std::vector<Entry> entries;
  matrix.forEachForward([&](uint32_t row, uint32_t col, uint16_t half) {
    entries.push_back({row, col, half});
  });
  return entries;
}

std::vector<Entry> transposedEntries(const SparseMatrix &matrix) {
  std::vector<Entry> entries;
  matrix.forEachTransposed([&](uint32_t row, uint32_t col, uint16_t half) {
    entries.push_back({row, col, half});
  });
  return entries;
}

/// The kept weights, rounded by Support's function, row by row.
std::vector<Entry> expectedEntries(const std::vector<float> &master,
                                   const Mask &mask) {
  std::vector<Entry> entries;
  for (uint32_t r = 0; r < mask.rows(); ++r)
    for (uint32_t c = 0; c < mask.cols(); ++c)
      if (mask.test(r, c))
        entries.push_back(
            {r, c, floatToHalfBits(master[size_t(r) * mask.cols() + c])});
  return entries;
}

std::vector<Entry> columnMajor(std::vector<Entry> entries) {
  std::sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
    return std::tie(a.col, a.row) < std::tie(b.col, b.row);
  });
  return entries;
}

/// Both orders against the definition, and the raw arrays against the
/// visitors.
void checkMatrix(const SparseMatrix &matrix, const std::vector<float> &master,
                 const Mask &mask) {
  std::vector<Entry> expected = expectedEntries(master, mask);
  std::vector<Entry> forward = forwardEntries(matrix);
  std::vector<Entry> transposed = transposedEntries(matrix);
  REQUIRE(matrix.nonzeroCount() == expected.size());
  REQUIRE(forward == expected);
  REQUIRE(transposed == columnMajor(expected));

  // valueIndex() and transposedValueIndex() address the same values.
  size_t next = 0;
  for (uint32_t row = 0; row < matrix.rows(); ++row) {
    const IndexStream &index = matrix.forwardIndex();
    uint32_t begin = index.offsets()[row], end = index.offsets()[row + 1];
    for (uint32_t word = 0; word < end - begin; ++word) {
      uint16_t half = matrix.values()[matrix.valueIndex(row, word)];
      if (index.deltas()[begin + word] == EscapeWord)
        REQUIRE(half == 0);
      else
        REQUIRE(half == expected[next++].half);
    }
  }
  std::vector<Entry> transposedExpected = columnMajor(expected);
  const IndexStream &transposedIndex = matrix.transposedIndex();
  next = 0;
  for (size_t k = 0; k < transposedIndex.streamLength(); ++k) {
    uint32_t at = matrix.transposedValueIndex()[k];
    if (transposedIndex.deltas()[k] == EscapeWord) {
      REQUIRE(at == NoValue);
      continue;
    }
    REQUIRE(matrix.values()[at] == transposedExpected[next++].half);
  }
}

} // namespace

TEST_CASE("random sparse matrices round-trip through both orders") {
  std::mt19937_64 random(20240601);
  struct Shape {
    uint32_t rows, cols;
    double density;
    bool tiled;
  };
  const Shape shapes[] = {
      {1, 1, 1.0, false},
      {5, 7, 0.5, false},
      {33, 64, 0.3, false},
      {64, 65, 1.0, false},
      {40, 300, 0.5, false},    // 150 words a row: plain
                                // CSR
      {70, 600, 0.9, true},     // 540 a row, bands of 32 rows
      {100, 1000, 0.4, true},   // 4 bands, the last one short
      {3, 140000, 1e-4, false}, // escapes in the rows
      {140000, 2, 3e-5, false}, // escapes in the columns
      {32, 66000, 1.0, true},   // one band of long dense rows
  };
  for (const Shape &shape : shapes) {
    INFO(shape.rows << "x" << shape.cols << " at density " << shape.density);
    Mask mask = randomMask(shape.rows, shape.cols, shape.density, random);
    std::vector<float> master =
        randomValues(size_t(shape.rows) * shape.cols, random);
    SparseMatrix matrix;
    REQUIRE(matrix.rebuild(master, mask));
    CHECK(matrix.isTiled() == shape.tiled);
    checkMatrix(matrix, master, mask);
    // New values into the same structure.
    master = randomValues(master.size(), random, 100.0f);
    REQUIRE(matrix.refreshValues(master));
    checkMatrix(matrix, master, mask);
  }
}

TEST_CASE("escapes in the transposed order") {
  Mask mask(200000, 1);
  mask.set(0, 0);
  mask.set(70000, 0);
  mask.set(199999, 0);
  std::vector<float> master(200000, 0.0f);
  master[0] = 1.0f;
  master[70000] = 2.0f;
  master[199999] = -2.0f;
  SparseMatrix matrix;
  REQUIRE(matrix.rebuild(master, mask));
  std::span<const uint16_t> words = matrix.transposedIndex().deltas();
  CHECK(std::vector<uint16_t>(words.begin(), words.end()) ==
        std::vector<uint16_t>{0, EscapeWord, 4465, EscapeWord, 64464});
  std::span<const uint32_t> at = matrix.transposedValueIndex();
  CHECK(at[1] == NoValue);
  CHECK(at[3] == NoValue);
  CHECK(transposedEntries(matrix) == std::vector<Entry>{{0, 0, 0x3C00},
                                                        {70000, 0, 0x4000},
                                                        {199999, 0, 0xC000}});
  CHECK(forwardEntries(matrix) == transposedEntries(matrix));
}

TEST_CASE("a rebuild honours the mask and rounds to nearest even") {
  // One row of values with known FP16 patterns (see HalfConversionTest).
  std::vector<float> master = {
      0.1f,                              // 0x2E66
      65520.0f,                          // inf, 0x7C00
      std::bit_cast<float>(0x33800000u), // 2^-24: 0x0001
      std::bit_cast<float>(0x33000000u), // 2^-25: rounds to +0
      0.0f,                              // exactly zero
      -0.0f,                             // 0x8000
      std::bit_cast<float>(0x3F803000u), // 0x3C02
      7.0f,                              // masked out
  };
  Mask mask(1, 8, true);
  mask.set(0, 7, false);
  SparseMatrix matrix;
  REQUIRE(matrix.rebuild(master, mask));
  // Zero weights the mask keeps stay stored: the structure is the mask.
  CHECK(forwardEntries(matrix) == std::vector<Entry>{{0, 0, 0x2E66},
                                                     {0, 1, 0x7C00},
                                                     {0, 2, 0x0001},
                                                     {0, 3, 0x0000},
                                                     {0, 4, 0x0000},
                                                     {0, 5, 0x8000},
                                                     {0, 6, 0x3C02}});

  // An update of the master shows after a refresh, still through the mask.
  master[0] = 65504.0f;
  master[4] = std::bit_cast<float>(0x387FC000u); // the largest subnormal
  master[7] = 1.0f;
  REQUIRE(matrix.refreshValues(master));
  CHECK(forwardEntries(matrix) == std::vector<Entry>{{0, 0, 0x7BFF},
                                                     {0, 1, 0x7C00},
                                                     {0, 2, 0x0001},
                                                     {0, 3, 0x0000},
                                                     {0, 4, 0x03FF},
                                                     {0, 5, 0x8000},
                                                     {0, 6, 0x3C02}});
  // A new mask changes the structure at the next rebuild.
  mask.set(0, 7);
  mask.set(0, 3, false);
  REQUIRE(matrix.rebuild(master, mask));
  CHECK(forwardEntries(matrix) == std::vector<Entry>{{0, 0, 0x7BFF},
                                                     {0, 1, 0x7C00},
                                                     {0, 2, 0x0001},
                                                     {0, 4, 0x03FF},
                                                     {0, 5, 0x8000},
                                                     {0, 6, 0x3C02},
                                                     {0, 7, 0x3C00}});
}

TEST_CASE("per-row and per-column visits give one line each") {
  std::mt19937_64 random(5);
  Mask mask = randomMask(40, 700, 0.5, random);
  std::vector<float> master = randomValues(40 * 700, random);
  SparseMatrix matrix;
  REQUIRE(matrix.rebuild(master, mask));
  std::vector<Entry> expected = expectedEntries(master, mask);
  std::vector<Entry> rows, columns;
  for (uint32_t row = 0; row < 40; ++row)
    matrix.forEachInRow(row, [&](uint32_t r, uint32_t c, uint16_t half) {
      CHECK(r == row);
      rows.push_back({r, c, half});
    });
  for (uint32_t col = 0; col < 700; ++col)
    matrix.forEachInColumn(col, [&](uint32_t r, uint32_t c, uint16_t half) {
      CHECK(c == col);
      columns.push_back({r, c, half});
    });
  CHECK(rows == expected);
  CHECK(columns == columnMajor(expected));
}

TEST_CASE("a master of the wrong size is refused") {
  SparseMatrix matrix;
  Mask mask(2, 3, true);
  CHECK(matrix.rebuild(std::vector<float>(5), mask).error() ==
        "master has 5 weights, the mask is 2x3 (6 weights)");
  REQUIRE(matrix.rebuild(std::vector<float>(6), mask));
  CHECK(matrix.refreshValues(std::vector<float>(7)).error() ==
        "master has 7 weights, the sparse matrix is 2x3 (6 weights)");
}
