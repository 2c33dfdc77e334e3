//===- MemoryLowering.cpp - memref and pointer ops to loads and stores ---===//

#include "FunctionLowering.h"
#include "LoweringUtils.h"

#include "mlir/Dialect/MemRef/IR/MemRef.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::lowering;
using pe::Opcode;
using pe::Operand;

static Opcode loadOpcode(unsigned bytes) {
  return bytes == 1 ? Opcode::Ld8U : bytes == 2 ? Opcode::Ld16U : Opcode::Ld32;
}
static Opcode storeOpcode(unsigned bytes) {
  return bytes == 1 ? Opcode::St8 : bytes == 2 ? Opcode::St16 : Opcode::St32;
}

FailureOr<FunctionLowering::Address>
FunctionLowering::elementAddress(Value memref, ValueRange indices,
                                 Location loc) {
  auto type = dyn_cast<MemRefType>(memref.getType());
  if (!type)
    return emitError(loc) << "expected a memref";
  if (isa<csl::DSDType>(type.getElementType()))
    return emitError(loc) << "arrays of DSDs are not supported by this cslc";
  unsigned bytes = getStorageBytes(type.getElementType());
  // Row-major strides in bytes; a dynamic extent is allowed only outermost.
  llvm::SmallVector<int64_t> strides(type.getRank(), bytes);
  for (int64_t d = type.getRank() - 2; d >= 0; --d) {
    if (type.isDynamicDim(d + 1))
      return emitError(loc) << "arrays with a run-time size are supported "
                               "only in their outermost dimension";
    strides[d] = strides[d + 1] * type.getDimSize(d + 1);
  }
  int64_t constOffset = 0;
  std::optional<unsigned> dynamic;
  for (auto [index, stride] : llvm::zip(indices, strides)) {
    if (std::optional<int64_t> c = getConst(index)) {
      constOffset += static_cast<int32_t>(*c) * stride;
      continue;
    }
    unsigned r = use(index, loc);
    unsigned s = r >= FirstScratch ? r : scratch();
    if (stride == 1) {
      if (s != r)
        emit(Opcode::Mov, {Operand::reg(s), Operand::reg(r)}, loc);
    } else if (llvm::isPowerOf2_64(stride)) {
      emit(Opcode::ShlI,
           {Operand::reg(s), Operand::reg(r),
            Operand::imm(llvm::Log2_64(stride))},
           loc);
    } else {
      unsigned k = scratch();
      loadImm(k, stride, loc);
      emit(Opcode::Mul, {Operand::reg(s), Operand::reg(r), Operand::reg(k)},
           loc);
    }
    if (dynamic)
      emit(Opcode::Add,
           {Operand::reg(*dynamic), Operand::reg(*dynamic), Operand::reg(s)},
           loc);
    else
      dynamic = s;
  }

  Address address;
  ValueLoc base = locs.lookup(memref);
  if (base.kind == LocKind::Const) {
    constOffset += base.value;
    if (!dynamic) {
      unsigned t = scratch();
      loadImm(t, constOffset, loc);
      return Address{t, 0};
    }
    address = {*dynamic, constOffset};
  } else if (base.kind == LocKind::FrameAddr) {
    constOffset += base.value;
    if (dynamic)
      emit(Opcode::Add,
           {Operand::reg(*dynamic), Operand::reg(*dynamic),
            Operand::reg(pe::StackRegister)},
           loc);
    address = {dynamic ? *dynamic : pe::StackRegister, constOffset};
  } else {
    unsigned b = use(memref, loc);
    if (dynamic)
      emit(Opcode::Add,
           {Operand::reg(*dynamic), Operand::reg(*dynamic), Operand::reg(b)},
           loc);
    address = {dynamic ? *dynamic : b, constOffset};
  }
  if (address.offset < -32768 || address.offset > 32767) {
    unsigned t = scratch();
    loadImm(t, address.offset, loc);
    emit(Opcode::Add,
         {Operand::reg(t), Operand::reg(t), Operand::reg(address.base)}, loc);
    address = {t, 0};
  }
  return address;
}

LogicalResult FunctionLowering::lowerMemRef(Operation *op, bool &handled) {
  handled = true;
  Location loc = op->getLoc();
  if (auto load = dyn_cast<memref::LoadOp>(op)) {
    FailureOr<Address> a =
        elementAddress(load.getMemRef(), load.getIndices(), loc);
    if (failed(a))
      return failure();
    unsigned d = def(load.getResult());
    emit(loadOpcode(getStorageBytes(load.getType())),
         {Operand::reg(d), Operand::reg(a->base), Operand::imm(a->offset)},
         loc);
    finish(load.getResult(), d, loc);
    return success();
  }
  if (auto store = dyn_cast<memref::StoreOp>(op)) {
    unsigned v = use(store.getValueToStore(), loc);
    FailureOr<Address> a =
        elementAddress(store.getMemRef(), store.getIndices(), loc);
    if (failed(a))
      return failure();
    emit(storeOpcode(getStorageBytes(store.getValueToStore().getType())),
         {Operand::reg(v), Operand::reg(a->base), Operand::imm(a->offset)},
         loc);
    return success();
  }
  if (auto ea = dyn_cast<csl::ElementAddressOp>(op)) {
    FailureOr<Address> a = elementAddress(ea.getBase(), ea.getIndices(), loc);
    if (failed(a))
      return failure();
    unsigned d = def(ea.getResult());
    emit(Opcode::AddI,
         {Operand::reg(d), Operand::reg(a->base), Operand::imm(a->offset)},
         loc);
    finish(ea.getResult(), d, loc);
    return success();
  }
  // Casts keep the address: constants and frame addresses are shared.
  if (isa<memref::CastOp, csl::PtrCastOp, csl::AddressToPointerOp>(op)) {
    Value src = op->getOperand(0), result = op->getResult(0);
    ValueLoc l = locs.lookup(src);
    if (l.kind == LocKind::Const || l.kind == LocKind::FrameAddr) {
      locs[result] = l;
      return success();
    }
    unsigned a = use(src, loc);
    unsigned d = def(result);
    if (a != d)
      emit(Opcode::Mov, {Operand::reg(d), Operand::reg(a)}, loc);
    finish(result, d, loc);
    return success();
  }
  if (auto load = dyn_cast<csl::LoadPointerOp>(op)) {
    unsigned t = scratch();
    loadImm(t, ctx.globalAddress.lookup(load.getGlobal()), loc);
    unsigned d = def(load.getResult());
    emit(Opcode::Ld16U, {Operand::reg(d), Operand::reg(t), Operand::imm(0)},
         loc);
    finish(load.getResult(), d, loc);
    return success();
  }
  if (auto store = dyn_cast<csl::StorePointerOp>(op)) {
    unsigned v = use(store.getValue(), loc);
    unsigned t = scratch();
    loadImm(t, ctx.globalAddress.lookup(store.getGlobal()), loc);
    emit(Opcode::St16, {Operand::reg(v), Operand::reg(t), Operand::imm(0)},
         loc);
    return success();
  }
  handled = false;
  return success();
}
