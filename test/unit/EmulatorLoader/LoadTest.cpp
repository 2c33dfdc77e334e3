//===- LoadTest.cpp - a consistent output directory loads exactly ---------===//

#include "TestOutput.h"

#include "tessera/Emulator/OutputDirectory.h"

#include <catch2/catch.hpp>

#include <filesystem>

using namespace tessera;
using namespace tessera::emulator;
using namespace loadertest;

namespace {

OutputMetadata expectedMetadata() {
  OutputMetadata m;
  m.compiler = "tessera cslc 0.1.0";
  m.formatVersion = "1.1";
  m.arch = target::Arch::WSE2;
  m.dimsWidth = 11;
  m.dimsHeight = 4;
  m.offsetX = 4;
  m.offsetY = 1;
  m.rectWidth = 4;
  m.rectHeight = 2;
  m.memcpy = true;
  m.channels = 1;
  m.params = {{"size", "8"}, {"width", "4"}};
  m.colors = {{"c_in", "3"}, {"c_out", "10"}};
  m.exports = {
      {"buf", pe::SymbolKind::Data, pe::ElemType::U16, true, {}},
      {"compute",
       pe::SymbolKind::Function,
       pe::ElemType::None,
       false,
       {pe::ElemType::F32}},
      {"scale", pe::SymbolKind::Function, pe::ElemType::None, false, {}}};
  m.fabricFile = "fabric.tfab";
  return m;
}

std::vector<PECoord> pesOf(const FabricLayout &layout, size_t program) {
  auto span = layout.getPEsOf(program);
  return {span.begin(), span.end()};
}

} // namespace

TEST_CASE("a hand-built output directory loads with exactly its contents") {
  TempDir dir;
  Sample sample = makeSample();
  sample.write(dir.path());

  LoadResult result = loadOutputDirectory(dir.path());
  REQUIRE(result.error == "");
  REQUIRE(result);
  const LoadedOutput &out = *result.value;
  CHECK(out.directory == dir.path());
  CHECK(out.metadata == expectedMetadata());

  REQUIRE(out.programs.size() == 2);
  const LoadedProgram &left = out.programs[0];
  CHECK(left.file == "bin/left.tpeb");
  CHECK(left.name == "left");
  CHECK(left.source == "left.csl");
  CHECK(left.instances == std::vector<std::string>{"left"});
  CHECK(left.stackBytes == 64);
  CHECK(left.binary == sample.binaries[0]);
  const LoadedProgram &right = out.programs[1];
  CHECK(right.file == "bin/right.tpeb");
  CHECK(right.name == "right");
  CHECK(right.stackBytes == 32);
  CHECK(right.binary == sample.binaries[1]);
  CHECK(out.values == sample.fabric.values);

  const FabricLayout &layout = out.layout;
  CHECK(layout.getWidth() == 4);
  CHECK(layout.getHeight() == 2);
  CHECK(layout.getNumPrograms() == 2);
  const std::optional<uint16_t> none;
  std::optional<uint16_t> expected[2][4] = {{0, 1, 1, 1}, {0, 1, 1, none}};
  for (unsigned y = 0; y < 2; ++y)
    for (unsigned x = 0; x < 4; ++x) {
      INFO("PE (" << x << "," << y << ")");
      CHECK(layout.programAt(x, y) == expected[y][x]);
    }
  CHECK(pesOf(layout, 0) == std::vector<PECoord>{{0, 0}, {0, 1}});
  CHECK(pesOf(layout, 1) ==
        std::vector<PECoord>{{1, 0}, {2, 0}, {3, 0}, {1, 1}, {2, 1}});
  CHECK(out.programAt(0, 1) == &out.programs[0]);
  CHECK(out.programAt(3, 0) == &out.programs[1]);
  CHECK(out.programAt(3, 1) == nullptr);

  CHECK(layout.getRoutedColors() == std::vector<uint8_t>{3, 10});
  auto configs3 = layout.getConfigsOf(3);
  CHECK(std::vector<pe::RouterConfig>(configs3.begin(), configs3.end()) ==
        std::vector<pe::RouterConfig>{configA(), configB()});
  auto configs10 = layout.getConfigsOf(10);
  CHECK(std::vector<pe::RouterConfig>(configs10.begin(), configs10.end()) ==
        std::vector<pe::RouterConfig>{configC(), configA()});
  for (unsigned x = 0; x < 4; ++x)
    CHECK(*layout.routerAt(x, 0, 3) == configA());
  CHECK(*layout.routerAt(0, 1, 3) == configA());
  CHECK(*layout.routerAt(1, 1, 3) == configA());
  CHECK(*layout.routerAt(2, 1, 3) == configB());
  CHECK(layout.routerAt(3, 1, 3) == nullptr);
  CHECK(*layout.routerAt(1, 1, 10) == configC());
  CHECK(*layout.routerAt(3, 1, 10) == configA());
  CHECK(layout.routerAt(0, 0, 10) == nullptr);
  CHECK(layout.routerAt(0, 0, 4) == nullptr);
  CHECK(layout.colorsAt(0, 0) == std::vector<uint8_t>{3});
  CHECK(layout.colorsAt(1, 1) == std::vector<uint8_t>{3, 10});
  CHECK(layout.colorsAt(3, 1) == std::vector<uint8_t>{10});

  const pe::Symbol *buf = out.findSymbolAt(1, 0, "buf");
  REQUIRE(buf);
  CHECK(buf == &right.binary.symbols[0]);
  CHECK(out.findSymbolAt(0, 0, "scale") == nullptr);
  CHECK(out.findSymbolAt(3, 1, "buf") == nullptr);
}

TEST_CASE("out.json may list the programs in another order than the fabric") {
  TempDir dir;
  Sample sample = makeSample();
  std::swap(sample.json["programs"][0], sample.json["programs"][1]);
  sample.write(dir.path());
  LoadResult result = loadOutputDirectory(dir.path());
  REQUIRE(result.error == "");
  CHECK(result.value->programs[0].name == "left");
  CHECK(result.value->programs[1].name == "right");
}

TEST_CASE("out.json can be given by its own path") {
  TempDir dir;
  Sample sample = makeSample();
  sample.write(dir.path());
  std::string json = dir.path() + "/elsewhere.json";
  writeFile(json, sample.json.dump());
  writeFile(dir.path() + "/out.json", std::string("not read"));
  LoadResult result = loadOutputDirectory(dir.path(), json);
  REQUIRE(result.error == "");
  CHECK(result.value->metadata == expectedMetadata());
}

TEST_CASE("the fabric file and binaries are found through out.json's "
          "fabric_file") {
  TempDir dir;
  Sample sample = makeSample();
  sample.json["fabric_file"] = "sub/the.tfab";
  sample.write(dir.path());
  // Program files are relative to the fabric file.
  std::filesystem::create_directory(dir.path() + "/sub");
  std::filesystem::rename(dir.path() + "/fabric.tfab",
                          dir.path() + "/sub/the.tfab");
  std::filesystem::rename(dir.path() + "/bin", dir.path() + "/sub/bin");
  LoadResult result = loadOutputDirectory(dir.path() + "/");
  REQUIRE(result.error == "");
  CHECK(result.value->metadata.fabricFile == "sub/the.tfab");
  CHECK(result.value->programs[1].binary == sample.binaries[1]);
}

TEST_CASE("keys out.json has beyond the known ones are ignored") {
  TempDir dir;
  Sample sample = makeSample();
  sample.json["future_key"] = {1, 2, 3};
  sample.json["programs"][0]["future_key"] = "x";
  sample.json["format_version"] = "1.7";
  sample.write(dir.path());
  LoadResult result = loadOutputDirectory(dir.path());
  REQUIRE(result.error == "");
  CHECK(result.value->metadata.formatVersion == "1.7");
}

TEST_CASE("an output directory without programs loads") {
  TempDir dir;
  Sample sample = makeSample();
  sample.fabric.programs.clear();
  sample.fabric.placement.clear();
  sample.fabric.values.clear();
  sample.binaries.clear();
  sample.json["programs"] = nlohmann::json::array();
  sample.json["exports"] = nlohmann::json::array();
  sample.write(dir.path());
  LoadResult result = loadOutputDirectory(dir.path());
  REQUIRE(result.error == "");
  CHECK(result.value->programs.empty());
  CHECK(result.value->layout.programAt(0, 0) == std::nullopt);
  CHECK(result.value->layout.getRoutedColors() == std::vector<uint8_t>{3, 10});
}
