//===- BandThreads.h - threads that step the bands of a cycle ---*- C++ -*-===//
//
// docs/Scaling.md "Threads": each thread owns a run of consecutive bands
// and runs both halves of every cycle for them; the calling thread is one
// of them. A cycle is two phases with everyone meeting after each, so a
// band never reads a neighbour's views or outboxes while they are written.
// Internal.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_MACHINE_BANDTHREADS_H
#define TESSERA_EMULATOR_MACHINE_BANDTHREADS_H

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <thread>
#include <vector>

namespace tessera::emulator::machine {

class BandThreads {
public:
  /// `runHalf(band, second)` runs the first or second half of a cycle on
  /// one band. Starts `count - 1` threads (2 <= count <= bands).
  BandThreads(size_t bands, unsigned count,
              std::function<void(size_t, bool)> runHalf);
  ~BandThreads();
  BandThreads(const BandThreads &) = delete;
  BandThreads &operator=(const BandThreads &) = delete;

  /// One half of a cycle on every band; returns when all are done.
  void runCycleHalf(bool second) {
    runPhase(second ? Phase::SecondHalf : Phase::FirstHalf);
  }

private:
  enum class Phase : uint32_t { FirstHalf, SecondHalf, Stop };

  /// Runs `phase` on thread `thread`'s bands.
  void runBands(unsigned thread, Phase phase);
  /// Starts `phase` on every thread and waits for all.
  void runPhase(Phase phase);
  void work(unsigned thread);

  std::function<void(size_t, bool)> runHalf;
  unsigned count;
  /// Thread t steps bands [firstBand[t], firstBand[t + 1]).
  std::vector<size_t> firstBand;
  std::vector<std::thread> workers;
  std::atomic<Phase> phase{Phase::FirstHalf};
  /// Bumped to start a phase; workers wait for it to change.
  std::atomic<uint32_t> generation{0};
  /// Workers still running the current phase.
  std::atomic<uint32_t> pending{0};
};

} // namespace tessera::emulator::machine

#endif // TESSERA_EMULATOR_MACHINE_BANDTHREADS_H
