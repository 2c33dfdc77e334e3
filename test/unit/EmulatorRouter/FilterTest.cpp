//===- FilterTest.cpp - range and counter filters
//--------------------------===//

#include "TestFabric.h"

#include <catch2/catch.hpp>

using namespace routertest;

namespace {

/// (0,0) sends color 1 to (1,0), which filters what its CE gets and passes
/// everything on to (2,0).
Fabric filtered(const pe::Filter &filter) {
  pe::RouterConfig middle = routes(W, R | E);
  middle.filter = filter;
  Fabric f(3, 1);
  f.route(0, 0, 1, routes(R, E));
  f.route(1, 0, 1, middle);
  f.route(2, 0, 1, routes(W, R));
  return f;
}

/// Sends `wavelets` one per cycle and returns the payloads (1,0)'s and
/// (2,0)'s CEs received.
std::pair<std::vector<uint32_t>, std::vector<uint32_t>>
send(Harness &h, const std::vector<Wavelet> &wavelets) {
  std::vector<uint32_t> middle, last;
  for (size_t i = 0; i < wavelets.size() + 4; ++i) {
    if (i < wavelets.size())
      REQUIRE(h.net.inject(0, 0, wavelets[i]));
    h.net.step();
    for (const Wavelet &w : h.drain(1, 0, 1))
      middle.push_back(w.payload);
    for (const Wavelet &w : h.drain(2, 0, 1))
      last.push_back(w.payload);
  }
  return {middle, last};
}

pe::Filter counterFilter(uint16_t init, uint16_t max, uint16_t limit1,
                         bool countData, bool countControl) {
  pe::Filter filter;
  filter.kind = pe::Filter::Kind::Counter;
  filter.initCounter = init;
  filter.maxCounter = max;
  filter.limit1 = limit1;
  filter.countData = countData;
  filter.countControl = countControl;
  return filter;
}

} // namespace

TEST_CASE("a range filter delivers indices in [min, max] to the CE only") {
  pe::Filter filter;
  filter.kind = pe::Filter::Kind::Range;
  filter.min = 2;
  filter.max = 4;
  Harness h(filtered(filter));
  std::vector<Wavelet> sent;
  std::vector<uint32_t> all;
  for (uint32_t index = 1; index <= 5; ++index) {
    sent.push_back(data(1, index << 16 | 0xA0 | index));
    all.push_back(index << 16 | 0xA0 | index);
  }
  // A control payload's high half is commands, not an index: it passes.
  uint32_t command = slots({0});
  sent.push_back(ctrl(1, command));
  all.push_back(command);
  auto [middle, last] = send(h, sent);
  CHECK(middle == std::vector<uint32_t>{0x200A2, 0x300A3, 0x400A4, command});
  CHECK(last == all);
  CHECK(h.net.getCounters().withheld == 2);
}

TEST_CASE("a counter filter counts the data wavelets it is told to") {
  // Deliver while counter <= 1, then wrap after 2: counter 1, 2, 0, 1, 2.
  Harness h(filtered(counterFilter(1, 1, 2, true, false)));
  std::vector<Wavelet> sent;
  for (uint32_t i = 0; i < 5; ++i)
    sent.push_back(data(1, i));
  uint32_t command = slots({0});
  sent.push_back(ctrl(1, command)); // not counted: delivered
  auto [middle, last] = send(h, sent);
  CHECK(middle == std::vector<uint32_t>{0, 2, 3, command});
  CHECK(last.size() == 6);
  CHECK(h.net.getLaneState(1, 0, 1)->counter == 0);
  CHECK(h.net.getCounters().withheld == 2);
}

TEST_CASE("a counter filter may count control wavelets instead") {
  Harness h(filtered(counterFilter(0, 0, 1, false, true)));
  uint32_t a = slots({0, 1}), b = slots({0, 2}), c = slots({0, 3});
  uint32_t ignored = slots({Ignore});
  auto [middle, last] = send(
      h, {ctrl(1, a), data(1, 5), ctrl(1, b), ctrl(1, ignored), ctrl(1, c)});
  // a counted at 0, data not counted, b at 1 (withheld), ce_ignore before
  // the filter (not counted), c at 0. (2,0) also ignores the ce_ignore one.
  CHECK(middle == std::vector<uint32_t>{a, 5, c});
  CHECK(last == std::vector<uint32_t>{a, 5, b, c});
  CHECK(h.net.getLaneState(1, 0, 1)->counter == 1);
  CHECK(h.net.getCounters().withheld == 3);
}
