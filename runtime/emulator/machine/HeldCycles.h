//===- HeldCycles.h - cycles whose turn a main thread ran ahead -*- C++ -*-===//
//
// A main thread that runs a task's exit ahead of its turn (a chain) spares
// that turn, but the clock must still count the cycle as one a PE acts in:
// the run goes on to it and progresses in it (Band::holdClock). Exits come
// by the thousand a cycle on a large fabric, a few cycles ahead, so the
// cycles are bits of a ring rather than timer entries; one too far ahead
// for the ring goes to the band's timer queue as before. Each cycle is a
// stop of its own for Emulator::run's skips, as a PE's timer would be, so
// a run steps the same cycles however the fabric is split.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_MACHINE_HELDCYCLES_H
#define TESSERA_EMULATOR_MACHINE_HELDCYCLES_H

#include <array>
#include <bit>
#include <cstdint>
#include <optional>

namespace tessera::emulator::machine {

class HeldCycles {
public:
  /// Cycles ahead the ring covers.
  static constexpr uint64_t RingCycles = 256;

  /// Holds cycle `at`, later than `now`; false if it lies beyond the ring.
  bool hold(uint64_t at, uint64_t now) {
    if (at - now >= RingCycles)
      return false;
    uint64_t &word = words[at % RingCycles / 64];
    uint64_t bit = uint64_t(1) << (at % 64);
    if (!(word & bit)) {
      word |= bit;
      ++count;
    }
    return true;
  }

  /// Takes cycle `now`'s hold: whether there was one. Called every cycle
  /// the clock steps to (the skips land on held cycles, never past them).
  bool take(uint64_t now) {
    if (count == 0)
      return false;
    uint64_t &word = words[now % RingCycles / 64];
    uint64_t bit = uint64_t(1) << (now % 64);
    if (!(word & bit))
      return false;
    word &= ~bit;
    --count;
    return true;
  }

  bool empty() const { return count == 0; }

  /// The first held cycle from `now` on.
  std::optional<uint64_t> next(uint64_t now) const {
    if (count == 0)
      return std::nullopt;
    for (uint64_t ahead = 0; ahead < RingCycles;) {
      uint64_t at = now + ahead;
      uint64_t rest = words[at % RingCycles / 64] >> (at % 64);
      if (rest)
        return at + uint64_t(std::countr_zero(rest));
      ahead += 64 - at % 64;
    }
    return std::nullopt;
  }

private:
  std::array<uint64_t, RingCycles / 64> words{};
  size_t count = 0;
};

} // namespace tessera::emulator::machine

#endif // TESSERA_EMULATOR_MACHINE_HELDCYCLES_H
