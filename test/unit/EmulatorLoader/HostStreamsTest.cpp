//===- HostStreamsTest.cpp - out.json's host_streams ----------------------===//

#include "TestOutput.h"

#include "tessera/Emulator/OutputDirectory.h"

#include <catch2/catch.hpp>

#include <functional>

using namespace tessera;
using namespace tessera::emulator;
using namespace loadertest;
using Json = nlohmann::json;

namespace {

/// The sample (a 4x2 rectangle on wse2) with `streams` as its host_streams.
LoadResult loadWith(const Json &streams) {
  TempDir dir;
  Sample sample = makeSample();
  sample.json["host_streams"] = streams;
  sample.write(dir.path());
  LoadResult result = loadOutputDirectory(dir.path());
  // Strip the temporary path so that the cases below read as messages.
  std::string prefix = dir.path() + "/out.json: ";
  if (!result && result.error.starts_with(prefix))
    result.error = result.error.substr(prefix.size());
  return result;
}

std::string errorWith(const Json &streams) {
  LoadResult result = loadWith(streams);
  CHECK_FALSE(result);
  return result.error;
}

Json stream(const char *name, const char *direction, int x, int y,
            const char *port, int color) {
  return {{"name", name}, {"direction", direction}, {"x", x},
          {"y", y},       {"port", port},           {"color", color}};
}

/// The first entry of a valid list with one field replaced (or removed,
/// for a null).
std::string errorWithField(const char *key, const Json &value) {
  Json entry = stream("x_in", "in", 0, 0, "west", 3);
  if (value.is_null())
    entry.erase(key);
  else
    entry[key] = value;
  return errorWith(Json::array({entry}));
}

} // namespace

TEST_CASE("host_streams are read in order, indexed by stream ID") {
  LoadResult result =
      loadWith(Json::array({stream("x_in", "in", 0, 0, "west", 3),
                            stream("y_out", "out", 3, 1, "east", 4),
                            stream("n", "in", 2, 0, "north", 0),
                            stream("s", "out", 1, 1, "south", 23)}));
  REQUIRE(result);
  CHECK(result.value->metadata.hostStreams ==
        std::vector<HostStream>{{"x_in", false, 0, 0, pe::Port::West, 3},
                                {"y_out", true, 3, 1, pe::Port::East, 4},
                                {"n", false, 2, 0, pe::Port::North, 0},
                                {"s", true, 1, 1, pe::Port::South, 23}});
}

TEST_CASE("out.json without host_streams has none") {
  TempDir dir;
  makeSample().write(dir.path());
  LoadResult result = loadOutputDirectory(dir.path());
  REQUIRE(result);
  CHECK(result.value->metadata.hostStreams.empty());
  CHECK(loadWith(Json::array())); // an empty list is fine too
}

TEST_CASE("a malformed host stream names its entry and field") {
  CHECK(errorWith(Json::object()) == "'host_streams' must be an array");
  CHECK(errorWith(Json::array({stream("a", "in", 0, 0, "west", 3), 7})) ==
        "'host_streams[1]' must be an object");
  CHECK(errorWithField("name", nullptr) ==
        "'host_streams[0].name' must be a string");
  CHECK(errorWithField("name", 5) == "'host_streams[0].name' must be a string");
  CHECK(errorWithField("direction", "both") ==
        "'host_streams[0].direction' must be \"in\" or \"out\"");
  CHECK(errorWithField("direction", nullptr) ==
        "'host_streams[0].direction' must be \"in\" or \"out\"");
  CHECK(errorWithField("x", -1) ==
        "'host_streams[0].x' must be a non-negative integer");
  CHECK(errorWithField("y", "0") ==
        "'host_streams[0].y' must be a non-negative integer");
  CHECK(errorWithField("y", 0.5) ==
        "'host_streams[0].y' must be a non-negative integer");
  CHECK(errorWithField("port", "ramp") ==
        "'host_streams[0].port' must be \"west\", \"east\", \"north\" or "
        "\"south\"");
  CHECK(errorWithField("port", "West") ==
        "'host_streams[0].port' must be \"west\", \"east\", \"north\" or "
        "\"south\"");
  CHECK(errorWithField("color", nullptr) ==
        "'host_streams[0].color' must be a non-negative integer");
}

TEST_CASE("a host stream must sit at the rectangle's edge") {
  CHECK(errorWith(Json::array({stream("a", "in", 0, 0, "west", 3),
                               stream("b", "out", 4, 0, "east", 3)})) ==
        "'host_streams[1].x' 4 is outside the 4x2 rectangle (x from 0 to 3)");
  CHECK(errorWithField("y", 18446744073709551615ull) ==
        "'host_streams[0].y' 9223372036854775807 is outside the 4x2 "
        "rectangle (y from 0 to 1)");
  CHECK(errorWithField("x", 1) ==
        "'host_streams[0].port' \"west\" does not face off the 4x2 "
        "rectangle at PE (1, 0)");
  CHECK(errorWith(Json::array({stream("a", "out", 3, 0, "south", 3)})) ==
        "'host_streams[0].port' \"south\" does not face off the 4x2 "
        "rectangle at PE (3, 0)");
  CHECK(errorWith(Json::array({stream("a", "out", 2, 1, "north", 3)})) ==
        "'host_streams[0].port' \"north\" does not face off the 4x2 "
        "rectangle at PE (2, 1)");
  CHECK(errorWith(Json::array({stream("a", "out", 2, 1, "east", 3)})) ==
        "'host_streams[0].port' \"east\" does not face off the 4x2 "
        "rectangle at PE (2, 1)");
  CHECK(errorWithField("color", 24) ==
        "'host_streams[0].color' 24 is not routable on wse2 (colors 0 to 23)");
}

TEST_CASE("two streams of one direction cannot share a port and color") {
  CHECK(errorWith(Json::array({stream("a", "out", 3, 1, "east", 4),
                               stream("b", "in", 3, 1, "east", 4),
                               stream("c", "out", 3, 1, "east", 4)})) ==
        "'host_streams[2]' uses the same PE, port, color and direction as "
        "'host_streams[0]'");
  // Another color, or the other direction, is another stream.
  CHECK(loadWith(Json::array({stream("a", "out", 3, 1, "east", 4),
                              stream("b", "in", 3, 1, "east", 4),
                              stream("c", "out", 3, 1, "east", 5)})));
}
