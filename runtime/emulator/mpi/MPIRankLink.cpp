//===- MPIRankLink.cpp - RankLink over MPI --------------------------------===//

#include "MPIRankLink.h"

#include <mpi.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <climits>
#include <cstring>
#include <thread>

using namespace tessera::emulator;

namespace {

constexpr int HeadTag = 1, RestTag = 2;

/// The first message of each exchange, gather or broadcast carries the
/// length and the first bytes, so that the small ones a cycle needs are one
/// message; only longer ones send the rest in a second. Sizes per kind.
constexpr size_t ExchangeHead = 4096, GatherHead = 128, BroadcastHead = 256;

/// The bytes of a message of `length` in a head of `head` bytes.
size_t inHead(uint64_t length, size_t head) {
  return std::min<uint64_t>(length, head - sizeof(uint64_t));
}

void packHead(std::span<const uint8_t> bytes, uint8_t *head, size_t size) {
  uint64_t length = bytes.size();
  std::memcpy(head, &length, sizeof length);
  std::memcpy(head + sizeof length, bytes.data(), inHead(length, size));
}

/// The message a head starts: its length, and the head's bytes in place.
std::vector<uint8_t> unpackHead(const uint8_t *head, size_t size) {
  uint64_t length = 0;
  std::memcpy(&length, head, sizeof length);
  std::vector<uint8_t> bytes(length);
  std::memcpy(bytes.data(), head + sizeof length, inHead(length, size));
  return bytes;
}

/// Waits for `request` without keeping a core busy for long: a rank that
/// serves a host program (docs/Scaling.md) may wait seconds while rank 0's
/// script computes. It polls for 50 microseconds, then yields the core
/// between polls (to a rank it may share it with) for 2 ms, longer than
/// ranks of a run wait for each other, and then sleeps between polls, up
/// to a millisecond.
void waitPatiently(MPI_Request &request) {
  using namespace std::chrono;
  auto start = steady_clock::now();
  auto nap = microseconds(50);
  for (int done = 0;;) {
    MPI_Test(&request, &done, MPI_STATUS_IGNORE);
    if (done)
      return;
    auto waited = steady_clock::now() - start;
    if (waited < microseconds(50))
      continue;
    if (waited < milliseconds(2)) {
      std::this_thread::yield();
      continue;
    }
    std::this_thread::sleep_for(nap);
    nap = std::min(nap * 2, microseconds(1000));
  }
}

int toInt(size_t size) {
  // A view or outbox is a few hundred KB at most; a gather of lines may be
  // more, but never near 2 GB.
  return size > size_t(INT_MAX) ? INT_MAX : static_cast<int>(size);
}

/// Every rank's head of `mine` (GatherHead bytes each), in rank order.
std::vector<uint8_t> gatherHeads(std::span<const uint8_t> mine, unsigned size) {
  std::vector<uint8_t> head(GatherHead), heads(GatherHead * size);
  packHead(mine, head.data(), GatherHead);
  MPI_Allgather(head.data(), int(GatherHead), MPI_BYTE, heads.data(),
                int(GatherHead), MPI_BYTE, MPI_COMM_WORLD);
  return heads;
}

/// The parts the heads start, and what each rank still has to send.
std::vector<std::vector<uint8_t>> startParts(const std::vector<uint8_t> &heads,
                                             unsigned size,
                                             std::vector<int> &rests,
                                             std::vector<int> &offsets) {
  std::vector<std::vector<uint8_t>> parts;
  rests.assign(size, 0);
  offsets.assign(size, 0);
  int total = 0;
  for (unsigned r = 0; r < size; ++r) {
    parts.push_back(unpackHead(heads.data() + r * GatherHead, GatherHead));
    rests[r] = toInt(parts[r].size() - inHead(parts[r].size(), GatherHead));
    offsets[r] = total;
    total += rests[r];
  }
  return parts;
}

/// Appends each rank's rest (concatenated in `all`) to its part.
void finishParts(std::vector<std::vector<uint8_t>> &parts,
                 const std::vector<uint8_t> &all, const std::vector<int> &rests,
                 const std::vector<int> &offsets) {
  for (size_t r = 0; r < parts.size(); ++r)
    std::memcpy(parts[r].data() + inHead(parts[r].size(), GatherHead),
                all.data() + offsets[r], size_t(rests[r]));
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
  // A receive from MPI_PROC_NULL leaves its zeros: an empty message.
  std::vector<uint8_t> heads(4 * ExchangeHead, 0);
  uint8_t *sendNorth = heads.data(), *sendSouth = sendNorth + ExchangeHead;
  uint8_t *recvNorth = sendSouth + ExchangeHead;
  uint8_t *recvSouth = recvNorth + ExchangeHead;
  packHead(toNorth, sendNorth, ExchangeHead);
  packHead(toSouth, sendSouth, ExchangeHead);
  MPI_Request requests[4];
  MPI_Irecv(recvNorth, int(ExchangeHead), MPI_BYTE, north, HeadTag,
            MPI_COMM_WORLD, &requests[0]);
  MPI_Irecv(recvSouth, int(ExchangeHead), MPI_BYTE, south, HeadTag,
            MPI_COMM_WORLD, &requests[1]);
  MPI_Isend(sendNorth,
            int(sizeof(uint64_t) + inHead(toNorth.size(), ExchangeHead)),
            MPI_BYTE, north, HeadTag, MPI_COMM_WORLD, &requests[2]);
  MPI_Isend(sendSouth,
            int(sizeof(uint64_t) + inHead(toSouth.size(), ExchangeHead)),
            MPI_BYTE, south, HeadTag, MPI_COMM_WORLD, &requests[3]);
  MPI_Waitall(4, requests, MPI_STATUSES_IGNORE);
  fromNorth = unpackHead(recvNorth, ExchangeHead);
  fromSouth = unpackHead(recvSouth, ExchangeHead);

  // The rest of what did not fit, each way.
  int count = 0;
  auto receiveRest = [&](std::vector<uint8_t> &bytes, int from) {
    size_t at = inHead(bytes.size(), ExchangeHead);
    if (at < bytes.size())
      MPI_Irecv(bytes.data() + at, toInt(bytes.size() - at), MPI_BYTE, from,
                RestTag, MPI_COMM_WORLD, &requests[count++]);
  };
  auto sendRest = [&](std::span<const uint8_t> bytes, int to) {
    size_t at = inHead(bytes.size(), ExchangeHead);
    if (at < bytes.size())
      MPI_Isend(bytes.data() + at, toInt(bytes.size() - at), MPI_BYTE, to,
                RestTag, MPI_COMM_WORLD, &requests[count++]);
  };
  receiveRest(fromNorth, north);
  receiveRest(fromSouth, south);
  sendRest(toNorth, north);
  sendRest(toSouth, south);
  MPI_Waitall(count, requests, MPI_STATUSES_IGNORE);
}

std::vector<std::vector<uint8_t>>
MPIRankLink::allGather(std::span<const uint8_t> mine) {
  std::vector<int> rests, offsets;
  std::vector<std::vector<uint8_t>> parts =
      startParts(gatherHeads(mine, size), size, rests, offsets);
  size_t total = size_t(offsets.back()) + size_t(rests.back());
  if (total == 0) // everything fitted in the heads: every rank knows it
    return parts;
  std::vector<uint8_t> all(total);
  size_t at = inHead(mine.size(), GatherHead);
  MPI_Allgatherv(mine.data() + at, toInt(mine.size() - at), MPI_BYTE,
                 all.data(), rests.data(), offsets.data(), MPI_BYTE,
                 MPI_COMM_WORLD);
  finishParts(parts, all, rests, offsets);
  return parts;
}

std::vector<std::vector<uint8_t>>
MPIRankLink::gather(std::span<const uint8_t> mine, unsigned root) {
  // The heads go to every rank, so that all know whether rests follow.
  std::vector<int> rests, offsets;
  std::vector<std::vector<uint8_t>> parts =
      startParts(gatherHeads(mine, size), size, rests, offsets);
  size_t total = size_t(offsets.back()) + size_t(rests.back());
  if (total > 0) {
    std::vector<uint8_t> all(rank == root ? total : 0);
    size_t at = inHead(mine.size(), GatherHead);
    MPI_Gatherv(mine.data() + at, toInt(mine.size() - at), MPI_BYTE, all.data(),
                rests.data(), offsets.data(), MPI_BYTE, int(root),
                MPI_COMM_WORLD);
    if (rank == root)
      finishParts(parts, all, rests, offsets);
  }
  if (rank != root)
    parts.clear();
  return parts;
}

std::vector<uint8_t>
MPIRankLink::scatter(const std::vector<std::vector<uint8_t>> &parts,
                     unsigned root) {
  // Sizes first (one each), then the bytes: each rank gets only its part.
  std::vector<uint64_t> sizes;
  std::vector<int> counts, offsets;
  std::vector<uint8_t> all;
  if (rank == root) {
    for (unsigned r = 0; r < size; ++r) {
      sizes.push_back(r < parts.size() ? parts[r].size() : 0);
      offsets.push_back(toInt(all.size()));
      counts.push_back(toInt(sizes.back()));
      if (r < parts.size())
        all.insert(all.end(), parts[r].begin(), parts[r].end());
    }
  }
  uint64_t mine = 0;
  MPI_Scatter(sizes.data(), 1, MPI_UINT64_T, &mine, 1, MPI_UINT64_T, int(root),
              MPI_COMM_WORLD);
  std::vector<uint8_t> part(mine);
  MPI_Scatterv(all.data(), counts.data(), offsets.data(), MPI_BYTE, part.data(),
               toInt(mine), MPI_BYTE, int(root), MPI_COMM_WORLD);
  return part;
}

void MPIRankLink::broadcast(std::vector<uint8_t> &bytes, unsigned root) {
  std::array<uint8_t, BroadcastHead> head{};
  if (rank == root)
    packHead(bytes, head.data(), BroadcastHead);
  MPI_Request request;
  MPI_Ibcast(head.data(), int(head.size()), MPI_BYTE, int(root), MPI_COMM_WORLD,
             &request);
  waitPatiently(request);
  if (rank != root)
    bytes = unpackHead(head.data(), BroadcastHead);
  // A host's array may pass 2 GB, MPI's count per call.
  for (size_t at = inHead(bytes.size(), BroadcastHead); at < bytes.size();
       at += size_t(INT_MAX))
    MPI_Bcast(bytes.data() + at, toInt(bytes.size() - at), MPI_BYTE, int(root),
              MPI_COMM_WORLD);
}
