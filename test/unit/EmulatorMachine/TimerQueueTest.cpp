//===- TimerQueueTest.cpp - the timer ring against a binary heap ----------===//
//
// TimerQueue replaced a binary heap of (cycle, PE index): random pushes,
// near and far, with cycles skipped up to the earliest timer and popDue
// sometimes called only every few cycles, must give what the heap gives:
// the same entries in the same order (each once), the same earliest cycle
// and the same emptiness. Crowded cycles take the queue's bitmap, sparse
// ones its sort.
//
//===----------------------------------------------------------------------===//

#include "TimerQueue.h"

#include <catch2/catch.hpp>

#include <random>

using tessera::emulator::machine::TimerQueue;

namespace {

using Entry = std::pair<uint64_t, uint32_t>;
using Heap =
    std::priority_queue<Entry, std::vector<Entry>, std::greater<Entry>>;

/// The heap's due entries, repeats dropped (counted in `repeats`).
std::vector<Entry> popHeap(Heap &heap, uint64_t now, unsigned &repeats) {
  std::vector<Entry> due;
  while (!heap.empty() && heap.top().first <= now) {
    if (due.empty() || due.back() != heap.top())
      due.push_back(heap.top());
    else
      ++repeats;
    heap.pop();
  }
  return due;
}

} // namespace

TEST_CASE("the timer ring gives what a heap of (cycle, PE) gives",
          "[machine][timers]") {
  std::mt19937 random(20261126);
  unsigned far = 0, skipped = 0, late = 0, repeats = 0, crowded = 0;
  for (int trial = 0; trial < 200; ++trial) {
    // Odd trials wake hundreds of PEs a cycle, as a busy fabric does.
    bool busy = trial % 2;
    TimerQueue queue;
    Heap heap;
    std::vector<Entry> due;
    uint64_t now = random() % 3 ? 0 : uint64_t(1) << 40;
    uint64_t lastPopped = now;
    for (int step = 0; step < 400; ++step) {
      INFO("trial " << trial << ", step " << step << ", cycle " << now);
      // Pushes: mostly within the ring, some beyond it.
      for (unsigned k = random() % (busy ? 300 : 6); k > 0; --k) {
        uint64_t ahead = random() % 4
                             ? 1 + random() % (busy ? 3 : 40)
                             : 1 + random() % (3 * TimerQueue::RingCycles);
        far += ahead >= TimerQueue::RingCycles;
        uint32_t index = busy ? random() % 2000 : random() % 50;
        queue.push(now + ahead, index);
        heap.emplace(now + ahead, index);
      }
      REQUIRE(queue.empty() == heap.empty());
      std::optional<uint64_t> earliest = queue.earliest();
      REQUIRE(earliest.has_value() == !heap.empty());
      if (earliest)
        REQUIRE(*earliest == heap.top().first);
      // On to the next cycle, or skip towards the earliest timer; most
      // cycles pop, some leave it to a later one.
      uint64_t next = now + 1;
      if (earliest && *earliest > next && random() % 3 == 0) {
        next = *earliest;
        ++skipped;
      }
      now = next;
      if (random() % 4 != 0 || step == 399) {
        late += now - lastPopped > 1;
        lastPopped = now;
        queue.popDue(now, due);
        REQUIRE(due == popHeap(heap, now, repeats));
        crowded += due.size() >= 64;
        REQUIRE(queue.empty() == heap.empty());
      }
    }
  }
  CHECK(far > 1000);
  CHECK(skipped > 1000);
  CHECK(late > 1000);
  CHECK(repeats > 1000);
  CHECK(crowded > 1000);
}
