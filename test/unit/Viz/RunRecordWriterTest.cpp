//===- RunRecordWriterTest.cpp - run records as JSON text -----------------===//

#include "TestSupport.h"

#include "tessera/Viz/RunRecordJSON.h"

#include <catch2/catch.hpp>

using namespace tessera::viz;

TEST_CASE("a record prints one element per line", "[runrecord]") {
  RunRecord record;
  record.arch = Arch::WSE3;
  record.width = 2;
  record.height = 1;
  record.cycles = 50;
  PERecord pe;
  pe.x = 1;
  pe.program = "pe.csl";
  pe.set(PEMetric::BusyCycles, 7);
  pe.set(PEMetric::MemoryBytesUsed, 96);
  record.pes.push_back(pe);
  record.links.push_back({1, 0, Direction::West, 5, 3});
  record.dsdOperations.push_back({1, 0, 2u, "fmacs", 4, 9});
  CHECK(printRunRecord(record) ==
        R"({
  "version": 1,
  "arch": "wse3",
  "width": 2,
  "height": 1,
  "cycles": 50,
  "pes": [
    {"x":1,"y":0,"program":"pe.csl","counters":{"instructions":0,"dsdElements":0,"tasksRun":0,"busyCycles":7,"stallCycles":0,"waveletsSent":0,"waveletsReceived":0},"memoryBytesUsed":96}
  ],
  "links": [
    {"x":1,"y":0,"direction":"west","color":5,"wavelets":3}
  ],
  "tasks": [],
  "dsdOperations": [
    {"x":1,"y":0,"thread":2,"operation":"fmacs","start":4,"end":9}
  ],
  "wavelets": [],
  "prints": []
}
)");
}

TEST_CASE("printing what was read gives the same text", "[runrecord]") {
  std::string text = printRunRecord(viztest::makeSmallRecord());
  Expected<RunRecord> record = parseRunRecord(text, "run.json");
  REQUIRE(record);
  CHECK(printRunRecord(*record) == text);
}

TEST_CASE("invalid UTF-8 in printed text is replaced, not thrown",
          "[runrecord]") {
  RunRecord record = viztest::makeSmallRecord();
  record.prints[0].text = "bad \xff byte";
  std::string text = printRunRecord(record);
  Expected<RunRecord> back = parseRunRecord(text, "run.json");
  REQUIRE(back);
  CHECK(back->prints[0].text == "bad \xEF\xBF\xBD byte");
}

TEST_CASE("a record that cannot be written says why", "[runrecord]") {
  Status written =
      writeRunRecord(viztest::makeSmallRecord(), "/nonexistent/run.json");
  REQUIRE(!written);
  CHECK(written.error() ==
        "cannot write '/nonexistent/run.json': No such file or directory");
}
