//===- ChromeTraceTest.cpp - Chrome trace-event JSON ----------------------===//

#include "TestSupport.h"

#include "tessera/Viz/ChromeTrace.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

using namespace tessera::viz;
using json = nlohmann::json;

namespace {

json trace(const TraceFilter &filter) {
  return json::parse(printChromeTrace(viztest::makeSmallRecord(), filter));
}

/// The events that are not metadata, as "ph name pid tid ts[+dur]".
std::vector<std::string> summarize(const json &document) {
  std::vector<std::string> lines;
  for (const json &event : document["traceEvents"]) {
    if (event["ph"] == "M")
      continue;
    std::string line = event["ph"].get<std::string>() + " " +
                       event["name"].get<std::string>() + " " +
                       std::to_string(event["pid"].get<int>()) + " " +
                       std::to_string(event["tid"].get<int>()) + " " +
                       std::to_string(event["ts"].get<uint64_t>());
    if (event["ph"] == "X")
      line += "+" + std::to_string(event["dur"].get<uint64_t>());
    lines.push_back(line);
  }
  return lines;
}

/// "pid tid name" of the thread_name and process_name events.
std::vector<std::string> names(const json &document) {
  std::vector<std::string> lines;
  for (const json &event : document["traceEvents"])
    if (event["name"] == "process_name" || event["name"] == "thread_name")
      lines.push_back(std::to_string(event["pid"].get<int>()) + " " +
                      std::to_string(event["tid"].get<int>()) + " " +
                      event["args"]["name"].get<std::string>());
  return lines;
}

} // namespace

TEST_CASE("every event of a run, PE by PE and in time order", "[trace]") {
  json document = trace({});
  CHECK(summarize(document) == std::vector<std::string>{
                                   "X main_task 1 11 0+30",
                                   "X mov32 1 1000 2+10",
                                   "i send color 0 1 2000 3",
                                   "i send color 3 2 2000 4",
                                   "X recv 3 12 5+55",
                                   "X fadds 3 1002 8+32",
                                   "i receive color 0 3 2000 9",
                                   "X done 3 13 70+25",
                                   "i sum = 36 <ok> 3 2001 96",
                               });
  CHECK(names(document) == std::vector<std::string>{
                               "1 0 PE (0, 0)",
                               "1 11 task 10 (main_task)",
                               "1 1000 main thread",
                               "1 2000 wavelets",
                               "2 0 PE (1, 0)",
                               "2 2000 wavelets",
                               "3 0 PE (2, 0)",
                               "3 12 task 11 (recv)",
                               "3 13 task 12 (done)",
                               "3 1002 microthread 1",
                               "3 2000 wavelets",
                               "3 2001 prints",
                           });
  CHECK(document["otherData"] == json::parse(R"({"arch": "wse2", "width": 3,
      "height": 2, "cycles": 100, "time unit": "1 us = 1 cycle"})"));
}

TEST_CASE("events carry their details", "[trace]") {
  json events = trace({})["traceEvents"];
  json task = *std::find_if(events.begin(), events.end(),
                            [](const json &e) { return e["name"] == "recv"; });
  CHECK(task == json::parse(R"({"ph": "X", "name": "recv", "cat": "task",
      "pid": 3, "tid": 12, "ts": 5, "dur": 55, "args": {"task id": 11}})"));
  json print = events.back();
  CHECK(print == json::parse(R"({"ph": "i", "s": "t", "name": "sum = 36 <ok>",
      "cat": "print", "pid": 3, "tid": 2001, "ts": 96,
      "args": {"text": "sum = 36 <ok>"}})"));
  json sortIndex = events[1];
  CHECK(sortIndex == json::parse(R"({"ph": "M", "name": "process_sort_index",
      "pid": 1, "tid": 0, "args": {"sort_index": 1}})"));
}

TEST_CASE("a region keeps only its PEs", "[trace]") {
  TraceFilter filter;
  filter.region = PERegion{1, 0, 2, 1};
  CHECK(summarize(trace(filter)) == std::vector<std::string>{
                                        "i send color 3 2 2000 4",
                                        "X recv 3 12 5+55",
                                        "X fadds 3 1002 8+32",
                                        "i receive color 0 3 2000 9",
                                        "X done 3 13 70+25",
                                        "i sum = 36 <ok> 3 2001 96",
                                    });
}

TEST_CASE("colors filter wavelet events only", "[trace]") {
  TraceFilter filter;
  filter.colors = std::bitset<NumColors>().set(3);
  CHECK(summarize(trace(filter)) == std::vector<std::string>{
                                        "X main_task 1 11 0+30",
                                        "X mov32 1 1000 2+10",
                                        "i send color 3 2 2000 4",
                                        "X recv 3 12 5+55",
                                        "X fadds 3 1002 8+32",
                                        "X done 3 13 70+25",
                                        "i sum = 36 <ok> 3 2001 96",
                                    });
}

TEST_CASE("a cycle window cuts spans and drops instants", "[trace]") {
  TraceFilter filter;
  filter.firstCycle = 9;
  filter.endCycle = 75;
  json document = trace(filter);
  CHECK(summarize(document) == std::vector<std::string>{
                                   "X main_task 1 11 9+21",
                                   "X mov32 1 1000 9+3",
                                   "X recv 3 12 9+51",
                                   "X fadds 3 1002 9+31",
                                   "i receive color 0 3 2000 9",
                                   "X done 3 13 70+5",
                               });
  // Only the threads with events are named; PE (1, 0) has none left.
  CHECK(names(document).size() == 8);

  TraceFilter open;
  open.firstCycle = 90;
  CHECK(summarize(trace(open)) ==
        std::vector<std::string>{"X done 3 13 90+5",
                                 "i sum = 36 <ok> 3 2001 96"});
}

TEST_CASE("an empty span is kept only inside the window", "[trace]") {
  RunRecord record = viztest::makeSmallRecord();
  record.tasks = {{0, 0, 4, "", 20, 20}};
  record.dsdOperations.clear();
  record.wavelets.clear();
  record.prints.clear();
  TraceFilter inside;
  inside.firstCycle = 20;
  json kept = json::parse(printChromeTrace(record, inside));
  CHECK(summarize(kept) == std::vector<std::string>{"X task 4 1 5 20+0"});
  TraceFilter after;
  after.firstCycle = 21;
  json dropped = json::parse(printChromeTrace(record, after));
  CHECK(dropped["traceEvents"].empty());
}

TEST_CASE("a trace that cannot be written says why", "[trace]") {
  Status written =
      writeChromeTrace(viztest::makeSmallRecord(), {}, "/nonexistent/t.json");
  REQUIRE(!written);
  CHECK(written.error() ==
        "cannot write '/nonexistent/t.json': No such file or directory");
}
