//===- HTMLReportTest.cpp - the report's page and data --------------------===//
//
// What the page shows in a browser is tested in test/Viz/html-report.test
// with headless Chromium; these tests check the file itself.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "tessera/Viz/ColorScale.h"
#include "tessera/Viz/HTMLReport.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace tessera::viz;
using json = nlohmann::json;

namespace {

/// The JSON between the data script's tags.
json embeddedData(const std::string &html) {
  std::string open = "<script type=\"application/json\" id=\"run-data\">";
  size_t start = html.find(open);
  REQUIRE(start != std::string::npos);
  start += open.size();
  size_t end = html.find("</script>", start);
  REQUIRE(end != std::string::npos);
  return json::parse(html.substr(start, end - start));
}

} // namespace

TEST_CASE("the report embeds the run as compact arrays", "[report]") {
  ReportOptions options;
  options.metric = PEMetric::StallCycles;
  json data =
      embeddedData(printHTMLReport(viztest::makeSmallRecord(), options));
  CHECK(data["arch"] == "wse2");
  CHECK(data["width"] == 3);
  CHECK(data["height"] == 2);
  CHECK(data["cycles"] == 100);
  CHECK(data["defaultMetric"] == 4);
  CHECK(data["metrics"][3] == "busy cycles");
  CHECK(data["metricKeys"][3] == "busy");
  REQUIRE(data["palette"].size() == 256);
  CHECK(data["palette"][0] == formatHexColor(getScaleColor(0)));
  CHECK(data["palette"][255] == formatHexColor(getScaleColor(255)));
  CHECK(data["programs"] == json::parse(R"(["send.csl", "relay.csl",
      "recv.csl"])"));
  CHECK(data["pes"][2] ==
        json::parse("[2, 0, 2, 900, 8, 1, 90, 40, 0, 8, 4096]"));
  CHECK(data["pes"][3] ==
        json::parse("[1, 1, 1, 450, 8, 1, 45, 0, 0, 0, 1024]"));
  CHECK(data["tasks"] == json::parse(R"([[0, 10, 0, 0, 30],
      [2, 11, 1, 5, 60], [2, 12, 2, 70, 95]])"));
  CHECK(data["taskNames"] == json::parse(R"(["main_task", "recv", "done"])"));
  CHECK(data["prints"] == json::parse(R"([[2, 96, "sum = 36 <ok>"]])"));
  CHECK(data["omittedTasks"] == 0);
  CHECK(data["omittedPrints"] == 0);
}

TEST_CASE("printed text cannot close the data script", "[report]") {
  RunRecord record = viztest::makeSmallRecord();
  record.prints[0].text = "</script><b>";
  std::string html = printHTMLReport(record, {});
  CHECK(html.find("</script><b>") == std::string::npos);
  CHECK(embeddedData(html)["prints"][0][2] == "</script><b>");
}

TEST_CASE("large runs leave spans out and say how many", "[report]") {
  ReportOptions options;
  options.maxTasks = 2;
  options.maxPrints = 0;
  json data =
      embeddedData(printHTMLReport(viztest::makeSmallRecord(), options));
  CHECK(data["tasks"].size() == 2);
  CHECK(data["omittedTasks"] == 1);
  CHECK(data["prints"].empty());
  CHECK(data["omittedPrints"] == 1);
}

TEST_CASE("the report needs nothing from the network", "[report]") {
  std::string html = printHTMLReport(viztest::makeSmallRecord(), {});
  CHECK(html.rfind("<!DOCTYPE html>", 0) == 0);
  CHECK(html.find("http://") == std::string::npos);
  CHECK(html.find("https://") == std::string::npos);
  CHECK(html.find(" src=") == std::string::npos);
  CHECK(html.find("<link") == std::string::npos);
}

TEST_CASE("a report that cannot be written says why", "[report]") {
  Status written =
      writeHTMLReport(viztest::makeSmallRecord(), {}, "/nonexistent/r.html");
  REQUIRE(!written);
  CHECK(written.error() ==
        "cannot write '/nonexistent/r.html': No such file or directory");
}
