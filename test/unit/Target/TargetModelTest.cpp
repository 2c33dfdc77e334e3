//===- TargetModelTest.cpp - the per-arch facts ---------------------------===//

#include "tessera/Target/TargetModel.h"

#include <catch2/catch.hpp>

using namespace tessera::target;

TEST_CASE("architecture names parse as cslc spells them", "[target]") {
  CHECK(parseArch("wse2") == Arch::WSE2);
  CHECK(parseArch("wse3") == Arch::WSE3);
  CHECK_FALSE(parseArch("WSE2").has_value());
  CHECK_FALSE(parseArch("wse").has_value());
  CHECK_FALSE(parseArch("").has_value());
}

TEST_CASE("each model answers for its own architecture", "[target]") {
  for (Arch arch : {Arch::WSE2, Arch::WSE3}) {
    const TargetModel &model = TargetModel::get(arch);
    CHECK(model.getArch() == arch);
    CHECK(parseArch(model.getName()) == arch);
  }
}

TEST_CASE("facts from the reference", "[target]") {
  const TargetModel &wse2 = TargetModel::get(Arch::WSE2);
  const TargetModel &wse3 = TargetModel::get(Arch::WSE3);
  CHECK(wse2.getNumRoutableColors() == 24);
  CHECK(wse3.getNumRoutableColors() == 24);
  CHECK(wse2.getPEMemoryBytes() == 49152);
  CHECK(wse3.getPEMemoryBytes() == 49152);
  CHECK(wse2.getNumTaskIDs() == 64);
  CHECK(wse3.getMaxMemcpyChannels() == 16);
}
