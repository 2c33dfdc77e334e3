//===- HTMLReport.h - a run as one self-contained web page ------*- C++ -*-===//
//
// One HTML file with its styles, script and data inline, opened from disk
// without a server: the fabric as a grid coloured by a chosen counter; a
// click on a PE (or #pe=X,Y in the address) shows its counters, its tasks
// over time and what it printed.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_VIZ_HTMLREPORT_H
#define TESSERA_VIZ_HTMLREPORT_H

#include "tessera/Viz/Expected.h"
#include "tessera/Viz/RunRecord.h"

#include <cstddef>
#include <string>

namespace tessera::viz {

struct ReportOptions {
  /// The grid's colouring when the page opens.
  PEMetric metric = PEMetric::BusyCycles;
  /// Task spans and printed lines beyond these counts are left out (the page
  /// says how many), so that reports of large runs stay loadable.
  size_t maxTasks = 200'000;
  size_t maxPrints = 20'000;
};

std::string printHTMLReport(const RunRecord &record,
                            const ReportOptions &options);

Status writeHTMLReport(const RunRecord &record, const ReportOptions &options,
                       const std::string &path);

} // namespace tessera::viz

#endif // TESSERA_VIZ_HTMLREPORT_H
