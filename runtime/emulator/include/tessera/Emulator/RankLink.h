//===- RankLink.h - how one process of a split fabric reaches the rest ----===//
//
// docs/Scaling.md "Ranks": the rectangle's rows can be split among
// processes (MPI ranks), each emulating its rows with the same program and
// options. They meet every cycle: neighbours trade boundary views and the
// wavelets that crossed, and all of them combine what decides the run
// (faults, idleness, timers, printed lines). This interface is all the
// emulator needs of the transport, so that it does not depend on MPI;
// tools/tessera-run's MPI build implements it.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_RANKLINK_H
#define TESSERA_EMULATOR_RANKLINK_H

#include <cstdint>
#include <span>
#include <vector>

namespace tessera::emulator {

class RankLink {
public:
  virtual ~RankLink() = default;
  /// This process's number (0 ... getSize() - 1); rank r emulates the r-th
  /// slice of rows from the north.
  virtual unsigned getRank() const = 0;
  virtual unsigned getSize() const = 0;
  /// Sends `toNorth` to rank - 1 and `toSouth` to rank + 1, where they
  /// exist, and receives what those ranks sent this one (empty where there
  /// is no such rank). Both neighbours call it at the same point.
  virtual void exchange(std::span<const uint8_t> toNorth,
                        std::span<const uint8_t> toSouth,
                        std::vector<uint8_t> &fromNorth,
                        std::vector<uint8_t> &fromSouth) = 0;
  /// Every rank's `mine`, in rank order, on every rank; every rank calls it.
  virtual std::vector<std::vector<uint8_t>>
  allGather(std::span<const uint8_t> mine) = 0;
};

} // namespace tessera::emulator

#endif // TESSERA_EMULATOR_RANKLINK_H
