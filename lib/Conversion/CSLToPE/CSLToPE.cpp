#include "tessera/Conversion/CSLToPE/CSLToPE.h"
mlir::LogicalResult tessera::lowerProgramToPE(csl::ProgramOp,
                                              pe::ProgramBinary &) {
  return mlir::failure();
}
