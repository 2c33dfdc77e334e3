//===- FabricToPETest.cpp - the fabric file from fabric IR ----------------===//

#include "tessera/Conversion/FabricToPE/FabricToPE.h"
#include "tessera/InitAllDialects.h"

#include "mlir/IR/BuiltinOps.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/Parser/Parser.h"

#include <catch2/catch.hpp>

using namespace tessera;
using tessera::target::Arch;

namespace {

/// Parses a module with fabric IR and records every diagnostic.
class Fixture {
public:
  explicit Fixture(llvm::StringRef source, bool verify = true)
      : context(makeRegistry()),
        handler(&context, [this](mlir::Diagnostic &diag) {
          diagnostics.push_back(diag.str());
          return mlir::success();
        }) {
    mlir::ParserConfig config(&context, verify);
    module = mlir::parseSourceString<mlir::ModuleOp>(source, config);
  }

  fabric::FabricOp getFabric() {
    REQUIRE(module);
    auto fabrics = module->getOps<fabric::FabricOp>();
    REQUIRE(!fabrics.empty());
    return *fabrics.begin();
  }

  /// Builds the file with `programs` as the binaries, in index order.
  mlir::LogicalResult build(std::vector<std::string> programs,
                            const llvm::StringMap<uint16_t> &programIndex) {
    file.programs = std::move(programs);
    return buildFabricFile(getFabric(), programIndex, file);
  }

  mlir::MLIRContext context;
  std::vector<std::string> diagnostics;
  pe::FabricFile file;

private:
  static mlir::DialectRegistry makeRegistry() {
    mlir::DialectRegistry registry;
    registerAllDialects(registry);
    return registry;
  }

  mlir::ScopedDiagnosticHandler handler;
  mlir::OwningOpRef<mlir::ModuleOp> module;
};

constexpr uint8_t W = pe::portBit(pe::Port::West);
constexpr uint8_t E = pe::portBit(pe::Port::East);
constexpr uint8_t N = pe::portBit(pe::Port::North);
constexpr uint8_t R = pe::portBit(pe::Port::Ramp);

void checkRoundTrip(const pe::FabricFile &file) {
  pe::ReadResult<pe::FabricFile> read = pe::readFabric(pe::writeFabric(file));
  INFO((read.error ? read.error->str() : std::string()));
  REQUIRE(read);
  CHECK(*read.value == file);
}

// Two programs interleaved by column on row 0; row 1 partly placed.
constexpr llvm::StringLiteral interleaved = R"mlir(
csl.program @pe_even arch wse2 file "pe.csl" params {parity = 0 : i64} {
}
csl.program @pe_odd arch wse2 file "pe.csl" params {parity = 1 : i64} {
}
fabric.fabric arch wse2 dims [15, 4] offsets [4, 1] memcpy channels 2 {
  fabric.rectangle size [8, 2]
  fabric.instance @even file "pe.csl" params {parity = 0 : i64} program @pe_even
  fabric.instance @odd file "pe.csl" params {parity = 1 : i64} program @pe_odd
  fabric.place @odd at [6, 1]
  fabric.place @even at [0, 0] size [8, 1] step [2, 1]
  fabric.place @odd at [1, 0] size [7, 1] step [2, 1]
  fabric.place @even at [2, 1] size [3, 1]
  fabric.place @odd at [5, 1]
}
)mlir";

} // namespace

TEST_CASE("the header comes from the fabric op", "[fabric-to-pe]") {
  Fixture fixture(interleaved);
  REQUIRE(succeeded(fixture.build({"pe_even.tpeb", "pe_odd.tpeb"},
                                  {{"pe_even", 0}, {"pe_odd", 1}})));
  const pe::FabricFile &file = fixture.file;
  CHECK(file.arch == Arch::WSE2);
  CHECK(file.dimsWidth == 15);
  CHECK(file.dimsHeight == 4);
  CHECK(file.offsetX == 4);
  CHECK(file.offsetY == 1);
  CHECK(file.rectWidth == 8);
  CHECK(file.rectHeight == 2);
  CHECK(file.memcpy);
  CHECK(file.channels == 2);
  CHECK(file.programs ==
        std::vector<std::string>{"pe_even.tpeb", "pe_odd.tpeb"});
  CHECK(file.routes.empty());
  CHECK(file.values.empty());
  CHECK(fixture.diagnostics.empty());
}

TEST_CASE("placement runs are sorted, disjoint and merged", "[fabric-to-pe]") {
  SECTION("two programs") {
    Fixture fixture(interleaved);
    REQUIRE(succeeded(fixture.build({"pe_even.tpeb", "pe_odd.tpeb"},
                                    {{"pe_even", 0}, {"pe_odd", 1}})));
    // Row 1: PEs 0, 1 and 7 run no program.
    CHECK(fixture.file.placement == std::vector<pe::ProgramRun>{{0, 0, 1, 0},
                                                                {1, 0, 1, 1},
                                                                {2, 0, 1, 0},
                                                                {3, 0, 1, 1},
                                                                {4, 0, 1, 0},
                                                                {5, 0, 1, 1},
                                                                {6, 0, 1, 0},
                                                                {7, 0, 1, 1},
                                                                {2, 1, 3, 0},
                                                                {5, 1, 2, 1}});
    checkRoundTrip(fixture.file);
  }
  SECTION("instances sharing a binary merge") {
    Fixture fixture(interleaved);
    REQUIRE(
        succeeded(fixture.build({"pe.tpeb"}, {{"pe_even", 0}, {"pe_odd", 0}})));
    CHECK(fixture.file.placement ==
          std::vector<pe::ProgramRun>{{0, 0, 8, 0}, {2, 1, 5, 0}});
    checkRoundTrip(fixture.file);
  }
}

TEST_CASE("route runs carry the full router config", "[fabric-to-pe]") {
  Fixture fixture(R"mlir(
fabric.fabric arch wse2 dims [6, 3] offsets [1, 1] {
  fabric.rectangle size [4, 2]
  fabric.color_config color 7 at [0, 1] size [4, 1] rx [north] tx [ramp]
  fabric.color_config color 3 at [2, 0] size [2, 1] rx [west] tx [ramp, east]
  fabric.color_config color 3 at [0, 0] size [2, 1] rx [west] tx [ramp, east]
  fabric.color_config color 3 at [0, 1] rx [ramp] tx [east] pos1 tx north pos2 rx west pos3 tx ramp current_switch_pos 2 ring_mode pop_mode pop_on_advance filter #fabric.counter_filter<init_counter = 1, max_counter = 2, limit1 = 3, count_data = true, fast_mode = true> teardown color_swap_x color_swap_y
  fabric.color_config color 3 at [1, 1] size [3, 1] step [2, 1] rx [west] tx [ramp] filter #fabric.range_filter<2, 9>
  fabric.color_config color 3 at [2, 1] rx [west] tx [ramp] filter #fabric.range_filter<2, 9>
}
)mlir");
  REQUIRE(succeeded(fixture.build({}, {})));

  pe::RouterConfig stream;
  stream.rx = W;
  stream.tx = R | E;

  pe::RouterConfig switched;
  switched.rx = R;
  switched.tx = E;
  switched.positions = {pe::SwitchPosition{false, pe::Port::North},
                        pe::SwitchPosition{true, pe::Port::West},
                        pe::SwitchPosition{false, pe::Port::Ramp}};
  switched.currentPosition = 2;
  switched.ringMode = true;
  switched.popMode = pe::PopMode::PopOnAdvance;
  switched.filter.kind = pe::Filter::Kind::Counter;
  switched.filter.initCounter = 1;
  switched.filter.maxCounter = 2;
  switched.filter.limit1 = 3;
  switched.filter.countData = true;
  switched.filter.fastMode = true;
  switched.teardown = true;
  switched.colorSwapX = true;
  switched.colorSwapY = true;

  pe::RouterConfig filtered;
  filtered.rx = W;
  filtered.tx = R;
  filtered.filter.kind = pe::Filter::Kind::Range;
  filtered.filter.min = 2;
  filtered.filter.max = 9;

  pe::RouterConfig down;
  down.rx = N;
  down.tx = R;

  // Sorted by (color, y, x); equal neighbours merge across ops and steps.
  CHECK(fixture.file.routes == std::vector<pe::RouteRun>{{3, 0, 0, 4, stream},
                                                         {3, 0, 1, 1, switched},
                                                         {3, 1, 1, 3, filtered},
                                                         {7, 0, 1, 4, down}});
  CHECK(fixture.file.placement.empty());
  CHECK(fixture.file.channels == 0);
  CHECK_FALSE(fixture.file.memcpy);
  checkRoundTrip(fixture.file);
}

TEST_CASE("neighbours with different configs stay apart", "[fabric-to-pe]") {
  Fixture fixture(R"mlir(
fabric.fabric arch wse3 dims [4, 1] offsets [0, 0] {
  fabric.rectangle size [4, 1]
  fabric.color_config color 0 at [0, 0] rx [west] tx [east]
  fabric.color_config color 0 at [1, 0] rx [west] tx [east] teardown
  fabric.color_config color 0 at [2, 0] size [2, 1] rx [west] tx [east]
}
)mlir");
  REQUIRE(succeeded(fixture.build({}, {})));
  pe::RouterConfig plain;
  plain.rx = W;
  plain.tx = E;
  pe::RouterConfig tornDown = plain;
  tornDown.teardown = true;
  CHECK(fixture.file.arch == Arch::WSE3);
  CHECK(fixture.file.routes == std::vector<pe::RouteRun>{{0, 0, 0, 1, plain},
                                                         {0, 1, 0, 1, tornDown},
                                                         {0, 2, 0, 2, plain}});
  checkRoundTrip(fixture.file);
}

TEST_CASE("equal configs merge across ops in any order", "[fabric-to-pe]") {
  // The two halves of color 0's row are separated by color 1's op.
  Fixture fixture(R"mlir(
fabric.fabric arch wse3 dims [4, 1] offsets [0, 0] {
  fabric.rectangle size [4, 1]
  fabric.color_config color 0 at [2, 0] size [2, 1] rx [west] tx [east]
  fabric.color_config color 1 at [0, 0] size [4, 1] rx [west] tx [ramp]
  fabric.color_config color 0 at [0, 0] size [2, 1] rx [west] tx [east]
}
)mlir");
  REQUIRE(succeeded(fixture.build({}, {})));
  pe::RouterConfig east;
  east.rx = W;
  east.tx = E;
  pe::RouterConfig down;
  down.rx = W;
  down.tx = R;
  CHECK(fixture.file.routes ==
        std::vector<pe::RouteRun>{{0, 0, 0, 4, east}, {1, 0, 0, 4, down}});
  checkRoundTrip(fixture.file);
}

TEST_CASE("memcpy without channels has cslc's one channel", "[fabric-to-pe]") {
  Fixture fixture(R"mlir(
fabric.fabric arch wse3 dims [11, 3] offsets [4, 1] memcpy {
  fabric.rectangle size [4, 1]
}
)mlir");
  REQUIRE(succeeded(fixture.build({}, {})));
  CHECK(fixture.file.memcpy);
  CHECK(fixture.file.channels == 1);
  checkRoundTrip(fixture.file);
}

TEST_CASE("a large fabric with one op per PE", "[fabric-to-pe]") {
  // Rows alternate between two programs; every PE has its own place and
  // color_config op, so only merging makes one run per row.
  std::string source = R"mlir(
csl.program @a arch wse3 file "a.csl" {
}
csl.program @b arch wse3 file "b.csl" {
}
fabric.fabric arch wse3 dims [200, 120] offsets [0, 0] {
  fabric.rectangle size [200, 120]
  fabric.instance @a file "a.csl" program @a
  fabric.instance @b file "b.csl" program @b
)mlir";
  for (int y = 0; y < 120; ++y)
    for (int x = 0; x < 200; ++x) {
      std::string at = "[" + std::to_string(x) + ", " + std::to_string(y) + "]";
      source += std::string("  fabric.place ") + (y % 2 ? "@b" : "@a") +
                " at " + at + "\n";
      source += "  fabric.color_config color 4 at " + at +
                " rx [west] tx [ramp, east]\n";
    }
  source += "}\n";
  Fixture fixture(source);
  REQUIRE(succeeded(fixture.build({"a.tpeb", "b.tpeb"}, {{"a", 0}, {"b", 1}})));
  REQUIRE(fixture.file.placement.size() == 120);
  REQUIRE(fixture.file.routes.size() == 120);
  for (uint16_t y = 0; y < 120; ++y) {
    CHECK(fixture.file.placement[y] ==
          pe::ProgramRun{0, y, 200, uint16_t(y % 2)});
    CHECK(fixture.file.routes[y].color == 4);
    CHECK(fixture.file.routes[y].x == 0);
    CHECK(fixture.file.routes[y].y == y);
    CHECK(fixture.file.routes[y].length == 200);
  }
  checkRoundTrip(fixture.file);
}

TEST_CASE("programs the caller has no binary for", "[fabric-to-pe]") {
  constexpr llvm::StringLiteral source = R"mlir(
csl.program @pa arch wse3 file "a.csl" {
}
fabric.fabric arch wse3 dims [4, 1] offsets [0, 0] {
  fabric.rectangle size [4, 1]
  fabric.instance @a file "a.csl" program @pa
  fabric.instance @b file "b.csl"
  fabric.instance @unplaced file "c.csl"
  fabric.place @a at [0, 0]
  fabric.place @a at [1, 0]
  fabric.place @b at [2, 0] size [2, 1]
}
)mlir";
  SECTION("missing from the map") {
    Fixture fixture(source);
    CHECK(failed(fixture.build({"x.tpeb"}, {{"other", 0}})));
    // Each instance once, however many placements it has; the unplaced
    // instance needs no binary.
    CHECK(fixture.diagnostics ==
          std::vector<std::string>{
              "program 'pa' of instance 'a' has no program binary",
              "instance 'b' is placed but names no csl.program"});
  }
  SECTION("an index past the programs") {
    Fixture fixture(source);
    CHECK(failed(fixture.build({"x.tpeb"}, {{"pa", 1}})));
    CHECK(fixture.diagnostics ==
          std::vector<std::string>{
              "program 'pa' has binary index 1, but the fabric file lists 1 "
              "program",
              "instance 'b' is placed but names no csl.program"});
    Fixture two(source);
    CHECK(failed(two.build({"x.tpeb", "y.tpeb"}, {{"pa", 5}})));
    CHECK(two.diagnostics.front() == "program 'pa' has binary index 5, but "
                                     "the fabric file lists 2 programs");
  }
}

TEST_CASE("values the file's 16-bit fields cannot hold", "[fabric-to-pe]") {
  SECTION("dims") {
    Fixture fixture(R"mlir(
fabric.fabric arch wse3 dims [70000, 3] offsets [0, 0] {
  fabric.rectangle size [1, 1]
}
)mlir");
    CHECK(failed(fixture.build({}, {})));
    CHECK(fixture.diagnostics ==
          std::vector<std::string>{"dims (70000, 3) do not fit the fabric "
                                   "file's 16 bits (0..65535)"});
  }
  SECTION("offsets") {
    // The verifier would also say the rectangle does not fit.
    Fixture fixture(R"mlir(
fabric.fabric arch wse3 dims [3, 3] offsets [0, 70000] {
  fabric.rectangle size [1, 1]
}
)mlir",
                    /*verify=*/false);
    CHECK(failed(fixture.build({}, {})));
    CHECK(fixture.diagnostics ==
          std::vector<std::string>{"offsets (0, 70000) do not fit the fabric "
                                   "file's 16 bits (0..65535)"});
  }
  SECTION("counter filter") {
    Fixture fixture(R"mlir(
fabric.fabric arch wse3 dims [4, 1] offsets [0, 0] {
  fabric.rectangle size [4, 1]
  fabric.color_config color 1 at [0, 0] rx [west] tx [ramp] filter #fabric.counter_filter<init_counter = 0, max_counter = 70000, limit1 = 3>
  fabric.color_config color 1 at [1, 0] rx [west] tx [ramp] filter #fabric.counter_filter<init_counter = 70001, max_counter = 0, limit1 = 3>
  fabric.color_config color 2 at [1, 0] rx [west] tx [ramp] filter #fabric.counter_filter<init_counter = 0, max_counter = 0, limit1 = 65536>
}
)mlir");
    CHECK(failed(fixture.build({}, {})));
    CHECK(fixture.diagnostics ==
          std::vector<std::string>{
              "counter filter max_counter 70000 does not fit the fabric "
              "file's 16 bits (0..65535)",
              "counter filter init_counter 70001 does not fit the fabric "
              "file's 16 bits (0..65535)",
              "counter filter limit1 65536 does not fit the fabric file's 16 "
              "bits (0..65535)"});
  }
}

TEST_CASE("IR the verifier would reject gives diagnostics", "[fabric-to-pe]") {
  SECTION("no rectangle") {
    Fixture fixture(R"mlir(
fabric.fabric arch wse3 dims [4, 1] offsets [0, 0] {
}
)mlir",
                    /*verify=*/false);
    CHECK(failed(fixture.build({}, {})));
    CHECK(fixture.diagnostics ==
          std::vector<std::string>{"the fabric has no fabric.rectangle"});
  }
  SECTION("ranges outside the rectangle, unknown instances and colors") {
    Fixture fixture(R"mlir(
csl.program @pa arch wse3 file "a.csl" {
}
fabric.fabric arch wse3 dims [8, 2] offsets [0, 0] {
  fabric.rectangle size [4, 1]
  fabric.instance @a file "a.csl" program @pa
  fabric.place @a at [3, 0] size [2, 1]
  fabric.place @a at [-1, 0]
  fabric.place @nosuch at [0, 0]
  fabric.color_config color 1 at [0, 0] size [1, 2] rx [west] tx [ramp]
  fabric.color_config color 30 at [0, 0] rx [west] tx [ramp]
}
)mlir",
                    /*verify=*/false);
    CHECK(failed(fixture.build({"a.tpeb"}, {{"pa", 0}})));
    CHECK(fixture.diagnostics ==
          std::vector<std::string>{
              "the range at (3, 0) does not lie inside the 4x1 rectangle",
              "the range at (-1, 0) does not lie inside the 4x1 rectangle",
              "'nosuch' does not name a fabric.instance",
              "the range at (0, 0) does not lie inside the 4x1 rectangle",
              "color 30 is not routable on wse3"});
  }
  SECTION("a PE placed twice") {
    Fixture fixture(R"mlir(
csl.program @pa arch wse3 file "a.csl" {
}
fabric.fabric arch wse3 dims [8, 1] offsets [0, 0] {
  fabric.rectangle size [8, 1]
  fabric.instance @a file "a.csl" program @pa
  fabric.place @a at [0, 0] size [8, 1] step [3, 1]
  fabric.place @a at [1, 0] size [7, 1] step [2, 1]
}
)mlir",
                    /*verify=*/false);
    CHECK(failed(fixture.build({"a.tpeb"}, {{"pa", 0}})));
    CHECK(fixture.diagnostics ==
          std::vector<std::string>{"PE (3, 0) is placed twice"});
  }
  SECTION("a color configured twice") {
    Fixture fixture(R"mlir(
fabric.fabric arch wse3 dims [4, 4] offsets [0, 0] {
  fabric.rectangle size [4, 4]
  fabric.color_config color 1 at [0, 0] size [4, 1] rx [ramp] tx [east]
  fabric.color_config color 1 at [1, 0] size [1, 4] rx [west] tx [ramp]
}
)mlir",
                    /*verify=*/false);
    CHECK(failed(fixture.build({}, {})));
    CHECK(fixture.diagnostics ==
          std::vector<std::string>{"color 1 of PE (1, 0) is configured twice"});
  }
}

TEST_CASE("placements in code regions land where the region is",
          "[fabric-to-pe]") {
  SECTION("a region with a position") {
    Fixture fixture(R"mlir(
csl.program @pa arch wse3 file "a.csl" {
}
fabric.fabric arch wse3 dims [8, 3] offsets [0, 0] {
  fabric.rectangle size [8, 3]
  fabric.instance @a file "a.csl" program @pa
  fabric.code_region @r size [3, 2] at [4, 1]
  fabric.place @a in @r at [1, 0] size [2, 2]
}
)mlir");
    REQUIRE(succeeded(fixture.build({"a.tpeb"}, {{"pa", 0}})));
    CHECK(fixture.file.placement ==
          std::vector<pe::ProgramRun>{{5, 1, 2, 0}, {5, 2, 2, 0}});
    CHECK(fixture.diagnostics.empty());
  }
  SECTION("a region still without one") {
    Fixture fixture(R"mlir(
csl.program @pa arch wse3 file "a.csl" {
}
fabric.fabric arch wse3 dims [8, 3] offsets [0, 0] {
  fabric.rectangle size [8, 3]
  fabric.instance @a file "a.csl" program @pa
  fabric.code_region @r size [3, 2]
  fabric.place @a in @r at [0, 0] size [3, 2]
}
)mlir");
    CHECK(failed(fixture.build({"a.tpeb"}, {{"pa", 0}})));
    CHECK(fixture.diagnostics ==
          std::vector<std::string>{
              "'a' is placed in a code region without a position: run "
              "tessera-place-regions first"});
  }
}
