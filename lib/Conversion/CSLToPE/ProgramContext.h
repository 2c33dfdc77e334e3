//===- ProgramContext.h - facts one program's functions share ------------===//
#ifndef TESSERA_LIB_CONVERSION_CSLTOPE_PROGRAMCONTEXT_H
#define TESSERA_LIB_CONVERSION_CSLTOPE_PROGRAMCONTEXT_H

#include "mlir/IR/SymbolTable.h"
#include "tessera/Dialect/CSL/IR/CSLOps.h"
#include "tessera/Target/PEBinary/ISA.h"
#include "tessera/Target/TargetModel.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringMap.h"

namespace tessera::lowering {

/// What every function of a program needs to know about the others.
struct ProgramContext {
  csl::ProgramOp program;
  const target::TargetModel &model;
  mlir::SymbolTable symbols;
  /// Byte address of every global (csl.address from tessera-allocate-memory).
  llvm::StringMap<uint32_t> globalAddress;
  /// Hardware ID of every task symbol.
  llvm::StringMap<int64_t> taskIDs;
  /// FIFO slot of every csl.allocate_fifo symbol.
  llvm::StringMap<unsigned> fifoSlots;
  /// Per DSR file (dest, src0, src1): the indices user code never names,
  /// highest first; the lowering builds transient DSRs in them.
  std::array<llvm::SmallVector<unsigned, 16>, 3> scratchDSRs;
  /// The next `assert` code (docs/ISA.md).
  unsigned nextAssertCode = 1;

  ProgramContext(csl::ProgramOp program, const target::TargetModel &model)
      : program(program), model(model), symbols(program) {}
};

} // namespace tessera::lowering

#endif // TESSERA_LIB_CONVERSION_CSLTOPE_PROGRAMCONTEXT_H
