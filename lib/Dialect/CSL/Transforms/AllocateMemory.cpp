//===- AllocateMemory.cpp - placeholder until written --------------------------===//
#include "tessera/Dialect/CSL/Transforms/Passes.h"

namespace tessera::csl {
#define GEN_PASS_DEF_ALLOCATEMEMORY
#include "tessera/Dialect/CSL/Transforms/Passes.h.inc"
} // namespace tessera::csl

namespace {
struct AllocateMemoryPass : tessera::csl::impl::AllocateMemoryBase<AllocateMemoryPass> {
  void runOnOperation() override {}
};
} // namespace
