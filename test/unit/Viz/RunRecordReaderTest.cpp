//===- RunRecordReaderTest.cpp - reading and checking run records ---------===//

#include "TestSupport.h"

#include "tessera/Viz/RunRecordJSON.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <fstream>
#include <functional>

using namespace tessera::viz;
using json = nlohmann::json;

namespace {

json smallRecordJSON() {
  return json::parse(printRunRecord(viztest::makeSmallRecord()));
}

/// The error of reading the small record after `change`.
std::string errorAfter(const std::function<void(json &)> &change) {
  json document = smallRecordJSON();
  change(document);
  Expected<RunRecord> record = parseRunRecord(document.dump(), "run.json");
  REQUIRE(!record);
  return record.error();
}

} // namespace

TEST_CASE("a written record reads back field by field", "[runrecord]") {
  Expected<RunRecord> record =
      parseRunRecord(printRunRecord(viztest::makeSmallRecord()), "run.json");
  REQUIRE(record);
  CHECK(record->arch == Arch::WSE2);
  CHECK(record->width == 3);
  CHECK(record->height == 2);
  CHECK(record->cycles == 100);
  REQUIRE(record->pes.size() == 4);
  CHECK(record->pes[2].x == 2);
  CHECK(record->pes[2].program == "recv.csl");
  CHECK(record->pes[2].get(PEMetric::BusyCycles) == 90);
  CHECK(record->pes[2].get(PEMetric::StallCycles) == 40);
  CHECK(record->pes[2].get(PEMetric::Instructions) == 900);
  CHECK(record->pes[2].get(PEMetric::WaveletsReceived) == 8);
  CHECK(record->pes[2].get(PEMetric::MemoryBytesUsed) == 4096);
  REQUIRE(record->links.size() == 6);
  CHECK(record->links[2].direction == Direction::South);
  CHECK(record->links[2].color == 3);
  CHECK(record->links[2].wavelets == 2);
  REQUIRE(record->tasks.size() == 3);
  CHECK(record->tasks[1].taskId == 11);
  CHECK(record->tasks[1].taskName == "recv");
  CHECK(record->tasks[1].start == 5);
  CHECK(record->tasks[1].end == 60);
  REQUIRE(record->dsdOperations.size() == 2);
  CHECK(!record->dsdOperations[0].microthread);
  CHECK(record->dsdOperations[1].microthread == 1u);
  CHECK(record->dsdOperations[1].operation == "fadds");
  REQUIRE(record->wavelets.size() == 3);
  CHECK(record->wavelets[2].kind == WaveletEventKind::Receive);
  CHECK(record->wavelets[2].cycle == 9);
  REQUIRE(record->prints.size() == 1);
  CHECK(record->prints[0].text == "sum = 36 <ok>");
}

TEST_CASE("optional parts of a record default to empty", "[runrecord]") {
  Expected<RunRecord> record = parseRunRecord(
      R"({"version": 1, "arch": "wse3", "width": 2, "height": 1,
          "cycles": 0, "pes": [{"x": 1, "y": 0}]})",
      "run.json");
  REQUIRE(record);
  CHECK(record->arch == Arch::WSE3);
  REQUIRE(record->pes.size() == 1);
  CHECK(record->pes[0].program.empty());
  CHECK(record->pes[0].get(PEMetric::BusyCycles) == 0);
  CHECK(record->links.empty());
  CHECK(record->tasks.empty());
  CHECK(record->prints.empty());
}

TEST_CASE("invalid JSON names the line and column", "[runrecord]") {
  Expected<RunRecord> record =
      parseRunRecord("{\n  \"version\": 1,\n  width: 3\n}", "bad.json");
  REQUIRE(!record);
  CHECK(record.error() ==
        "bad.json:3:3: invalid JSON: syntax error while parsing object key - "
        "invalid literal; last read: '1,<U+000A>  w'; expected string literal");
  Expected<RunRecord> empty = parseRunRecord("", "empty.json");
  REQUIRE(!empty);
  CHECK(empty.error() == "empty.json:1:1: invalid JSON: syntax error while "
                         "parsing value - unexpected end of input; expected "
                         "'[', '{', or a literal");
}

TEST_CASE("the top level is checked", "[runrecord]") {
  Expected<RunRecord> array = parseRunRecord("[1, 2]", "run.json");
  REQUIRE(!array);
  CHECK(array.error() == "run.json: /: expected an object, found an array");
  CHECK(errorAfter([](json &d) { d.erase("version"); }) ==
        "run.json: /: missing key 'version'");
  CHECK(errorAfter([](json &d) { d["colour"] = 1; }) ==
        "run.json: /: unknown key 'colour'");
  CHECK(errorAfter([](json &d) { d["version"] = 2; }) ==
        "run.json: /version: version 2 is not supported (expected 1)");
  CHECK(errorAfter([](json &d) { d["version"] = "1"; }) ==
        "run.json: /version: expected a non-negative integer, found a string");
  CHECK(errorAfter([](json &d) { d["arch"] = "wse4"; }) ==
        "run.json: /arch: unknown arch 'wse4' (expected wse2 or wse3)");
  CHECK(errorAfter([](json &d) { d["arch"] = true; }) ==
        "run.json: /arch: expected a string, found true");
  CHECK(errorAfter([](json &d) { d["width"] = 0; }) ==
        "run.json: /width: the fabric must be at least 1 PE wide");
  CHECK(errorAfter([](json &d) { d["height"] = 0; }) ==
        "run.json: /height: the fabric must be at least 1 PE high");
  CHECK(errorAfter([](json &d) { d["width"] = 20000; }) ==
        "run.json: /width: 20000 is more than the largest allowed, 10,000");
  CHECK(errorAfter([](json &d) { d["cycles"] = -1; }) ==
        "run.json: /cycles: expected a non-negative integer, found -1");
  CHECK(errorAfter([](json &d) { d["pes"] = json::object(); }) ==
        "run.json: /pes: expected an array, found an object");
  CHECK(errorAfter([](json &d) { d["prints"] = nullptr; }) ==
        "run.json: /prints: expected an array, found null");
}

TEST_CASE("PE records are checked", "[runrecord]") {
  CHECK(errorAfter([](json &d) { d["pes"][0] = 3; }) ==
        "run.json: /pes/0: expected an object, found 3");
  CHECK(errorAfter([](json &d) { d["pes"][1].erase("y"); }) ==
        "run.json: /pes/1: missing key 'y'");
  CHECK(errorAfter([](json &d) { d["pes"][1]["x"] = 3; }) ==
        "run.json: /pes/1/x: 3 is outside the fabric (width 3)");
  CHECK(errorAfter([](json &d) { d["pes"][1]["y"] = 2; }) ==
        "run.json: /pes/1/y: 2 is outside the fabric (height 2)");
  CHECK(errorAfter([](json &d) {
          d["pes"][3]["x"] = 0, d["pes"][3]["y"] = 0;
        }) == "run.json: /pes/3: PE (0, 0) already has a record (/pes/0)");
  CHECK(errorAfter([](json &d) { d["pes"][0]["program"] = 5; }) ==
        "run.json: /pes/0/program: expected a string, found 5");
  CHECK(errorAfter([](json &d) {
          d["pes"][0]["counters"]["busyCycles"] = 1.5;
        }) == "run.json: /pes/0/counters/busyCycles: expected a non-negative "
              "integer, found 1.5");
  CHECK(errorAfter([](json &d) { d["pes"][0]["counters"]["busy"] = 1; }) ==
        "run.json: /pes/0/counters: unknown key 'busy'");
  CHECK(errorAfter([](json &d) { d["pes"][0]["counters"] = json::array(); }) ==
        "run.json: /pes/0/counters: expected an object, found an array");
  CHECK(errorAfter([](json &d) { d["pes"][2]["memoryBytesUsed"] = -4; }) ==
        "run.json: /pes/2/memoryBytesUsed: expected a non-negative integer, "
        "found -4");
}

TEST_CASE("link records are checked", "[runrecord]") {
  CHECK(errorAfter([](json &d) { d["links"][0]["direction"] = "up"; }) ==
        "run.json: /links/0/direction: unknown direction 'up' (expected "
        "north, south, east, west or ramp)");
  CHECK(errorAfter([](json &d) { d["links"][0]["color"] = 24; }) ==
        "run.json: /links/0/color: color 24 is outside 0..23");
  CHECK(errorAfter([](json &d) { d["links"][4] = d["links"][2]; }) ==
        "run.json: /links/4: the south link of PE (1, 0) on color 3 already "
        "has a record (/links/2)");
  CHECK(errorAfter([](json &d) { d["links"][0].erase("wavelets"); }) ==
        "run.json: /links/0: missing key 'wavelets'");
  CHECK(errorAfter([](json &d) { d["links"][0]["x"] = 7; }) ==
        "run.json: /links/0/x: 7 is outside the fabric (width 3)");
}

TEST_CASE("events are checked", "[runrecord]") {
  CHECK(errorAfter([](json &d) { d["tasks"][1]["end"] = 4; }) ==
        "run.json: /tasks/1/end: end 4 is before start 5");
  CHECK(errorAfter([](json &d) { d["tasks"][1]["end"] = 130; }) ==
        "run.json: /tasks/1/end: cycle 130 is after the end of the run "
        "(cycles 100)");
  CHECK(errorAfter([](json &d) { d["tasks"][0]["id"] = "ten"; }) ==
        "run.json: /tasks/0/id: expected a non-negative integer, found a "
        "string");
  CHECK(errorAfter([](json &d) { d["dsdOperations"][0]["thread"] = "side"; }) ==
        "run.json: /dsdOperations/0/thread: expected \"main\" or a "
        "microthread index (0..255), found \"side\"");
  CHECK(errorAfter([](json &d) { d["dsdOperations"][1]["thread"] = -1; }) ==
        "run.json: /dsdOperations/1/thread: expected \"main\" or a "
        "microthread index (0..255), found -1");
  CHECK(errorAfter([](json &d) { d["wavelets"][0]["event"] = "sent"; }) ==
        "run.json: /wavelets/0/event: unknown event 'sent' (expected send or "
        "receive)");
  CHECK(errorAfter([](json &d) { d["wavelets"][2]["cycle"] = 101; }) ==
        "run.json: /wavelets/2/cycle: cycle 101 is after the end of the run "
        "(cycles 100)");
  CHECK(errorAfter([](json &d) { d["prints"][0]["text"] = nullptr; }) ==
        "run.json: /prints/0/text: expected a string, found null");
  CHECK(errorAfter([](json &d) { d["prints"][0]["pe"] = 1; }) ==
        "run.json: /prints/0: unknown key 'pe'");
}

TEST_CASE("records are read from files and directories", "[runrecord]") {
  viztest::TempDir directory;
  CHECK(readRunRecord(directory.file("missing.json")).error() ==
        "cannot open '" + directory.file("missing.json") +
            "': No such file or directory");
  CHECK(readRunRecord(directory.path()).error() ==
        "directory '" + directory.path() + "' has no run.json");
  REQUIRE(
      writeRunRecord(viztest::makeSmallRecord(), directory.file("run.json")));
  Expected<RunRecord> fromDirectory = readRunRecord(directory.path());
  REQUIRE(fromDirectory);
  CHECK(fromDirectory->pes.size() == 4);
  {
    std::ofstream bad(directory.file("bad.json"));
    bad << "{\"version\": 1}";
  }
  CHECK(readRunRecord(directory.file("bad.json")).error() ==
        directory.file("bad.json") + ": /: missing key 'arch'");
}
