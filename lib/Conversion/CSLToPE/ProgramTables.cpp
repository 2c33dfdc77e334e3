//===- ProgramTables.cpp - lay out code and fill a binary's tables -------===//

#include "ProgramTables.h"
#include "LoweringUtils.h"
#include "tessera/Conversion/CSLToPE/CSLToPE.h"
#include "tessera/Support/Format.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "tessera/Dialect/CSL/IR/CSLTarget.h"
#include "tessera/Dialect/CSL/Transforms/MemoryAllocator.h"
#include "tessera/Dialect/CSL/Transforms/Passes.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::lowering;

namespace {

/// The file:line:col an instruction came from (the innermost file location
/// of call-site, fused and named locations).
std::optional<FileLineColLoc> fileLocation(Location loc) {
  std::optional<FileLineColLoc> found;
  loc->walk([&](Location l) {
    if (auto f = dyn_cast<FileLineColLoc>(l)) {
      found = f;
      return WalkResult::interrupt();
    }
    return WalkResult::advance();
  });
  return found;
}

/// Little-endian bytes of a global's initial value.
LogicalResult writeInitialValue(memref::GlobalOp global,
                                std::vector<uint8_t> &data, uint32_t address) {
  auto init = dyn_cast_or_null<DenseElementsAttr>(global.getInitialValueAttr());
  if (!init)
    return success();
  Type elem = init.getElementType();
  unsigned bytes = getStorageBytes(elem);
  size_t i = 0;
  auto put = [&](uint64_t bits) {
    size_t at = address + i * bytes;
    for (unsigned b = 0; b < bytes && at + b < data.size(); ++b)
      data[at + b] = static_cast<uint8_t>(bits >> (8 * b));
    ++i;
  };
  if (isa<FloatType>(elem)) {
    for (const APFloat &v : init.getValues<APFloat>())
      put(v.bitcastToAPInt().getZExtValue());
  } else if (elem.isIntOrIndex()) {
    for (const APInt &v : init.getValues<APInt>())
      put(v.getZExtValue());
  } else {
    return emitError(global.getLoc()) << "cannot write the initial value of '"
                                      << global.getSymName() << "'";
  }
  return success();
}

} // namespace

LogicalResult lowering::assembleProgram(
    ProgramContext &ctx,
    const std::vector<std::unique_ptr<MachineFunction>> &functions,
    bool hasStartup, uint32_t stackBytes, pe::ProgramBinary &binary) {
  csl::ProgramOp program = ctx.program;
  uint32_t capacity = ctx.model.getPEMemoryBytes();

  // Data first (addresses from tessera-allocate-memory), then code.
  std::vector<csl::MemoryPiece> pieces;
  std::vector<Operation *> pieceOps;
  for (Operation &op : program.getBody().front()) {
    if (!csl::isMemoryGlobal(&op))
      continue;
    FailureOr<csl::MemoryPiece> piece = csl::getGlobalMemoryPiece(&op);
    if (failed(piece))
      return failure();
    pieces.push_back(*piece);
    pieceOps.push_back(&op);
  }
  auto endAttr = [&](StringRef name) -> std::optional<uint32_t> {
    if (auto a = program->getAttrOfType<IntegerAttr>(name))
      return a.getInt();
    return std::nullopt;
  };
  std::optional<uint32_t> dataEndAttr = endAttr(csl::kDataEndAttrName);
  std::optional<uint32_t> bssEndAttr = endAttr(csl::kBssEndAttrName);
  if (!dataEndAttr || !bssEndAttr)
    return emitError(program.getLoc())
           << "program '" << program.getSymName()
           << "' has no memory layout (run tessera-allocate-memory first)";
  uint32_t dataEnd = *dataEndAttr, bssEnd = *bssEndAttr;
  uint32_t codeBegin = (bssEnd + 1) & ~1u;

  // Addresses of every instruction and function.
  // Instructions without a fixup are encoded once, here; their words are
  // copied below (the placeholder of a fixup has the final value's size).
  llvm::StringMap<uint32_t> functionAddress;
  std::vector<std::vector<uint32_t>> instAddress(functions.size());
  std::vector<uint16_t> encoded;
  uint32_t pc = codeBegin;
  for (auto [f, mf] : llvm::enumerate(functions)) {
    functionAddress[mf->symbol] = pc;
    for (const MachineInst &mi : mf->insts) {
      instAddress[f].push_back(pc);
      if (mi.deleted)
        continue;
      size_t before = encoded.size();
      if (std::optional<pe::ISAError> error = pe::encode(mi.inst, encoded))
        return emitError(mi.loc)
               << "internal error: cannot encode '" << pe::format(mi.inst)
               << "': " << error->message;
      pc += 2 * (encoded.size() - before);
    }
    instAddress[f].push_back(pc); // labels at the end of the function
  }
  uint32_t codeBytes = pc - codeBegin;

  // Memory budget: the allocator lays out data, code and stack together,
  // and names the largest pieces when they do not fit.
  pieces.push_back({"code", csl::MemoryPieceKind::Code, codeBytes, 2});
  // A separate control task table holds its entries' instructions inline,
  // after the code.
  for (auto table : program.getBody().front().getOps<csl::ControlTaskTableOp>())
    pieces.push_back(
        {"control task table", csl::MemoryPieceKind::Code,
         target::TargetModel::get(csl::toTargetArch(program.getArch()))
             .getControlTableBytes(
                 static_cast<unsigned>(table.getInstructions())),
         2});
  pieces.push_back({"stack", csl::MemoryPieceKind::Stack, stackBytes,
                    csl::MemoryAllocator::getStackAlignment()});
  csl::MemoryLayout layout;
  if (std::optional<csl::MemoryOverflow> overflow =
          csl::MemoryAllocator(capacity).allocate(pieces, layout)) {
    InFlightDiagnostic diag = emitError(program.getLoc())
                              << "program '" << program.getSymName() << "' "
                              << overflow->message;
    for (size_t index : overflow->largest)
      if (index < pieceOps.size())
        diag.attachNote(pieceOps[index]->getLoc())
            << "'" << pieces[index].name << "' takes "
            << formatThousands(pieces[index].bytes) << " bytes";
    return diag;
  }
  if (layout.codeBegin != codeBegin)
    return emitError(program.getLoc())
           << "internal error: the code moved from " << codeBegin << " to "
           << layout.codeBegin << " in the final layout";

  // Encode, resolving fixups, and record source lines.
  binary = {};
  binary.arch = csl::toTargetArch(program.getArch());
  binary.codeAddress = codeBegin;
  llvm::StringMap<uint16_t> fileIndex;
  // One line entry where the source position changes.
  auto recordLine = [&](const MachineInst &mi, uint32_t address) {
    std::optional<FileLineColLoc> l = fileLocation(mi.loc);
    if (!l)
      return;
    auto [it, inserted] =
        fileIndex.try_emplace(l->getFilename().getValue(), binary.files.size());
    if (inserted)
      binary.files.push_back(l->getFilename().str());
    pe::LineEntry entry{static_cast<uint16_t>(address), it->second,
                        l->getLine(), static_cast<uint16_t>(l->getColumn())};
    if (binary.lines.empty() || binary.lines.back().file != entry.file ||
        binary.lines.back().line != entry.line ||
        binary.lines.back().column != entry.column)
      binary.lines.push_back(entry);
  };
  for (auto [f, mf] : llvm::enumerate(functions)) {
    for (auto [i, mi] : llvm::enumerate(mf->insts)) {
      if (mi.deleted)
        continue;
      size_t offset = (instAddress[f][i] - codeBegin) / 2;
      size_t words = (instAddress[f][i + 1] - instAddress[f][i]) / 2;
      if (mi.fixup.kind == Fixup::Kind::None) {
        binary.code.insert(binary.code.end(), encoded.begin() + offset,
                           encoded.begin() + offset + words);
        recordLine(mi, instAddress[f][i]);
        continue;
      }
      pe::Instruction inst = mi.inst;
      if (mi.fixup.kind == Fixup::Kind::Label) {
        inst.operands[mi.fixup.operand] =
            pe::Operand::imm(instAddress[f][mf->labels[mi.fixup.label]]);
      } else if (mi.fixup.kind == Fixup::Kind::Function) {
        auto it = functionAddress.find(mi.fixup.function);
        if (it == functionAddress.end())
          return emitError(mi.loc) << "call to '" << mi.fixup.function
                                   << "', which is not in this program";
        inst.operands[mi.fixup.operand] = pe::Operand::imm(it->second);
      }
      size_t before = binary.code.size();
      if (std::optional<pe::ISAError> error = pe::encode(inst, binary.code))
        return emitError(mi.loc) << "cannot encode '" << pe::format(inst)
                                 << "': " << error->message;
      if (binary.code.size() - before != words)
        return emitError(mi.loc) << "internal error: '" << pe::format(inst)
                                 << "' changed size when its target was set";
      recordLine(mi, instAddress[f][i]);
    }
  }

  // Data: initial values below csl.data_end, zeros after.
  binary.dataAddress = 0;
  binary.data.assign(dataEnd, 0);
  binary.bssAddress = dataEnd;
  binary.bssSize = bssEnd - dataEnd;
  for (Operation &op : program.getBody().front()) {
    if (auto g = dyn_cast<memref::GlobalOp>(op)) {
      uint32_t address = ctx.globalAddress.lookup(g.getSymName());
      if (address < dataEnd &&
          failed(writeInitialValue(g, binary.data, address)))
        return failure();
      pe::ElemType type = toPEElemType(g.getType().getElementType());
      if (type != pe::ElemType::None)
        binary.variables.push_back(
            {g.getSymName().str(), static_cast<uint16_t>(address), type,
             static_cast<uint32_t>(g.getType().getNumElements())});
    } else if (auto p = dyn_cast<csl::PointerGlobalOp>(op)) {
      uint32_t address = ctx.globalAddress.lookup(p.getSymName());
      binary.variables.push_back({p.getSymName().str(),
                                  static_cast<uint16_t>(address),
                                  pe::ElemType::U16, 1});
      if (p.getTarget() && address + 2 <= dataEnd) {
        uint32_t target = ctx.globalAddress.lookup(*p.getTarget());
        binary.data[address] = target & 0xFF;
        binary.data[address + 1] = target >> 8;
      }
    }
  }

  // Tasks, queues, start-up actions.
  for (Operation &op : program.getBody().front()) {
    if (auto task = dyn_cast<csl::TaskOp>(op)) {
      target::TaskKind kind =
          task.getKind() == csl::TaskKind::Data      ? target::TaskKind::Data
          : task.getKind() == csl::TaskKind::Control ? target::TaskKind::Control
                                                     : target::TaskKind::Local;
      binary.tasks.push_back(
          {kind, static_cast<uint8_t>(*task.getId()),
           static_cast<uint16_t>(functionAddress.lookup(task.getSymName()))});
    } else if (auto q = dyn_cast<csl::InitializeQueueOp>(op)) {
      binary.queues.push_back(
          {q.getQueueKind() == csl::QueueKind::Output,
           static_cast<uint8_t>(q.getQueue()),
           static_cast<uint8_t>(q.getColor()),
           static_cast<uint8_t>(q.getCtrlTableId().value_or(0))});
    } else if (auto table = dyn_cast<csl::ControlTaskTableOp>(op)) {
      binary.controlTableInstructions =
          static_cast<uint8_t>(table.getInstructions());
      binary.controlTableStride = static_cast<uint8_t>(table.getStride());
    }
  }
  if (hasStartup)
    binary.startup.push_back(
        {pe::StartupKind::Call, pe::BlockSpace::Task,
         static_cast<uint16_t>(functionAddress.lookup("__startup"))});
  for (Operation &op : program.getBody().front()) {
    auto handleID = [](Value v) -> std::optional<int64_t> {
      Operation *def = v.getDefiningOp();
      if (!def)
        return std::nullopt;
      if (auto id = def->getAttrOfType<IntegerAttr>("id"))
        return id.getInt();
      return std::nullopt;
    };
    if (auto a = dyn_cast<csl::ActivateOp>(op)) {
      if (std::optional<int64_t> id = handleID(a.getTask()))
        binary.startup.push_back({pe::StartupKind::Activate,
                                  pe::BlockSpace::Task,
                                  static_cast<uint16_t>(*id)});
    } else if (isa<csl::BlockOp, csl::UnblockOp>(op)) {
      Value target = op.getOperand(0);
      if (std::optional<int64_t> id = handleID(target))
        binary.startup.push_back(
            {isa<csl::BlockOp>(op) ? pe::StartupKind::Block
                                   : pe::StartupKind::Unblock,
             getBlockSpace(&op, target.getType()), static_cast<uint16_t>(*id)});
    }
  }

  // Teardown handlers: function symbols the loader looks up by name
  // (docs/CodeGen.md), since the binary has no table of their own.
  for (Operation &op : program.getBody().front()) {
    auto t = dyn_cast<csl::SetTeardownHandlerOp>(op);
    if (!t)
      continue;
    auto it = functionAddress.find(t.getHandler());
    if (it == functionAddress.end())
      return emitError(t.getLoc()) << "teardown handler '" << t.getHandler()
                                   << "' is not a function of this program";
    pe::Symbol symbol;
    symbol.name = ("__teardown_handler." + llvm::Twine(t.getColor())).str();
    symbol.kind = pe::SymbolKind::Function;
    symbol.address = it->second;
    binary.symbols.push_back(std::move(symbol));
  }

  // Exported symbols; exported functions are the host's entry points.
  for (Operation &op : program.getBody().front()) {
    auto e = dyn_cast<csl::ExportOp>(op);
    if (!e)
      continue;
    Operation *target = ctx.symbols.lookup(e.getSymbol());
    pe::Symbol symbol;
    symbol.name = e.getName().str();
    symbol.isMutable = e.getIsMutable();
    if (auto f = dyn_cast_or_null<func::FuncOp>(target)) {
      symbol.kind = pe::SymbolKind::Function;
      symbol.address = functionAddress.lookup(f.getSymName());
      for (Type t : f.getArgumentTypes())
        symbol.params.push_back(toPEElemType(t));
      binary.entryPoints.push_back(binary.symbols.size());
    } else if (auto g = dyn_cast_or_null<memref::GlobalOp>(target)) {
      symbol.address = ctx.globalAddress.lookup(g.getSymName());
      symbol.elemType = toPEElemType(g.getType().getElementType());
      symbol.count = g.getType().getNumElements();
    } else if (auto p = dyn_cast_or_null<csl::PointerGlobalOp>(target)) {
      // The host reaches the array the pointer points to at load.
      auto type = cast<MemRefType>(p.getType());
      symbol.elemType = toPEElemType(type.getElementType());
      if (p.getTarget()) {
        symbol.address = ctx.globalAddress.lookup(*p.getTarget());
        if (auto t = ctx.symbols.lookup<memref::GlobalOp>(*p.getTarget()))
          symbol.count = t.getType().getNumElements();
      }
    } else {
      return emitError(e.getLoc())
             << "'" << e.getSymbol() << "' cannot be exported to the host";
    }
    binary.symbols.push_back(std::move(symbol));
  }
  return success();
}

pe::ElemType tessera::toPEElemType(Type type) {
  if (type.isF32())
    return pe::ElemType::F32;
  if (type.isF16())
    return pe::ElemType::F16;
  if (type.isBF16())
    return pe::ElemType::BF16;
  if (type.isInteger(1))
    return pe::ElemType::Bool;
  if (auto i = dyn_cast<IntegerType>(type)) {
    bool u = i.isUnsigned();
    switch (i.getWidth()) {
    case 8:
      return u ? pe::ElemType::U8 : pe::ElemType::I8;
    case 16:
      return u ? pe::ElemType::U16 : pe::ElemType::I16;
    case 32:
      return u ? pe::ElemType::U32 : pe::ElemType::I32;
    case 64:
      return u ? pe::ElemType::U64 : pe::ElemType::I64;
    }
  }
  if (type.isIndex())
    return pe::ElemType::U32;
  if (isa<MemRefType>(type))
    return pe::ElemType::U16; // a pointer: a 16-bit address
  return pe::ElemType::None;
}
