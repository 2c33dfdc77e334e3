//===- ChromeTrace.h - run records as Chrome trace-event JSON ---*- C++ -*-===//
//
// The trace-event format that Perfetto (ui.perfetto.dev) and chrome://tracing
// open: one process per PE, one thread per task, per DSD thread (the main
// thread and each microthread), for wavelets and for prints. Timestamps are
// cycles written as microseconds. docs/Debugging.md shows an example.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_VIZ_CHROMETRACE_H
#define TESSERA_VIZ_CHROMETRACE_H

#include "tessera/Viz/Expected.h"
#include "tessera/Viz/RunRecord.h"

#include <bitset>
#include <optional>
#include <string>

namespace tessera::viz {

/// A rectangle of PEs, corners included.
struct PERegion {
  unsigned x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool contains(unsigned x, unsigned y) const {
    return x >= x0 && x <= x1 && y >= y0 && y <= y1;
  }
};

/// What a trace keeps; the default keeps everything.
struct TraceFilter {
  std::optional<PERegion> region;
  /// Wavelet events of these colors only; nullopt keeps all colors.
  std::optional<std::bitset<NumColors>> colors;
  /// Cycles [firstCycle, endCycle); spans that overlap the window are cut to
  /// it, instants outside it are dropped.
  uint64_t firstCycle = 0;
  std::optional<uint64_t> endCycle;
};

/// Thread IDs inside a PE's process, in the order the viewers list them.
namespace trace_threads {
/// Task `id` is thread FirstTask + id.
constexpr unsigned FirstTask = 1;
constexpr unsigned MainThreadDSD = 1000;
/// Microthread `i` is thread FirstMicrothreadDSD + i.
constexpr unsigned FirstMicrothreadDSD = 1001;
constexpr unsigned Wavelets = 2000;
constexpr unsigned Prints = 2001;
} // namespace trace_threads

/// PE (x, y) is process y * width + x + 1.
inline unsigned getTraceProcessID(const RunRecord &record, unsigned x,
                                  unsigned y) {
  return y * record.width + x + 1;
}

/// The trace as JSON text, one event per line.
std::string printChromeTrace(const RunRecord &record,
                             const TraceFilter &filter);

Status writeChromeTrace(const RunRecord &record, const TraceFilter &filter,
                        const std::string &path);

} // namespace tessera::viz

#endif // TESSERA_VIZ_CHROMETRACE_H
