//===- BandTest.cpp - banded networks in lockstep equal one network -------===//
//
// docs/Scaling.md: the rectangle split into bands of rows, each with its
// own Network, exchanging boundary views and outboxes every cycle, must
// move every wavelet as one Network of the whole rectangle does: the same
// deliveries in the same cycles, the same back-pressure, switches, swaps,
// teardowns, errors and counters (wavelet IDs aside: each band numbers its
// own). Random fabrics and traffic drive both side by side.
//
//===----------------------------------------------------------------------===//

#include "TestFabric.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <tuple>

using namespace routertest;

namespace {

/// One network of the whole rectangle and one per band, stepped together.
struct Lockstep {
  Lockstep(const Fabric &fabric, const std::vector<unsigned> &firstRows,
           NetworkOptions options = {})
      : layout(fabric.file),
        model(target::TargetModel::get(fabric.file.arch)),
        whole(layout, model, options) {
    for (size_t i = 0; i < firstRows.size(); ++i) {
      unsigned end = i + 1 < firstRows.size() ? firstRows[i + 1] : ~0u;
      bands.emplace_back(layout, model, options,
                         NetworkBand{firstRows[i], end});
    }
  }

  Network &bandOf(unsigned y) {
    for (Network &band : bands)
      if (y >= band.getBand().firstRow && y < band.getBand().endRow)
        return band;
    FAIL("no band holds row " << y);
    return bands.front();
  }

  /// A cycle of both: views, steps, outboxes.
  void step() {
    for (size_t i = 0; i < bands.size(); ++i) {
      if (i > 0)
        REQUIRE(bands[i].setNeighbourView(
            BandSide::North, bands[i - 1].getBoundaryView(BandSide::South)));
      if (i + 1 < bands.size())
        REQUIRE(bands[i].setNeighbourView(
            BandSide::South, bands[i + 1].getBoundaryView(BandSide::North)));
    }
    whole.step();
    for (Network &band : bands)
      band.step();
    for (size_t i = 0; i < bands.size(); ++i) {
      for (const BoundaryWavelet &w :
           bands[i].takeBoundaryOutbox(BandSide::North))
        REQUIRE(bands[i - 1].acceptFromBoundary(BandSide::South, w));
      for (const BoundaryWavelet &w :
           bands[i].takeBoundaryOutbox(BandSide::South))
        REQUIRE(bands[i + 1].acceptFromBoundary(BandSide::North, w));
    }
  }

  FabricLayout layout;
  const target::TargetModel &model;
  Network whole;
  std::vector<Network> bands;
};

using WaveletKey = std::tuple<uint32_t, uint8_t, bool>;
WaveletKey key(const Wavelet &w) { return {w.payload, w.color, w.control}; }

using BufferedKey =
    std::tuple<uint16_t, uint16_t, uint8_t, bool, int, unsigned, WaveletKey>;
std::vector<BufferedKey> buffered(const std::vector<BufferedWavelet> &list) {
  std::vector<BufferedKey> keys;
  for (const BufferedWavelet &b : list)
    keys.emplace_back(b.pe.x, b.pe.y, b.color, b.toCE, int(b.port), b.index,
                      key(b.wavelet));
  return keys;
}

using ErrorKey = std::tuple<uint64_t, uint16_t, uint16_t, uint8_t, int, int>;
std::vector<ErrorKey> errorKeys(const std::vector<RouteError> &errors) {
  std::vector<ErrorKey> keys;
  for (const RouteError &e : errors)
    keys.emplace_back(e.cycle, e.pe.x, e.pe.y, e.color, int(e.kind),
                      e.port ? int(*e.port) : -1);
  std::sort(keys.begin(), keys.end());
  return keys;
}

/// Everything observable of the whole network equals the bands' together.
void compare(Lockstep &l) {
  const NetworkCounters &w = l.whole.getCounters();
  NetworkCounters sum;
  size_t moves = 0, inFlight = 0, awaiting = 0;
  bool idle = true;
  std::vector<DeliveryNote> notes;
  std::vector<BufferedWavelet> list;
  std::vector<RouteError> errors;
  std::vector<TeardownEvent> teardowns;
  for (Network &band : l.bands) {
    const NetworkCounters &c = band.getCounters();
    CHECK(c.cycles == w.cycles);
    sum.injected += c.injected;
    sum.hops += c.hops;
    sum.delivered += c.delivered;
    sum.withheld += c.withheld;
    sum.polled += c.polled;
    sum.waitCycles += c.waitCycles;
    sum.rxConflicts += c.rxConflicts;
    sum.switchCommands += c.switchCommands;
    sum.teardowns += c.teardowns;
    moves += band.getLastStepMoves();
    inFlight += band.getWaveletsInFlight();
    awaiting += band.getWaveletsAwaitingCE();
    idle = idle && band.isIdle();
    auto bandNotes = band.getLastStepDeliveries();
    notes.insert(notes.end(), bandNotes.begin(), bandNotes.end());
    auto bandList = band.listBuffered();
    list.insert(list.end(), bandList.begin(), bandList.end());
    auto bandErrors = band.getErrors();
    errors.insert(errors.end(), bandErrors.begin(), bandErrors.end());
    auto bandTeardowns = band.takeTeardownEvents();
    teardowns.insert(teardowns.end(), bandTeardowns.begin(),
                     bandTeardowns.end());
  }
  CHECK(sum.injected == w.injected);
  CHECK(sum.hops == w.hops);
  CHECK(sum.delivered == w.delivered);
  CHECK(sum.withheld == w.withheld);
  CHECK(sum.polled == w.polled);
  CHECK(sum.waitCycles == w.waitCycles);
  CHECK(sum.rxConflicts == w.rxConflicts);
  CHECK(sum.switchCommands == w.switchCommands);
  CHECK(sum.teardowns == w.teardowns);
  CHECK(moves == l.whole.getLastStepMoves());
  CHECK(inFlight == l.whole.getWaveletsInFlight());
  CHECK(awaiting == l.whole.getWaveletsAwaitingCE());
  CHECK(idle == l.whole.isIdle());

  auto byPE = [](const auto &a, const auto &b) {
    return std::tie(a.pe.y, a.pe.x, a.color) <
           std::tie(b.pe.y, b.pe.x, b.color);
  };
  std::vector<DeliveryNote> wholeNotes = l.whole.getLastStepDeliveries();
  std::sort(notes.begin(), notes.end(), byPE);
  std::sort(wholeNotes.begin(), wholeNotes.end(), byPE);
  CHECK(notes == wholeNotes);
  std::vector<TeardownEvent> wholeTeardowns = l.whole.takeTeardownEvents();
  std::sort(teardowns.begin(), teardowns.end(), byPE);
  std::sort(wholeTeardowns.begin(), wholeTeardowns.end(), byPE);
  CHECK(teardowns == wholeTeardowns);
  CHECK(buffered(list) == buffered(l.whole.listBuffered()));
  CHECK(errorKeys(errors) == errorKeys(l.whole.getErrors()));
}

/// A random router config: any ports, sometimes switch positions, pop
/// modes, ring mode, WSE-2's color swap y, a range filter, teardown.
pe::RouterConfig randomConfig(std::mt19937 &rng) {
  auto roll = [&](unsigned n) { return unsigned(rng() % n); };
  pe::RouterConfig config =
      routes(uint8_t(1 + roll(31)), uint8_t(1 + roll(31)));
  if (roll(3) == 0)
    for (unsigned i = 0, n = 1 + roll(3); i < n; ++i)
      config.positions[i] =
          pe::SwitchPosition{roll(2) == 0, static_cast<pe::Port>(roll(5))};
  config.ringMode = config.positions[0] && roll(2);
  config.popMode = static_cast<pe::PopMode>(roll(3));
  config.colorSwapY = roll(5) == 0;
  if (roll(8) == 0) {
    config.filter.kind = pe::Filter::Kind::Range;
    config.filter.min = uint16_t(roll(4));
    config.filter.max = uint16_t(config.filter.min + roll(4));
  }
  config.teardown = roll(20) == 0;
  return config;
}

/// Drives both with the same random traffic for `cycles` cycles.
void fuzz(uint32_t seed, target::Arch arch, unsigned width, unsigned height,
          const std::vector<unsigned> &firstRows, unsigned cycles) {
  std::mt19937 rng(seed);
  auto roll = [&](unsigned n) { return unsigned(rng() % n); };
  constexpr unsigned Colors = 4;
  Fabric fabric(uint16_t(width), uint16_t(height), arch);
  for (unsigned y = 0; y < height; ++y)
    for (unsigned x = 0; x < width; ++x)
      for (unsigned color = 0; color < Colors; ++color)
        if (roll(5) != 0)
          fabric.route(uint16_t(x), uint16_t(y), uint8_t(color),
                       randomConfig(rng));
  NetworkOptions options;
  options.linkBufferDepth = 1 + roll(3);
  options.deliveryQueueDepth = 1 + roll(3);
  Lockstep l(fabric, firstRows, options);

  for (unsigned cycle = 0; cycle < cycles; ++cycle) {
    INFO("seed " << seed << " cycle " << cycle);
    for (unsigned y = 0; y < height; ++y)
      for (unsigned x = 0; x < width; ++x) {
        Network &band = l.bandOf(y);
        for (unsigned color = 0; color < Colors; ++color) {
          CHECK(band.getInjectSpace(x, y, color) ==
                l.whole.getInjectSpace(x, y, color));
          unsigned action = roll(16);
          if (action < 3) {
            Wavelet w = action == 0
                            ? ctrl(uint8_t(color),
                                   slots({roll(4), roll(4), roll(4)}))
                            : data(uint8_t(color), roll(8) << 16 | roll(100));
            CHECK(band.inject(x, y, w) == l.whole.inject(x, y, w));
          } else if (action < 9) {
            std::optional<Wavelet> a = band.pollDelivered(x, y, color);
            std::optional<Wavelet> b = l.whole.pollDelivered(x, y, color);
            REQUIRE(a.has_value() == b.has_value());
            if (a)
              CHECK(key(*a) == key(*b));
          } else if (action == 9) {
            CHECK(band.advanceSwitch(x, y, color) ==
                  l.whole.advanceSwitch(x, y, color));
          } else if (action == 10 && l.whole.isInTeardown(x, y, color)) {
            CHECK(band.exitTeardown(x, y, color) ==
                  l.whole.exitTeardown(x, y, color));
          }
        }
      }
    l.step();
    compare(l);
  }
}

} // namespace

TEST_CASE("a stream crosses two band boundaries as through one network",
          "[band]") {
  // Column 0 streams south over six rows, split into bands of two rows.
  Fabric f(1, 6, target::Arch::WSE3);
  f.route(0, 0, 3, routes(R, S));
  for (uint16_t y = 1; y < 5; ++y)
    f.route(0, y, 3, routes(N, S));
  f.route(0, 5, 3, routes(N, R));
  Lockstep l(f, {0, 2, 4});
  // A wavelet takes a cycle per hop: injected before cycle 0, it crosses
  // the five links in cycles 0 to 4 and the ramp in cycle 5, both ways.
  std::vector<std::pair<unsigned, uint32_t>> arrivals;
  for (unsigned cycle = 0; cycle < 12; ++cycle) {
    if (cycle < 4) {
      REQUIRE(l.whole.inject(0, 0, data(3, cycle)));
      REQUIRE(l.bands[0].inject(0, 0, data(3, cycle)));
    }
    l.step();
    compare(l);
    std::optional<Wavelet> whole = l.whole.pollDelivered(0, 5, 3);
    std::optional<Wavelet> band = l.bands[2].pollDelivered(0, 5, 3);
    REQUIRE(whole.has_value() == band.has_value());
    if (whole)
      arrivals.emplace_back(cycle, band->payload);
  }
  using Arrival = std::pair<unsigned, uint32_t>;
  CHECK(arrivals ==
        std::vector<Arrival>{{5, 0}, {6, 1}, {7, 2}, {8, 3}});
  CHECK(l.bands[1].getCounters().hops == 8); // rows 2 and 3, four each
}

TEST_CASE("back-pressure holds wavelets at a band boundary", "[band]") {
  // Row 1 receives from row 0 across the boundary but its CE never polls:
  // the delivery queue, then the link buffer, fill and row 0 waits.
  Fabric f(1, 2, target::Arch::WSE3);
  f.route(0, 0, 2, routes(R, S));
  f.route(0, 1, 2, routes(N, R));
  Lockstep l(f, {0, 1});
  for (unsigned cycle = 0; cycle < 10; ++cycle) {
    Wavelet w = data(2, cycle);
    CHECK(l.bands[0].inject(0, 0, w) == l.whole.inject(0, 0, w));
    l.step();
    compare(l);
  }
  // Two delivered, two in row 1's north buffer, two in row 0's inject
  // buffer: the rest were refused.
  CHECK(l.bands[1].getWaveletsAwaitingCE() == 2);
  CHECK(l.bands[1].getWaveletsInFlight() == 2);
  CHECK(l.bands[0].getWaveletsInFlight() == 2);
  CHECK_FALSE(l.bands[0].isIdle());
}

TEST_CASE("color swap y applies to wavelets entering from another band",
          "[band]") {
  Fabric f(1, 2, target::Arch::WSE2);
  f.route(0, 0, 4, routes(R, S));
  pe::RouterConfig swapped = routes(N, R);
  swapped.colorSwapY = true;
  f.route(0, 1, 4, swapped);
  f.route(0, 1, 5, swapped);
  Lockstep l(f, {0, 1});
  REQUIRE(l.whole.inject(0, 0, data(4, 9)));
  REQUIRE(l.bands[0].inject(0, 0, data(4, 9)));
  for (unsigned cycle = 0; cycle < 4; ++cycle) {
    l.step();
    compare(l);
  }
  CHECK(l.bands[1].getDeliveredCount(0, 1, 5) == 1);
  CHECK(l.whole.getDeliveredCount(0, 1, 5) == 1);
}

TEST_CASE("banded calls outside the band are errors", "[band]") {
  Fabric f(2, 4, target::Arch::WSE3);
  FabricLayout layout(f.file);
  Network band(layout, target::TargetModel::get(f.file.arch), {},
               NetworkBand{1, 3});
  CHECK(band.getBand().firstRow == 1);
  CHECK(band.getBand().endRow == 3);
  CHECK_FALSE(band.inject(0, 0, data(1, 1)));
  CHECK_FALSE(band.acceptFromBoundary(BandSide::North, {0, 2, 1, false, 5, 1}));
  CHECK_FALSE(band.setNeighbourView(BandSide::South, BoundaryView{}));
  std::vector<std::string> messages;
  for (const RouteError &error : band.getErrors())
    messages.push_back(error.message);
  CHECK(messages ==
        std::vector<std::string>{
            "inject: PE (0, 0) is outside this network's band of rows 1 to 2",
            "acceptFromBoundary: PE (0, 2) is not on the row facing north",
            "setNeighbourView: a view needs 48 entries per vector"});
  // A band at the top has no band beyond its north side.
  Network top(layout, target::TargetModel::get(f.file.arch), {},
              NetworkBand{0, 2});
  CHECK(top.getBoundaryView(BandSide::North).free.empty());
  CHECK(top.getBoundaryView(BandSide::South).free.size() == 48);
  CHECK_FALSE(top.setNeighbourView(BandSide::North, BoundaryView{}));
  CHECK(top.getErrors().back().message ==
        "setNeighbourView: no band lies beyond this band's north side");
}

TEST_CASE("random fabrics and traffic: bands equal one network", "[band]") {
  for (uint32_t seed = 1; seed <= 60; ++seed) {
    target::Arch arch = seed % 2 ? target::Arch::WSE2 : target::Arch::WSE3;
    std::vector<unsigned> cuts = seed % 3 == 0   ? std::vector<unsigned>{0, 3}
                                 : seed % 3 == 1 ? std::vector<unsigned>{0, 1, 4}
                                                 : std::vector<unsigned>{0, 2, 3, 5};
    fuzz(seed, arch, 4, 6, cuts, 120);
  }
}
