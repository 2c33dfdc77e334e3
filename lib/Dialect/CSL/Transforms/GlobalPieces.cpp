//===- GlobalPieces.cpp - the memory a global takes -----------------------===//
//
// One definition of a global's size, alignment and initial data, shared by
// tessera-allocate-memory and the lowering to PE binaries so that the two
// never disagree about a layout.
//
//===----------------------------------------------------------------------===//

#include "tessera/Dialect/CSL/Transforms/Passes.h"
#include "tessera/Support/Format.h"

#include "tessera/Target/TargetModel.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/BuiltinAttributes.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/Support/MathExtras.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::csl;

using target::TargetModel;

namespace {

/// Bytes of one element in PE memory, or nothing for a type that has no
/// memory representation.
std::optional<uint32_t> getElementBytes(Type type) {
  if (type.isIndex())
    return 4;
  // CSL's scalar widths; bool is i1 and takes a byte.
  if (type.isIntOrFloat()) {
    switch (type.getIntOrFloatBitWidth()) {
    case 1:
    case 8:
      return 1;
    case 16:
      return 2;
    case 32:
      return 4;
    case 64:
      return 8;
    default:
      return std::nullopt;
    }
  }
  if (isa<DSDType>(type))
    return TargetModel::getDSDSlotBytes();
  if (isa<ColorType, InputQueueType, OutputQueueType, TaskIDType,
          MicrothreadIDType, DSRType>(type))
    return TargetModel::getHandleBytes();
  return std::nullopt;
}

/// Zero-filled data needs no image: no initial value, `uninitialized`, or
/// dense data whose bytes are all zero (so -0.0 is initialised data).
bool isZeroFilled(memref::GlobalOp global) {
  std::optional<Attribute> initial = global.getInitialValue();
  if (!initial || isa<UnitAttr>(*initial))
    return true;
  auto dense = dyn_cast<DenseIntOrFPElementsAttr>(*initial);
  return dense &&
         llvm::all_of(dense.getRawData(), [](char byte) { return byte == 0; });
}

FailureOr<MemoryPiece> getMemRefGlobalPiece(memref::GlobalOp global) {
  // The memref.global verifier guarantees a static shape.
  MemRefType type = global.getType();
  std::optional<uint32_t> elementBytes = getElementBytes(type.getElementType());
  if (!elementBytes)
    return global.emitError()
           << "cannot place '" << global.getSymName() << "' in memory: "
           << "elements of type " << type.getElementType()
           << " have no size in PE memory";

  // Shapes are int64: saturate rather than wrap, since a product past
  // 4 GiB cannot fit anyway.
  uint64_t bytes = *elementBytes;
  for (int64_t extent : type.getShape())
    bytes = llvm::SaturatingMultiply(bytes, static_cast<uint64_t>(extent));
  if (bytes > UINT32_MAX)
    return global.emitError()
           << "'" << global.getSymName() << "' needs " << formatThousands(bytes)
           << " bytes, more than PE memory can hold";

  // An alignment past 2^31 places a global no differently below 4 GiB.
  uint64_t alignment = isa<DSDType>(type.getElementType())
                           ? TargetModel::getDSDSlotAlignment()
                           : *elementBytes;
  if (std::optional<uint64_t> requested = global.getAlignment())
    alignment = std::max(alignment, *requested);
  alignment = std::min<uint64_t>(alignment, 1u << 31);

  MemoryPiece piece;
  piece.name = global.getSymName().str();
  piece.kind = isZeroFilled(global) ? MemoryPieceKind::ZeroData
                                    : MemoryPieceKind::InitializedData;
  piece.bytes = static_cast<uint32_t>(bytes);
  piece.alignment = static_cast<uint32_t>(alignment);
  return piece;
}

} // namespace

bool csl::isMemoryGlobal(Operation *op) {
  return isa<memref::GlobalOp, PointerGlobalOp, DSDGlobalOp>(op);
}

FailureOr<MemoryPiece> csl::getGlobalMemoryPiece(Operation *op) {
  if (auto global = dyn_cast<memref::GlobalOp>(op))
    return getMemRefGlobalPiece(global);

  MemoryPiece piece;
  if (auto pointer = dyn_cast<PointerGlobalOp>(op)) {
    piece.name = pointer.getSymName().str();
    piece.kind = pointer.getTarget() ? MemoryPieceKind::InitializedData
                                     : MemoryPieceKind::ZeroData;
    piece.bytes = TargetModel::getPointerBytes();
    piece.alignment = TargetModel::getPointerBytes();
    return piece;
  }
  if (auto dsd = dyn_cast<DSDGlobalOp>(op)) {
    // A zeroed slot loads as an empty DSD (docs/ISA.md, dsr.ld).
    piece.name = dsd.getSymName().str();
    piece.kind = dsd.getInitializer().empty()
                     ? MemoryPieceKind::ZeroData
                     : MemoryPieceKind::InitializedData;
    piece.bytes = TargetModel::getDSDSlotBytes();
    piece.alignment = TargetModel::getDSDSlotAlignment();
    return piece;
  }
  return op->emitError() << "internal error: '" << op->getName()
                         << "' is not a global that takes memory";
}
