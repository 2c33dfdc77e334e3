//===- HeldCyclesTest.cpp - the ring of held cycles against a set ---------===//
//
// HeldCycles stands for a set of cycles a clock walks through: held cycles
// later than the clock's, taken as the clock reaches each, and the clock
// jumping to the next held one when nothing else happens. Random holds near
// and at the ring's reach must give what a std::set gives: the same next
// cycle, the same takes and the same emptiness, across word boundaries and
// the ring's wrap.
//
//===----------------------------------------------------------------------===//

#include "HeldCycles.h"

#include <catch2/catch.hpp>

#include <random>
#include <set>

using tessera::emulator::machine::HeldCycles;

TEST_CASE("held cycles: one cycle held, found and taken") {
  HeldCycles held;
  CHECK(held.empty());
  CHECK(held.next(10) == std::nullopt);
  REQUIRE(held.hold(75, 10));
  REQUIRE(held.hold(75, 10)); // held twice, taken once
  CHECK(!held.empty());
  CHECK(held.next(10) == 75);
  CHECK(held.next(75) == 75);
  CHECK(!held.take(74));
  CHECK(held.take(75));
  CHECK(!held.take(75));
  CHECK(held.empty());
}

TEST_CASE("held cycles: the ring reaches 255 cycles ahead") {
  HeldCycles held;
  CHECK(!held.hold(1000 + HeldCycles::RingCycles, 1000));
  CHECK(held.empty());
  REQUIRE(held.hold(1000 + HeldCycles::RingCycles - 1, 1000));
  // The slot of cycle 1255 is that of 999 and of 1511: found from 1000 as
  // 1255, the only cycle of the ring's reach it can be.
  CHECK(held.next(1000) == 1255);
  REQUIRE(held.hold(1001, 1000));
  CHECK(held.next(1000) == 1001);
  CHECK(held.take(1001));
  CHECK(held.next(1002) == 1255);
}

TEST_CASE("held cycles: a clock walking and jumping sees what a set holds") {
  std::mt19937_64 random(20261127);
  HeldCycles held;
  std::set<uint64_t> expected;
  uint64_t now = 5;
  unsigned taken = 0, jumps = 0;
  for (unsigned step = 0; step < 20000; ++step) {
    // A few holds a cycle, most within a few cycles, some at the reach.
    for (unsigned n = unsigned(random() % 4); n > 0; --n) {
      uint64_t ahead = random() % 8 == 0
                           ? HeldCycles::RingCycles - 1 - random() % 8
                           : 1 + random() % 12;
      REQUIRE(held.hold(now + ahead, now));
      expected.insert(now + ahead);
    }
    CHECK(held.empty() == expected.empty());
    std::optional<uint64_t> first;
    if (!expected.empty())
      first = *expected.begin();
    REQUIRE(held.next(now) == first);
    // Step one cycle, or jump to the next held cycle now and then.
    if (first && random() % 5 == 0) {
      now = *first;
      ++jumps;
    } else {
      ++now;
    }
    bool due = expected.erase(now) != 0;
    CHECK(held.take(now) == due);
    taken += due;
  }
  CHECK(taken > 1000);
  CHECK(jumps > 1000);
}
