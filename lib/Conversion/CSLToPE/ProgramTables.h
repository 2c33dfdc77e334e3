//===- ProgramTables.h - lay out code and fill a binary's tables ---------===//
#ifndef TESSERA_LIB_CONVERSION_CSLTOPE_PROGRAMTABLES_H
#define TESSERA_LIB_CONVERSION_CSLTOPE_PROGRAMTABLES_H

#include "MachineCode.h"
#include "ProgramContext.h"

#include "tessera/Target/PEBinary/Binary.h"

#include <memory>

namespace tessera::lowering {

/// Places `functions` after the program's data, resolves their fixups,
/// checks the memory budget (data + code + `stackBytes`), and fills
/// `binary`: code, data, symbols, tasks, queues, start-up actions and lines.
/// With `hasStartup` the first function is the start-up code.
mlir::LogicalResult
assembleProgram(ProgramContext &ctx,
                const std::vector<std::unique_ptr<MachineFunction>> &functions,
                bool hasStartup, uint32_t stackBytes,
                pe::ProgramBinary &binary);

} // namespace tessera::lowering

#endif // TESSERA_LIB_CONVERSION_CSLTOPE_PROGRAMTABLES_H
