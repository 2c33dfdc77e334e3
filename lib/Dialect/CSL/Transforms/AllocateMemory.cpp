//===- AllocateMemory.cpp - addresses for a program's globals -------------===//
//
// A thin adapter over MemoryAllocator: the globals of one csl.program become
// data pieces in program order, and their addresses become attributes. Code
// and stack are placed later, by the lowering to PE binaries, which knows
// their sizes; this pass fails early when the data alone cannot fit.
//
//===----------------------------------------------------------------------===//

#include "tessera/Dialect/CSL/Transforms/Passes.h"
#include "tessera/Support/Format.h"

#include "tessera/Dialect/CSL/IR/CSLTarget.h"
#include "tessera/Target/TargetModel.h"

#include "mlir/IR/Builders.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/Location.h"

namespace tessera::csl {
#define GEN_PASS_DEF_ALLOCATEMEMORY
#include "tessera/Dialect/CSL/Transforms/Passes.h.inc"
} // namespace tessera::csl

using namespace mlir;
using namespace tessera;
using namespace tessera::csl;

namespace {

struct AllocateMemoryPass
    : tessera::csl::impl::AllocateMemoryBase<AllocateMemoryPass> {
  void runOnOperation() override;
};

/// Where an error about the whole program goes. MLIRGen gives a program no
/// source location of its own; its file is the next best place.
Location getProgramLocation(ProgramOp program) {
  if (!isa<UnknownLoc>(program.getLoc()) || !program.getFile())
    return program.getLoc();
  return FileLineColLoc::get(program.getFileAttr(), 1, 1);
}

/// The error for data that does not fit, with a note at each global listed.
void reportDataOverflow(ProgramOp program, const MemoryOverflow &overflow,
                        ArrayRef<Operation *> globals,
                        const std::vector<MemoryPiece> &pieces) {
  InFlightDiagnostic diag =
      emitError(getProgramLocation(program))
      << "program '" << program.getSymName() << "' needs "
      << formatThousands(overflow.neededBytes) << " bytes of "
      << formatThousands(overflow.capacityBytes) << " for its data";
  if (!overflow.largestList.empty())
    diag << "; largest: " << overflow.largestList;
  for (size_t index : overflow.largest)
    diag.attachNote(globals[index]->getLoc())
        << "'" << pieces[index].name << "' takes "
        << formatThousands(pieces[index].bytes) << " bytes";
}

} // namespace

void AllocateMemoryPass::runOnOperation() {
  ProgramOp program = getOperation();
  const target::TargetModel &model =
      target::TargetModel::get(toTargetArch(program.getArch()));

  SmallVector<Operation *> globals;
  std::vector<MemoryPiece> pieces;
  bool sized = true;
  for (Operation &op : program.getBody().front()) {
    if (!isMemoryGlobal(&op))
      continue;
    FailureOr<MemoryPiece> piece = getGlobalMemoryPiece(&op);
    if (failed(piece)) {
      sized = false;
      continue;
    }
    globals.push_back(&op);
    pieces.push_back(std::move(*piece));
  }
  if (!sized)
    return signalPassFailure();

  MemoryAllocator allocator(model.getPEMemoryBytes());
  MemoryLayout layout;
  if (std::optional<MemoryOverflow> overflow =
          allocator.allocate(pieces, layout)) {
    reportDataOverflow(program, *overflow, globals, pieces);
    return signalPassFailure();
  }

  // Overwriting the attributes makes a second run give the same result.
  Builder builder(&getContext());
  for (auto [op, address] : llvm::zip_equal(globals, layout.addresses))
    op->setAttr(kAddressAttrName, builder.getI64IntegerAttr(address));
  program->setAttr(kDataEndAttrName, builder.getI64IntegerAttr(layout.dataEnd));
  program->setAttr(kBssEndAttrName, builder.getI64IntegerAttr(layout.bssEnd));
}
