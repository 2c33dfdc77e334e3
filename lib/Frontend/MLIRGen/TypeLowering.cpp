//===- TypeLowering.cpp - CSL types and values in MLIR --------------------===//

#include "TypeLowering.h"

#include "tessera/Dialect/CSL/IR/CSLTypes.h"

#include "llvm/Support/SourceMgr.h"

using namespace tessera;
using namespace tessera::frontend;
using namespace tessera::frontend::mlirgen;
using sema::Type;

mlir::Type mlirgen::lowerType(mlir::MLIRContext &context,
                              const sema::Type *type) {
  mlir::Builder b(&context);
  switch (type->getKind()) {
  case Type::Kind::Bool:
    return b.getI1Type();
  case Type::Kind::Int:
    return b.getIntegerType(llvm::cast<sema::IntType>(type)->getBitWidth());
  case Type::Kind::Float:
    switch (llvm::cast<sema::FloatType>(type)->getFormat()) {
    case sema::FloatFormat::F16:
      return b.getF16Type();
    case sema::FloatFormat::BF16:
      return b.getBF16Type();
    case sema::FloatFormat::F32:
      return b.getF32Type();
    case sema::FloatFormat::CB16:
      return {};
    }
    return {};
  case Type::Kind::DSD:
    // Fabric DSDs have no element type of their own, so they can be passed
    // and returned; a memory DSD's type depends on the memory it reads.
    switch (llvm::cast<sema::DSDType>(type)->getDSDKind()) {
    case sema::DSDKind::FabinDSD:
      return csl::DSDType::get(&context, csl::DSDKind::Fabin, mlir::Type());
    case sema::DSDKind::FaboutDSD:
      return csl::DSDType::get(&context, csl::DSDKind::Fabout, mlir::Type());
    default:
      return {};
    }
  case Type::Kind::Enum:
    // An enum is its tag at run time.
    return lowerType(context, llvm::cast<sema::EnumType>(type)->getTagType());
  case Type::Kind::DSR:
    switch (llvm::cast<sema::DSRType>(type)->getDSRKind()) {
    case sema::DSRKind::Dest:
      return csl::DSRType::get(&context, csl::DSRKind::Dest);
    case sema::DSRKind::Src0:
      return csl::DSRType::get(&context, csl::DSRKind::Src0);
    case sema::DSRKind::Src1:
      return csl::DSRType::get(&context, csl::DSRKind::Src1);
    }
    return {};
  case Type::Kind::Color:
    return csl::ColorType::get(&context);
  case Type::Kind::InputQueue:
    return csl::InputQueueType::get(&context);
  case Type::Kind::OutputQueue:
    return csl::OutputQueueType::get(&context);
  case Type::Kind::UtID:
    return csl::MicrothreadIDType::get(&context);
  case Type::Kind::DataTaskID:
    return csl::TaskIDType::get(&context, csl::TaskKind::Data);
  case Type::Kind::LocalTaskID:
    return csl::TaskIDType::get(&context, csl::TaskKind::Local);
  case Type::Kind::ControlTaskID:
    return csl::TaskIDType::get(&context, csl::TaskKind::Control);
  case Type::Kind::Array:
    return getStorageType(context, type);
  case Type::Kind::Pointer: {
    const auto *pointer = llvm::cast<sema::PointerType>(type);
    mlir::MemRefType pointee = getStorageType(context, pointer->getPointee());
    if (!pointee)
      return {};
    if (pointer->isMany())
      return mlir::MemRefType::get({mlir::ShapedType::kDynamic},
                                   pointee.getElementType());
    return pointee;
  }
  default:
    return {};
  }
}

mlir::MemRefType mlirgen::getStorageType(mlir::MLIRContext &context,
                                         const sema::Type *type) {
  if (const auto *array = llvm::dyn_cast<sema::ArrayType>(type)) {
    mlir::Type element = lowerType(context, array->getElementType());
    if (!element || mlir::isa<mlir::MemRefType>(element))
      return {};
    llvm::SmallVector<int64_t> shape(array->getDims().begin(),
                                     array->getDims().end());
    return mlir::MemRefType::get(shape, element);
  }
  mlir::Type scalar = lowerType(context, type);
  if (!scalar || mlir::isa<mlir::MemRefType>(scalar))
    return {};
  return mlir::MemRefType::get({}, scalar);
}

namespace {

mlir::Attribute getScalarAttr(mlir::Type type, const sema::Value &value) {
  if (auto intType = mlir::dyn_cast<mlir::IntegerType>(type)) {
    if (value.is(sema::Value::Kind::Bool))
      return mlir::IntegerAttr::get(intType, value.getBool() ? 1 : 0);
    if (!value.is(sema::Value::Kind::Int) &&
        !value.is(sema::Value::Kind::EnumValue))
      return {};
    return mlir::IntegerAttr::get(
        intType, value.getInt().extOrTrunc(intType.getWidth()));
  }
  if (auto floatType = mlir::dyn_cast<mlir::FloatType>(type)) {
    if (!value.is(sema::Value::Kind::Float))
      return {};
    llvm::APFloat f(value.getFloat());
    bool losesInfo = false;
    f.convert(floatType.getFloatSemantics(), llvm::APFloat::rmNearestTiesToEven,
              &losesInfo);
    return mlir::FloatAttr::get(floatType, f);
  }
  return {};
}

} // namespace

mlir::Attribute mlirgen::getInitialValue(mlir::MemRefType storage,
                                         const sema::Value &value) {
  auto tensorType = mlir::RankedTensorType::get(storage.getShape(),
                                                storage.getElementType());
  llvm::SmallVector<mlir::Attribute> elements;
  if (value.is(sema::Value::Kind::Array)) {
    for (const sema::Value &element : value.getElements()) {
      mlir::Attribute attr = getScalarAttr(storage.getElementType(), element);
      if (!attr)
        return {};
      elements.push_back(attr);
    }
  } else {
    mlir::Attribute attr = getScalarAttr(storage.getElementType(), value);
    if (!attr)
      return {};
    elements.push_back(attr);
  }
  if (static_cast<int64_t>(elements.size()) != tensorType.getNumElements())
    return {};
  return mlir::DenseElementsAttr::get(tensorType, elements);
}

mlir::Location mlirgen::getLocation(mlir::MLIRContext &context,
                                    llvm::SourceMgr &sm, llvm::SMLoc loc) {
  unsigned buffer = loc.isValid() ? sm.FindBufferContainingLoc(loc) : 0;
  if (!buffer)
    return mlir::UnknownLoc::get(&context);
  auto [line, column] = sm.getLineAndColumn(loc, buffer);
  return mlir::FileLineColLoc::get(
      &context, sm.getMemoryBuffer(buffer)->getBufferIdentifier(), line,
      column);
}
