//===- ActiveFirstStreamTest.cpp - encoding from an active-first master ---===//
//
// A SparseMatrix refreshed from an active-first master must hold and
// stream exactly what it does from the same master in column order, on the
// fused F16C path and on the portable one.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "tessera/MemoryX/ActiveFirst.h"
#include "tessera/MemoryX/HalfConversion.h"
#include "tessera/MemoryX/SparseMatrix.h"

#include <catch2/catch.hpp>

using namespace tessera::memoryx;
using namespace memoryxtest;

namespace {

struct Shape {
  uint32_t rows, cols;
  double density;
};

/// Packed and tiled layouts, full rows, rows of a few chunks, escapes.
const Shape Shapes[] = {
    {1, 1, 1.0},     {5, 7, 0.5},       {40, 300, 0.5},    {64, 65, 1.0},
    {70, 600, 0.9},  {100, 1000, 0.4},  {64, 4096, 1.0},   {40, 4096, 0.5},
    {96, 2048, 0.1}, {3, 140000, 1e-4}, {33, 66000, 0.02},
};

using Blocks = std::vector<std::pair<size_t, std::vector<uint32_t>>>;

/// Sets `portable` for the scope of a test section.
struct PortableHalves {
  explicit PortableHalves(bool portable) {
    setPortableHalfConversionForTesting(portable);
  }
  ~PortableHalves() { setPortableHalfConversionForTesting(false); }
};

void checkShape(const Shape &shape, std::mt19937_64 &random) {
  INFO(shape.rows << "x" << shape.cols << " at density " << shape.density);
  Mask mask = randomMask(shape.rows, shape.cols, shape.density, random);
  if (shape.rows > 2)
    for (uint32_t c = 0; c < shape.cols; ++c) {
      mask.set(0, c, true);  // A full row.
      mask.set(1, c, false); // An empty one.
    }
  size_t weights = size_t(shape.rows) * shape.cols;
  std::vector<float> columns = randomValues(weights, random);
  std::vector<float> activeFirst = columns, scratch;
  arrangeActiveFirst(mask, activeFirst, scratch);

  SparseMatrix plain, arranged;
  REQUIRE(plain.rebuild(columns, mask));
  REQUIRE(arranged.rebuild(activeFirst, mask, MasterOrder::ActiveFirst));
  CHECK(sameBits(plain.values(), arranged.values()));

  columns = randomValues(weights, random, 10.0f);
  activeFirst = columns;
  arrangeActiveFirst(mask, activeFirst, scratch);
  REQUIRE(plain.refreshValues(columns));
  // Rows in uneven ranges, as a band-by-band refresh would.
  for (uint32_t first = 0; first < shape.rows; first += 3)
    REQUIRE(arranged.refreshRows(activeFirst, first,
                                 std::min(first + 3, shape.rows),
                                 MasterOrder::ActiveFirst));
  CHECK(sameBits(plain.values(), arranged.values()));

  columns = randomValues(weights, random, 1e4f);
  activeFirst = columns;
  arrangeActiveFirst(mask, activeFirst, scratch);
  REQUIRE(plain.refreshValues(columns));
  for (size_t size : {1, 31, 33, 100, 4096}) {
    INFO("buffer of " << size);
    std::vector<uint32_t> buffer(size);
    Blocks expected, got;
    plain.streamForward(
        buffer, [&](std::span<const uint32_t> block, size_t at) {
          expected.push_back({at, {block.begin(), block.end()}});
        });
    REQUIRE(arranged.refreshAndStreamForward(
        activeFirst, buffer,
        [&](std::span<const uint32_t> block, size_t at) {
          got.push_back({at, {block.begin(), block.end()}});
        },
        MasterOrder::ActiveFirst));
    CHECK(got == expected);
    CHECK(sameBits(plain.values(), arranged.values()));
  }
}

} // namespace

TEST_CASE("an active-first master gives the same copy and streams") {
  std::mt19937_64 random(31);
  for (bool portable : {false, true}) {
    INFO((portable ? "portable path" : "hardware path"));
    PortableHalves halves(portable);
    for (const Shape &shape : Shapes)
      checkShape(shape, random);
  }
}
