//===- MPIRankLink.h - RankLink over MPI ------------------------*- C++ -*-===//
//
// docs/Scaling.md "Ranks": each MPI rank of MPI_COMM_WORLD emulates a slice
// of rows; this carries their exchanges. Neighbours trade sizes first and
// then bytes with nonblocking sends and receives, so neither waits for the
// other to post first; gathers are MPI_Allgather (or MPI_Gather) of sizes
// and then MPI_Allgatherv (MPI_Gatherv). A broadcast is one message of its
// length and first bytes (and a second for the rest, if any), which the
// receivers await without keeping a core busy for long: ranks that serve a
// host program wait while rank 0's script runs. An MPI error aborts the job
// (MPI's default handler), since a rank cannot go on without the others.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_MPI_MPIRANKLINK_H
#define TESSERA_EMULATOR_MPI_MPIRANKLINK_H

#include "tessera/Emulator/RankLink.h"

namespace tessera::emulator {

class MPIRankLink final : public RankLink {
public:
  /// MPI must be initialised (and stay so while the link is used).
  MPIRankLink();
  unsigned getRank() const override { return rank; }
  unsigned getSize() const override { return size; }
  void exchange(std::span<const uint8_t> toNorth,
                std::span<const uint8_t> toSouth,
                std::vector<uint8_t> &fromNorth,
                std::vector<uint8_t> &fromSouth) override;
  std::vector<std::vector<uint8_t>>
  allGather(std::span<const uint8_t> mine) override;
  std::vector<std::vector<uint8_t>> gather(std::span<const uint8_t> mine,
                                           unsigned root) override;
  void broadcast(std::vector<uint8_t> &bytes, unsigned root) override;
  std::vector<uint8_t> scatter(const std::vector<std::vector<uint8_t>> &parts,
                               unsigned root) override;

private:
  unsigned rank = 0, size = 1;
};

} // namespace tessera::emulator

#endif // TESSERA_EMULATOR_MPI_MPIRANKLINK_H
