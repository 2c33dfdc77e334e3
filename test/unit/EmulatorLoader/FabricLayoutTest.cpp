//===- FabricLayoutTest.cpp - runs expanded into per-PE grids -------------===//

#include "TestOutput.h"

#include "tessera/Emulator/FabricLayout.h"

#include <catch2/catch.hpp>

using namespace tessera;
using namespace tessera::emulator;
using namespace loadertest;

namespace {

std::vector<PECoord> pesOf(const FabricLayout &layout, size_t program) {
  auto span = layout.getPEsOf(program);
  return {span.begin(), span.end()};
}

std::vector<pe::RouterConfig> configsOf(const FabricLayout &layout,
                                        unsigned color) {
  auto span = layout.getConfigsOf(color);
  return {span.begin(), span.end()};
}

pe::FabricFile emptyFabric(uint16_t width, uint16_t height) {
  pe::FabricFile f;
  f.dimsWidth = width;
  f.dimsHeight = height;
  f.rectWidth = width;
  f.rectHeight = height;
  return f;
}

/// A config told apart from others by its range filter.
pe::RouterConfig rangeConfig(uint16_t min, uint16_t max) {
  pe::RouterConfig c = configA();
  c.filter.kind = pe::Filter::Kind::Range;
  c.filter.min = min;
  c.filter.max = max;
  return c;
}

} // namespace

TEST_CASE("an empty layout answers none everywhere") {
  FabricLayout layout;
  CHECK(layout.getWidth() == 0);
  CHECK(layout.getHeight() == 0);
  CHECK(layout.getNumPrograms() == 0);
  CHECK(layout.programAt(0, 0) == std::nullopt);
  CHECK(layout.routerAt(0, 0, 0) == nullptr);
  CHECK(layout.colorsAt(0, 0).empty());
  CHECK(layout.getPEsOf(0).empty());
  CHECK(layout.getRoutedColors().empty());
  CHECK(layout.getConfigsOf(0).empty());
  CHECK(layout.getMemoryBytes() == 0);
}

TEST_CASE("queries outside the rectangle or the colors answer none") {
  FabricLayout layout(makeSample().fabric);
  CHECK(layout.programAt(4, 0) == std::nullopt);
  CHECK(layout.programAt(0, 2) == std::nullopt);
  CHECK(layout.programAt(70000, 70000) == std::nullopt);
  CHECK(layout.routerAt(4, 0, 3) == nullptr);
  CHECK(layout.routerAt(0, 2, 3) == nullptr);
  CHECK(layout.routerAt(0, 0, 256) == nullptr);
  CHECK(layout.routerAt(0, 0, 1u << 31) == nullptr);
  CHECK(layout.colorsAt(4, 1).empty());
  CHECK(layout.getPEsOf(2).empty());
  CHECK(layout.getConfigsOf(4).empty());
  CHECK(layout.getConfigsOf(300).empty());
}

TEST_CASE("the sample's layout costs the documented bytes") {
  FabricLayout layout(makeSample().fabric);
  // 8 PEs: programs 2 each, 7 placed PEs 4 each, 3 list offsets, two routed
  // colors of one byte per PE and two configs each.
  CHECK(layout.getMemoryBytes() == 8 * 2 + 7 * 4 + 3 * sizeof(size_t) + 2 * 8 +
                                       4 * sizeof(pe::RouterConfig));
}

TEST_CASE("runs the reader would refuse are skipped, not trusted") {
  pe::FabricFile f = emptyFabric(4, 2);
  f.programs = {"a.tpeb"};
  f.placement = {{2, 0, 3, 0},  // leaves the rectangle
                 {0, 1, 0, 0},  // empty
                 {0, 2, 1, 0},  // below the rectangle
                 {0, 0, 1, 1},  // no program 1
                 {3, 1, 1, 0}}; // the one good run
  f.routes = {{4, 3, 1, 2, configA()},
              {4, 65535, 0, 2, configA()},
              {4, 0, 0, 0, configA()},
              {5, 0, 1, 1, configB()}};
  FabricLayout layout(f);
  CHECK(pesOf(layout, 0) == std::vector<PECoord>{{3, 1}});
  CHECK(layout.getRoutedColors() == std::vector<uint8_t>{5});
  CHECK(layout.colorsAt(0, 1) == std::vector<uint8_t>{5});
  CHECK(layout.colorsAt(3, 1).empty());
}

TEST_CASE("runs in any order give PE lists sorted by (y, x)") {
  pe::FabricFile f = emptyFabric(5, 3);
  f.programs = {"a.tpeb", "b.tpeb"};
  f.placement = {{3, 2, 2, 1}, {0, 2, 3, 0}, {1, 0, 4, 1}, {0, 1, 2, 0}};
  f.routes = {{9, 0, 2, 5, configB()}, {1, 4, 0, 1, configA()}};
  FabricLayout layout(f);
  CHECK(pesOf(layout, 0) ==
        std::vector<PECoord>{{0, 1}, {1, 1}, {0, 2}, {1, 2}, {2, 2}});
  CHECK(pesOf(layout, 1) ==
        std::vector<PECoord>{{1, 0}, {2, 0}, {3, 0}, {4, 0}, {3, 2}, {4, 2}});
  CHECK(layout.programAt(0, 0) == std::nullopt);
  CHECK(layout.programAt(2, 1) == std::nullopt);
  CHECK(layout.getRoutedColors() == std::vector<uint8_t>{1, 9});
  CHECK(layout.colorsAt(4, 2) == std::vector<uint8_t>{9});
  CHECK(*layout.routerAt(4, 0, 1) == configA());
}

TEST_CASE("a color with many configs gets wider cells") {
  // 300x300 PEs: color 5 has 300 configs (two-byte cells), color 7 one per
  // PE, 90,000 (four-byte cells).
  pe::FabricFile f = emptyFabric(300, 300);
  for (uint16_t x = 0; x < 300; ++x)
    f.routes.push_back({5, x, 0, 1, rangeConfig(x, 0)});
  for (uint32_t i = 0; i < 90000; ++i)
    f.routes.push_back({7, uint16_t(i % 300), uint16_t(i / 300), 1,
                        rangeConfig(uint16_t(i), uint16_t(i >> 16))});
  FabricLayout layout(f);
  CHECK(layout.getConfigsOf(5).size() == 300);
  CHECK(layout.getConfigsOf(7).size() == 90000);
  bool all = true;
  for (uint16_t x = 0; x < 300; ++x)
    all = all && *layout.routerAt(x, 0, 5) == rangeConfig(x, 0) &&
          layout.routerAt(x, 1, 5) == nullptr;
  for (uint32_t i = 0; i < 90000; ++i)
    all = all && *layout.routerAt(i % 300, i / 300, 7) ==
                     rangeConfig(uint16_t(i), uint16_t(i >> 16));
  CHECK(all);
  CHECK(layout.colorsAt(299, 0) == std::vector<uint8_t>{5, 7});
  CHECK(layout.colorsAt(299, 1) == std::vector<uint8_t>{7});
  CHECK(layout.getMemoryBytes() == 90000 * 2 + sizeof(size_t) +
                                       90000 * (2 + 4) +
                                       90300 * sizeof(pe::RouterConfig));
}

TEST_CASE("a 750x994 fabric with a route run per PE per color") {
  // Three programs in column bands; colors 2 and 17 on every PE, each with
  // its own run, alternating between two configs.
  constexpr uint16_t W = 750, H = 994;
  constexpr size_t N = size_t(W) * H;
  pe::FabricFile f = emptyFabric(W, H);
  f.dimsWidth = 757;
  f.dimsHeight = 996;
  f.offsetX = 4;
  f.offsetY = 1;
  f.programs = {"a.tpeb", "b.tpeb", "c.tpeb"};
  for (uint16_t y = 0; y < H; ++y)
    for (uint16_t p = 0; p < 3; ++p)
      f.placement.push_back({uint16_t(250 * p), y, 250, p});
  f.routes.reserve(2 * N);
  for (uint8_t color : {2, 17})
    for (uint16_t y = 0; y < H; ++y)
      for (uint16_t x = 0; x < W; ++x) {
        bool even = (x + y) % 2 == 0;
        pe::RouterConfig config = color == 2 ? (even ? configA() : configB())
                                             : (x % 2 ? configA() : configC());
        f.routes.push_back({color, x, y, 1, config});
      }
  REQUIRE(f.routes.size() == 1491000);

  FabricLayout layout(f);
  CHECK(layout.getWidth() == W);
  CHECK(layout.getHeight() == H);
  CHECK(layout.getRoutedColors() == std::vector<uint8_t>{2, 17});
  CHECK(configsOf(layout, 2) ==
        std::vector<pe::RouterConfig>{configA(), configB()});
  CHECK(configsOf(layout, 17) ==
        std::vector<pe::RouterConfig>{configC(), configA()});

  struct Spot {
    unsigned x, y;
    uint16_t program;
    pe::RouterConfig color2, color17;
  } spots[] = {
      {0, 0, 0, configA(), configC()},     {1, 0, 0, configB(), configA()},
      {249, 0, 0, configB(), configA()},   {250, 0, 1, configA(), configC()},
      {499, 993, 1, configA(), configA()}, {500, 993, 2, configB(), configC()},
      {749, 993, 2, configA(), configA()}, {375, 500, 1, configB(), configA()},
      {748, 1, 2, configB(), configC()}};
  for (const Spot &s : spots) {
    INFO("PE (" << s.x << "," << s.y << ")");
    CHECK(layout.programAt(s.x, s.y) == s.program);
    REQUIRE(layout.routerAt(s.x, s.y, 2));
    CHECK(*layout.routerAt(s.x, s.y, 2) == s.color2);
    CHECK(*layout.routerAt(s.x, s.y, 17) == s.color17);
    CHECK(layout.routerAt(s.x, s.y, 3) == nullptr);
    CHECK(layout.colorsAt(s.x, s.y) == std::vector<uint8_t>{2, 17});
  }
  CHECK(layout.programAt(750, 0) == std::nullopt);
  CHECK(layout.programAt(0, 994) == std::nullopt);

  for (uint16_t p = 0; p < 3; ++p) {
    auto pes = layout.getPEsOf(p);
    REQUIRE(pes.size() == 250 * H);
    CHECK(pes.front() == PECoord{uint16_t(250 * p), 0});
    CHECK(pes[250] == PECoord{uint16_t(250 * p), 1});
    CHECK(pes.back() == PECoord{uint16_t(250 * p + 249), H - 1});
  }
  // 2 bytes per PE for programs, 4 per placed PE, one byte per PE per color.
  CHECK(layout.getMemoryBytes() == N * 2 + N * 4 + 4 * sizeof(size_t) + 2 * N +
                                       4 * sizeof(pe::RouterConfig));
}
