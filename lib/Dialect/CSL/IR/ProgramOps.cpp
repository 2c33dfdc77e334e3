//===- ProgramOps.cpp - programs, tasks and exports -----------------------===//

#include "tessera/Dialect/CSL/IR/CSLOps.h"
#include "tessera/Dialect/CSL/IR/CSLTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/Dialect/MemRef/IR/MemRef.h"
#include "mlir/IR/Builders.h"
#include "mlir/IR/OpImplementation.h"
#include "mlir/Interfaces/FunctionImplementation.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/StringMap.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::csl;

//===----------------------------------------------------------------------===//
// ProgramOp
//===----------------------------------------------------------------------===//

void ProgramOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                      Arch arch) {
  state.getOrAddProperties<Properties>().sym_name = builder.getStringAttr(name);
  state.getOrAddProperties<Properties>().arch =
      ArchAttr::get(builder.getContext(), arch);
  state.addRegion()->emplaceBlock();
}

namespace {

/// Program-wide resources that may be claimed once: task IDs, queues and
/// host names. Reports the second claim with a note at the first.
template <typename Key> class ClaimTable {
public:
  /// Returns the op that claimed `key` before, or null after claiming it.
  Operation *claim(const Key &key, Operation *op) {
    auto [it, inserted] = owners.try_emplace(key, op);
    return inserted ? nullptr : it->second;
  }

  bool contains(const Key &key) const { return owners.contains(key); }

private:
  llvm::DenseMap<Key, Operation *> owners;
};

LogicalResult reportSecondClaim(Operation *second, Operation *first,
                                const Twine &message, StringRef noteText) {
  InFlightDiagnostic diag = second->emitOpError() << message;
  diag.attachNote(first->getLoc()) << noteText;
  return diag;
}

} // namespace

LogicalResult ProgramOp::verifyRegions() {
  const target::TargetModel &model =
      target::TargetModel::get(toTargetArch(getArch()));
  // A separate control task table gives control tasks IDs of their own.
  Operation *controlTable = nullptr;
  for (auto table : getBody().front().getOps<ControlTaskTableOp>()) {
    if (controlTable)
      return reportSecondClaim(table, controlTable,
                               "the separate control task table is set twice",
                               "first set here");
    controlTable = table;
  }
  // Keyed by (table, ID): table 1 is the separate control task table.
  ClaimTable<std::pair<unsigned, int64_t>> taskIDs;
  ClaimTable<std::pair<unsigned, int64_t>> queues;
  llvm::StringMap<Operation *> hostNames;
  SmallVector<TaskOp> dataTasks;

  for (Operation &op : getBody().front()) {
    if (auto task = dyn_cast<TaskOp>(op)) {
      std::optional<uint64_t> id = task.getId();
      if (!id)
        continue;
      unsigned table = controlTable && task.getKind() == TaskKind::Control;
      if (Operation *first =
              taskIDs.claim({table, static_cast<int64_t>(*id)}, task))
        return reportSecondClaim(task, first,
                                 "task ID " + Twine(*id) +
                                     " is already bound to '" +
                                     cast<TaskOp>(first).getSymName() + "'",
                                 "first bound here");
      if (task.getKind() == TaskKind::Data)
        dataTasks.push_back(task);
      continue;
    }
    if (auto init = dyn_cast<InitializeQueueOp>(op)) {
      auto key = std::make_pair(static_cast<unsigned>(init.getQueueKind()),
                                static_cast<int64_t>(init.getQueue()));
      if (Operation *first = queues.claim(key, init))
        return reportSecondClaim(init, first,
                                 stringifyQueueKind(init.getQueueKind()) +
                                     " queue " + Twine(init.getQueue()) +
                                     " is bound twice",
                                 "first bound here");
      continue;
    }
    if (auto exported = dyn_cast<ExportOp>(op)) {
      auto [it, inserted] = hostNames.try_emplace(exported.getName(), &op);
      if (!inserted)
        return reportSecondClaim(exported, it->second,
                                 "host name '" + exported.getName() +
                                     "' is exported twice",
                                 "first exported here");
    }
  }

  // On WSE-3 a data task drains an input queue, which must carry a color.
  if (model.getDataTaskSource() == target::DataTaskSource::InputQueue) {
    for (TaskOp task : dataTasks) {
      auto key = std::make_pair(static_cast<unsigned>(QueueKind::Input),
                                static_cast<int64_t>(*task.getId()));
      if (queues.contains(key))
        continue;
      return task.emitOpError()
             << "data task '" << task.getSymName() << "' is bound to input "
             << "queue " << *task.getId()
             << ", which no csl.initialize_queue binds to a color";
    }
  }
  return success();
}

//===----------------------------------------------------------------------===//
// TaskOp
//===----------------------------------------------------------------------===//

void TaskOp::build(OpBuilder &builder, OperationState &state, StringRef name,
                   TaskKind kind, TypeRange argTypes,
                   std::optional<int64_t> id) {
  Properties &props = state.getOrAddProperties<Properties>();
  props.sym_name = builder.getStringAttr(name);
  props.function_type =
      TypeAttr::get(builder.getFunctionType(argTypes, /*results=*/{}));
  props.kind = TaskKindAttr::get(builder.getContext(), kind);
  if (id)
    props.id = builder.getI64IntegerAttr(*id);
  Block &entry = state.addRegion()->emplaceBlock();
  for (Type type : argTypes)
    entry.addArgument(type, state.location);
}

// csl.task <kind> @name(<args>) [id <n>] [attributes {...}] <body>
ParseResult TaskOp::parse(OpAsmParser &parser, OperationState &result) {
  Builder &builder = parser.getBuilder();
  Properties &props = result.getOrAddProperties<Properties>();

  StringRef kindName;
  SMLoc kindLoc = parser.getCurrentLocation();
  if (parser.parseKeyword(&kindName))
    return failure();
  std::optional<TaskKind> kind = symbolizeTaskKind(kindName);
  if (!kind)
    return parser.emitError(kindLoc)
           << "expected task kind 'data', 'local' or 'control', got '"
           << kindName << "'";
  props.kind = TaskKindAttr::get(builder.getContext(), *kind);

  StringAttr name;
  if (parser.parseSymbolName(name))
    return failure();
  props.sym_name = name;

  SmallVector<OpAsmParser::Argument> arguments;
  SmallVector<Type> resultTypes;
  SmallVector<DictionaryAttr> resultAttrs;
  bool isVariadic = false;
  SMLoc signatureLoc = parser.getCurrentLocation();
  if (function_interface_impl::parseFunctionSignatureWithArguments(
          parser, /*allowVariadic=*/false, arguments, isVariadic, resultTypes,
          resultAttrs))
    return failure();
  if (!resultTypes.empty())
    return parser.emitError(signatureLoc) << "tasks return nothing";

  SmallVector<Type> argTypes;
  for (OpAsmParser::Argument &argument : arguments)
    argTypes.push_back(argument.type);
  props.function_type =
      TypeAttr::get(builder.getFunctionType(argTypes, /*results=*/{}));

  if (succeeded(parser.parseOptionalKeyword("id"))) {
    int64_t id;
    if (parser.parseInteger(id))
      return failure();
    props.id = builder.getI64IntegerAttr(id);
  }
  if (parser.parseOptionalAttrDictWithKeyword(result.attributes))
    return failure();

  call_interface_impl::addArgAndResultAttrs(
      builder, result, arguments, resultAttrs, getArgAttrsAttrName(result.name),
      getResAttrsAttrName(result.name));
  return parser.parseRegion(*result.addRegion(), arguments,
                            /*enableNameShadowing=*/false);
}

void TaskOp::print(OpAsmPrinter &p) {
  p << ' ' << stringifyTaskKind(getKind()) << ' ';
  p.printSymbolName(getSymName());
  function_interface_impl::printFunctionSignature(
      p, *this, getArgumentTypes(), /*isVariadic=*/false, getResultTypes());
  if (std::optional<uint64_t> id = getId())
    p << " id " << *id;
  function_interface_impl::printFunctionAttributes(
      p, *this,
      {getSymNameAttrName(), getFunctionTypeAttrName(), getKindAttrName(),
       getIdAttrName(), getArgAttrsAttrName(), getResAttrsAttrName()});
  p << ' ';
  p.printRegion(getBody(), /*printEntryBlockArgs=*/false,
                /*printBlockTerminators=*/true);
}

LogicalResult TaskOp::verify() {
  const target::TargetModel &model = *getEnclosingTarget(*this);
  ArrayRef<Type> args = getArgumentTypes();
  StringRef kindName = stringifyTaskKind(getKind());

  if (!getResultTypes().empty())
    return emitOpError() << "tasks return nothing";

  for (auto [index, type] : llvm::enumerate(args))
    if (!type.isIntOrFloat())
      return emitOpError() << "argument #" << index << " has type " << type
                           << "; task arguments are integers or floats";

  unsigned maxArgs = target::TargetModel::getMaxTaskArgs();
  switch (getKind()) {
  case TaskKind::Local:
    if (!args.empty())
      return emitOpError() << "a local task takes no arguments, got "
                           << args.size();
    break;
  case TaskKind::Control:
    if (args.size() > maxArgs)
      return emitOpError() << "a control task takes at most " << maxArgs
                           << " arguments, got " << args.size();
    break;
  case TaskKind::Data: {
    if (args.empty() || args.size() > maxArgs)
      return emitOpError() << "a data task takes 1 to " << maxArgs
                           << " arguments, got " << args.size();
    // The arguments split one wavelet payload into equal parts.
    unsigned width = args.front().getIntOrFloatBitWidth();
    for (Type type : args.drop_front())
      if (type.getIntOrFloatBitWidth() != width)
        return emitOpError() << "data task arguments split the payload "
                                "evenly and must have one width, got "
                             << args.front() << " and " << type;
    unsigned payload = target::TargetModel::getWaveletPayloadBits();
    if (width * args.size() > payload)
      return emitOpError() << "data task arguments need " << width * args.size()
                           << " bits, more than the " << payload
                           << "-bit wavelet payload";
    break;
  }
  }

  if (std::optional<uint64_t> id = getId()) {
    target::IDRange range = model.getTaskIDRange(toTargetTaskKind(getKind()));
    if (!range.contains(static_cast<int64_t>(*id)))
      return emitOpError() << kindName << " task ID "
                           << static_cast<int64_t>(*id)
                           << " is out of range for " << model.getName() << " ("
                           << formatRange(range) << ")";
  }
  return success();
}

//===----------------------------------------------------------------------===//
// ExportOp
//===----------------------------------------------------------------------===//

static bool isABIScalar(Type type) {
  return type.isIntOrFloat() && (type.getIntOrFloatBitWidth() == 16 ||
                                 type.getIntOrFloatBitWidth() == 32);
}

LogicalResult ExportOp::verifySymbolUses(SymbolTableCollection &symbolTable) {
  Operation *target =
      symbolTable.lookupNearestSymbolFrom(*this, getSymbolAttr());
  Type type = getType();

  if (auto global = dyn_cast_if_present<memref::GlobalOp>(target)) {
    if (global.getType() != type)
      return emitOpError() << "exported type " << type
                           << " does not match the type of '" << getSymbol()
                           << "', " << global.getType();
    if (!isABIScalar(global.getType().getElementType()))
      return emitOpError() << "exports need 16- or 32-bit elements, '"
                           << getSymbol() << "' holds "
                           << global.getType().getElementType();
    if (getIsMutable() && global.getConstant())
      return emitOpError() << "constant global '" << getSymbol()
                           << "' cannot be exported as mutable";
    return success();
  }

  // An exported pointer variable: the host reaches what it points to.
  if (auto pointer = dyn_cast_if_present<PointerGlobalOp>(target)) {
    if (pointer.getType() != type)
      return emitOpError() << "exported type " << type
                           << " does not match the type of '" << getSymbol()
                           << "', " << pointer.getType();
    Type element = cast<MemRefType>(pointer.getType()).getElementType();
    if (!isABIScalar(element))
      return emitOpError() << "exports need 16- or 32-bit elements, '"
                           << getSymbol() << "' points to " << element;
    return success();
  }

  if (auto func = dyn_cast_if_present<func::FuncOp>(target)) {
    if (func.getFunctionType() != type)
      return emitOpError() << "exported type " << type
                           << " does not match the type of '" << getSymbol()
                           << "', " << func.getFunctionType();
    if (getIsMutable())
      return emitOpError() << "function '" << getSymbol()
                           << "' cannot be exported as mutable";
    if (func.getNumResults() != 0)
      return emitOpError() << "exported function '" << getSymbol()
                           << "' must not return a value";
    for (auto [index, arg] : llvm::enumerate(func.getArgumentTypes()))
      if (!isABIScalar(arg))
        return emitOpError() << "exported function '" << getSymbol()
                             << "' takes " << arg << " as argument #" << index
                             << "; exports need 16- or 32-bit scalars";
    return success();
  }

  return emitOpError() << "'" << getSymbol()
                       << "' does not name a global or function of this "
                          "program";
}
