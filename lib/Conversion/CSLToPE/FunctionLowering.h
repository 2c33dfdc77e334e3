//===- FunctionLowering.h - one function or task to PE instructions ------===//
//
// Lowers the CFG of one func.func or csl.task (or the start-up code made of
// DSD initializers) to MachineInsts.
//
// Values live in one of a few places (ValueLoc). Constants, handles and
// global addresses are immediates, materialised where used. A value whose
// uses all lie in its own block, with no call in between, gets one of the
// registers r0..r9 by a linear scan of the block; every other value, and
// every block argument, gets a 4-byte frame slot. r10..r13 are scratch for
// one instruction's operands, r14 is the link register and r15 the stack
// pointer. Calls therefore never need registers saved around them: nothing
// lives in a register across a call (docs/CodeGen.md).
//
// DSD values are recipes: the op that built a DSD emits nothing; each DSD
// operation rebuilds the descriptor in a scratch DSR right before it runs,
// from the recipe's operands (kept alive until then). DSRs are snapshots
// (docs/ISA.md), so a scratch DSR is free again after the operation starts.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_LIB_CONVERSION_CSLTOPE_FUNCTIONLOWERING_H
#define TESSERA_LIB_CONVERSION_CSLTOPE_FUNCTIONLOWERING_H

#include "MachineCode.h"
#include "ProgramContext.h"

#include "mlir/Dialect/Func/IR/FuncOps.h"
#include "mlir/IR/Value.h"
#include "llvm/ADT/DenseMap.h"

namespace tessera::lowering {

/// r0..r9 hold values; r10..r13 are scratch for one instruction's operands.
inline constexpr unsigned FirstScratch = 10, LastScratch = 13;
inline constexpr uint16_t AllocatableRegs = 0x03FF;

class FunctionLowering {
public:
  FunctionLowering(ProgramContext &ctx, MachineFunction &mf)
      : ctx(ctx), mf(mf) {}

  mlir::LogicalResult lowerFunction(mlir::func::FuncOp func);
  mlir::LogicalResult lowerTask(csl::TaskOp task);
  /// Start-up code: builds every initialised DSD variable and FIFO, then
  /// returns. `fifos` in slot order.
  mlir::LogicalResult lowerStartup(llvm::ArrayRef<csl::DSDGlobalOp> dsdGlobals,
                                   llvm::ArrayRef<csl::AllocateFifoOp> fifos);

private:
  /// DescSlot: a DSD kept as a descriptor image in a 32-byte frame slot
  /// (DSDs returned by calls or passed between blocks).
  enum class LocKind { None, Reg, Frame, Const, FrameAddr, Recipe, DescSlot };
  struct ValueLoc {
    LocKind kind = LocKind::None;
    int64_t value = 0; ///< register, frame offset or constant
  };

  // Frame and registers.
  void emitPrologue(mlir::Location loc, bool saveLink);
  void emitEpilogue(mlir::Location loc);
  /// Patches the frame size into the prologue and epilogues.
  mlir::LogicalResult finishFrame();
  void emitParallelMove(llvm::SmallVector<std::pair<unsigned, unsigned>> moves,
                        unsigned temp, mlir::Location loc);
  mlir::LogicalResult planRegion(mlir::Region &region);
  mlir::LogicalResult planConstant(mlir::Operation *op);
  bool isStableLoad(
      csl::LoadDSDOp load,
      const llvm::DenseMap<mlir::Operation *, unsigned> &position) const;
  uint32_t allocFrame(uint32_t bytes, uint32_t align);
  mlir::LogicalResult assignBlock(mlir::Block &block);
  mlir::LogicalResult lowerRegion(mlir::Region &region);
  /// The DSR that carries a DSD result out of a function.
  unsigned getReturnDSR() const { return ctx.scratchDSRs[0].front(); }
  mlir::LogicalResult lowerBlock(mlir::Block &block);
  mlir::LogicalResult lowerOp(mlir::Operation *op);

  void emit(pe::Opcode opcode, std::vector<pe::Operand> operands,
            mlir::Location loc, pe::DSDOptions options = {});
  void emitBranch(pe::Opcode opcode, std::vector<pe::Operand> operands,
                  unsigned label, mlir::Location loc);
  unsigned scratch();
  void loadImm(unsigned reg, int64_t value, mlir::Location loc);
  /// A register holding `v` (loading or materialising into scratch).
  unsigned use(mlir::Value v, mlir::Location loc);
  /// `v` as an immediate when it is a constant that fits, else a register.
  pe::Operand useRegOrImm(mlir::Value v, bool isSigned, mlir::Location loc);
  std::optional<int64_t> getConst(mlir::Value v) const;
  /// The register to compute `v` into; `finish` stores it if it is spilled.
  unsigned def(mlir::Value v);
  void finish(mlir::Value v, unsigned reg, mlir::Location loc);
  /// Zero-extends a narrow integer result to the canonical form.
  void normalize(unsigned reg, mlir::Type type, mlir::Location loc);
  /// Sign-extends a narrow integer into scratch (for signed operations).
  unsigned useSigned(mlir::Value v, mlir::Location loc);
  /// Builds `dsd` and stores its descriptor in the frame slot at `slot`.
  mlir::LogicalResult storeDSD(mlir::Value dsd, uint32_t slot,
                               mlir::Location loc);
  mlir::LogicalResult copyToBlockArgs(mlir::Block *dest,
                                      mlir::ValueRange operands,
                                      mlir::Location loc);
  void freeDeadAfter(mlir::Operation *op);

  // Pieces of lowerOp.
  mlir::LogicalResult lowerArith(mlir::Operation *op, bool &handled);
  mlir::LogicalResult lowerMemRef(mlir::Operation *op, bool &handled);
  mlir::LogicalResult lowerControl(mlir::Operation *op, bool &handled);
  mlir::LogicalResult lowerCSL(mlir::Operation *op, bool &handled);
  mlir::LogicalResult lowerDSDOperation(mlir::Operation *op);
  mlir::LogicalResult lowerMap(csl::MapOp op);
  mlir::LogicalResult lowerCall(mlir::Operation *op, llvm::StringRef callee,
                                mlir::ValueRange args,
                                mlir::ValueRange results);

  /// Address of element `indices` of `memref` as base register + offset.
  struct Address {
    unsigned base = 0;
    int64_t offset = 0;
  };
  mlir::FailureOr<Address> elementAddress(mlir::Value memref,
                                          mlir::ValueRange indices,
                                          mlir::Location loc);

  // DSDs.
  /// Emits the DSD `dsd` into DSR (file, index).
  mlir::LogicalResult buildDSD(mlir::Value dsd, pe::OperandMode file,
                               unsigned index, mlir::Location loc);
  /// A DSD-operation operand in position `file`: a DSR, register or pointer.
  mlir::FailureOr<pe::Operand> dsdOperand(mlir::Value v, pe::OperandMode file,
                                          mlir::Location loc,
                                          bool pointeeWide = false);
  mlir::FailureOr<pe::DSDOptions>
  dsdOptions(bool async, mlir::Value activate, mlir::Value unblock,
             mlir::Value utID, std::optional<csl::Priority> priority,
             mlir::Value index, mlir::Location loc);
  pe::Operand taskRef(mlir::Value v, mlir::Location loc);
  std::optional<unsigned> takeScratchDSR(pe::OperandMode file);

  // Liveness helpers.
  bool isRecipe(mlir::Operation *op) const;
  bool isConstLike(mlir::Operation *op) const;
  void collectUses(mlir::Value v,
                   llvm::SmallVectorImpl<mlir::Operation *> &users) const;

  ProgramContext &ctx;
  MachineFunction &mf;
  llvm::DenseMap<mlir::Value, ValueLoc> locs;
  llvm::DenseMap<mlir::Block *, unsigned> blockLabels;
  /// Per op of the block being lowered: the values whose last use it is.
  llvm::DenseMap<mlir::Operation *, llvm::SmallVector<mlir::Value, 2>> deaths;
  uint16_t freeRegs = 0; ///< bit r set: r0..r9 free
  unsigned nextScratch = 10;
  std::array<unsigned, 3> nextScratchDSR = {0, 0, 0};
  uint32_t frameSize = 0;
  size_t prologueIndex = ~size_t(0);
  std::vector<size_t> epilogueFixups;
  /// Loads of stack-passed arguments: their offset grows by the frame size.
  std::vector<size_t> incomingArgFixups;
  /// Bytes pushed below the frame while a call's stack arguments are set up;
  /// every r15-relative access adds it.
  int64_t spAdjust = 0;
  /// While lowering a DSD variable's initializer: the variable's address.
  std::optional<uint32_t> startupTarget;
  bool isTask = false;
  bool savesLink = false;
  bool scratchOverflow = false;
  bool missingValue = false;
};

} // namespace tessera::lowering

#endif // TESSERA_LIB_CONVERSION_CSLTOPE_FUNCTIONLOWERING_H
