//===- Requests.h - what the host asks of each rank's emulator --*- C++ -*-===//
//
// The requests a Device sends (Device.h) and how each rank answers them
// for the PEs of its rows: rank 0 and the servers (RankServer.cpp) run the
// same code here, so that they cannot read a request differently. Every
// request starts with its Op and the session (the SdkRuntime) it is for.
// Internal.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_HOST_REQUESTS_H
#define TESSERA_HOST_REQUESTS_H

#include "tessera/Emulator/Bytes.h"
#include "tessera/Emulator/Emulator.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>

namespace tessera::host {

enum class Op : uint8_t {
  // The protocol.
  Exit,     ///< the servers return
  Create,   ///< load the output directory and build the emulator
  Destroy,  ///< drop the session
  Run,      ///< Emulator::run, with or without a condition
  Continue, ///< inside a Run: whether its condition holds
  // Answered by each rank for the PEs of its rows (answerForRows).
  WriteMemory,
  ReadMemory,
  CallAll,
  Scan,
  Deliver,
  CapturedCounts,
  TakeCaptured,
  Edges,
  Feed,
  /// Carries one of the requests above (WriteMemory, Feed) whose payload
  /// follows by RankLink::scatter, each rank receiving only its part.
  Scattered,
  // Done by every rank alike (collectives in the emulator or record).
  CaptureColor,
  Deadlock,
  Counters,
  Record,
  CoreDumps, ///< the last
};

/// A PE test of a scan (Device::findFirstFailing).
enum class PETest : uint8_t {
  MainThreadIdle,  ///< no task or call runs or waits
  TaskUnblocked,   ///< task `value` is not blocked
  CapturedAtLeast, ///< `count` wavelets on color `value` went to the host
};

/// What the servers need to build a session's emulator as rank 0 does.
struct CreateRequest {
  std::string directory; ///< absolute: a host may change directory
  emulator::NetworkOptions network;
  emulator::PickerPolicy picker = emulator::PickerPolicy::RoundRobin;
  std::optional<uint64_t> shuffleSeed;
  unsigned threads = 1, bands = 0;
  std::optional<emulator::RecordOptions> record;
  /// Rank 0 writes a trace, so every rank collects trace lines.
  bool traced = false;

  void write(emulator::ByteWriter &out) const;
  static CreateRequest read(emulator::ByteReader &in);
  /// The options of a server's emulator (which prints nothing).
  emulator::EmulatorOptions toOptions(emulator::RankLink *ranks,
                                      std::ostream *discard) const;
};

struct CoreDumpRequest {
  std::string why, directory;
  std::optional<std::array<uint64_t, 4>> region;

  void write(emulator::ByteWriter &out) const;
  static CoreDumpRequest read(emulator::ByteReader &in);
};

/// How a Feed ended.
enum class FeedEnd : uint8_t { Done, Faulted, Stuck };

/// Runs request `op` (one of those answered per PE) from `in` on this
/// rank's `emulator`, for the PEs of its rows, and writes its answer to
/// `out` (mostly a count, then per PE its index in the request and its
/// result). A Feed runs the device and meets the other ranks through
/// `ranks` every cycle (null: alone). False for an op that is not
/// answered per PE.
bool answerForRows(Op op, emulator::Emulator &emulator,
                   emulator::RankLink *ranks, emulator::ByteReader &in,
                   emulator::ByteWriter &out);

} // namespace tessera::host

#endif // TESSERA_HOST_REQUESTS_H
