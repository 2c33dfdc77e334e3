//===- OptimizerTest.cpp - updates against a reference --------------------===//
//
// The reference is the formulas of Optimizer.h as plain loops over a dense
// matrix, in two precisions:
//   - with FP32 state, computing each update in double and rounding it when
//     stored, as documented: the library must match it bit for bit;
//   - entirely in double: the library must stay within 1e-6 of it relative
//     to the magnitude of the weight (plus the learning rate, for weights
//     near zero) over the five steps.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "tessera/MemoryX/Optimizer.h"
#include "tessera/Support/Float16.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

using namespace tessera;
using namespace tessera::memoryx;
using namespace memoryxtest;

namespace {

constexpr uint32_t Rows = 6, Cols = 40;
constexpr int Steps = 5;

template <typename Real> struct Reference {
  std::vector<Real> weights, first, second;
  uint64_t steps = 0;
};

struct Params {
  OptimizerKind kind;
  SGDParams sgd;
  MomentumParams momentum;
  AdamParams adam;
};

/// One step of the reference: every requested weight, dense gradient.
template <typename Real>
void referenceStep(Reference<Real> &ref, const Mask &requested,
                   const std::vector<float> &gradient, const Params &p) {
  double beta1 = p.adam.beta1, beta2 = p.adam.beta2;
  double t = static_cast<double>(ref.steps + 1);
  double correction1 = 1 - std::pow(beta1, t);
  double correction2 = 1 - std::pow(beta2, t);
  for (uint32_t r = 0; r < Rows; ++r) {
    for (uint32_t c = 0; c < Cols; ++c) {
      if (!requested.test(r, c))
        continue;
      size_t i = size_t(r) * Cols + c;
      double g = gradient[i];
      switch (p.kind) {
      case OptimizerKind::SGD:
        ref.weights[i] = Real(ref.weights[i] - double(p.sgd.learningRate) * g);
        break;
      case OptimizerKind::Momentum: {
        double v = double(p.momentum.momentum) * ref.first[i] + g;
        ref.first[i] = Real(v);
        ref.weights[i] =
            Real(ref.weights[i] - double(p.momentum.learningRate) * v);
        break;
      }
      case OptimizerKind::Adam: {
        double m = beta1 * ref.first[i] + (1 - beta1) * g;
        double v = beta2 * ref.second[i] + (1 - beta2) * g * g;
        ref.first[i] = Real(m);
        ref.second[i] = Real(v);
        double update = double(p.adam.learningRate) * (m / correction1) /
                        (std::sqrt(v / correction2) + double(p.adam.epsilon));
        ref.weights[i] = Real(ref.weights[i] - update);
        break;
      }
      }
    }
  }
  ++ref.steps;
}

Status applyStep(LayerStore &layer, const std::vector<float> &gradients,
                 const Params &p) {
  switch (p.kind) {
  case OptimizerKind::SGD:
    return applySGD(layer, gradients, p.sgd);
  case OptimizerKind::Momentum:
    return applyMomentum(layer, gradients, p.momentum);
  case OptimizerKind::Adam:
    return applyAdam(layer, gradients, p.adam);
  }
  return Error("unreachable");
}

void runAgainstReference(const Params &params) {
  std::mt19937_64 random(42 + static_cast<int>(params.kind));
  Expected<LayerStore> made =
      LayerStore::create({"fc1", Rows, Cols, params.kind});
  REQUIRE(made);
  LayerStore &layer = *made;
  std::vector<float> initial = randomValues(Rows * Cols, random, 0.5f);
  REQUIRE(layer.setMaster(initial));
  // 60 % active; requests are the active weights plus a few inactive ones
  // (which regrow), minus a few active ones (which stay frozen).
  Mask active = randomMask(Rows, Cols, 0.6, random);
  Mask requested = active;
  std::bernoulli_distribution flip(0.15);
  for (uint32_t r = 0; r < Rows; ++r)
    for (uint32_t c = 0; c < Cols; ++c)
      if (flip(random))
        requested.set(r, c, !requested.test(r, c));
  REQUIRE(layer.setWeightMask(active));
  REQUIRE(layer.setGradientMask(requested));

  Reference<float> exact{initial, std::vector<float>(Rows * Cols),
                         std::vector<float>(Rows * Cols)};
  Reference<double> precise{{initial.begin(), initial.end()},
                            std::vector<double>(Rows * Cols),
                            std::vector<double>(Rows * Cols)};
  for (int step = 0; step < Steps; ++step) {
    std::vector<float> gradient = randomValues(Rows * Cols, random, 0.1f);
    Expected<std::vector<float>> streamed =
        layer.gradientStream().gather(gradient);
    REQUIRE(streamed);
    REQUIRE(applyStep(layer, *streamed, params));
    referenceStep(exact, requested, gradient, params);
    referenceStep(precise, requested, gradient, params);
  }
  CHECK(layer.steps() == Steps);

  // Bit for bit against the documented rounding.
  CHECK(sameBits(layer.master(), std::span<const float>(exact.weights)));
  unsigned states = optimizerStateCount(params.kind);
  if (states > 0)
    CHECK(
        sameBits(layer.optimizerState(0), std::span<const float>(exact.first)));
  if (states > 1)
    CHECK(sameBits(layer.optimizerState(1),
                   std::span<const float>(exact.second)));

  // Close to the all-double reference.
  double learningRate =
      params.kind == OptimizerKind::SGD        ? params.sgd.learningRate
      : params.kind == OptimizerKind::Momentum ? params.momentum.learningRate
                                               : params.adam.learningRate;
  double worst = 0;
  for (size_t i = 0; i < initial.size(); ++i) {
    double error = std::abs(layer.master()[i] - precise.weights[i]);
    worst =
        std::max(worst, error / (std::abs(precise.weights[i]) + learningRate));
  }
  INFO("worst relative error " << worst);
  CHECK(worst <= 1e-6);

  // Unrequested weights kept their values; requested ones all moved.
  for (uint32_t r = 0; r < Rows; ++r)
    for (uint32_t c = 0; c < Cols; ++c) {
      size_t i = size_t(r) * Cols + c;
      if (requested.test(r, c))
        CHECK(layer.master()[i] != initial[i]);
      else
        CHECK(layer.master()[i] == initial[i]);
    }

  // The sparse copy was rebuilt from the updated master, through the mask.
  size_t seen = 0;
  layer.sparse().forEachForward([&](uint32_t r, uint32_t c, uint16_t half) {
    CHECK(active.test(r, c));
    CHECK(half == floatToHalfBits(layer.master()[size_t(r) * Cols + c]));
    ++seen;
  });
  CHECK(seen == active.count());
}

} // namespace

TEST_CASE("SGD matches the reference") {
  Params params{OptimizerKind::SGD, {0.05f}, {}, {}};
  runAgainstReference(params);
}

TEST_CASE("SGD with momentum matches the reference") {
  Params params{OptimizerKind::Momentum, {}, {0.05f, 0.9f}, {}};
  runAgainstReference(params);
}

TEST_CASE("Adam matches the reference, bias correction included") {
  Params params{OptimizerKind::Adam, {}, {}, {0.01f, 0.9f, 0.999f, 1e-8f}};
  runAgainstReference(params);
}

TEST_CASE("a requested weight outside the mask regrows") {
  Expected<LayerStore> made = LayerStore::create({"fc1", 2, 4});
  REQUIRE(made);
  LayerStore &layer = *made;
  REQUIRE(layer.setMaster(std::vector<float>{1, 2, 3, 4, 5, 6, 7, 8}));
  Mask active(2, 4, true);
  active.set(1, 3, false); // pruned: streamed no more
  active.set(0, 0, false);
  REQUIRE(layer.setWeightMask(active));
  Mask requested(2, 4, true);
  requested.set(0, 0, false); // pruned and not requested: frozen
  requested.set(0, 1, false); // active but not requested: frozen
  REQUIRE(layer.setGradientMask(requested));

  // Gradients in request order: (0,2) (0,3) (1,0) (1,1) (1,2) (1,3).
  std::vector<float> gradients{1, 1, 1, 1, 1, -10};
  REQUIRE(applySGD(layer, gradients, {0.5f}));
  CHECK(std::vector<float>(layer.master().begin(), layer.master().end()) ==
        std::vector<float>{1, 2, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f, 13});
  auto streamed = [&] {
    std::vector<std::tuple<uint32_t, uint32_t, float>> entries;
    layer.sparse().forEachForward([&](uint32_t r, uint32_t c, uint16_t h) {
      entries.emplace_back(r, c, halfBitsToFloat(h));
    });
    return entries;
  };
  using Entries = std::vector<std::tuple<uint32_t, uint32_t, float>>;
  CHECK(streamed() == Entries{{0, 1, 2.0f},
                              {0, 2, 2.5f},
                              {0, 3, 3.5f},
                              {1, 0, 4.5f},
                              {1, 1, 5.5f},
                              {1, 2, 6.5f}});
  // The mask admits (1,3) again: it comes back with its trained value.
  active.set(1, 3);
  REQUIRE(layer.setWeightMask(active));
  CHECK(streamed() == Entries{{0, 1, 2.0f},
                              {0, 2, 2.5f},
                              {0, 3, 3.5f},
                              {1, 0, 4.5f},
                              {1, 1, 5.5f},
                              {1, 2, 6.5f},
                              {1, 3, 13.0f}});
}

TEST_CASE("bad hyper-parameters and mismatched layers are refused") {
  Expected<LayerStore> adam =
      LayerStore::create({"fc1", 2, 2, OptimizerKind::Adam});
  Expected<LayerStore> momentum =
      LayerStore::create({"fc2", 2, 2, OptimizerKind::Momentum});
  Expected<LayerStore> sgd = LayerStore::create({"fc3", 2, 2});
  REQUIRE(adam);
  REQUIRE(momentum);
  REQUIRE(sgd);
  std::vector<float> four(4, 0.5f), three(3, 0.5f);
  float nan = std::numeric_limits<float>::quiet_NaN();
  float inf = std::numeric_limits<float>::infinity();

  CHECK(applySGD(*sgd, four, {-1.0f}).error() ==
        "sgd: learning rate must be finite and not negative, got -1");
  CHECK(applyMomentum(*momentum, four, {nan, 0.9f}).error() ==
        "momentum: learning rate must be finite and not negative, got nan");
  CHECK(applyMomentum(*momentum, four, {0.1f, 1.0f}).error() ==
        "momentum: momentum must be in [0, 1), got 1");
  CHECK(applyAdam(*adam, four, {inf, 0.9f, 0.999f, 1e-8f}).error() ==
        "adam: learning rate must be finite and not negative, got inf");
  CHECK(applyAdam(*adam, four, {0.1f, 1.0f, 0.999f, 1e-8f}).error() ==
        "adam: beta1 must be in [0, 1), got 1");
  CHECK(applyAdam(*adam, four, {0.1f, 0.9f, -0.5f, 1e-8f}).error() ==
        "adam: beta2 must be in [0, 1), got -0.5");
  CHECK(applyAdam(*adam, four, {0.1f, 0.9f, 0.999f, 0.0f}).error() ==
        "adam: epsilon must be finite and positive, got 0");
  CHECK(applySGD(*adam, four, {0.1f}).error() ==
        "layer 'fc1' keeps adam state; cannot apply sgd");
  CHECK(applyAdam(*momentum, four, {}).error() ==
        "layer 'fc2' keeps momentum state; cannot apply adam");
  CHECK(applyMomentum(*sgd, four, {}).error() ==
        "layer 'fc3' keeps sgd state; cannot apply momentum");
  CHECK(applySGD(*sgd, three, {0.1f}).error() ==
        "layer 'fc3': 3 gradients for a gradient-request mask of 4 weights");
  // Refusals change nothing.
  CHECK(sgd->steps() == 0);
  CHECK(adam->steps() == 0);
  for (float w : sgd->master())
    CHECK(w == 0.0f);
}

TEST_CASE("a step re-rounds exactly the active weights it updated") {
  // Rows long enough for escapes in both streams, and masks that differ.
  std::mt19937_64 random(77);
  const uint32_t rows = 3, cols = 140000;
  Expected<LayerStore> made = LayerStore::create({"wide", rows, cols});
  REQUIRE(made);
  LayerStore &layer = *made;
  Mask active = randomMask(rows, cols, 2e-4, random);
  Mask requested = randomMask(rows, cols, 2e-4, random);
  // Row 1 holds only far-apart weights: both streams escape there.
  for (uint32_t c = 0; c < cols; ++c) {
    active.set(1, c, false);
    requested.set(1, c, false);
  }
  for (uint32_t c : {0u, 70000u, 139999u}) {
    active.set(1, c);
    requested.set(1, c);
  }
  requested.set(2, 100000);
  REQUIRE(layer.setWeightMask(active));
  REQUIRE(layer.setGradientMask(requested));
  REQUIRE(layer.sparse().forwardIndex().hasEscapes());
  REQUIRE(layer.gradientStream().hasEscapes());

  // A direct write first: the step must start from a current copy.
  layer.mutableMaster()[size_t(1) * cols + 70000] = 3.0f;
  std::vector<float> gradients =
      randomValues(layer.gradientStream().nonzeroCount(), random);
  REQUIRE(applySGD(layer, gradients, {0.25f}));
  CHECK(layer.isSparseCurrent());
  size_t seen = 0;
  layer.sparse().forEachForward([&](uint32_t r, uint32_t c, uint16_t half) {
    CHECK(active.test(r, c));
    CHECK(half == floatToHalfBits(layer.master()[size_t(r) * cols + c]));
    ++seen;
  });
  CHECK(seen == active.count());
  CHECK(layer.master()[size_t(1) * cols + 70000] != 3.0f);
}
