//===- TargetModel.cpp - facts about the WSE-2 and WSE-3 ------------------===//
//
// Sources for each number are in ../shared/csl-reference.md sections 1 and 4.
//
//===----------------------------------------------------------------------===//

#include "tessera/Target/TargetModel.h"

using namespace tessera::target;

namespace {
// Memcpy owns colors 21..23, task IDs 27, 28 and 30 (reference 1.5) and
// queue 0 on WSE-2, queues 0 and 1 on WSE-3.
constexpr unsigned memcpyColors[] = {21, 22, 23};
constexpr unsigned memcpyTaskIDs[] = {27, 28, 30};
// WSE-2's memcpy owns input queue 0 only: public programs written for the
// SDK (25-pt-stencil, histogram-torus) send through output queue 0 with
// --memcpy, so the SDK cannot reserve it.
constexpr unsigned wse2MemcpyInputQueues[] = {0};
constexpr std::span<const unsigned> wse2MemcpyOutputQueues = {};
constexpr unsigned wse3MemcpyQueues[] = {0, 1};
// WSE-2 input queue depths from Cerebras' example comments (reference
// 1.11); WSE-3's are not public, so it takes the same.
constexpr unsigned inputQueueDepths[] = {6, 6, 4, 4, 2, 2, 2, 2};
} // namespace

// Both generations have 24 routable colors, 48 KiB of SRAM, a 64-entry task
// table, up to 16 memcpy channels and 8 input and 8 output queues. They
// differ in what a data task ID names (reference 1.5) and in the WSE-3
// microthread and priority model (reference 1.13).
const TargetModel
    TargetModel::wse2(Arch::WSE2,
                      TargetFacts{
                          .name = "wse2",
                          .numRoutableColors = 24,
                          .peMemoryBytes = 48 * 1024,
                          .numTaskIDs = 64,
                          .maxMemcpyChannels = 16,
                          .numInputQueues = 8,
                          .numOutputQueues = 8,
                          .dataTaskIDs = {0, 23},
                          .localTaskIDs = {0, 30},
                          .controlTaskIDs = {0, 63},
                          .dataTaskSource = DataTaskSource::Color,
                          .numMicrothreadIDs = 0,
                          .hasColorSwap = true,
                          .hasFabricDSDPriority = false,
                          .hasQueueFlush = false,
                          .hasSeparateControlTaskTable = false,
                          .memcpyReservedInputQueues = wse2MemcpyInputQueues,
                          .memcpyReservedOutputQueues = wse2MemcpyOutputQueues,
                          .inputQueueDepths = inputQueueDepths,
                          .simdElements16 = 4,
                          .simdElements32 = 2,
                      });

const TargetModel
    TargetModel::wse3(Arch::WSE3,
                      TargetFacts{
                          .name = "wse3",
                          .numRoutableColors = 24,
                          .peMemoryBytes = 48 * 1024,
                          .numTaskIDs = 64,
                          .maxMemcpyChannels = 16,
                          .numInputQueues = 8,
                          .numOutputQueues = 8,
                          .dataTaskIDs = {0, 7},
                          .localTaskIDs = {8, 30},
                          .controlTaskIDs = {0, 63},
                          .dataTaskSource = DataTaskSource::InputQueue,
                          .numMicrothreadIDs = 8,
                          .hasColorSwap = false,
                          .hasFabricDSDPriority = true,
                          .hasQueueFlush = true,
                          .hasSeparateControlTaskTable = true,
                          .memcpyReservedInputQueues = wse3MemcpyQueues,
                          .memcpyReservedOutputQueues = wse3MemcpyQueues,
                          .inputQueueDepths = inputQueueDepths,
                          .simdElements16 = 8,
                          .simdElements32 = 4,
                      });

const TargetModel &TargetModel::get(Arch arch) {
  return arch == Arch::WSE2 ? wse2 : wse3;
}

IDRange TargetModel::getTaskIDRange(TaskKind kind) const {
  switch (kind) {
  case TaskKind::Data:
    return facts.dataTaskIDs;
  case TaskKind::Local:
    return facts.localTaskIDs;
  case TaskKind::Control:
    return facts.controlTaskIDs;
  }
  return facts.controlTaskIDs;
}

std::span<const unsigned> TargetModel::getMemcpyReservedTaskIDs() const {
  return memcpyTaskIDs;
}

std::span<const unsigned> TargetModel::getMemcpyReservedColors() const {
  return memcpyColors;
}

std::optional<Arch> tessera::target::parseArch(std::string_view name) {
  if (name == "wse2")
    return Arch::WSE2;
  if (name == "wse3")
    return Arch::WSE3;
  return std::nullopt;
}
