//===- HandleOps.cpp - hardware handles, task control and queues ----------===//

#include "tessera/Dialect/CSL/IR/CSLOps.h"
#include "tessera/Dialect/CSL/IR/CSLTarget.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Builders.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::csl;

namespace {

/// Checks a hardware ID: never negative, and inside `range` when the
/// architecture is known. `what` names the resource ("color", "input queue").
LogicalResult verifyID(Operation *op, int64_t id, StringRef what,
                       const target::TargetModel *model,
                       std::optional<target::IDRange> range) {
  if (id < 0)
    return op->emitOpError() << what << " id must be non-negative, got " << id;
  if (model && range && !range->contains(id))
    return op->emitOpError()
           << what << " " << id << " is out of range for " << model->getName()
           << " (" << formatRange(*range) << ")";
  return success();
}

/// IDs 0..count-1; an empty range when count is 0.
std::optional<target::IDRange> firstN(const target::TargetModel *model,
                                      unsigned count) {
  if (!model || count == 0)
    return std::nullopt;
  return target::IDRange{0, count - 1};
}

LogicalResult verifyColor(Operation *op, int64_t color) {
  const target::TargetModel *model = getEnclosingTarget(op);
  return verifyID(op, color, "color", model,
                  firstN(model, model ? model->getNumRoutableColors() : 0));
}

LogicalResult verifyQueue(Operation *op, QueueKind kind, int64_t queue) {
  const target::TargetModel *model = getEnclosingTarget(op);
  unsigned count = 0;
  if (model)
    count = kind == QueueKind::Input ? model->getNumInputQueues()
                                     : model->getNumOutputQueues();
  std::string what = (stringifyQueueKind(kind) + " queue").str();
  return verifyID(op, queue, what, model, firstN(model, count));
}

} // namespace

//===----------------------------------------------------------------------===//
// Handles
//===----------------------------------------------------------------------===//

LogicalResult GetColorOp::verify() {
  return verifyColor(*this, static_cast<int64_t>(getId()));
}

LogicalResult GetInputQueueOp::verify() {
  return verifyQueue(*this, QueueKind::Input, static_cast<int64_t>(getId()));
}

LogicalResult GetOutputQueueOp::verify() {
  return verifyQueue(*this, QueueKind::Output, static_cast<int64_t>(getId()));
}

LogicalResult GetTaskIDOp::verify() {
  const target::TargetModel *model = getEnclosingTarget(*this);
  TaskKind kind = getType().getKind();
  std::optional<target::IDRange> range;
  if (model)
    range = model->getTaskIDRange(toTargetTaskKind(kind));
  std::string what = (stringifyTaskKind(kind) + " task ID").str();
  return verifyID(*this, static_cast<int64_t>(getId()), what, model, range);
}

LogicalResult GetMicrothreadIDOp::verify() {
  const target::TargetModel *model = getEnclosingTarget(*this);
  if (model && model->getNumMicrothreadIDs() == 0)
    return emitOpError() << "microthread IDs are not available on "
                         << model->getName();
  return verifyID(*this, static_cast<int64_t>(getId()), "microthread", model,
                  firstN(model, model ? model->getNumMicrothreadIDs() : 0));
}

LogicalResult TaskIDOfOp::verifySymbolUses(SymbolTableCollection &symbols) {
  auto task = symbols.lookupNearestSymbolFrom<TaskOp>(*this, getTaskAttr());
  if (!task)
    return emitOpError() << "'" << getTask() << "' does not name a task";
  if (task.getKind() != getType().getKind())
    return emitOpError() << "'" << getTask() << "' is a "
                         << stringifyTaskKind(task.getKind())
                         << " task, but the result is " << getType();
  return success();
}

//===----------------------------------------------------------------------===//
// Task control
//===----------------------------------------------------------------------===//

namespace {

/// "a color", "an input queue", ... for messages.
StringRef describeBlockable(Type type) {
  if (isa<ColorType>(type))
    return "a color";
  if (isa<InputQueueType>(type))
    return "an input queue";
  if (isa<OutputQueueType>(type))
    return "an output queue";
  if (isa<MicrothreadIDType>(type))
    return "a microthread";
  return "a task";
}

/// Colors can be blocked where data tasks hang off colors (WSE-2); queues
/// and microthreads where they hang off queues (WSE-3).
LogicalResult verifyBlockable(Operation *op, Type type, StringRef verb) {
  const target::TargetModel *model = getEnclosingTarget(op);
  if (!model || isa<TaskIDType>(type))
    return success();
  bool allowed =
      isa<ColorType>(type) ? model->canBlockColors() : model->canBlockQueues();
  if (!allowed)
    return op->emitOpError()
           << "cannot " << verb << " " << describeBlockable(type) << " on "
           << model->getName();
  return success();
}

} // namespace

LogicalResult BlockOp::verify() {
  return verifyBlockable(*this, getTarget().getType(), "block");
}

LogicalResult UnblockOp::verify() {
  return verifyBlockable(*this, getTarget().getType(), "unblock");
}

LogicalResult QueueFlushOp::verify() {
  const target::TargetModel *model = getEnclosingTarget(*this);
  if (model && !model->hasQueueFlush())
    return emitOpError() << "is not available on " << model->getName();
  return success();
}

//===----------------------------------------------------------------------===//
// Bindings
//===----------------------------------------------------------------------===//

LogicalResult InitializeQueueOp::verify() {
  if (failed(
          verifyQueue(*this, getQueueKind(), static_cast<int64_t>(getQueue()))))
    return failure();
  if (failed(verifyColor(*this, static_cast<int64_t>(getColor()))))
    return failure();
  std::optional<uint64_t> table = getCtrlTableId();
  if (!table)
    return success();
  if (getQueueKind() != QueueKind::Input)
    return emitOpError() << "ctrl_table_id is only for input queues";
  constexpr target::IDRange range =
      target::TargetModel::getControlTableIDRange();
  if (!range.contains(static_cast<int64_t>(*table)))
    return emitOpError() << "ctrl_table_id " << *table << " is out of range ("
                         << formatRange(range) << ")";
  auto program = (*this)->getParentOfType<ProgramOp>();
  if (program && program.getBody().front().getOps<ControlTaskTableOp>().empty())
    return emitOpError() << "ctrl_table_id needs a separate control task "
                            "table (csl.control_task_table)";
  return success();
}

LogicalResult ControlTaskTableOp::verify() {
  const target::TargetModel *model = getEnclosingTarget(*this);
  if (model && !model->hasSeparateControlTaskTable())
    return emitOpError() << "is not available on " << model->getName();
  auto choices = target::TargetModel::getControlTableInstructionChoices();
  if (!llvm::is_contained(choices, getInstructions()))
    return emitOpError() << "instructions must be 2, 4 or 8, got "
                         << getInstructions();
  constexpr target::IDRange strides =
      target::TargetModel::getControlTableStrideRange();
  if (!strides.contains(static_cast<int64_t>(getStride())))
    return emitOpError() << "stride must be in " << formatRange(strides)
                         << ", got " << getStride();
  return success();
}

LogicalResult SetTeardownHandlerOp::verify() {
  return verifyColor(*this, static_cast<int64_t>(getColor()));
}

LogicalResult
SetTeardownHandlerOp::verifySymbolUses(SymbolTableCollection &symbols) {
  auto handler =
      symbols.lookupNearestSymbolFrom<func::FuncOp>(*this, getHandlerAttr());
  if (!handler)
    return emitOpError() << "'" << getHandler() << "' does not name a function";
  if (handler.getNumArguments() != 0 || handler.getNumResults() != 0)
    return emitOpError() << "teardown handler '" << getHandler()
                         << "' must take no arguments and return nothing";
  return success();
}
