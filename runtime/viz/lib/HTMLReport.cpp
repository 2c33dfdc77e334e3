//===- HTMLReport.cpp - the report's data, and the page around it ---------===//

#include "tessera/Viz/HTMLReport.h"

#include "ReportPage.h"
#include "tessera/Viz/ColorScale.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>

using namespace tessera::viz;
using json = nlohmann::json;

namespace {

/// Interns strings, so that names repeated by many PEs or spans are stored
/// once.
class StringTable {
public:
  size_t intern(const std::string &text) {
    auto [position, inserted] = indices.try_emplace(text, strings.size());
    if (inserted)
      strings.push_back(text);
    return position->second;
  }
  const json &getStrings() const { return strings; }

private:
  std::map<std::string, size_t> indices;
  json strings = json::array();
};

/// Compact arrays rather than objects keep large reports small; the script
/// in ReportPage.cpp reads them by position.
json buildData(const RunRecord &record, const ReportOptions &options) {
  json data;
  data["arch"] = getArchName(record.arch);
  data["width"] = record.width;
  data["height"] = record.height;
  data["cycles"] = record.cycles;
  data["defaultMetric"] = unsigned(options.metric);
  json metrics = json::array(), metricKeys = json::array();
  for (unsigned m = 0; m < NumPEMetrics; ++m) {
    metrics.push_back(getMetricTitle(PEMetric(m)));
    metricKeys.push_back(getMetricFlagName(PEMetric(m)));
  }
  data["metrics"] = std::move(metrics);
  data["metricKeys"] = std::move(metricKeys);
  json palette = json::array();
  for (unsigned i = 0; i < ColorScaleSize; ++i)
    palette.push_back(formatHexColor(getScaleColor(i)));
  data["palette"] = std::move(palette);

  StringTable programs, taskNames;
  std::map<std::pair<unsigned, unsigned>, size_t> peIndices;
  json pes = json::array();
  for (const PERecord &pe : record.pes) {
    peIndices[{pe.x, pe.y}] = pes.size();
    json row = {pe.x, pe.y, programs.intern(pe.program)};
    for (uint64_t value : pe.metrics)
      row.push_back(value);
    pes.push_back(std::move(row));
  }
  data["pes"] = std::move(pes);
  data["programs"] = programs.getStrings();

  // Spans and prints of PEs without a record have nowhere to be shown.
  json tasks = json::array();
  size_t omittedTasks = 0;
  for (const TaskSpan &task : record.tasks) {
    auto pe = peIndices.find({task.x, task.y});
    if (pe == peIndices.end())
      continue;
    if (tasks.size() == options.maxTasks) {
      ++omittedTasks;
      continue;
    }
    tasks.push_back({pe->second, task.taskId, taskNames.intern(task.taskName),
                     task.start, task.end});
  }
  data["tasks"] = std::move(tasks);
  data["taskNames"] = taskNames.getStrings();
  data["omittedTasks"] = omittedTasks;

  json prints = json::array();
  size_t omittedPrints = 0;
  for (const PrintEvent &print : record.prints) {
    auto pe = peIndices.find({print.x, print.y});
    if (pe == peIndices.end())
      continue;
    if (prints.size() == options.maxPrints) {
      ++omittedPrints;
      continue;
    }
    prints.push_back({pe->second, print.cycle, print.text});
  }
  data["prints"] = std::move(prints);
  data["omittedPrints"] = omittedPrints;
  return data;
}

} // namespace

std::string tessera::viz::printHTMLReport(const RunRecord &record,
                                          const ReportOptions &options) {
  std::string data = buildData(record, options)
                         .dump(-1, ' ', false, json::error_handler_t::replace);
  // '<' only occurs inside JSON strings, where \u003c means the same; this
  // way no printed text can close the script element.
  std::string escaped;
  escaped.reserve(data.size());
  for (char character : data) {
    if (character == '<')
      escaped += "\\u003c";
    else
      escaped += character;
  }
  std::string_view page = getReportPage();
  size_t at = page.find(ReportDataPlaceholder);
  std::string html(page.substr(0, at));
  html += escaped;
  html += page.substr(at + ReportDataPlaceholder.size());
  return html;
}

Status tessera::viz::writeHTMLReport(const RunRecord &record,
                                     const ReportOptions &options,
                                     const std::string &path) {
  std::ofstream stream(path, std::ios::binary);
  if (!stream)
    return Error("cannot write '" + path + "': " + std::strerror(errno));
  stream << printHTMLReport(record, options);
  stream.flush();
  if (!stream)
    return Error("cannot write '" + path + "': " + std::strerror(errno));
  return {};
}
