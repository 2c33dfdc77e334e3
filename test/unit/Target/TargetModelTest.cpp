//===- TargetModelTest.cpp - the per-arch facts ---------------------------===//

#include "tessera/Target/TargetModel.h"

#include <catch2/catch.hpp>

#include <vector>

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

TEST_CASE("task ID ranges per kind and arch", "[target]") {
  const TargetModel &wse2 = TargetModel::get(Arch::WSE2);
  const TargetModel &wse3 = TargetModel::get(Arch::WSE3);
  // WSE-2: a data task ID is a routable color; locals use the whole 5 bits
  // except the null ID 31.
  CHECK(wse2.getTaskIDRange(TaskKind::Data).first == 0);
  CHECK(wse2.getTaskIDRange(TaskKind::Data).last == 23);
  CHECK(wse2.getTaskIDRange(TaskKind::Local).first == 0);
  CHECK(wse2.getTaskIDRange(TaskKind::Local).last == 30);
  // WSE-3: a data task ID is an input queue, and locals start above them.
  CHECK(wse3.getTaskIDRange(TaskKind::Data).first == 0);
  CHECK(wse3.getTaskIDRange(TaskKind::Data).last == 7);
  CHECK(wse3.getTaskIDRange(TaskKind::Local).first == 8);
  CHECK(wse3.getTaskIDRange(TaskKind::Local).last == 30);
  for (const TargetModel *model : {&wse2, &wse3}) {
    IDRange control = model->getTaskIDRange(TaskKind::Control);
    CHECK(control.first == 0);
    CHECK(control.last == 63);
    CHECK(control.last + 1 == model->getNumTaskIDs());
  }
  CHECK(wse2.getDataTaskSource() == DataTaskSource::Color);
  CHECK(wse3.getDataTaskSource() == DataTaskSource::InputQueue);
  CHECK(TargetModel::getNullTaskID() == 31);
  CHECK(TargetModel::getTeardownTaskID() == 29);
  CHECK(TargetModel::getMaxTaskArgs() == 4);
  CHECK(TargetModel::getWaveletPayloadBits() == 32);
}

TEST_CASE("ID ranges are inclusive", "[target]") {
  IDRange range{8, 30};
  CHECK_FALSE(range.contains(-1));
  CHECK_FALSE(range.contains(7));
  CHECK(range.contains(8));
  CHECK(range.contains(30));
  CHECK_FALSE(range.contains(31));
}

TEST_CASE("queues, microthreads and blocking", "[target]") {
  const TargetModel &wse2 = TargetModel::get(Arch::WSE2);
  const TargetModel &wse3 = TargetModel::get(Arch::WSE3);
  for (const TargetModel *model : {&wse2, &wse3}) {
    CHECK(model->getNumInputQueues() == 8);
    CHECK(model->getNumOutputQueues() == 8);
  }
  CHECK_FALSE(wse2.requiresQueueInitialization());
  CHECK(wse3.requiresQueueInitialization());
  CHECK(wse2.getNumMicrothreadIDs() == 0);
  CHECK(wse3.getNumMicrothreadIDs() == 8);
  CHECK(wse2.canBlockColors());
  CHECK_FALSE(wse2.canBlockQueues());
  CHECK_FALSE(wse3.canBlockColors());
  CHECK(wse3.canBlockQueues());
  CHECK_FALSE(wse2.hasQueueFlush());
  CHECK(wse3.hasQueueFlush());
}

TEST_CASE("DSD facts", "[target]") {
  CHECK(TargetModel::getDSDLengthBits() == 15);
  CHECK(TargetModel::getInfiniteDSDLength() == 0x7FFF);
  CHECK(TargetModel::getMaxDSDLength() == 0x7FFE);
  CHECK(TargetModel::getMaxMem4dDims() == 4);
  const TargetModel &wse2 = TargetModel::get(Arch::WSE2);
  const TargetModel &wse3 = TargetModel::get(Arch::WSE3);
  CHECK(wse2.hasDSDOpPriority());
  CHECK_FALSE(wse2.hasFabricDSDPriority());
  CHECK_FALSE(wse3.hasDSDOpPriority());
  CHECK(wse3.hasFabricDSDPriority());
}

TEST_CASE("router facts", "[target]") {
  CHECK(TargetModel::getNumSwitchPositions() == 4);
  CHECK(TargetModel::getFilterIndexBits() == 16);
  CHECK(TargetModel::get(Arch::WSE2).hasColorSwap());
  CHECK_FALSE(TargetModel::get(Arch::WSE3).hasColorSwap());
}

TEST_CASE("memcpy reservations and footprint", "[target]") {
  const TargetModel &wse2 = TargetModel::get(Arch::WSE2);
  const TargetModel &wse3 = TargetModel::get(Arch::WSE3);
  auto asVector = [](std::span<const unsigned> ids) {
    return std::vector<unsigned>(ids.begin(), ids.end());
  };
  for (const TargetModel *model : {&wse2, &wse3}) {
    CHECK(asVector(model->getMemcpyReservedColors()) ==
          std::vector<unsigned>{21, 22, 23});
    CHECK(asVector(model->getMemcpyReservedTaskIDs()) ==
          std::vector<unsigned>{27, 28, 30});
  }
  CHECK(asVector(wse2.getMemcpyReservedInputQueues()) ==
        std::vector<unsigned>{0});
  CHECK(asVector(wse2.getMemcpyReservedOutputQueues()).empty());
  CHECK(asVector(wse3.getMemcpyReservedInputQueues()) ==
        std::vector<unsigned>{0, 1});
  CHECK(asVector(wse3.getMemcpyReservedOutputQueues()) ==
        std::vector<unsigned>{0, 1});
  // The SDK's command lines: offsets (4,1) and dims (w+7, h+2).
  MemcpyMargins margins = TargetModel::getMemcpyMargins();
  CHECK(margins.west == 4);
  CHECK(margins.north == 1);
  CHECK(margins.west + margins.east == 7);
  CHECK(margins.north + margins.south == 2);
}

TEST_CASE("DSR files and FIFO slots of the ISA", "[target]") {
  CHECK(TargetModel::getNumDSRsPerFile() == 16);
  CHECK(TargetModel::getNumDSRFiles() == 3);
  CHECK(TargetModel::getNumFIFOs() == 8);
}

TEST_CASE("sizes of values in PE memory", "[target]") {
  CHECK(TargetModel::getPointerBytes() == 2);
  CHECK(TargetModel::getHandleBytes() == 2);
  CHECK(TargetModel::getDSDSlotBytes() == 32);
  CHECK(TargetModel::getDSDSlotAlignment() == 4);
  // A 16-bit pointer reaches every byte of PE memory.
  for (Arch arch : {Arch::WSE2, Arch::WSE3})
    CHECK(TargetModel::get(arch).getPEMemoryBytes() <=
          (1u << (8 * TargetModel::getPointerBytes())));
}
