//===- MemoryXBench.cpp - rebuild and streaming rates of MemoryX ----------===//
//
// For one layer shape at 0, 50 and 90 % sparsity (a random mask and normal
// weights, seeded), times on one core what a LayerStore does, with its
// master stored active first (ActiveFirst.h):
//
//   rebuild     SparseMatrix::rebuild: both index streams from the mask
//               (delta encoding, the transposed permutation) and the FP16
//               values from the layer's stored master, as when the mask
//               changes;
//   refresh     LayerStore::rebuild with the structure current: the FP16
//               values only, as after a direct write to the master;
//   forward     every (row, col, value) of the layer's sparse copy in
//               forward order into a sink (forEachForward);
//   transposed  the same in transposed order (forEachTransposed);
//   wire        the forward stream in wire format, 4 bytes per index word
//               (streamForward), through a 16 KiB buffer handed to a
//               consumer that checksums each block; the transposed one
//               likewise (streamTransposed);
//   encode+stream  issue 10's "encoding plus streaming": refresh, then the
//               wire stream, timed as one operation;
//   pipelined   the same in one pass (LayerStore::refreshAndStreamForward):
//               each piece of a row is streamed right after it is rounded.
//
// Then, added: the one pass again with the caches flushed before each run
// (a 64 MiB read, not timed), since the active runs of a sparse layer fit
// in this machine's 32 MiB L3; a weight-mask change of an Adam layer
// (LayerStore::setWeightMask between two random masks: the master and both
// state arrays reordered, then the rebuild); and the refresh and the one
// pass from a plain column-order master (SparseMatrix with
// MasterOrder::Columns), the layout before active-first order.
//
// The sink adds every value, converted exactly to an integer count of
// 2^-24 (the FP16 quantum) through a table, and the XOR of its row and
// column; both orders must give the same two sums, which are printed. The
// values from both master orders must be identical. Figures are the median
// of RUNS runs, in nonzeros per second.
//
// usage: tessera-bench-memoryx [ROWS COLS [RUNS]]
//
//===----------------------------------------------------------------------===//

#include "tessera/MemoryX/HalfConversion.h"
#include "tessera/MemoryX/LayerStore.h"
#include "tessera/MemoryX/SparseMatrix.h"
#include "tessera/Support/Float16.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <ctime>
#include <random>
#include <span>
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

/// The consumer of the wire stream: sums the pairs of each block (mod
/// 2^32, which vectorises) so that the stream cannot be optimised away.
struct WireSink {
  uint32_t sum = 0;
  size_t pairs = 0;
  void operator()(std::span<const uint32_t> block, size_t) {
    uint32_t blockSum = 0;
    for (uint32_t pair : block)
      blockSum += pair;
    sum += blockSum;
    pairs += block.size();
  }
  bool operator==(const WireSink &) const = default;
};

/// The same checksum straight from the raw arrays.
WireSink expectedWire(const SparseMatrix &matrix) {
  WireSink expected;
  const IndexStream &index = matrix.forwardIndex();
  for (uint32_t row = 0; row < matrix.rows(); ++row) {
    uint32_t begin = index.offsets()[row];
    for (uint32_t word = 0; word < index.offsets()[row + 1] - begin; ++word)
      expected.sum += uint32_t(index.deltas()[begin + word]) |
                      uint32_t(matrix.values()[matrix.valueIndex(row, word)])
                          << 16;
  }
  expected.pairs = index.streamLength();
  return expected;
}

/// Medians of the wall-clock time and of this thread's CPU time; on a
/// shared machine the second leaves out the time the thread was preempted.
struct Timing {
  double wall = 0, cpu = 0;
};

double threadSeconds() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return double(now.tv_sec) + double(now.tv_nsec) * 1e-9;
}

template <typename Body> Timing medianSeconds(int runs, Body &&body) {
  std::vector<double> walls, cpus;
  for (int run = 0; run < runs; ++run) {
    double cpuStart = threadSeconds();
    Clock::time_point start = Clock::now();
    body();
    walls.push_back(
        std::chrono::duration<double>(Clock::now() - start).count());
    cpus.push_back(threadSeconds() - cpuStart);
  }
  std::sort(walls.begin(), walls.end());
  std::sort(cpus.begin(), cpus.end());
  return {walls[walls.size() / 2], cpus[cpus.size() / 2]};
}

/// Evicts the caches: a read of more than the 32 MiB L3. A read, so that
/// the evicted lines are clean and the timed run pays no write-backs.
void flushCaches() {
  static std::vector<uint64_t> scratch((size_t(64) << 20) / 8, 1);
  uint64_t sum = 0;
  for (uint64_t word : scratch)
    sum += word;
  volatile uint64_t keep = sum;
  (void)keep;
}

/// Like medianSeconds, but flushes the caches before each run, untimed.
template <typename Body> Timing medianColdSeconds(int runs, Body &&body) {
  std::vector<double> walls, cpus;
  for (int run = 0; run < runs; ++run) {
    flushCaches();
    Timing once = medianSeconds(1, body);
    walls.push_back(once.wall);
    cpus.push_back(once.cpu);
  }
  std::sort(walls.begin(), walls.end());
  std::sort(cpus.begin(), cpus.end());
  return {walls[walls.size() / 2], cpus[cpus.size() / 2]};
}

Mask randomMask(uint32_t rows, uint32_t cols, double sparsity,
                std::mt19937_64 &random) {
  Mask mask(rows, cols, sparsity == 0.0);
  if (sparsity > 0) {
    std::bernoulli_distribution keep(1.0 - sparsity);
    for (uint32_t r = 0; r < rows; ++r)
      for (uint32_t c = 0; c < cols; ++c)
        if (keep(random))
          mask.set(r, c);
  }
  return mask;
}

void report(const char *what, Timing time, size_t nonzeros) {
  std::printf("  %-34s %8.2f ms %7.3f Gnz/s   cpu %8.2f ms %7.3f Gnz/s\n", what,
              time.wall * 1e3, double(nonzeros) / time.wall / 1e9,
              time.cpu * 1e3, double(nonzeros) / time.cpu / 1e9);
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
    Mask mask = randomMask(rows, cols, sparsity, random);
    // The mask the layer switches to and back in the mask-change timing.
    std::mt19937_64 otherRandom(7 + static_cast<uint64_t>(sparsity * 100));
    Mask otherMask = randomMask(rows, cols, sparsity, otherRandom);

    Status failed;
    auto check = [&](Status status) {
      if (!status)
        failed = std::move(status);
    };
    Expected<LayerStore> made =
        LayerStore::create({"bench", rows, cols, OptimizerKind::Adam});
    if (!made) {
      std::fprintf(stderr, "tessera-bench-memoryx: error: %s\n",
                   made.error().c_str());
      return 1;
    }
    LayerStore &layer = *made;
    check(layer.setMaster(master));
    check(layer.setWeightMask(mask));
    std::span<const float> stored = layer.storedMaster();
    const SparseMatrix &copy = layer.sparse();

    SparseMatrix matrix;
    Timing rebuild = medianSeconds(runs, [&] {
      check(matrix.rebuild(stored, mask, MasterOrder::ActiveFirst));
    });
    Timing refresh = medianSeconds(runs, [&] { check(layer.rebuild()); });
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
          copy.forEachTransposed(sink);
        else
          copy.forEachForward(sink);
        totals.push_back(sink.totals);
      });
    };
    Timing forward = streamEntries(false);
    Timing transposed = streamEntries(true);

    // The wire stream alone, after a refresh, and a band at a time.
    std::vector<uint32_t> buffer(4096);
    std::vector<WireSink> wires;
    Timing wire = medianSeconds(runs, [&] {
      WireSink sink;
      copy.streamForward(buffer, sink);
      wires.push_back(sink);
    });
    std::vector<WireSink> transposedWires;
    Timing transposedWire = medianSeconds(runs, [&] {
      WireSink sink;
      copy.streamTransposed(buffer, sink);
      transposedWires.push_back(sink);
    });
    Timing encodeStream = medianSeconds(runs, [&] {
      WireSink sink;
      check(layer.rebuild());
      copy.streamForward(buffer, sink);
      wires.push_back(sink);
    });
    auto onePass = [&] {
      WireSink sink;
      check(layer.refreshAndStreamForward(buffer, sink));
      wires.push_back(sink);
    };
    Timing pipelined = medianSeconds(runs, onePass);
    Timing pipelinedCold = medianColdSeconds(runs, onePass);

    // The layout before: the same work from a column-order master.
    check(matrix.rebuild(master, mask));
    Timing columnRefresh =
        medianSeconds(runs, [&] { check(matrix.refreshValues(master)); });
    std::vector<WireSink> columnWires;
    Timing columnPipelined = medianSeconds(runs, [&] {
      WireSink sink;
      check(matrix.refreshAndStreamForward(master, buffer, sink));
      columnWires.push_back(sink);
    });
    bool sameValues = std::equal(matrix.values().begin(), matrix.values().end(),
                                 copy.values().begin(), copy.values().end());

    // A mask change and back, alternately; the layer ends on `mask`.
    int switches = 0;
    Timing maskChange = medianSeconds(runs, [&] {
      check(layer.setWeightMask(++switches % 2 ? otherMask : mask));
    });
    if (switches % 2)
      check(layer.setWeightMask(mask));
    if (!failed) {
      std::fprintf(stderr, "tessera-bench-memoryx: error: %s\n",
                   failed.error().c_str());
      return 1;
    }

    size_t nonzeros = copy.nonzeroCount();
    std::printf("%.0f%% sparse: %zu nonzeros, %s layout   (wall-clock and "
                "thread CPU time)\n",
                sparsity * 100, nonzeros, copy.isTiled() ? "tiled" : "packed");
    report("rebuild (structure and values)", rebuild, nonzeros);
    report("refresh (encode: FP16 values)", refresh, nonzeros);
    report("forward visit (row, col, value)", forward, nonzeros);
    report("transposed visit", transposed, nonzeros);
    report("wire stream (forward, 4 B/word)", wire, nonzeros);
    report("transposed wire stream", transposedWire, nonzeros);
    report("encode+stream: refresh, then wire", encodeStream, nonzeros);
    report("encode+stream in one pass", pipelined, nonzeros);
    bool agree = std::all_of(totals.begin(), totals.end(),
                             [&](const Totals &t) { return t == totals[0]; });
    std::printf("  sums: values %.6f, row^col %llu, %s\n",
                std::ldexp(double(totals[0].values), -24),
                static_cast<unsigned long long>(totals[0].positions),
                agree ? "equal in every run" : "DIFFERENT");
    WireSink expected = expectedWire(copy);
    bool wireAgrees =
        std::all_of(wires.begin(), wires.end(),
                    [&](const WireSink &w) { return w == expected; });
    std::printf("  wire: %zu pairs, sum 0x%08x, %s\n", expected.pairs,
                expected.sum,
                wireAgrees ? "as the raw arrays in every run" : "DIFFERENT");
    // The transposed pairs are the same multiset of words' values in
    // another order: their count and their value halves must agree.
    uint32_t valueSum = 0;
    for (uint16_t half : copy.values())
      valueSum += uint32_t(half) << 16;
    auto transposedAgrees = [&](const WireSink &w) {
      uint32_t wordSum = 0;
      for (uint16_t word : copy.transposedIndex().deltas())
        wordSum += word;
      return w.pairs == copy.transposedIndex().streamLength() &&
             w.sum == wordSum + valueSum;
    };
    bool transposedOk = std::all_of(transposedWires.begin(),
                                    transposedWires.end(), transposedAgrees);
    std::printf("  transposed wire: %zu pairs, %s\n",
                copy.transposedIndex().streamLength(),
                transposedOk ? "values and words as the raw arrays"
                             : "DIFFERENT");
    report("one pass, caches flushed first", pipelinedCold, nonzeros);
    report("mask change (Adam layer)", maskChange, nonzeros);
    report("refresh, column-order master", columnRefresh, nonzeros);
    report("one pass, column-order master", columnPipelined, nonzeros);
    bool columnAgrees =
        sameValues &&
        std::all_of(columnWires.begin(), columnWires.end(),
                    [&](const WireSink &w) { return w == expected; });
    std::printf("  column-order master: %s\n",
                columnAgrees ? "the same values and wire stream" : "DIFFERENT");
    if (!agree || !wireAgrees || !transposedOk || !columnAgrees)
      return 1;
  }
  return 0;
}
