//===- Runtime.h - SdkRuntime's state, shared by its files ------*- C++ -*-===//
#ifndef TESSERA_HOST_RUNTIME_H
#define TESSERA_HOST_RUNTIME_H

#include "Device.h"

#include "tessera/Host/SdkRuntime.h"

#include <chrono>
#include <deque>
#include <fstream>
#include <functional>
#include <optional>
#include <string>

namespace tessera::host {

enum class Phase : uint8_t { Created, Loaded, Running, Stopped };

/// A send or receive on a host stream that has not completed.
struct StreamOp {
  uint64_t handle = 0;
  uint64_t count = 0; ///< words
  uint64_t done = 0;  ///< words taken by the fabric, or arrived
  /// A receive's destination (one of them).
  uint32_t *words32 = nullptr;
  uint16_t *words16 = nullptr;
};

/// One host stream of out.json with what the host still has to do on it.
struct StreamState {
  const emulator::HostStream *info = nullptr;
  uint32_t id = 0;
  std::deque<StreamOp> ops;     ///< in issue order
  std::deque<uint32_t> toSend;  ///< input: the words of ops, in order
  std::deque<uint32_t> arrived; ///< output: words no receive took yet
};

struct SdkRuntime::State {
  RuntimeOptions options;
  emulator::LoadedOutput output;
  /// The fabric, from load() on: this process's emulator or, with ranks,
  /// every rank's (Device.h).
  std::unique_ptr<Device> device;
  Phase phase = Phase::Created;
  uint64_t nextHandle = 1;
  std::ofstream simLog;   ///< opened at the first simprint line
  std::ofstream traceLog; ///< opened at load when tracing
  /// A progress line is on the terminal (RuntimeOptions::progress).
  bool progressShown = false;
  /// Per host stream, from load() on.
  std::vector<StreamState> streams;
  std::chrono::steady_clock::time_point created =
      std::chrono::steady_clock::now();

  /// Appends the run's figures to options.statsPath.
  void writeStats();
  /// options.recordDirectory/run.json (HostError if it cannot).
  void writeRecord();
  /// After a fault or deadlock in `what`: the core dumps options ask for,
  /// and a line for the error saying where they are ("" without).
  std::string dumpCores(const std::string &what);

  /// Sends a simprint line where options say.
  void print(const emulator::PrintedLine &line);

  /// Throws unless commands may be issued now.
  void requireRunning(const char *what) const;
  /// The export `id` names, or throws "WHAT: no symbol with ID N".
  const emulator::ExportInfo &exportOf(const char *what, uint32_t id) const;
  /// Runs the device until `until` holds; throws with the emulator's report
  /// on a fault, a stall or the cycle limit. `why` names the command.
  /// `pending` says what the command still waits for, for the message.
  void runUntil(const std::string &why, const std::function<bool()> &until,
                const std::function<std::string()> &pending = nullptr);
  /// Runs `cycles` cycles (fewer if the device goes idle); throws on a fault.
  void runFor(const std::string &why, uint64_t cycles);
  std::string describePE(unsigned x, unsigned y) const;

  // Host streams (HostStreams.cpp).
  /// Runs the emulator as Emulator::run does, feeding input streams and
  /// draining output streams before the first cycle and after each. Every
  /// command runs the device through it.
  emulator::RunOutcome runDevice(uint64_t maxCycles,
                                 const std::function<bool()> &until = nullptr);
  /// One step of every stream: at most one word into each input stream's
  /// port, every word out of each output stream's exit. False if no word
  /// moved.
  bool serviceStreams();
  /// "3 of 8 words not yet taken by the fabric" (or "arrived"), over the
  /// stream's pending operations.
  std::string describePending(const StreamState &stream) const;
  /// "send on stream 0 ('x_in'): " and its describePending for every
  /// stream with pending operations, "; "-separated; "" if none waits.
  std::string describeAllPending() const;
  bool isPending(uint64_t handle) const;
  /// Runs the device until the operation `handle` is done; throws as
  /// runUntil, `why` naming the command.
  void waitFor(const std::string &why, uint64_t handle);
  /// stop()'s first step: runs until no send or receive is pending; if
  /// that fails, drops them and throws.
  void finishStreams();
};

/// Throws unless `region` lies in the rectangle, `elements` is positive and
/// the host array has one word per element of the region.
void checkRegion(const char *what, const emulator::OutputMetadata &metadata,
                 const Region &region, uint64_t elements, size_t hostWords);

/// The host word of element `e` of the PE at column `c`, row `r` of the
/// region (docs/HostRuntime.md "Copy mode").
inline uint64_t hostIndex(MemcpyOrder order, const Region &region,
                          uint64_t elements, int64_t c, int64_t r, uint64_t e) {
  uint64_t w = region.width, h = region.height;
  return order == MemcpyOrder::RowMajor ? (r * w + c) * elements + e
                                        : (e * w + c) * h + r;
}

} // namespace tessera::host

#endif // TESSERA_HOST_RUNTIME_H
