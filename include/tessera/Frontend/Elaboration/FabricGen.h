//===- FabricGen.h - LayoutDescription to the fabric dialect ----*- C++ -*-===//
//
// Builds the `fabric.fabric` module of a layout: one `fabric.instance` per
// distinct (file, params) program, `fabric.place` and `fabric.color_config`
// over rectangles of PEs, `fabric.export` per host name. The fabric's size
// and offsets come from the command line, checked against the rectangle
// (and memcpy's support PEs) first.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_FRONTEND_ELABORATION_FABRICGEN_H
#define TESSERA_FRONTEND_ELABORATION_FABRICGEN_H

#include "tessera/Dialect/Fabric/IR/FabricOps.h"
#include "tessera/Frontend/Elaboration/LayoutDescription.h"
#include "tessera/Target/TargetModel.h"

#include "mlir/IR/OwningOpRef.h"
#include "llvm/Support/SourceMgr.h"
#include "llvm/Support/Error.h"

namespace tessera::frontend::elaboration {

struct FabricOptions {
  target::Arch arch = target::Arch::WSE2;
  /// --fabric-dims; without it the smallest fabric that fits.
  std::optional<std::pair<int64_t, int64_t>> dims;
  /// --fabric-offsets; without it (4, 1) with memcpy, else (0, 0).
  std::optional<std::pair<int64_t, int64_t>> offsets;
  bool memcpy = false;
  /// Host I/O channels; used only with memcpy.
  unsigned channels = 1;
  /// --width-west-buf / --width-east-buf: buffer columns between memcpy's
  /// columns and the rectangle; memcpy only.
  int64_t westBuffer = 0;
  int64_t eastBuffer = 0;
  /// The layout has host streams: like memcpy, they need the fabric to
  /// reach at least one PE beyond the rectangle on every side, where the
  /// host's words cross its edge.
  bool hostStreams = false;
  /// Turns the layout's source locations into op locations; without it
  /// ops have unknown locations.
  const llvm::SourceMgr *sourceMgr = nullptr;
};

struct FabricGeometry {
  std::pair<int64_t, int64_t> dims;
  std::pair<int64_t, int64_t> offsets;
};

/// The fabric's dims and offsets for a width x height rectangle, or a
/// command-line error saying what the minimum is.
llvm::Expected<FabricGeometry> computeGeometry(int64_t width, int64_t height,
                                               const FabricOptions &options);

/// Builds and verifies the fabric module; `layout` must have a rectangle. An
/// error means a bug in elaboration (the verifier's message), since every
/// user error is reported before.
llvm::Expected<mlir::OwningOpRef<fabric::FabricOp>>
generateFabric(mlir::MLIRContext &context, const LayoutDescription &layout,
               const FabricOptions &options);

} // namespace tessera::frontend::elaboration

#endif // TESSERA_FRONTEND_ELABORATION_FABRICGEN_H
