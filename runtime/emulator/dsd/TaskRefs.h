//===- TaskRefs.h - resolving task references -------------------*- C++ -*-===//
//
// TaskRef operands (fifo.init's tasks, DSD options) name a number 0..63
// directly or through a register, which is read when the instruction runs.
// Internal to the DSD engine.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_DSD_TASKREFS_H
#define TESSERA_EMULATOR_DSD_TASKREFS_H

#include "tessera/Emulator/DSRFile.h"

#include <string_view>

namespace tessera::emulator::dsd {

/// The number `op` names: none for an absent operand, else the immediate or
/// the register's value. Fails with "<inst>: <what> 70 (r3) is not in
/// 0..63" when it is no task reference.
bool resolveTaskRef(const pe::Operand &op, const CEState &state,
                    std::string_view inst, std::string_view what,
                    std::optional<uint8_t> &out, DSDTrap &trap);

} // namespace tessera::emulator::dsd

#endif // TESSERA_EMULATOR_DSD_TASKREFS_H
