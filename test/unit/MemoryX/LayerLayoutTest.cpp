//===- LayerLayoutTest.cpp - a layer's arrays in active-first order -------===//
//
// A LayerStore stores its master and optimizer state active first and
// shows them in column order. Whatever the history of masks, each weight's
// value and state must stay with its column.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "tessera/MemoryX/CheckpointFormat.h"
#include "tessera/MemoryX/Optimizer.h"
#include "tessera/MemoryX/WeightStore.h"
#include "tessera/Support/Float16.h"

#include <catch2/catch.hpp>

using namespace tessera;
using namespace tessera::memoryx;
using namespace memoryxtest;

namespace {

/// The order by definition: each row's kept columns, then the others.
std::vector<float> activeFirstOf(const Mask &mask,
                                 std::span<const float> columnOrder) {
  std::vector<float> result;
  for (uint32_t r = 0; r < mask.rows(); ++r)
    for (bool active : {true, false})
      for (uint32_t c = 0; c < mask.cols(); ++c)
        if (mask.test(r, c) == active)
          result.push_back(columnOrder[size_t(r) * mask.cols() + c]);
  return result;
}

bool same(std::span<const float> a, const std::vector<float> &b) {
  return sameBits(a, std::span<const float>(b));
}

/// Every pair (row, col, FP16 bits) of the forward visit.
using Entries = std::vector<std::tuple<uint32_t, uint32_t, uint16_t>>;
Entries streamedEntries(const LayerStore &layer) {
  Entries entries;
  layer.sparse().forEachForward([&](uint32_t r, uint32_t c, uint16_t h) {
    entries.emplace_back(r, c, h);
  });
  return entries;
}

/// What the sparse copy must hold: FP16 of master() under the mask.
Entries expectedEntries(const LayerStore &layer) {
  Entries entries;
  std::span<const float> master = layer.master();
  for (uint32_t r = 0; r < layer.rows(); ++r)
    for (uint32_t c = 0; c < layer.cols(); ++c)
      if (layer.weightMask().test(r, c))
        entries.emplace_back(
            r, c, floatToHalfBits(master[size_t(r) * layer.cols() + c]));
  return entries;
}

/// A mask with a full row, an empty row and random rows.
Mask mixedMask(uint32_t rows, uint32_t cols, double density,
               std::mt19937_64 &random) {
  Mask mask = randomMask(rows, cols, density, random);
  for (uint32_t c = 0; c < cols; ++c) {
    mask.set(0, c, true);
    mask.set(1, c, false);
  }
  return mask;
}

} // namespace

TEST_CASE("the stored master is active first and follows the mask") {
  std::mt19937_64 random(11);
  const uint32_t rows = 5, cols = 70;
  Expected<LayerStore> made = LayerStore::create({"fc1", rows, cols});
  REQUIRE(made);
  LayerStore &layer = *made;
  std::vector<float> weights = randomValues(size_t(rows) * cols, random);
  REQUIRE(layer.setMaster(weights));
  // Every weight is active in a new layer: column order.
  CHECK(same(layer.storedMaster(), weights));

  for (int round = 0; round < 4; ++round) {
    Mask mask = mixedMask(rows, cols, 0.2 + 0.2 * round, random);
    REQUIRE(layer.setWeightMask(mask));
    CHECK(same(layer.storedMaster(), activeFirstOf(mask, weights)));
    CHECK(same(layer.master(), weights));
    CHECK(streamedEntries(layer) == expectedEntries(layer));
  }
  // setMaster writes into the current order.
  std::vector<float> next = randomValues(weights.size(), random);
  REQUIRE(layer.setMaster(next));
  CHECK(same(layer.storedMaster(), activeFirstOf(layer.weightMask(), next)));
  CHECK(same(layer.master(), next));
  CHECK(streamedEntries(layer) == expectedEntries(layer));
}

TEST_CASE("a mask change keeps each weight's optimizer state with it") {
  std::mt19937_64 random(12);
  const uint32_t rows = 6, cols = 130;
  Expected<LayerStore> made =
      LayerStore::create({"fc1", rows, cols, OptimizerKind::Adam});
  REQUIRE(made);
  LayerStore &layer = *made;
  size_t weights = size_t(rows) * cols;
  std::vector<float> master = randomValues(weights, random);
  std::vector<float> first = randomValues(weights, random);
  std::vector<float> second = randomValues(weights, random);
  REQUIRE(layer.setMaster(master));
  std::copy(first.begin(), first.end(), layer.mutableOptimizerState(0).begin());
  std::copy(second.begin(), second.end(),
            layer.mutableOptimizerState(1).begin());

  for (int round = 0; round < 5; ++round) {
    Mask mask = mixedMask(rows, cols, 0.5, random);
    REQUIRE(layer.setWeightMask(mask));
    CHECK(same(layer.storedMaster(), activeFirstOf(mask, master)));
    CHECK(same(layer.storedOptimizerState(0), activeFirstOf(mask, first)));
    CHECK(same(layer.storedOptimizerState(1), activeFirstOf(mask, second)));
    CHECK(same(layer.master(), master));
    CHECK(same(layer.optimizerState(0), first));
    CHECK(same(layer.optimizerState(1), second));
  }
  CHECK(layer.storedOptimizerState(2).empty());
}

TEST_CASE("steps do not depend on the history of masks") {
  // Two layers end with the same mask, one after four other masks: each
  // step must then give both the same weights and state, bit for bit.
  std::mt19937_64 random(13);
  const uint32_t rows = 8, cols = 200;
  Expected<LayerStore> direct =
      LayerStore::create({"a", rows, cols, OptimizerKind::Adam});
  Expected<LayerStore> moved =
      LayerStore::create({"b", rows, cols, OptimizerKind::Adam});
  REQUIRE(direct);
  REQUIRE(moved);
  std::vector<float> master = randomValues(size_t(rows) * cols, random);
  REQUIRE(direct->setMaster(master));
  REQUIRE(moved->setMaster(master));
  Mask final = mixedMask(rows, cols, 0.3, random);
  Mask requested = randomMask(rows, cols, 0.6, random);
  REQUIRE(direct->setWeightMask(final));
  REQUIRE(direct->setGradientMask(requested));
  REQUIRE(moved->setGradientMask(requested));
  AdamParams adam{0.01f, 0.9f, 0.999f, 1e-8f};
  for (int step = 0; step < 4; ++step) {
    REQUIRE(moved->setWeightMask(mixedMask(rows, cols, 0.5, random)));
    if (step == 3)
      REQUIRE(moved->setWeightMask(final));
    std::vector<float> gradients =
        randomValues(requested.count(), random, 0.1f);
    REQUIRE(applyAdam(*direct, gradients, adam));
    REQUIRE(applyAdam(*moved, gradients, adam));
  }
  CHECK(sameBits(direct->master(), moved->master()));
  CHECK(sameBits(direct->optimizerState(0), moved->optimizerState(0)));
  CHECK(sameBits(direct->optimizerState(1), moved->optimizerState(1)));
  CHECK(sameBits(direct->storedMaster(), moved->storedMaster()));
  CHECK(streamedEntries(*direct) == streamedEntries(*moved));
  CHECK(streamedEntries(*direct) == expectedEntries(*direct));
}

TEST_CASE("a regrown weight moves into the active run with its value") {
  Expected<LayerStore> made =
      LayerStore::create({"fc1", 2, 6, OptimizerKind::Momentum});
  REQUIRE(made);
  LayerStore &layer = *made;
  REQUIRE(layer.setMaster(std::vector<float>{1, 2, 3, 4, 5, 6, //
                                             7, 8, 9, 10, 11, 12}));
  Mask active(2, 6);
  active.set(0, 1);
  active.set(0, 4);
  active.set(1, 0);
  active.set(1, 5);
  REQUIRE(layer.setWeightMask(active));
  CHECK(same(layer.storedMaster(), {2, 5, 1, 3, 4, 6, //
                                    7, 12, 8, 9, 10, 11}));

  // Every weight trains; inactive ones regrow in their place.
  std::vector<float> gradients(12, -2.0f);
  REQUIRE(applyMomentum(layer, gradients, {0.5f, 0.0f}));
  CHECK(same(layer.storedMaster(), {3, 6, 2, 4, 5, 7, //
                                    8, 13, 9, 10, 11, 12}));
  CHECK(same(layer.storedOptimizerState(0), std::vector<float>(12, -2.0f)));

  // Admit (0,2) and (1,3), prune (0,4): each keeps its value and velocity.
  std::copy_n(std::vector<float>{1, 2, 3, 4, 5, 6}.begin(), 6,
              layer.mutableOptimizerState(0).begin());
  active.set(0, 2);
  active.set(1, 3);
  active.set(0, 4, false);
  REQUIRE(layer.setWeightMask(active));
  CHECK(same(layer.storedMaster(), {3, 4, 2, 5, 6, 7, //
                                    8, 11, 13, 9, 10, 12}));
  CHECK(same(layer.storedOptimizerState(0), {2, 3, 1, 4, 5, 6, //
                                             -2, -2, -2, -2, -2, -2}));
  CHECK(streamedEntries(layer) == Entries{{0, 1, floatToHalfBits(3.0f)},
                                          {0, 2, floatToHalfBits(4.0f)},
                                          {1, 0, floatToHalfBits(8.0f)},
                                          {1, 3, floatToHalfBits(11.0f)},
                                          {1, 5, floatToHalfBits(13.0f)}});
}

TEST_CASE("writes through the column views reach the stored arrays") {
  std::mt19937_64 random(14);
  const uint32_t rows = 4, cols = 90;
  Expected<LayerStore> made =
      LayerStore::create({"fc1", rows, cols, OptimizerKind::Momentum});
  REQUIRE(made);
  LayerStore &layer = *made;
  Mask mask = mixedMask(rows, cols, 0.4, random);
  REQUIRE(layer.setWeightMask(mask));
  std::vector<float> values = randomValues(size_t(rows) * cols, random);

  SECTION("rebuild takes the master's") {
    std::span<float> view = layer.mutableMaster();
    std::copy(values.begin(), values.end(), view.begin());
    CHECK_FALSE(layer.isSparseCurrent());
    CHECK(same(layer.master(), values));
    REQUIRE(layer.rebuild());
    CHECK(same(layer.storedMaster(), activeFirstOf(mask, values)));
    CHECK(streamedEntries(layer) == expectedEntries(layer));
  }
  SECTION("a mask change takes the state's") {
    std::span<float> view = layer.mutableOptimizerState(0);
    std::copy(values.begin(), values.end(), view.begin());
    Mask next = randomMask(rows, cols, 0.7, random);
    REQUIRE(layer.setWeightMask(next));
    CHECK(same(layer.storedOptimizerState(0), activeFirstOf(next, values)));
    CHECK(same(layer.optimizerState(0), values));
  }
  SECTION("a step takes both, and the views follow the step") {
    std::copy(values.begin(), values.end(), layer.mutableMaster().begin());
    std::fill(layer.mutableOptimizerState(0).begin(),
              layer.mutableOptimizerState(0).end(), 1.0f);
    std::vector<float> gradients(layer.gradientStream().nonzeroCount(), 0.5f);
    REQUIRE(applyMomentum(layer, gradients, {0.25f, 0.5f}));
    // v = 0.5 * 1 + 0.5 = 1, w = w - 0.25.
    std::vector<float> expected = values;
    for (float &w : expected)
      w = float(double(w) - 0.25);
    CHECK(same(layer.master(), expected));
    CHECK(same(layer.optimizerState(0), std::vector<float>(values.size(), 1)));
    CHECK(same(layer.storedMaster(), activeFirstOf(mask, expected)));
    CHECK(streamedEntries(layer) == expectedEntries(layer));
  }
  SECTION("setMaster replaces pending writes") {
    std::fill(layer.mutableMaster().begin(), layer.mutableMaster().end(), 7.0f);
    REQUIRE(layer.setMaster(values));
    CHECK(same(layer.master(), values));
    CHECK(same(layer.storedMaster(), activeFirstOf(mask, values)));
  }
}

TEST_CASE("a layer's one pass equals a rebuild and a stream") {
  std::mt19937_64 random(15);
  Expected<LayerStore> made = LayerStore::create({"fc1", 40, 600});
  REQUIRE(made);
  LayerStore &layer = *made;
  REQUIRE(layer.setWeightMask(mixedMask(40, 600, 0.3, random)));
  REQUIRE(layer.setMaster(randomValues(40 * 600, random)));
  std::vector<uint32_t> buffer(100), expected, got;
  // Written values make the copy stale; the one pass makes it current.
  std::vector<float> values = randomValues(40 * 600, random);
  std::copy(values.begin(), values.end(), layer.mutableMaster().begin());
  REQUIRE(layer.refreshAndStreamForward(
      buffer, [&](std::span<const uint32_t> b, size_t) {
        got.insert(got.end(), b.begin(), b.end());
      }));
  CHECK(layer.isSparseCurrent());
  CHECK(streamedEntries(layer) == expectedEntries(layer));
  layer.sparse().streamForward(
      buffer, [&](std::span<const uint32_t> b, size_t) {
        expected.insert(expected.end(), b.begin(), b.end());
      });
  CHECK(got == expected);
}

TEST_CASE("a checkpoint holds column order whatever the mask") {
  TempDir dir;
  std::string path = dir.file("layout.ckpt");
  std::mt19937_64 random(16);
  WeightStore store;
  Expected<LayerStore *> added =
      store.addLayer({"fc1", 3, 100, OptimizerKind::Momentum});
  REQUIRE(added);
  LayerStore &layer = **added;
  REQUIRE(layer.setMaster(randomValues(300, random)));
  REQUIRE(layer.setWeightMask(mixedMask(3, 100, 0.5, random)));
  // A step leaves no column-order view current: the save restores the
  // order itself.
  std::vector<float> gradients(300, 0.25f);
  REQUIRE(applyMomentum(layer, gradients, {0.5f, 0.9f}));
  REQUIRE(store.saveCheckpoint(path));

  std::vector<uint8_t> bytes = readBytes(path);
  // File header, layer header section (3 characters of name), then the
  // master's section header and its payload.
  size_t master = checkpoint::HeaderSize + checkpoint::SectionHeaderSize +
                  checkpoint::LayerHeaderFixedSize + 3 +
                  checkpoint::SectionHeaderSize;
  REQUIRE(bytes.size() > master + 300 * sizeof(float));
  std::vector<float> saved(300);
  std::memcpy(saved.data(), bytes.data() + master, 300 * sizeof(float));
  CHECK(same(layer.master(), saved));

  Expected<WeightStore> read = WeightStore::readCheckpoint(path);
  REQUIRE(read);
  CHECK(sameStore(*read, store));
  CHECK(sameBits(read->layer(0).storedMaster(), layer.storedMaster()));
  CHECK(sameBits(read->layer(0).storedOptimizerState(0),
                 layer.storedOptimizerState(0)));
  CHECK(streamedEntries(read->layer(0)) == streamedEntries(layer));
}
