//===- Optimizer.cpp - weight updates from streamed gradients -------------===//

#include "tessera/MemoryX/Optimizer.h"

#include "LayerStoreAccess.h"

#include "tessera/Support/Float16.h"

#include <cmath>
#include <cstdio>
#include <string>

using namespace tessera::memoryx;

namespace {

std::string number(float value) {
  char text[32];
  std::snprintf(text, sizeof(text), "%g", static_cast<double>(value));
  return text;
}

Status checkLearningRate(const char *optimizer, float learningRate) {
  if (!std::isfinite(learningRate) || learningRate < 0)
    return Error(std::string(optimizer) +
                 ": learning rate must be finite and not negative, got " +
                 number(learningRate));
  return Status();
}

/// [0, 1): a decay factor; NaN fails both comparisons.
Status checkDecay(const char *optimizer, const char *name, float value) {
  if (!(value >= 0 && value < 1))
    return Error(std::string(optimizer) + ": " + name +
                 " must be in [0, 1), got " + number(value));
  return Status();
}

/// Whether `layer` keeps state for `kind`, and whether the gradients fit.
Status checkLayer(const LayerStore &layer, OptimizerKind kind,
                  std::span<const float> gradients) {
  if (layer.optimizer() != kind)
    return Error("layer '" + layer.name() + "' keeps " +
                 std::string(optimizerName(layer.optimizer())) +
                 " state; cannot apply " + std::string(optimizerName(kind)));
  size_t requested = layer.gradientStream().nonzeroCount();
  if (gradients.size() != requested)
    return Error("layer '" + layer.name() +
                 "': " + std::to_string(gradients.size()) +
                 " gradients for a gradient-request mask of " +
                 std::to_string(requested) + " weights");
  return Status();
}

/// Calls update(index, gradient), which returns the new weight, for every
/// requested weight in stream order, where `index` is the weight's place in
/// the stored (active-first) arrays; writes the new weight's FP16 value
/// into the sparse copy when the weight is active; counts the step. Both
/// streams are sorted by column within a row, so one walk of the row's
/// active entries beside its requests finds each active one, and the
/// positions are counted along the mask row as the columns grow.
template <typename Update>
Status forEachRequested(LayerStore &layer, std::span<const float> gradients,
                        Update &&update) {
  LayerStoreAccess::settle(layer);
  if (!layer.isSparseCurrent())
    if (Status rebuilt = layer.rebuild(); !rebuilt)
      return rebuilt;
  const Mask &mask = layer.weightMask();
  const IndexStream &requests = layer.gradientStream();
  SparseMatrix &sparse = LayerStoreAccess::sparse(layer);
  const IndexStream &active = sparse.forwardIndex();
  uint16_t *halves = SparseMatrixAccess::values(sparse);
  const uint16_t *requestWord = requests.deltas().data();
  const uint16_t *activeWord = active.deltas().data();
  size_t cols = layer.cols();
  size_t next = 0;
  for (uint32_t row = 0, rows = layer.rows(); row < rows; ++row) {
    std::span<const uint64_t> maskRow = mask.rowWords(row);
    RowPositions positions(maskRow, activeCount(maskRow));
    size_t rowStart = size_t(row) * cols;
    uint32_t activeBegin = active.offsets()[row];
    uint32_t activeEnd = active.offsets()[row + 1];
    uint32_t k = activeBegin, activeCol = 0;
    // Whether activeCol is the column of word k, which is an entry.
    bool atEntry = false;
    uint32_t col = 0;
    for (uint32_t r = requests.offsets()[row],
                  end = requests.offsets()[row + 1];
         r < end; ++r) {
      col += requestWord[r];
      if (requestWord[r] == EscapeWord)
        continue;
      float weight = update(rowStart + positions.positionOf(col),
                            static_cast<double>(gradients[next++]));
      // Move to the first active entry at or after `col`.
      while (k < activeEnd) {
        if (!atEntry) {
          activeCol += activeWord[k];
          if (activeWord[k] == EscapeWord) {
            ++k;
            continue;
          }
          atEntry = true;
        }
        if (activeCol >= col)
          break;
        atEntry = false;
        ++k;
      }
      if (atEntry && k < activeEnd && activeCol == col)
        halves[sparse.valueIndex(row, k - activeBegin)] =
            tessera::floatToHalfBits(weight);
    }
  }
  layer.setSteps(layer.steps() + 1);
  LayerStoreAccess::storedChanged(layer);
  LayerStoreAccess::markSparseCurrent(layer);
  return Status();
}

} // namespace

Status tessera::memoryx::applySGD(LayerStore &layer,
                                  std::span<const float> gradients,
                                  const SGDParams &params) {
  if (Status ok = checkLearningRate("sgd", params.learningRate); !ok)
    return ok;
  if (Status ok = checkLayer(layer, OptimizerKind::SGD, gradients); !ok)
    return ok;
  float *weights = LayerStoreAccess::master(layer).data();
  double learningRate = params.learningRate;
  return forEachRequested(layer, gradients, [&](size_t i, double gradient) {
    return weights[i] =
               static_cast<float>(weights[i] - learningRate * gradient);
  });
}

Status tessera::memoryx::applyMomentum(LayerStore &layer,
                                       std::span<const float> gradients,
                                       const MomentumParams &params) {
  if (Status ok = checkLearningRate("momentum", params.learningRate); !ok)
    return ok;
  if (Status ok = checkDecay("momentum", "momentum", params.momentum); !ok)
    return ok;
  if (Status ok = checkLayer(layer, OptimizerKind::Momentum, gradients); !ok)
    return ok;
  float *weights = LayerStoreAccess::master(layer).data();
  float *velocity = LayerStoreAccess::state(layer, 0).data();
  double learningRate = params.learningRate, momentum = params.momentum;
  return forEachRequested(layer, gradients, [&](size_t i, double gradient) {
    double v = momentum * velocity[i] + gradient;
    velocity[i] = static_cast<float>(v);
    return weights[i] = static_cast<float>(weights[i] - learningRate * v);
  });
}

Status tessera::memoryx::applyAdam(LayerStore &layer,
                                   std::span<const float> gradients,
                                   const AdamParams &params) {
  if (Status ok = checkLearningRate("adam", params.learningRate); !ok)
    return ok;
  if (Status ok = checkDecay("adam", "beta1", params.beta1); !ok)
    return ok;
  if (Status ok = checkDecay("adam", "beta2", params.beta2); !ok)
    return ok;
  if (!std::isfinite(params.epsilon) || !(params.epsilon > 0))
    return Error("adam: epsilon must be finite and positive, got " +
                 number(params.epsilon));
  if (Status ok = checkLayer(layer, OptimizerKind::Adam, gradients); !ok)
    return ok;
  float *weights = LayerStoreAccess::master(layer).data();
  float *firstMoment = LayerStoreAccess::state(layer, 0).data();
  float *secondMoment = LayerStoreAccess::state(layer, 1).data();
  double beta1 = params.beta1, beta2 = params.beta2;
  double step = static_cast<double>(layer.steps() + 1);
  double correction1 = 1 - std::pow(beta1, step);
  double correction2 = 1 - std::pow(beta2, step);
  double learningRate = params.learningRate, epsilon = params.epsilon;
  return forEachRequested(layer, gradients, [&](size_t i, double gradient) {
    double m = beta1 * firstMoment[i] + (1 - beta1) * gradient;
    double v = beta2 * secondMoment[i] + (1 - beta2) * gradient * gradient;
    firstMoment[i] = static_cast<float>(m);
    secondMoment[i] = static_cast<float>(v);
    double update = learningRate * (m / correction1) /
                    (std::sqrt(v / correction2) + epsilon);
    return weights[i] = static_cast<float>(weights[i] - update);
  });
}
