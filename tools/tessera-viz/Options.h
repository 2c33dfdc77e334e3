//===- Options.h - tessera-viz's command line -------------------*- C++ -*-===//
#ifndef TESSERA_TOOLS_TESSERAVIZ_OPTIONS_H
#define TESSERA_TOOLS_TESSERAVIZ_OPTIONS_H

#include "tessera/Viz/ChromeTrace.h"
#include "tessera/Viz/Expected.h"
#include "tessera/Viz/RunRecord.h"

#include <optional>
#include <string>
#include <vector>

namespace tessera::viz {

/// One heat map: of a PE metric, or else of the links (one color or all).
struct HeatMapRequest {
  std::optional<PEMetric> metric;
  std::optional<unsigned> color;
};

struct Options {
  bool showHelp = false;
  std::string input;
  std::optional<std::string> outputPrefix;
  std::vector<HeatMapRequest> heatMaps;
  bool svg = false;
  std::optional<std::string> tracePath;
  TraceFilter filter;
  /// --region as given, for the message when it leaves the fabric.
  std::string regionFlag;
  std::optional<std::string> htmlPath;
};

/// What --help prints.
extern const char *const UsageText;

/// The options, or the message of the first thing wrong with them.
Expected<Options> parseOptions(int argc, char **argv);

} // namespace tessera::viz

#endif // TESSERA_TOOLS_TESSERAVIZ_OPTIONS_H
