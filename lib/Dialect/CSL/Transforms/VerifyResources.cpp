//===- VerifyResources.cpp - placeholder until written --------------------------===//
#include "tessera/Dialect/CSL/Transforms/Passes.h"

namespace tessera::csl {
#define GEN_PASS_DEF_VERIFYRESOURCES
#include "tessera/Dialect/CSL/Transforms/Passes.h.inc"
} // namespace tessera::csl

namespace {
struct VerifyResourcesPass : tessera::csl::impl::VerifyResourcesBase<VerifyResourcesPass> {
  void runOnOperation() override {}
};
} // namespace
