//===- LoweringUtils.cpp - types and constants as the PE sees them -------===//

#include "LoweringUtils.h"

#include "mlir/IR/BuiltinAttributes.h"
#include "mlir/IR/BuiltinTypes.h"
#include "mlir/IR/Diagnostics.h"
#include "tessera/Dialect/CSL/IR/CSLTypes.h"

using namespace mlir;
using namespace tessera;

unsigned tessera::lowering::getBitWidth(Type type) {
  if (type.isIndex())
    return 32;
  if (type.isIntOrFloat())
    return type.getIntOrFloatBitWidth();
  return 16;
}

unsigned tessera::lowering::getStorageBytes(Type type) {
  if (type.isIndex())
    return 4;
  if (isa<tessera::csl::DSDType>(type))
    return 32; // a descriptor slot, as tessera-allocate-memory counts it
  if (type.isIntOrFloat())
    return std::max(1u, type.getIntOrFloatBitWidth() / 8);
  return 2;
}

std::optional<int64_t> tessera::lowering::getConstantBits(Attribute value) {
  if (auto i = dyn_cast<IntegerAttr>(value)) {
    unsigned width = getBitWidth(i.getType());
    if (width > 32)
      return std::nullopt;
    return static_cast<int64_t>(
        i.getValue().getZExtValue() &
        (width == 32 ? 0xFFFFFFFFull : ((1ull << width) - 1)));
  }
  if (auto f = dyn_cast<FloatAttr>(value)) {
    if (f.getType().getIntOrFloatBitWidth() > 32)
      return std::nullopt;
    return static_cast<int64_t>(f.getValue().bitcastToAPInt().getZExtValue());
  }
  if (auto b = dyn_cast<BoolAttr>(value))
    return b.getValue() ? 1 : 0;
  return std::nullopt;
}

LogicalResult tessera::lowering::checkRunTimeType(Type type, Location loc) {
  if ((type.isIntOrFloat() && type.getIntOrFloatBitWidth() > 32))
    return emitError(loc) << "run-time values of type " << type
                          << " are not supported by this cslc (registers "
                             "hold 32 bits)";
  return success();
}

pe::BlockSpace tessera::lowering::getBlockSpace(Operation *user, Type type) {
  // A control task of a separate control task table has a block flag of
  // its own, apart from the shared table's entry with its ID.
  if (auto task = dyn_cast<csl::TaskIDType>(type);
      task && task.getKind() == csl::TaskKind::Control) {
    auto program = user->getParentOfType<csl::ProgramOp>();
    if (program &&
        !program.getBody().front().getOps<csl::ControlTaskTableOp>().empty())
      return pe::BlockSpace::ControlTask;
  }
  if (isa<csl::ColorType>(type))
    return pe::BlockSpace::Color;
  if (isa<csl::InputQueueType>(type))
    return pe::BlockSpace::InputQueue;
  if (isa<csl::OutputQueueType>(type))
    return pe::BlockSpace::OutputQueue;
  if (isa<csl::MicrothreadIDType>(type))
    return pe::BlockSpace::UT;
  return pe::BlockSpace::Task;
}

pe::Priority
tessera::lowering::toPriority(std::optional<csl::Priority> priority) {
  if (!priority)
    return pe::Priority::Default;
  switch (*priority) {
  case csl::Priority::Low:
    return pe::Priority::Low;
  case csl::Priority::Medium:
    return pe::Priority::Medium;
  case csl::Priority::High:
    return pe::Priority::High;
  }
  return pe::Priority::Default;
}
