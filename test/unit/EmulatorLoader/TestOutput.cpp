//===- TestOutput.cpp - small output directories for loader tests ---------===//

#include "TestOutput.h"

#include <catch2/catch.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace tessera;
using namespace tessera::pe;

namespace loadertest {

TempDir::TempDir() {
  std::string pattern =
      (std::filesystem::temp_directory_path() / "tessera-loader-XXXXXX")
          .string();
  REQUIRE(mkdtemp(pattern.data()) != nullptr);
  dir = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(dir, ignored);
}

void writeFile(const std::string &path, const std::vector<uint8_t> &bytes) {
  std::filesystem::create_directories(
      std::filesystem::path(path).parent_path());
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  REQUIRE(out.good());
}

void writeFile(const std::string &path, const std::string &text) {
  writeFile(path, std::vector<uint8_t>(text.begin(), text.end()));
}

RouterConfig configA() {
  RouterConfig c;
  c.rx = portBit(Port::West);
  c.tx = portBit(Port::Ramp) | portBit(Port::East);
  return c;
}

RouterConfig configB() {
  RouterConfig c;
  c.rx = portBit(Port::Ramp);
  c.tx = portBit(Port::North);
  c.teardown = true;
  c.popMode = PopMode::AlwaysPop;
  return c;
}

RouterConfig configC() {
  RouterConfig c;
  c.rx = portBit(Port::West);
  c.tx = portBit(Port::Ramp);
  c.positions = {SwitchPosition{true, Port::North},
                 SwitchPosition{false, Port::South}, std::nullopt};
  c.currentPosition = 1;
  c.ringMode = true;
  c.colorSwapX = true;
  c.popMode = PopMode::PopOnAdvance;
  c.filter.kind = Filter::Kind::Range;
  c.filter.min = 2;
  c.filter.max = 9;
  return c;
}

namespace {

ProgramBinary leftProgram() {
  ProgramBinary p;
  p.codeAddress = 0x40;
  p.code = {0x1111, 0x2222, 0x3333, 0x4444, 0x5555, 0x6666};
  p.dataAddress = 0x0;
  p.data = {1, 0, 2, 0, 3, 0, 4, 0};
  p.bssAddress = 0x10;
  p.bssSize = 32;
  p.symbols = {{"buf", 0x0, SymbolKind::Data, ElemType::U16, 4, true, {}},
               {"compute",
                0x40,
                SymbolKind::Function,
                ElemType::None,
                0,
                false,
                {ElemType::F32}}};
  p.tasks = {{target::TaskKind::Local, 10, 0x42}};
  p.entryPoints = {1};
  return p;
}

ProgramBinary rightProgram() {
  ProgramBinary p;
  p.codeAddress = 0x80;
  p.code = {0x7777, 0x8888, 0x9999, 0xaaaa};
  p.bssAddress = 0x0;
  p.bssSize = 8;
  p.symbols = {
      {"buf", 0x0, SymbolKind::Data, ElemType::U16, 4, true, {}},
      {"compute",
       0x80,
       SymbolKind::Function,
       ElemType::None,
       0,
       false,
       {ElemType::F32}},
      {"scale", 0x84, SymbolKind::Function, ElemType::None, 0, false, {}}};
  p.entryPoints = {1, 2};
  return p;
}

nlohmann::json programEntry(const std::string &name, uint64_t pes,
                            uint64_t stack) {
  return {{"name", name},
          {"file", "bin/" + name + ".tpeb"},
          {"source", name + ".csl"},
          {"instances", nlohmann::json::array({name})},
          {"pes", pes},
          {"stack_bytes", stack}};
}

} // namespace

void describeSizes(Sample &sample, size_t index) {
  const ProgramBinary &b = sample.binaries[index];
  nlohmann::json &entry = sample.json["programs"][index];
  entry["code_bytes"] = b.code.size() * 2;
  entry["data_bytes"] = b.data.size();
  entry["bss_bytes"] = b.bssSize;
  entry["memory_bytes"] =
      b.getMemoryBytes() + entry["stack_bytes"].get<uint64_t>();
}

Sample makeSample() {
  Sample s;
  FabricFile &f = s.fabric;
  f.arch = target::Arch::WSE2;
  f.dimsWidth = 11;
  f.dimsHeight = 4;
  f.offsetX = 4;
  f.offsetY = 1;
  f.rectWidth = 4;
  f.rectHeight = 2;
  f.memcpy = true;
  f.channels = 1;
  f.programs = {"bin/left.tpeb", "bin/right.tpeb"};
  f.placement = {{0, 0, 1, 0}, {1, 0, 3, 1}, {0, 1, 1, 0}, {1, 1, 2, 1}};
  f.routes = {{3, 0, 0, 4, configA()},
              {3, 0, 1, 2, configA()},
              {3, 2, 1, 1, configB()},
              {10, 1, 1, 1, configC()},
              {10, 3, 1, 1, configA()}};
  f.values = {{1, 0, "buf", 2, {7, 8}},
              {0, 1, "buf", 0, {1, 0, 2, 0, 3, 0, 4, 0}}};
  s.binaries = {leftProgram(), rightProgram()};

  s.json = {{"arch", "wse2"},
            {"channels", 1},
            {"colors", {{"c_in", "3"}, {"c_out", "10"}}},
            {"compiler", "tessera cslc 0.1.0"},
            {"exports", nlohmann::json::array(
                            {{{"name", "buf"},
                              {"kind", "data"},
                              {"type", "u16"},
                              {"mutable", true}},
                             {{"name", "compute"},
                              {"kind", "function"},
                              {"params", nlohmann::json::array({"f32"})}},
                             {{"name", "scale"},
                              {"kind", "function"},
                              {"params", nlohmann::json::array()}}})},
            {"fabric_dims", {11, 4}},
            {"fabric_file", "fabric.tfab"},
            {"fabric_offsets", {4, 1}},
            {"format_version", "1.1"},
            {"memcpy", true},
            {"params", {{"size", "8"}, {"width", "4"}}},
            {"programs", nlohmann::json::array({programEntry("left", 2, 64),
                                                programEntry("right", 5, 32)})},
            {"rectangle", {4, 2}}};
  describeSizes(s, 0);
  describeSizes(s, 1);
  return s;
}

void Sample::write(const std::string &dir) const {
  writeFile(dir + "/out.json", json.dump(2));
  writeFile(dir + "/fabric.tfab", writeFabric(fabric));
  for (size_t i = 0; i < binaries.size(); ++i)
    writeFile(dir + "/" + fabric.programs[i], writeProgram(binaries[i]));
}

} // namespace loadertest
