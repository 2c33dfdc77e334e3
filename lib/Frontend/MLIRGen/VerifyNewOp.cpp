//===- VerifyNewOp.cpp - verify an op as soon as it is created ------------===//

#include "VerifyNewOp.h"

#include "mlir/IR/Diagnostics.h"
#include "mlir/IR/SymbolTable.h"
#include "mlir/IR/Verifier.h"

std::optional<std::string>
tessera::frontend::mlirgen::verifyNewOp(mlir::Operation *op) {
  std::string message;
  mlir::ScopedDiagnosticHandler capture(
      op->getContext(), [&](mlir::Diagnostic &diag) {
        if (message.empty()) {
          std::string text = diag.str();
          llvm::StringRef rest = text;
          rest.consume_front(
              ("'" + op->getName().getStringRef() + "' op ").str());
          message = rest.str();
        }
        return mlir::success();
      });
  if (mlir::failed(mlir::verify(op)))
    return message;
  if (auto user = mlir::dyn_cast<mlir::SymbolUserOpInterface>(op)) {
    mlir::SymbolTableCollection symbolTables;
    if (mlir::failed(user.verifySymbolUses(symbolTables)))
      return message;
  }
  return std::nullopt;
}
