//===- LinearArrangement.cpp - an order that keeps wires short ------------===//

#include "tessera/Placement/LinearArrangement.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <random>

namespace tessera::placement {

int64_t getLineLength(const std::vector<int> &order,
                      const std::vector<int64_t> &widths,
                      const std::vector<std::pair<int, int>> &wires) {
  std::vector<int64_t> centre(order.size());
  int64_t cursor = 0;
  for (int item : order) {
    centre[item] = 2 * cursor + widths[item];
    cursor += widths[item];
  }
  int64_t total = 0;
  for (auto [a, b] : wires)
    total += std::llabs(centre[a] - centre[b]);
  return total;
}

std::vector<int> arrangeLinearly(std::vector<int> current,
                                 const std::vector<int64_t> &widths,
                                 const std::vector<std::pair<int, int>> &wires,
                                 int iterations, uint64_t seed) {
  int n = static_cast<int>(current.size());
  if (n < 3 || wires.empty())
    return current;
  std::mt19937_64 random(seed);
  auto uniform = [&](int low, int high) {
    return std::uniform_int_distribution<int>(low, high)(random);
  };
  int64_t currentLength = getLineLength(current, widths, wires);
  std::vector<int> best = current;
  int64_t bestLength = currentLength;
  double first = std::max(1.0, 0.05 * double(currentLength));
  double last = 0.5;
  std::vector<int> candidate;
  for (int step = 0; step < iterations; ++step) {
    double temperature =
        first * std::pow(last / first, double(step) / iterations);
    candidate = current;
    int p = uniform(0, n - 1), q = uniform(0, n - 1);
    if (p == q)
      continue;
    switch (uniform(0, 2)) {
    case 0: {
      int item = candidate[p];
      candidate.erase(candidate.begin() + p);
      candidate.insert(candidate.begin() + q, item);
      break;
    }
    case 1:
      std::swap(candidate[p], candidate[q]);
      break;
    default:
      std::reverse(candidate.begin() + std::min(p, q),
                   candidate.begin() + std::max(p, q) + 1);
      break;
    }
    int64_t length = getLineLength(candidate, widths, wires);
    double worse = double(length - currentLength);
    if (worse <= 0 || std::uniform_real_distribution<double>(0, 1)(random) <
                          std::exp(-worse / temperature)) {
      current.swap(candidate);
      currentLength = length;
      if (currentLength < bestLength) {
        bestLength = currentLength;
        best = current;
      }
    }
  }
  return best;
}

} // namespace tessera::placement
