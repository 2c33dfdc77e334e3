//===- OutputJsonErrorTest.cpp - malformed out.json -----------------------===//

#include "TestOutput.h"

#include "tessera/Emulator/OutputDirectory.h"

#include <catch2/catch.hpp>

#include <functional>

using namespace tessera::emulator;
using namespace loadertest;
using Json = nlohmann::json;

namespace {

std::string loadText(const std::string &text) {
  TempDir dir;
  makeSample().write(dir.path());
  writeFile(dir.path() + "/out.json", text);
  LoadResult result = loadOutputDirectory(dir.path());
  CHECK_FALSE(result);
  // Strip the temporary path so that the cases below read as messages.
  std::string prefix = dir.path() + "/out.json: ";
  REQUIRE(result.error.starts_with(prefix));
  return result.error.substr(prefix.size());
}

std::string loadEdited(const std::function<void(Json &)> &edit) {
  Json json = makeSample().json;
  edit(json);
  return loadText(json.dump(2));
}

const std::string TypeNames = "a type name (i8, u8, i16, u16, i32, u32, i64, "
                              "u64, f16, bf16, f32, bool)";

} // namespace

TEST_CASE("out.json that is not JSON is an error with its position") {
  CHECK(loadText("{\n  \"arch\": \"wse2\",\n  \"channels\": }\n") ==
        "invalid JSON at line 3, column 15: syntax error while parsing value "
        "- unexpected '}'; expected '[', '{', or a literal");
  CHECK(loadText("") == "invalid JSON at line 1, column 1: syntax error while "
                        "parsing value - unexpected end of input; expected "
                        "'[', '{', or a literal");
  CHECK(loadText("{} x") ==
        "invalid JSON at line 1, column 4: syntax error while parsing value - "
        "invalid literal; last read: '{} x'; expected end of input");
  // nlohmann gives no position for this one.
  CHECK(loadText("{\"channels\": 1e999}") ==
        "invalid JSON: number overflow parsing '1e999'");
  CHECK(loadText("[1, 2]") == "the top level must be an object");
}

TEST_CASE("every truncation of a valid out.json is an error, not a crash") {
  TempDir dir;
  Sample sample = makeSample();
  sample.write(dir.path());
  std::string text = sample.json.dump(2);
  std::string prefix = dir.path() + "/out.json: invalid JSON at line ";
  size_t refused = 0;
  for (size_t size = 0; size < text.size(); ++size) {
    writeFile(dir.path() + "/out.json", text.substr(0, size));
    refused += loadOutputDirectory(dir.path()).error.starts_with(prefix);
  }
  CHECK(refused == text.size());
}

TEST_CASE("a format_version of another major version is refused first") {
  CHECK(loadEdited([](Json &j) {
          j["format_version"] = "2.0";
          j.erase("arch");
        }) == "'format_version' \"2.0\" is not supported (this loader reads "
              "1.x)");
  CHECK(loadEdited([](Json &j) { j["format_version"] = "1"; }) ==
        "'format_version' \"1\" is not supported (this loader reads 1.x)");
  CHECK(loadEdited([](Json &j) { j["format_version"] = "1.x"; }) ==
        "'format_version' \"1.x\" is not supported (this loader reads 1.x)");
  CHECK(loadEdited([](Json &j) { j["format_version"] = "01.1"; }) ==
        "'format_version' \"01.1\" is not supported (this loader reads 1.x)");
  CHECK(loadEdited([](Json &j) { j["format_version"] = 1.1; }) ==
        "'format_version' must be a string");
}

TEST_CASE("every top-level key is required with its type") {
  struct Case {
    const char *key;
    Json bad;
    std::string message;
  } cases[] = {
      {"arch", "wse4", "'arch' must be \"wse2\" or \"wse3\""},
      {"arch", 2, "'arch' must be \"wse2\" or \"wse3\""},
      {"channels", "1", "'channels' must be an integer"},
      {"channels", 1.5, "'channels' must be an integer"},
      {"channels", 18446744073709551615ull, "'channels' must be an integer"},
      {"colors", Json::array(), "'colors' must be an object of strings"},
      {"colors", {{"c", 3}}, "'colors' must be an object of strings"},
      {"compiler", 5, "'compiler' must be a string"},
      {"exports", Json::object(), "'exports' must be an array"},
      {"fabric_dims", Json::array({11}),
       "'fabric_dims' must be an array of two integers"},
      {"fabric_dims", Json::array({11, 4.5}),
       "'fabric_dims' must be an array of two integers"},
      {"fabric_dims", Json::array({11, 4, 1}),
       "'fabric_dims' must be an array of two integers"},
      {"fabric_file", Json::array({"fabric.tfab"}),
       "'fabric_file' must be a string"},
      {"fabric_offsets", "4,1",
       "'fabric_offsets' must be an array of two integers"},
      {"format_version", nullptr, "'format_version' must be a string"},
      {"memcpy", 1, "'memcpy' must be a boolean"},
      {"params", {{"M", 4}}, "'params' must be an object of strings"},
      {"programs", Json::object(), "'programs' must be an array"},
      {"rectangle", nullptr, "'rectangle' must be an array of two integers"},
  };
  for (const Case &c : cases) {
    INFO(c.key << " = " << c.bad.dump());
    CHECK(loadEdited([&](Json &j) { j[c.key] = c.bad; }) == c.message);
    CHECK(loadEdited([&](Json &j) { j.erase(c.key); }) == c.message);
  }
}

TEST_CASE("every export field is required with its type") {
  struct Case {
    size_t index;
    const char *key;
    Json bad;
    std::string message;
  } cases[] = {
      {0, "name", 1, "'exports[0].name' must be a string"},
      {0, "kind", "var", "'exports[0].kind' must be \"data\" or \"function\""},
      {1, "kind", nullptr, "'exports[1].kind' must be a string"},
      {0, "type", "f64", "'exports[0].type' must be " + TypeNames},
      {0, "type", "none", "'exports[0].type' must be " + TypeNames},
      {0, "mutable", "yes", "'exports[0].mutable' must be a boolean"},
      {1, "params", "f32",
       "'exports[1].params' must be an array of type names"},
      {1, "params", Json::array({"f32", "double"}),
       "'exports[1].params' must be an array of type names"},
  };
  for (const Case &c : cases) {
    INFO(c.key << " = " << c.bad.dump());
    CHECK(loadEdited([&](Json &j) { j["exports"][c.index][c.key] = c.bad; }) ==
          c.message);
  }
  CHECK(loadEdited([](Json &j) { j["exports"][0].erase("type"); }) ==
        "'exports[0].type' must be " + TypeNames);
  CHECK(loadEdited([](Json &j) { j["exports"][2] = "scale"; }) ==
        "'exports[2]' must be an object");
}

TEST_CASE("every program field is required with its type") {
  struct Case {
    const char *key;
    Json bad;
    std::string message;
  } cases[] = {
      {"name", 1, "'programs[1].name' must be a string"},
      {"file", nullptr, "'programs[1].file' must be a string"},
      {"source", Json::array(), "'programs[1].source' must be a string"},
      {"instances", "right",
       "'programs[1].instances' must be an array of strings"},
      {"instances", Json::array({"right", 2}),
       "'programs[1].instances' must be an array of strings"},
      {"pes", -1, "'programs[1].pes' must be a non-negative integer"},
      {"code_bytes", 1.5,
       "'programs[1].code_bytes' must be a non-negative integer"},
      {"data_bytes", "0",
       "'programs[1].data_bytes' must be a non-negative integer"},
      {"bss_bytes", false,
       "'programs[1].bss_bytes' must be a non-negative integer"},
      {"stack_bytes", nullptr,
       "'programs[1].stack_bytes' must be a non-negative integer"},
      {"memory_bytes", Json::array(),
       "'programs[1].memory_bytes' must be a non-negative integer"},
  };
  for (const Case &c : cases) {
    INFO(c.key << " = " << c.bad.dump());
    CHECK(loadEdited([&](Json &j) { j["programs"][1][c.key] = c.bad; }) ==
          c.message);
    CHECK(loadEdited([&](Json &j) { j["programs"][1].erase(c.key); }) ==
          c.message);
  }
  CHECK(loadEdited([](Json &j) { j["programs"][0] = 7; }) ==
        "'programs[0]' must be an object");
}
