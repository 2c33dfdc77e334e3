//===- DSDOperands.h - operand rules of the DSD operations ------*- C++ -*-===//
//
// The DSD operations of CSLDSDBuiltins.td describe each operand by the kinds
// it accepts and its element width; the generated verifiers call
// verifyDSDOperation with that table.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_LIB_DIALECT_CSL_IR_DSDOPERANDS_H
#define TESSERA_LIB_DIALECT_CSL_IR_DSDOPERANDS_H

#include "tessera/Dialect/CSL/IR/CSLTypes.h"

#include "mlir/IR/Operation.h"
#include "llvm/ADT/ArrayRef.h"

#include <optional>

namespace tessera::csl::dsd {

/// What an operand may be. Unscoped so that TableGen can write `A | B`.
enum OperandKind : unsigned {
  Memory = 1 << 0,    ///< mem1d, mem4d or circbuf DSD
  Fabin = 1 << 1,     ///< fabin DSD
  Fabout = 1 << 2,    ///< fabout DSD
  Fifo = 1 << 3,      ///< FIFO
  DestDSR = 1 << 4,   ///< a DSR that can hold a destination
  SourceDSR = 1 << 5, ///< a DSR that can hold a source
  Scalar = 1 << 6,    ///< a value of the operand's width
  Pointer = 1 << 7,   ///< a rank-0 memref of the operand's width

  Destination = Memory | Fabout | Fifo | DestDSR,
  Source = Memory | Fabin | Fifo | SourceDSR,
};

/// Which scalars (and pointees) an operand takes.
enum class ScalarClass { Float, Integer, Any };

/// Rules that relate the operands of one operation.
enum FormRule : unsigned {
  NoFormRule = 0,
  /// A pointer destination makes src0 a scalar accumulator and src1 a DSD.
  Reduction = 1 << 0,
  /// At most one source is a scalar.
  OneScalar = 1 << 1,
  /// At least one operand is a DSD (or DSR).
  NeedsDSD = 1 << 2,
};

struct OperandRule {
  const char *name;
  unsigned kinds;
  unsigned width;
  ScalarClass scalar;
};

/// The options every DSD operation accepts.
struct Options {
  bool async;
  mlir::Value activate;
  mlir::Value unblock;
  mlir::Value utId;
  std::optional<Priority> priority;
  mlir::Value index;
};

/// Checks the leading operands of `op` against `rules`, the form rules, and
/// the options against the architecture of the enclosing program.
llvm::LogicalResult verifyDSDOperation(mlir::Operation *op,
                                       llvm::ArrayRef<OperandRule> rules,
                                       unsigned forms, const Options &options);

/// The option checks alone (also used by csl.load_to_dsr).
llvm::LogicalResult verifyOptions(mlir::Operation *op, const Options &options);

} // namespace tessera::csl::dsd

#endif // TESSERA_LIB_DIALECT_CSL_IR_DSDOPERANDS_H
