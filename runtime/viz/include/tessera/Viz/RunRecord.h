//===- RunRecord.h - what one emulator run did ------------------*- C++ -*-===//
//
// A run record is the data of one run of the fabric emulator: the fabric,
// per-PE counters, per-link wavelet counts and the timed events. The pictures,
// traces and reports of this library are all computed from it, and it is
// stored as JSON (docs/RunRecord.md).
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_VIZ_RUNRECORD_H
#define TESSERA_VIZ_RUNRECORD_H

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::viz {

enum class Arch { WSE2, WSE3 };

/// Colors a link counts wavelets per: 0..NumColors-1.
constexpr unsigned NumColors = 24;

/// The per-PE numbers a heat map can show. The order is the JSON order.
enum class PEMetric {
  Instructions,
  DSDElements,
  TasksRun,
  BusyCycles,
  StallCycles,
  WaveletsSent,
  WaveletsReceived,
  MemoryBytesUsed,
};
constexpr unsigned NumPEMetrics = 8;

struct PERecord {
  unsigned x = 0, y = 0;
  std::string program;
  /// Indexed by PEMetric.
  uint64_t metrics[NumPEMetrics] = {};

  uint64_t get(PEMetric metric) const { return metrics[unsigned(metric)]; }
  void set(PEMetric metric, uint64_t value) {
    metrics[unsigned(metric)] = value;
  }
};

/// The router port a link leaves through; Ramp is the PE's own CE.
enum class Direction { North, South, East, West, Ramp };
constexpr unsigned NumDirections = 5;

/// Wavelets of one color that router (x, y) sent out through `direction`.
struct LinkRecord {
  unsigned x = 0, y = 0;
  Direction direction = Direction::East;
  unsigned color = 0;
  uint64_t wavelets = 0;
};

/// A task of PE (x, y) ran from cycle `start` up to (not including) `end`.
struct TaskSpan {
  unsigned x = 0, y = 0;
  unsigned taskId = 0;
  std::string taskName;
  uint64_t start = 0, end = 0;
};

/// A DSD operation on the main thread (no microthread) or a microthread.
struct DSDSpan {
  unsigned x = 0, y = 0;
  std::optional<unsigned> microthread;
  std::string operation;
  uint64_t start = 0, end = 0;
};

enum class WaveletEventKind { Send, Receive };

struct WaveletEvent {
  uint64_t cycle = 0;
  unsigned x = 0, y = 0;
  unsigned color = 0;
  WaveletEventKind kind = WaveletEventKind::Send;
};

/// A line a PE printed (<simprint>), complete at `cycle`.
struct PrintEvent {
  uint64_t cycle = 0;
  unsigned x = 0, y = 0;
  std::string text;
};

struct RunRecord {
  Arch arch = Arch::WSE2;
  unsigned width = 0, height = 0;
  uint64_t cycles = 0;
  std::vector<PERecord> pes;
  std::vector<LinkRecord> links;
  std::vector<TaskSpan> tasks;
  std::vector<DSDSpan> dsdOperations;
  std::vector<WaveletEvent> wavelets;
  std::vector<PrintEvent> prints;
};

/// "wse2", "wse3".
std::string_view getArchName(Arch arch);
std::optional<Arch> parseArch(std::string_view name);

/// The JSON key of a metric: "busyCycles", "memoryBytesUsed", ...
std::string_view getMetricKey(PEMetric metric);
/// What a picture calls it: "busy cycles", "memory bytes used", ...
std::string_view getMetricTitle(PEMetric metric);
/// The name on tessera-viz's command line: "busy", "stall", "memory",
/// "instructions", "dsd-elements", "tasks", "sent", "received".
std::string_view getMetricFlagName(PEMetric metric);
std::optional<PEMetric> parseMetricFlagName(std::string_view name);

/// "north", "south", "east", "west", "ramp".
std::string_view getDirectionName(Direction direction);
std::optional<Direction> parseDirection(std::string_view name);

} // namespace tessera::viz

#endif // TESSERA_VIZ_RUNRECORD_H
