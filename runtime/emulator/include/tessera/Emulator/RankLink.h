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

#include <algorithm>
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
  /// Rank `root`'s parts[r] on rank r (`parts` is read on `root` only and
  /// must have a part per rank there). Every rank calls it. By default a
  /// broadcast of every part: a transport does better by sending each rank
  /// its own.
  virtual std::vector<uint8_t>
  scatter(const std::vector<std::vector<uint8_t>> &parts, unsigned root) {
    std::vector<uint8_t> all;
    if (getRank() == root)
      for (const std::vector<uint8_t> &part : parts) {
        uint64_t size = part.size();
        const auto *bytes = reinterpret_cast<const uint8_t *>(&size);
        all.insert(all.end(), bytes, bytes + sizeof size);
        all.insert(all.end(), part.begin(), part.end());
      }
    broadcast(all, root);
    size_t at = 0;
    for (unsigned r = 0; at + sizeof(uint64_t) <= all.size(); ++r) {
      uint64_t size;
      std::copy_n(all.data() + at, sizeof size,
                  reinterpret_cast<uint8_t *>(&size));
      at += sizeof size;
      size = std::min<uint64_t>(size, all.size() - at);
      if (r == getRank())
        return {all.begin() + at, all.begin() + at + size};
      at += size;
    }
    return {};
  }
};

} // namespace tessera::emulator

#endif // TESSERA_EMULATOR_RANKLINK_H
