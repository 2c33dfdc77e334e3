//===- FetchAheadTest.cpp - fetching lines ahead changes no result -------===//
//
// A step fetches its routers' and lanes' lines ahead only with many active
// routers and a footprint (the network's and its companion's) past the
// caches (Network::setCompanionBytes). That path must move every wavelet
// exactly as the plain one does: a busy fabric runs both ways and every
// delivery, counter and link count must agree.
//
//===----------------------------------------------------------------------===//

#include "TestFabric.h"

#include <catch2/catch.hpp>

#include <tuple>

using namespace routertest;

namespace {

constexpr uint16_t Size = 48;
constexpr uint8_t East = 1, South = 2, West = 3;

/// Every row streams east to its last PE (color 1) and west with a copy
/// to every CE (color 3); every column streams south with a copy to every
/// CE (color 2). Each router takes part, and the two copies compete for
/// its ramp.
Fabric busyFabric() {
  Fabric f(Size, Size);
  for (uint16_t y = 0; y < Size; ++y) {
    for (uint16_t x = 0; x < Size; ++x) {
      uint8_t last = x + 1 == Size ? R : E;
      f.route(x, y, East, routes(x == 0 ? R : W, last));
      f.route(x, y, West,
              routes(x + 1 == Size ? R : E, x == 0 ? R : uint8_t(W | R)));
      f.route(x, y, South,
              routes(y == 0 ? R : N, y + 1 == Size ? R : uint8_t(S | R)));
    }
  }
  return f;
}

using Taken = std::tuple<uint64_t, unsigned, unsigned, unsigned, uint32_t,
                         uint64_t>; // cycle, x, y, color, payload, id

struct Outcome {
  std::vector<Taken> taken;
  NetworkCounters counters;
  std::vector<LinkCount> links;
  unsigned stepsFetchingAhead = 0;
};

/// Runs the fabric with sources injecting every cycle and CEs that skip
/// one poll in three, so queues fill and lanes park.
Outcome run(size_t companionBytes) {
  Harness h(busyFabric());
  h.net.setCompanionBytes(companionBytes);
  Outcome out;
  for (uint32_t cycle = 0; cycle < 150; ++cycle) {
    for (uint16_t i = 0; i < Size; ++i) {
      h.net.inject(0, i, data(East, cycle << 8 | i));
      h.net.inject(Size - 1, i, data(West, cycle << 8 | i));
      h.net.inject(i, 0, data(South, cycle << 8 | i));
    }
    for (const DeliveryNote &note : h.net.getLastStepDeliveries()) {
      if ((note.pe.x + note.pe.y + cycle) % 3 == 0)
        continue;
      if (std::optional<Wavelet> w =
              h.net.pollDelivered(note.pe.x, note.pe.y, note.color))
        out.taken.emplace_back(h.net.getCycle(), note.pe.x, note.pe.y,
                               note.color, w->payload, w->id);
    }
    h.net.step();
    out.stepsFetchingAhead += h.net.didLastStepFetchAhead();
  }
  REQUIRE(h.net.getErrors().empty());
  out.counters = h.net.getCounters();
  out.links = h.net.getLinkCounts();
  return out;
}

} // namespace

TEST_CASE("fetching ahead moves every wavelet as the plain step does") {
  // 2,304 routers of three lanes: about 1.5 MB, below the 4 MiB from which
  // a step fetches ahead, until a companion of 64 MiB joins it.
  Outcome plain = run(0);
  Outcome ahead = run(size_t(64) << 20);
  CHECK(plain.stepsFetchingAhead == 0);
  // The steps with 1,024 routers or more on the worklist: lanes waiting
  // for a skipped poll park, and leave it.
  CHECK(ahead.stepsFetchingAhead > 50);

  CHECK(plain.counters.hops > 100000);
  CHECK(plain.counters.waitCycles > 0);
  CHECK(plain.counters == ahead.counters);
  CHECK(plain.links == ahead.links);
  REQUIRE(plain.taken.size() == ahead.taken.size());
  CHECK(plain.taken == ahead.taken);
}
