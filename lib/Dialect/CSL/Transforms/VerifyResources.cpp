//===- VerifyResources.cpp - a program's resources against its target -----===//
//
// The checks that need more than one operation or a fact the op verifiers
// do not know. Range checks each verifier makes on its own (task IDs per
// kind, one task per ID, colors, queues, microthreads) are not repeated.
// Handles are checked when their ID is a constant (a handle op); run-time
// handles are left to the hardware.
//
//===----------------------------------------------------------------------===//

#include "tessera/Dialect/CSL/Transforms/Passes.h"

#include "tessera/Dialect/CSL/IR/CSLTarget.h"
#include "tessera/Target/TargetModel.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "llvm/ADT/DenseMap.h"
#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/TypeSwitch.h"

namespace tessera::csl {
#define GEN_PASS_DEF_VERIFYRESOURCES
#include "tessera/Dialect/CSL/Transforms/Passes.h.inc"
} // namespace tessera::csl

using namespace mlir;
using namespace tessera;
using namespace tessera::csl;

using target::TargetModel;

namespace {

constexpr llvm::StringLiteral reservedByMemcpy =
    " is reserved by the memcpy infrastructure (--memcpy)";

/// MLIRGen prefixes the symbols of <memcpy/memcpy> with its module name.
constexpr llvm::StringLiteral memcpySymbolPrefix = "memcpy.";

/// Code of the memcpy library may use what memcpy reserves: an op belongs to
/// it when its nearest enclosing symbol (a task, function or DSD global, or
/// the op itself) is named `memcpy.*`. Ops directly in the program body
/// belong to the program.
bool isMemcpyCode(Operation *op) {
  for (; op && !isa<ProgramOp>(op); op = op->getParentOp())
    if (auto name =
            op->getAttrOfType<StringAttr>(SymbolTable::getSymbolAttrName()))
      return name.getValue().starts_with(memcpySymbolPrefix);
  return false;
}

bool contains(std::span<const unsigned> ids, int64_t id) {
  return llvm::any_of(
      ids, [&](unsigned each) { return static_cast<int64_t>(each) == id; });
}

class ResourceChecker {
public:
  ResourceChecker(ProgramOp program, bool memcpy)
      : program(program),
        model(TargetModel::get(toTargetArch(program.getArch()))),
        memcpy(memcpy),
        separateControlTable(
            !program.getBody().front().getOps<ControlTaskTableOp>().empty()) {}

  LogicalResult run();

private:
  InFlightDiagnostic error(Operation *op) {
    hasErrors = true;
    return op->emitError();
  }

  void checkQueueBinding(InitializeQueueOp init);
  void checkTask(TaskOp task);
  void checkTaskID(Operation *op, TaskKind kind, int64_t id);
  void checkColor(Operation *op, int64_t color);
  void checkQueue(Operation *op, QueueKind kind, int64_t queue);
  void checkDSR(GetDSROp op);
  void checkFifo(AllocateFifoOp fifo);
  void checkFabricDSD(Operation *op, QueueKind kind, Value color, Value queue);

  ProgramOp program;
  const TargetModel &model;
  bool memcpy;
  bool separateControlTable;
  bool hasErrors = false;
  unsigned fifoCount = 0;
  /// The first csl.initialize_queue of each (kind, queue); the verifier of
  /// csl.program rejects a second.
  llvm::DenseMap<std::pair<unsigned, int64_t>, InitializeQueueOp> bindings;
  /// The input queue each color is delivered to.
  llvm::DenseMap<int64_t, InitializeQueueOp> inputQueueOfColor;
};

LogicalResult ResourceChecker::run() {
  // Bindings first: fabric DSDs anywhere in the program are checked
  // against them.
  for (Operation &op : program.getBody().front())
    if (auto init = dyn_cast<InitializeQueueOp>(op))
      checkQueueBinding(init);

  program.walk<WalkOrder::PreOrder>([&](Operation *op) {
    llvm::TypeSwitch<Operation *>(op)
        .Case([&](TaskOp task) { checkTask(task); })
        .Case([&](GetTaskIDOp handle) {
          checkTaskID(handle, handle.getType().getKind(),
                      static_cast<int64_t>(handle.getId()));
        })
        .Case([&](GetColorOp handle) {
          checkColor(handle, static_cast<int64_t>(handle.getId()));
        })
        .Case([&](GetInputQueueOp handle) {
          checkQueue(handle, QueueKind::Input,
                     static_cast<int64_t>(handle.getId()));
        })
        .Case([&](GetOutputQueueOp handle) {
          checkQueue(handle, QueueKind::Output,
                     static_cast<int64_t>(handle.getId()));
        })
        .Case([&](SetTeardownHandlerOp handler) {
          checkColor(handler, static_cast<int64_t>(handler.getColor()));
        })
        .Case([&](GetDSROp dsr) { checkDSR(dsr); })
        .Case([&](AllocateFifoOp fifo) { checkFifo(fifo); })
        .Case([&](FabinDSDOp dsd) {
          checkFabricDSD(dsd, QueueKind::Input, dsd.getColor(), dsd.getQueue());
        })
        .Case([&](FaboutDSDOp dsd) {
          checkFabricDSD(dsd, QueueKind::Output, dsd.getColor(),
                         dsd.getQueue());
        });
  });
  return failure(hasErrors);
}

void ResourceChecker::checkQueueBinding(InitializeQueueOp init) {
  int64_t queue = static_cast<int64_t>(init.getQueue());
  int64_t color = static_cast<int64_t>(init.getColor());
  checkQueue(init, init.getQueueKind(), queue);
  checkColor(init, color);
  bindings.try_emplace({static_cast<unsigned>(init.getQueueKind()), queue},
                       init);
  if (init.getQueueKind() != QueueKind::Input)
    return;
  // The CE hands a color's wavelets to one input queue; two would be
  // ambiguous.
  auto [it, inserted] = inputQueueOfColor.try_emplace(color, init);
  InitializeQueueOp first = it->second;
  if (inserted || first.getQueue() == init.getQueue())
    return;
  InFlightDiagnostic diag = error(init) << "input queues " << first.getQueue()
                                        << " and " << init.getQueue()
                                        << " are both bound to color " << color;
  diag.attachNote(first.getLoc())
      << "input queue " << first.getQueue() << " is bound here";
}

void ResourceChecker::checkTask(TaskOp task) {
  std::optional<uint64_t> id = task.getId();
  if (!id)
    return;
  int64_t number = static_cast<int64_t>(*id);
  // A ctrl_table_id offset can reach entry 31 of a separate table.
  if (task.getKind() == TaskKind::Control && separateControlTable)
    return;
  if (task.getKind() == TaskKind::Control &&
      number == TargetModel::getNullTaskID())
    error(task) << "task ID " << number
                << " is the null task ID; a control wavelet naming it "
                   "activates no task";
  checkTaskID(task, task.getKind(), number);
}

void ResourceChecker::checkTaskID(Operation *op, TaskKind kind, int64_t id) {
  if (!memcpy || isMemcpyCode(op))
    return;
  // A separate control task table shares no ID with memcpy's tasks.
  if (kind == TaskKind::Control && separateControlTable)
    return;
  // A data task ID names a color (WSE-2) or an input queue (WSE-3), so it
  // is reserved when that is.
  if (kind == TaskKind::Data) {
    if (model.getDataTaskSource() == target::DataTaskSource::Color &&
        contains(model.getMemcpyReservedColors(), id)) {
      error(op) << "data task ID " << id << " is color " << id << ", which"
                << reservedByMemcpy;
      return;
    }
    if (model.getDataTaskSource() == target::DataTaskSource::InputQueue &&
        contains(model.getMemcpyReservedInputQueues(), id)) {
      error(op) << "data task ID " << id << " is input queue " << id
                << ", which" << reservedByMemcpy;
      return;
    }
  }
  if (contains(model.getMemcpyReservedTaskIDs(), id))
    error(op) << "task ID " << id << reservedByMemcpy;
}

void ResourceChecker::checkColor(Operation *op, int64_t color) {
  if (memcpy && !isMemcpyCode(op) &&
      contains(model.getMemcpyReservedColors(), color))
    error(op) << "color " << color << reservedByMemcpy;
}

void ResourceChecker::checkQueue(Operation *op, QueueKind kind, int64_t queue) {
  if (!memcpy || isMemcpyCode(op))
    return;
  std::span<const unsigned> reserved =
      kind == QueueKind::Input ? model.getMemcpyReservedInputQueues()
                               : model.getMemcpyReservedOutputQueues();
  if (contains(reserved, queue))
    error(op) << stringifyQueueKind(kind) << " queue " << queue
              << reservedByMemcpy;
}

void ResourceChecker::checkDSR(GetDSROp op) {
  // The verifier rejects negative IDs; the count is a target fact.
  int64_t id = static_cast<int64_t>(op.getId());
  unsigned count = TargetModel::getNumDSRsPerFile();
  if (id < static_cast<int64_t>(count))
    return;
  error(op) << stringifyDSRKind(cast<DSRType>(op.getType()).getKind())
            << " DSR " << id << " is out of range for " << model.getName()
            << " (0.." << count - 1 << ")";
}

void ResourceChecker::checkFifo(AllocateFifoOp fifo) {
  if (++fifoCount <= TargetModel::getNumFIFOs())
    return;
  error(fifo) << "FIFO '" << fifo.getSymName() << "' exceeds the "
              << TargetModel::getNumFIFOs() << " FIFOs a PE has";
}

void ResourceChecker::checkFabricDSD(Operation *op, QueueKind kind, Value color,
                                     Value queue) {
  auto colorHandle = color.getDefiningOp<GetColorOp>();
  std::optional<int64_t> queueID;
  if (auto handle = queue.getDefiningOp<GetInputQueueOp>())
    queueID = static_cast<int64_t>(handle.getId());
  else if (auto handle = queue.getDefiningOp<GetOutputQueueOp>())
    queueID = static_cast<int64_t>(handle.getId());
  if (!colorHandle || !queueID)
    return;
  auto binding = bindings.find({static_cast<unsigned>(kind), *queueID});
  if (binding == bindings.end())
    return;
  int64_t used = static_cast<int64_t>(colorHandle.getId());
  int64_t bound = static_cast<int64_t>(binding->second.getColor());
  if (used == bound)
    return;
  StringRef queueKind = stringifyQueueKind(kind);
  InFlightDiagnostic diag = error(op);
  if (kind == QueueKind::Input)
    diag << "fabin DSD reads color " << used << " from input queue ";
  else
    diag << "fabout DSD sends color " << used << " through output queue ";
  diag << *queueID << ", which is bound to color " << bound;
  diag.attachNote(binding->second.getLoc())
      << queueKind << " queue " << *queueID << " is bound to color " << bound
      << " here";
}

struct VerifyResourcesPass
    : tessera::csl::impl::VerifyResourcesBase<VerifyResourcesPass> {
  using Base::Base;

  void runOnOperation() override {
    if (failed(ResourceChecker(getOperation(), memcpy).run()))
      signalPassFailure();
    markAllAnalysesPreserved();
  }
};

} // namespace
