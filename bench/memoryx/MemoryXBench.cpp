//===- MemoryXBench.cpp - rebuild and streaming rates of MemoryX ----------===//
//
// For one layer shape at 0, 50 and 90 % sparsity (a random mask and normal
// weights, seeded), times on one core:
//
//   rebuild     SparseMatrix::rebuild: both index streams from the mask
//               (delta encoding, the transposed permutation) and the FP16
//               values from the master, as when the mask changes;
//   refresh     refreshValues: the FP16 values only, as after an optimizer
//               step that left the mask alone;
//   forward     every (row, col, value) in forward order into a sink
//               (forEachForward);
//   transposed  the same in transposed order (forEachTransposed).
//
// The sink adds every value, converted exactly to an integer count of
// 2^-24 (the FP16 quantum) through a table, and the XOR of its row and
// column; both orders must give the same two sums, which are printed. Figures
// are the median of RUNS runs, in nonzeros per second.
//
// usage: tessera-bench-memoryx [ROWS COLS [RUNS]]
//
//===----------------------------------------------------------------------===//

#include "tessera/MemoryX/HalfConversion.h"
#include "tessera/MemoryX/SparseMatrix.h"
#include "tessera/Support/Float16.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

using namespace tessera;
using namespace tessera::memoryx;
using Clock = std::chrono::steady_clock;

namespace {

/// FP16 bits -> value * 2^24, exact for every finite half (|value| * 2^24
/// < 2^41); infinities and NaNs count as 0.
std::vector<int64_t> makeFixedPointTable() {
  std::vector<int64_t> table(65536);
  for (uint32_t bits = 0; bits < 65536; ++bits) {
    float value = halfBitsToFloat(static_cast<uint16_t>(bits));
    table[bits] = std::isfinite(value)
                      ? static_cast<int64_t>(std::ldexp(double(value), 24))
                      : 0;
  }
  return table;
}

struct Totals {
  int64_t values = 0;
  uint64_t positions = 0;
  bool operator==(const Totals &) const = default;
};

struct EntrySink {
  const int64_t *fixedPoint;
  Totals totals;
  void operator()(uint32_t row, uint32_t col, uint16_t bits) {
    totals.values += fixedPoint[bits];
    totals.positions += row ^ col;
  }
};

template <typename Body> double medianSeconds(int runs, Body &&body) {
  std::vector<double> times;
  for (int run = 0; run < runs; ++run) {
    Clock::time_point start = Clock::now();
    body();
    times.push_back(
        std::chrono::duration<double>(Clock::now() - start).count());
  }
  std::sort(times.begin(), times.end());
  return times[times.size() / 2];
}

void report(const char *what, double seconds, size_t nonzeros) {
  std::printf("  %-32s %8.2f ms %7.3f Gnz/s\n", what, seconds * 1e3,
              double(nonzeros) / seconds / 1e9);
}

} // namespace

int main(int argc, char **argv) {
  uint32_t rows = 4096, cols = 4096;
  int runs = 7;
  if (argc >= 3) {
    rows = static_cast<uint32_t>(std::strtoul(argv[1], nullptr, 10));
    cols = static_cast<uint32_t>(std::strtoul(argv[2], nullptr, 10));
  }
  if (argc >= 4)
    runs = std::atoi(argv[3]);
  if (rows == 0 || cols == 0 || runs <= 0 || argc == 2 || argc > 4) {
    std::fprintf(stderr, "usage: tessera-bench-memoryx [ROWS COLS [RUNS]]\n");
    return 2;
  }

  std::vector<int64_t> fixedPoint = makeFixedPointTable();
  std::mt19937_64 random(2024);
  std::vector<float> master(size_t(rows) * cols);
  std::normal_distribution<float> weight(0.0f, 0.05f);
  for (float &w : master)
    w = weight(random);

  std::printf("layer %ux%u, median of %d runs on one core, F16C %s\n", rows,
              cols, runs, usesHardwareHalfConversion() ? "on" : "off");
  for (double sparsity : {0.0, 0.5, 0.9}) {
    Mask mask(rows, cols, sparsity == 0.0);
    if (sparsity > 0) {
      std::bernoulli_distribution keep(1.0 - sparsity);
      for (uint32_t r = 0; r < rows; ++r)
        for (uint32_t c = 0; c < cols; ++c)
          if (keep(random))
            mask.set(r, c);
    }
    SparseMatrix matrix;
    Status failed;
    double rebuild = medianSeconds(runs, [&] {
      if (Status status = matrix.rebuild(master, mask); !status)
        failed = std::move(status);
    });
    double refresh = medianSeconds(runs, [&] {
      if (Status status = matrix.refreshValues(master); !status)
        failed = std::move(status);
    });
    if (!failed) {
      std::fprintf(stderr, "tessera-bench-memoryx: error: %s\n",
                   failed.error().c_str());
      return 1;
    }

    std::vector<Totals> totals;
    auto streamEntries = [&](bool transposed) {
      return medianSeconds(runs, [&] {
        EntrySink sink{fixedPoint.data(), {}};
        if (transposed)
          matrix.forEachTransposed(sink);
        else
          matrix.forEachForward(sink);
        totals.push_back(sink.totals);
      });
    };
    double forward = streamEntries(false);
    double transposed = streamEntries(true);

    size_t nonzeros = matrix.nonzeroCount();
    std::printf("%.0f%% sparse: %zu nonzeros, %s layout\n", sparsity * 100,
                nonzeros, matrix.isTiled() ? "tiled" : "packed");
    report("rebuild (structure and values)", rebuild, nonzeros);
    report("refresh (values only)", refresh, nonzeros);
    report("forward stream", forward, nonzeros);
    report("transposed stream", transposed, nonzeros);
    bool agree = std::all_of(totals.begin(), totals.end(),
                             [&](const Totals &t) { return t == totals[0]; });
    std::printf("  sums: values %.6f, row^col %llu, %s\n",
                std::ldexp(double(totals[0].values), -24),
                static_cast<unsigned long long>(totals[0].positions),
                agree ? "equal in every run" : "DIFFERENT");
    if (!agree)
      return 1;
  }
  return 0;
}
