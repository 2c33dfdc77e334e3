//===- MachineCode.h - instructions before their addresses are known -----===//
//
// The lowering emits PE instructions whose code addresses (branch targets,
// callees) are not known until every function has been laid out. A
// MachineInst is an instruction plus at most one such fixup; its size does
// not depend on the fixup's value (docs/ISA.md: immediates have fixed
// widths), so layout is one pass over the sizes.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_LIB_CONVERSION_CSLTOPE_MACHINECODE_H
#define TESSERA_LIB_CONVERSION_CSLTOPE_MACHINECODE_H

#include "mlir/IR/Location.h"
#include "tessera/Target/PEBinary/ISA.h"

#include <string>
#include <vector>

namespace tessera::lowering {

/// Which code address an operand is waiting for.
struct Fixup {
  enum class Kind { None, Label, Function };
  Kind kind = Kind::None;
  unsigned operand = 0; ///< index into the instruction's operands
  unsigned label = 0;   ///< Kind::Label: a label of the same function
  std::string function; ///< Kind::Function: a func/task symbol
};

struct MachineInst {
  pe::Instruction inst;
  mlir::Location loc;
  Fixup fixup;
  /// Dropped at layout (an empty frame's stack adjustment): takes no space.
  bool deleted = false;
};

/// The code of one function or task, with labels as instruction indices.
struct MachineFunction {
  std::string symbol;
  std::vector<MachineInst> insts;
  std::vector<size_t> labels; ///< label id -> index of the next instruction
  uint32_t frameBytes = 0;
  std::vector<std::string> callees; ///< direct calls and map callbacks
  mlir::Location loc;

  explicit MachineFunction(mlir::Location loc) : loc(loc) {}
  unsigned newLabel() {
    labels.push_back(~size_t(0));
    return labels.size() - 1;
  }
  void bind(unsigned label) { labels[label] = insts.size(); }
};

} // namespace tessera::lowering

#endif // TESSERA_LIB_CONVERSION_CSLTOPE_MACHINECODE_H
