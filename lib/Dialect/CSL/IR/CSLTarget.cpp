//===- CSLTarget.cpp - target facts for csl verifiers ---------------------===//

#include "tessera/Dialect/CSL/IR/CSLTarget.h"

#include "tessera/Dialect/CSL/IR/CSLOps.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::csl;

target::Arch csl::toTargetArch(Arch arch) {
  return arch == Arch::WSE2 ? target::Arch::WSE2 : target::Arch::WSE3;
}

target::TaskKind csl::toTargetTaskKind(TaskKind kind) {
  switch (kind) {
  case TaskKind::Data:
    return target::TaskKind::Data;
  case TaskKind::Local:
    return target::TaskKind::Local;
  case TaskKind::Control:
    return target::TaskKind::Control;
  }
  return target::TaskKind::Control;
}

const target::TargetModel *csl::getEnclosingTarget(Operation *op) {
  auto program = dyn_cast<ProgramOp>(op);
  if (!program)
    program = op->getParentOfType<ProgramOp>();
  if (!program)
    return nullptr;
  return &target::TargetModel::get(toTargetArch(program.getArch()));
}

std::string csl::formatRange(target::IDRange range) {
  return std::to_string(range.first) + ".." + std::to_string(range.last);
}
