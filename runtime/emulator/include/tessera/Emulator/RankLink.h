//===- RankLink.h - how one process of a split fabric reaches the rest ----===//
//
// docs/Scaling.md "Ranks": the rectangle's rows can be split among
// processes (MPI ranks), each emulating its rows with the same program and
// options. They meet every cycle: neighbours trade boundary views and the
// wavelets that crossed, and all of them combine what decides the run
// (faults, idleness, timers, printed lines). This interface is all the
// emulator and the host runtime need of the transport, so that neither
// depends on MPI; runtime/emulator/mpi implements it over MPI.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_RANKLINK_H
#define TESSERA_EMULATOR_RANKLINK_H

#include <cstdint>
#include <span>
#include <utility>
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
  /// Every rank's `mine`, in rank order, on rank `root`; nothing on the
  /// others. Every rank calls it. (By default an allGather: a transport
  /// does better by sending to `root` only.)
  virtual std::vector<std::vector<uint8_t>>
  gather(std::span<const uint8_t> mine, unsigned root) {
    std::vector<std::vector<uint8_t>> all = allGather(mine);
    if (getRank() != root)
      all.clear();
    return all;
  }
  /// Replaces `bytes` on every rank by those of rank `root`. Every rank
  /// calls it.
  virtual void broadcast(std::vector<uint8_t> &bytes, unsigned root) {
    std::vector<std::vector<uint8_t>> all =
        allGather(getRank() == root ? std::span<const uint8_t>(bytes)
                                    : std::span<const uint8_t>());
    bytes = std::move(all[root]);
  }
};

} // namespace tessera::emulator

#endif // TESSERA_EMULATOR_RANKLINK_H
