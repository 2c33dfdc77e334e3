//===- Ranks.h - host programs on a fabric split among ranks ----*- C++ -*-===//
//
// docs/Scaling.md "Host programs on ranks": rank 0 runs the host program;
// every other rank runs serveRanks, emulating its slice of the rows of each
// SdkRuntime rank 0 makes. Each thing SdkRuntime asks of the fabric is a
// request rank 0 broadcasts; every rank answers for the PEs of its rows and
// rank 0 gathers the answers. Only RankLink is needed, not MPI itself.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_HOST_RANKS_H
#define TESSERA_HOST_RANKS_H

#include "tessera/Emulator/RankLink.h"

#include <cstdint>
#include <vector>

namespace tessera::host {

/// Rank 0's end: the SdkRuntimes of a host program share it
/// (RuntimeOptions::ranks).
class RankServers {
public:
  /// `link` is rank 0's and outlives this object.
  explicit RankServers(emulator::RankLink &link);
  /// Stops the servers, if stop() was not called.
  ~RankServers();
  RankServers(const RankServers &) = delete;
  RankServers &operator=(const RankServers &) = delete;

  emulator::RankLink &getLink() { return link; }
  unsigned getSize() const { return link.getSize(); }
  /// Lets the other ranks return from serveRanks. Afterwards the runtimes
  /// that use this object can no longer reach the fabric (HostError), and
  /// their destructors send nothing.
  void stop();
  bool isStopped() const { return stopped; }
  /// A number for a new runtime's fabric on every rank.
  uint64_t newSession() { return ++sessions; }
  /// Sends `request` to every other rank (a collective: they are all in
  /// serveRanks).
  void send(std::vector<uint8_t> request);

private:
  emulator::RankLink &link;
  bool stopped = false;
  uint64_t sessions = 0;
};

/// On every rank but 0: emulates this rank's rows of each fabric rank 0
/// asks for, answering its requests, until rank 0 stops it (RankServers).
/// Throws std::runtime_error on a request it does not understand; the
/// caller should then end the whole job, which cannot go on without it.
void serveRanks(emulator::RankLink &link);

} // namespace tessera::host

#endif // TESSERA_HOST_RANKS_H
