//===- WaveletTest.cpp - control payload slots
//-----------------------------===//

#include "TestFabric.h"

#include <catch2/catch.hpp>

using namespace routertest;

TEST_CASE("control slots read the <control> bit layout") {
  // ctrl(teardown_cmd_1()) of <memcpy/memcpy_switches> (docs/Library.md).
  uint32_t teardown = 0x09DF9249;
  CHECK(control::getSlot(teardown, 0) == (Tdn | Ignore));
  for (unsigned slot = 1; slot < control::NumSlots; ++slot)
    CHECK(control::getSlot(teardown, slot) == Ignore);
  CHECK(control::getSlot(teardown, 8) == 0);
  CHECK(control::getEntryPoint(teardown) == control::NoEntryPoint);
  CHECK(control::getOpcode(7) == ControlOpcode::Teardown);
  CHECK(control::getOpcode(1) == ControlOpcode::SwitchAdvance);
  CHECK(control::getOpcode(6) == ControlOpcode::SwitchReset);
  CHECK(control::ignoresCE(4));
  CHECK_FALSE(control::ignoresCE(3));
}

TEST_CASE("setting a slot touches only its bits") {
  CHECK(control::setSlot(0, 0, 7) == 7u << 22);
  CHECK(control::setSlot(0, 1, 7) == 7u << 25);
  // Slot 2: opcode in bits 28..29, ce_ignore in bit 0.
  CHECK(control::setSlot(0, 2, 5) == (1u << 28 | 1u));
  CHECK(control::setSlot(0, 3, 7) == 7u << 1);
  CHECK(control::setSlot(0, 7, 7) == 7u << 13);
  CHECK(control::setSlot(0xFFFFFFFF, 4, 0) == (0xFFFFFFFF & ~(7u << 4)));
  CHECK(control::setSlot(0x1234, 8, 7) == 0x1234);
  CHECK(control::setSlot(0, 0, 9) == 1u << 22); // low 3 bits only
  // ctrl(switch_cmd_11()): advance the first two routers, all ce_ignore.
  CHECK(slots({Adv | Ignore, Adv | Ignore, Ignore, Ignore, Ignore, Ignore,
               Ignore, Ignore}) == 0x0B5F9249);
}

TEST_CASE("popping shifts the slots down and keeps the last") {
  CHECK(control::popSlot(0x09DF9249) == 0x091F9249);
  uint32_t payload = slots({1, 2, 3, 4, 5, 6, 7, 5}) | 0xC0000000;
  uint32_t popped = control::popSlot(payload);
  std::vector<unsigned> after;
  for (unsigned slot = 0; slot < control::NumSlots; ++slot)
    after.push_back(control::getSlot(popped, slot));
  CHECK(after == std::vector<unsigned>{2, 3, 4, 5, 6, 7, 5, 5});
  CHECK(control::getEntryPoint(popped) == control::NoEntryPoint);
  CHECK((popped & 0xC0000000) == 0xC0000000);
}
