//===- Runtime.h - SdkRuntime's state, shared by its files ------*- C++ -*-===//
#ifndef TESSERA_HOST_RUNTIME_H
#define TESSERA_HOST_RUNTIME_H

#include "tessera/Host/SdkRuntime.h"

#include <chrono>
#include <fstream>
#include <optional>
#include <string>

namespace tessera::host {

enum class Phase : uint8_t { Created, Loaded, Running, Stopped };

struct SdkRuntime::State {
  RuntimeOptions options;
  emulator::LoadedOutput output;
  std::unique_ptr<emulator::Emulator> emulator;
  Phase phase = Phase::Created;
  uint64_t nextHandle = 1;
  std::ofstream simLog;   ///< opened at the first simprint line
  std::ofstream traceLog; ///< opened at load when tracing
  std::chrono::steady_clock::time_point created =
      std::chrono::steady_clock::now();

  /// Appends the run's figures to options.statsPath.
  void writeStats() const;

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
