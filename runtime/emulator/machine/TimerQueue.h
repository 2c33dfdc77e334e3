//===- TimerQueue.h - PEs asleep until a cycle ------------------*- C++ -*-===//
//
// A band's PEs that compute sleep until a cycle. On a busy fabric
// thousands wake every cycle, and a binary heap paid a few hundred
// instructions for each. Most wake within a few hundred cycles, so timers
// go into a ring of buckets, one per cycle, and only those further ahead
// into a heap. A cycle's PEs come out in the heap's order (by index), each
// once; sorting them cost as much as the heap had, so a crowded bucket is
// ordered through a bitmap (IndexOrder.h). Like the heap the queue keeps
// every entry until its cycle, even one its PE no longer needs (the caller
// checks): emptiness and the earliest cycle are those of the heap it
// replaces.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_MACHINE_TIMERQUEUE_H
#define TESSERA_EMULATOR_MACHINE_TIMERQUEUE_H

#include "IndexOrder.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <functional>
#include <optional>
#include <queue>
#include <utility>
#include <vector>

namespace tessera::emulator::machine {

class TimerQueue {
public:
  /// Cycles ahead that the ring covers.
  static constexpr uint64_t RingCycles = 256;

  /// PE `index` wakes at cycle `at`, after the last popDue's cycle.
  void push(uint64_t at, uint32_t index) {
    ++count;
    // The ring holds cycles [nextDue, nextDue + RingCycles): one per bucket.
    if (at >= nextDue && at - nextDue < RingCycles)
      ring[at % RingCycles].push_back(index);
    else
      far.emplace(at, index);
  }

  bool empty() const { return count == 0; }

  /// The earliest cycle of an entry.
  std::optional<uint64_t> earliest() const {
    if (count == 0)
      return std::nullopt;
    std::optional<uint64_t> best;
    if (!far.empty())
      best = far.top().first;
    for (uint64_t at = nextDue; at < nextDue + RingCycles; ++at) {
      if (best && *best <= at)
        break;
      if (!ring[at % RingCycles].empty())
        return at;
    }
    return best;
  }

  /// Replaces `due` with the entries whose cycle is `now` or earlier (any
  /// cycle since the last call), in the heap's order: by cycle, then
  /// index. An entry pushed more than once comes out once.
  void popDue(uint64_t now, std::vector<std::pair<uint64_t, uint32_t>> &due) {
    due.clear();
    uint64_t from = nextDue;
    if (now < from)
      return;
    nextDue = now + 1;
    if (count == 0)
      return;
    for (uint64_t at = from; at <= now && at < from + RingCycles; ++at) {
      std::vector<uint32_t> &bucket = ring[at % RingCycles];
      count -= bucket.size();
      appendInOrder(at, bucket, due);
      bucket.clear();
    }
    size_t fromRing = due.size();
    while (!far.empty() && far.top().first <= now) {
      due.push_back(far.top());
      far.pop();
      --count;
    }
    if (due.size() > fromRing) { // rare: a timer set long ago
      std::sort(due.begin(), due.end());
      due.erase(std::unique(due.begin(), due.end()), due.end());
    }
  }

private:
  /// Appends the bucket of cycle `at` to `due`, by index, each once.
  void appendInOrder(uint64_t at, std::vector<uint32_t> &bucket,
                     std::vector<std::pair<uint64_t, uint32_t>> &due) {
    order.sortUnique(bucket);
    for (uint32_t index : bucket)
      due.emplace_back(at, index);
  }

  std::array<std::vector<uint32_t>, RingCycles> ring;
  IndexOrder order;
  std::priority_queue<std::pair<uint64_t, uint32_t>,
                      std::vector<std::pair<uint64_t, uint32_t>>,
                      std::greater<>>
      far;
  size_t count = 0;
  uint64_t nextDue = 0; ///< the first cycle popDue has not covered
};

} // namespace tessera::emulator::machine

#endif // TESSERA_EMULATOR_MACHINE_TIMERQUEUE_H
