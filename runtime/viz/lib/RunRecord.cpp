//===- RunRecord.cpp - names of the run record's enumerations -------------===//

#include "tessera/Viz/RunRecord.h"

using namespace tessera::viz;

namespace {

struct MetricNames {
  std::string_view key, title, flag;
};

// Indexed by PEMetric.
constexpr MetricNames MetricTable[NumPEMetrics] = {
    {"instructions", "instructions", "instructions"},
    {"dsdElements", "DSD elements", "dsd-elements"},
    {"tasksRun", "tasks run", "tasks"},
    {"busyCycles", "busy cycles", "busy"},
    {"stallCycles", "stall cycles", "stall"},
    {"waveletsSent", "wavelets sent", "sent"},
    {"waveletsReceived", "wavelets received", "received"},
    {"memoryBytesUsed", "memory bytes used", "memory"},
};

constexpr std::string_view DirectionNames[NumDirections] = {
    "north", "south", "east", "west", "ramp"};

} // namespace

std::string_view tessera::viz::getArchName(Arch arch) {
  return arch == Arch::WSE2 ? "wse2" : "wse3";
}

std::optional<Arch> tessera::viz::parseArch(std::string_view name) {
  if (name == "wse2")
    return Arch::WSE2;
  if (name == "wse3")
    return Arch::WSE3;
  return std::nullopt;
}

std::string_view tessera::viz::getMetricKey(PEMetric metric) {
  return MetricTable[unsigned(metric)].key;
}

std::string_view tessera::viz::getMetricTitle(PEMetric metric) {
  return MetricTable[unsigned(metric)].title;
}

std::string_view tessera::viz::getMetricFlagName(PEMetric metric) {
  return MetricTable[unsigned(metric)].flag;
}

std::optional<PEMetric>
tessera::viz::parseMetricFlagName(std::string_view name) {
  for (unsigned i = 0; i < NumPEMetrics; ++i)
    if (MetricTable[i].flag == name)
      return PEMetric(i);
  return std::nullopt;
}

std::string_view tessera::viz::getDirectionName(Direction direction) {
  return DirectionNames[unsigned(direction)];
}

std::optional<Direction> tessera::viz::parseDirection(std::string_view name) {
  for (unsigned i = 0; i < NumDirections; ++i)
    if (DirectionNames[i] == name)
      return Direction(i);
  return std::nullopt;
}
