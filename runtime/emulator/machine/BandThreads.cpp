//===- BandThreads.cpp - threads that step the bands of a cycle -----------===//
//
// A phase lasts from microseconds (a small fabric) to milliseconds, so a
// waiting thread spins briefly before it sleeps on the atomic: short phases
// do not pay for a system call, and a loaded machine is not kept busy.
//
//===----------------------------------------------------------------------===//

#include "BandThreads.h"

using namespace tessera::emulator::machine;

namespace {

constexpr unsigned SpinsBeforeSleep = 2000;

inline void relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#endif
}

/// Waits until `value` no longer holds `old`.
void waitChange(const std::atomic<uint32_t> &value, uint32_t old) {
  for (unsigned i = 0; i < SpinsBeforeSleep; ++i) {
    if (value.load(std::memory_order_acquire) != old)
      return;
    relax();
  }
  while (value.load(std::memory_order_acquire) == old)
    value.wait(old, std::memory_order_acquire);
}

} // namespace

BandThreads::BandThreads(size_t bands, unsigned count,
                         std::function<void(size_t, bool)> runHalf)
    : runHalf(std::move(runHalf)), count(count) {
  for (unsigned t = 0; t <= count; ++t)
    firstBand.push_back(bands * t / count);
  for (unsigned t = 1; t < count; ++t)
    workers.emplace_back([this, t] { work(t); });
}

BandThreads::~BandThreads() {
  phase.store(Phase::Stop, std::memory_order_relaxed);
  generation.fetch_add(1, std::memory_order_release);
  generation.notify_all();
  for (std::thread &worker : workers)
    worker.join();
}

void BandThreads::runBands(unsigned thread, Phase which) {
  for (size_t i = firstBand[thread]; i < firstBand[thread + 1]; ++i)
    runHalf(i, which == Phase::SecondHalf);
}

void BandThreads::runPhase(Phase which) {
  pending.store(count - 1, std::memory_order_relaxed);
  phase.store(which, std::memory_order_relaxed);
  generation.fetch_add(1, std::memory_order_release);
  generation.notify_all();
  runBands(0, which);
  uint32_t left;
  while ((left = pending.load(std::memory_order_acquire)) != 0)
    waitChange(pending, left);
}

void BandThreads::work(unsigned thread) {
  uint32_t seen = 0;
  while (true) {
    waitChange(generation, seen);
    seen = generation.load(std::memory_order_acquire);
    Phase which = phase.load(std::memory_order_relaxed);
    if (which == Phase::Stop)
      return;
    runBands(thread, which);
    if (pending.fetch_sub(1, std::memory_order_acq_rel) == 1)
      pending.notify_one();
  }
}
