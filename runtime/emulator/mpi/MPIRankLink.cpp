//===- MPIRankLink.cpp - RankLink over MPI --------------------------------===//

#include "MPIRankLink.h"

#include <mpi.h>

#include <climits>

using namespace tessera::emulator;

namespace {

constexpr int SizeTag = 1, DataTag = 2;

int toInt(size_t size) {
  // A view or outbox is a few hundred KB at most; a gather of lines may be
  // more, but never near 2 GB.
  return size > size_t(INT_MAX) ? INT_MAX : static_cast<int>(size);
}

} // namespace

MPIRankLink::MPIRankLink() {
  int r = 0, n = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &r);
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  rank = static_cast<unsigned>(r);
  size = static_cast<unsigned>(n);
}

void MPIRankLink::exchange(std::span<const uint8_t> toNorth,
                           std::span<const uint8_t> toSouth,
                           std::vector<uint8_t> &fromNorth,
                           std::vector<uint8_t> &fromSouth) {
  int north = rank > 0 ? int(rank) - 1 : MPI_PROC_NULL;
  int south = rank + 1 < size ? int(rank) + 1 : MPI_PROC_NULL;
  unsigned long long sendSizes[2] = {toNorth.size(), toSouth.size()};
  unsigned long long recvSizes[2] = {0, 0};
  MPI_Request requests[4];
  MPI_Irecv(&recvSizes[0], 1, MPI_UNSIGNED_LONG_LONG, north, SizeTag,
            MPI_COMM_WORLD, &requests[0]);
  MPI_Irecv(&recvSizes[1], 1, MPI_UNSIGNED_LONG_LONG, south, SizeTag,
            MPI_COMM_WORLD, &requests[1]);
  MPI_Isend(&sendSizes[0], 1, MPI_UNSIGNED_LONG_LONG, north, SizeTag,
            MPI_COMM_WORLD, &requests[2]);
  MPI_Isend(&sendSizes[1], 1, MPI_UNSIGNED_LONG_LONG, south, SizeTag,
            MPI_COMM_WORLD, &requests[3]);
  MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);

  fromNorth.assign(north == MPI_PROC_NULL ? 0 : recvSizes[0], 0);
  fromSouth.assign(south == MPI_PROC_NULL ? 0 : recvSizes[1], 0);
  MPI_Irecv(fromNorth.data(), toInt(fromNorth.size()), MPI_BYTE, north, DataTag,
            MPI_COMM_WORLD, &requests[0]);
  MPI_Irecv(fromSouth.data(), toInt(fromSouth.size()), MPI_BYTE, south, DataTag,
            MPI_COMM_WORLD, &requests[1]);
  MPI_Isend(toNorth.data(), toInt(toNorth.size()), MPI_BYTE, north, DataTag,
            MPI_COMM_WORLD, &requests[2]);
  MPI_Isend(toSouth.data(), toInt(toSouth.size()), MPI_BYTE, south, DataTag,
            MPI_COMM_WORLD, &requests[3]);
  MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
}

std::vector<std::vector<uint8_t>>
MPIRankLink::allGather(std::span<const uint8_t> mine) {
  int mySize = toInt(mine.size());
  std::vector<int> sizes(size), offsets(size);
  MPI_Allgather(&mySize, 1, MPI_INT, sizes.data(), 1, MPI_INT, MPI_COMM_WORLD);
  int total = 0;
  for (unsigned r = 0; r < size; ++r) {
    offsets[r] = total;
    total += sizes[r];
  }
  std::vector<uint8_t> all(static_cast<size_t>(total));
  MPI_Allgatherv(mine.data(), mySize, MPI_BYTE, all.data(), sizes.data(),
                 offsets.data(), MPI_BYTE, MPI_COMM_WORLD);
  std::vector<std::vector<uint8_t>> parts(size);
  for (unsigned r = 0; r < size; ++r)
    parts[r].assign(all.begin() + offsets[r],
                    all.begin() + offsets[r] + sizes[r]);
  return parts;
}
