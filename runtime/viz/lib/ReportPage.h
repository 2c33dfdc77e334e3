//===- ReportPage.h - the HTML, CSS and script of the report ----*- C++ -*-===//
#ifndef TESSERA_VIZ_REPORTPAGE_H
#define TESSERA_VIZ_REPORTPAGE_H

#include <string_view>

namespace tessera::viz {

/// Where the page's data (JSON) goes.
constexpr std::string_view ReportDataPlaceholder = "@RUN_DATA@";

/// The page, with ReportDataPlaceholder once.
std::string_view getReportPage();

} // namespace tessera::viz

#endif // TESSERA_VIZ_REPORTPAGE_H
