//===- VizModule.cpp - tessera._viz: run records to pictures from Python --===//
//
// The Python face of TesseraViz (docs/Debugging.md "From Python"): read a
// run record, get a counter per PE as rows of numbers, write heat maps,
// traces and reports. Argument checks with user-facing messages are in
// tessera/viz.py; errors of the library come back as ValueError with its
// message.
//
//===----------------------------------------------------------------------===//

#include "tessera/Viz/ChromeTrace.h"
#include "tessera/Viz/HTMLReport.h"
#include "tessera/Viz/HeatMap.h"
#include "tessera/Viz/PNG.h"
#include "tessera/Viz/RunRecordJSON.h"

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <stdexcept>

namespace py = pybind11;
using namespace tessera::viz;

namespace {

RunRecord read(const std::string &path) {
  Expected<RunRecord> record = readRunRecord(path);
  if (!record)
    throw py::value_error(record.error());
  return std::move(*record);
}

PEMetric metricNamed(const std::string &name) {
  std::optional<PEMetric> metric = parseMetricFlagName(name);
  if (!metric)
    throw py::value_error("no metric named '" + name + "'");
  return *metric;
}

void check(const Status &status) {
  if (!status)
    throw py::value_error(status.error());
}

/// Writes `map` as SVG or PNG, as `path` ends.
void writeMap(const HeatMap &map, const std::string &path, bool svg) {
  if (svg) {
    std::string text = renderSVG(map);
    FILE *file = std::fopen(path.c_str(), "w");
    if (!file ||
        std::fwrite(text.data(), 1, text.size(), file) != text.size()) {
      if (file)
        std::fclose(file);
      throw py::value_error("cannot write '" + path + "'");
    }
    std::fclose(file);
    return;
  }
  check(writePNG(renderImage(map), path));
}

} // namespace

PYBIND11_MODULE(_viz, m) {
  m.doc() = "Tessera's run-record pictures (TesseraViz)";
  m.def(
      "pe_values",
      [](const std::string &path, const std::string &metric) {
        RunRecord record = read(path);
        HeatMap map = buildPEHeatMap(record, metricNamed(metric));
        // Rows of values, None where no PE runs a program.
        std::vector<std::vector<std::optional<uint64_t>>> rows(
            record.height, std::vector<std::optional<uint64_t>>(record.width));
        for (unsigned y = 0; y < record.height; ++y)
          for (unsigned x = 0; x < record.width; ++x)
            rows[y][x] = map.peValues[size_t(y) * record.width + x];
        return rows;
      },
      py::arg("path"), py::arg("metric"));
  m.def(
      "heat_map",
      [](const std::string &path, const std::string &out,
         const std::string &metric, bool links, std::optional<unsigned> color,
         bool svg) {
        RunRecord record = read(path);
        HeatMap map = links ? buildLinkHeatMap(record, color)
                            : buildPEHeatMap(record, metricNamed(metric));
        writeMap(map, out, svg);
      },
      py::arg("path"), py::arg("out"), py::arg("metric"), py::arg("links"),
      py::arg("color"), py::arg("svg"));
  m.def(
      "trace",
      [](const std::string &path, const std::string &out,
         std::optional<std::vector<unsigned>> region,
         std::optional<std::vector<unsigned>> colors, uint64_t firstCycle,
         std::optional<uint64_t> endCycle) {
        RunRecord record = read(path);
        TraceFilter filter;
        if (region)
          filter.region =
              PERegion{(*region)[0], (*region)[1], (*region)[2], (*region)[3]};
        if (colors) {
          filter.colors.emplace();
          for (unsigned c : *colors)
            filter.colors->set(c);
        }
        filter.firstCycle = firstCycle;
        filter.endCycle = endCycle;
        check(writeChromeTrace(record, filter, out));
      },
      py::arg("path"), py::arg("out"), py::arg("region"), py::arg("colors"),
      py::arg("first_cycle"), py::arg("end_cycle"));
  m.def(
      "report",
      [](const std::string &path, const std::string &out,
         const std::string &metric) {
        RunRecord record = read(path);
        ReportOptions options;
        options.metric = metricNamed(metric);
        check(writeHTMLReport(record, options, out));
      },
      py::arg("path"), py::arg("out"), py::arg("metric"));
}
