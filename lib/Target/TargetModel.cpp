//===- TargetModel.cpp - facts about the WSE-2 and WSE-3 ------------------===//
//
// Sources for each number are in ../shared/csl-reference.md section 1.
//
//===----------------------------------------------------------------------===//

#include "tessera/Target/TargetModel.h"

using namespace tessera::target;

// 24 routable colors, 48 KiB of SRAM, a 64-entry task table and up to 16
// memcpy channels on both generations.
const TargetModel TargetModel::wse2(Arch::WSE2, "wse2", 24, 48 * 1024, 64, 16);
const TargetModel TargetModel::wse3(Arch::WSE3, "wse3", 24, 48 * 1024, 64, 16);

const TargetModel &TargetModel::get(Arch arch) {
  return arch == Arch::WSE2 ? wse2 : wse3;
}

std::optional<Arch> tessera::target::parseArch(std::string_view name) {
  if (name == "wse2")
    return Arch::WSE2;
  if (name == "wse3")
    return Arch::WSE3;
  return std::nullopt;
}
