//===- tessera-viz.cpp - pictures, traces and reports of a run ------------===//
//
// usage: tessera-viz RUN_RECORD [-o PREFIX] [--metric=NAME]... [--links[=C]]
//          [--format=png|svg] [--trace=FILE [--region=..] [--colors=..]
//          [--cycles=A:B]] [--html=FILE]
//
// Reads a run record (docs/RunRecord.md), or DIR/run.json, and writes heat
// maps, a Chrome trace and an HTML report of it. docs/Debugging.md.
//
//===----------------------------------------------------------------------===//

#include "Options.h"

#include "tessera/Viz/ChromeTrace.h"
#include "tessera/Viz/HTMLReport.h"
#include "tessera/Viz/HeatMap.h"
#include "tessera/Viz/PNG.h"
#include "tessera/Viz/RunRecordJSON.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>

using namespace tessera::viz;

namespace {

int fail(const std::string &message) {
  std::cerr << "tessera-viz: error: " << message << "\n";
  return 1;
}

/// PREFIX for heat maps: given, or derived from the input's path.
std::string getOutputPrefix(const Options &options) {
  if (options.outputPrefix)
    return *options.outputPrefix;
  std::error_code ignored;
  std::filesystem::path input(options.input);
  if (std::filesystem::is_directory(input, ignored))
    return (input / "run").string();
  if (input.extension() == ".json")
    input.replace_extension();
  return input.string();
}

Status writeText(const std::string &text, const std::string &path) {
  std::ofstream stream(path, std::ios::binary);
  stream << text;
  stream.flush();
  if (!stream)
    return Error("cannot write '" + path + "': " + std::strerror(errno));
  return {};
}

Status writeHeatMap(const RunRecord &record, const HeatMapRequest &request,
                    const Options &options, const std::string &prefix) {
  HeatMap map = request.metric ? buildPEHeatMap(record, *request.metric)
                               : buildLinkHeatMap(record, request.color);
  std::string name = request.metric
                         ? std::string(getMetricFlagName(*request.metric))
                     : request.color ? "links-" + std::to_string(*request.color)
                                     : "links";
  std::string path = prefix + "-" + name + (options.svg ? ".svg" : ".png");
  Status written = options.svg ? writeText(renderSVG(map), path)
                               : writePNG(renderImage(map), path);
  if (written)
    std::cout << "wrote " << path << "\n";
  return written;
}

/// The region's corners must lie on the fabric, known once it is read.
Status checkRegion(const Options &options, const RunRecord &record) {
  if (!options.filter.region)
    return {};
  const PERegion &region = *options.filter.region;
  if (region.x1 < record.width && region.y1 < record.height)
    return {};
  std::string width = std::to_string(record.width);
  std::string height = std::to_string(record.height);
  return Error(options.regionFlag + ": the fabric is " + width + "x" + height +
               " PEs (X < " + width + ", Y < " + height + ")");
}

} // namespace

int main(int argc, char **argv) {
  Expected<Options> options = parseOptions(argc, argv);
  if (!options)
    return fail(options.error());
  if (options->showHelp) {
    std::cout << UsageText;
    return 0;
  }
  Expected<RunRecord> record = readRunRecord(options->input);
  if (!record)
    return fail(record.error());
  if (Status inside = checkRegion(*options, *record); !inside)
    return fail(inside.error());

  std::string prefix = getOutputPrefix(*options);
  for (const HeatMapRequest &request : options->heatMaps)
    if (Status written = writeHeatMap(*record, request, *options, prefix);
        !written)
      return fail(written.error());
  if (options->tracePath) {
    if (Status written =
            writeChromeTrace(*record, options->filter, *options->tracePath);
        !written)
      return fail(written.error());
    std::cout << "wrote " << *options->tracePath << "\n";
  }
  if (options->htmlPath) {
    ReportOptions report;
    // The report opens coloured like the first counter map asked for.
    for (const HeatMapRequest &request : options->heatMaps)
      if (request.metric) {
        report.metric = *request.metric;
        break;
      }
    if (Status written = writeHTMLReport(*record, report, *options->htmlPath);
        !written)
      return fail(written.error());
    std::cout << "wrote " << *options->htmlPath << "\n";
  }
  return 0;
}
