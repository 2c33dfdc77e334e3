//===- Traps.h - building trap reports --------------------------*- C++ -*-===//
//
// The cold path of the scalar core: each function fills a Trap with its kind,
// fields and message. Kept out of line so that the interpreter's switch stays
// small; internal to the emulator core.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_CORE_TRAPS_H
#define TESSERA_EMULATOR_CORE_TRAPS_H

#include "tessera/Emulator/ScalarCore.h"

#include <string_view>

namespace tessera::emulator::traps {

[[gnu::cold]] void badMemoryAccess(Trap &trap, uint32_t pc, pe::Opcode opcode,
                                   MemoryStatus status, uint32_t address,
                                   unsigned width);
[[gnu::cold]] void badJumpTarget(Trap &trap, uint32_t pc, pe::Opcode opcode,
                                 uint32_t target);
[[gnu::cold]] void assertFailed(Trap &trap, uint32_t pc, uint16_t code);
[[gnu::cold]] void trapInstruction(Trap &trap, uint32_t pc, uint16_t code);
[[gnu::cold]] void undecodable(Trap &trap, uint32_t pc,
                               std::string_view decoderMessage);
[[gnu::cold]] void outsideCode(Trap &trap, uint32_t pc,
                               const DecodedProgram &program);

} // namespace tessera::emulator::traps

#endif // TESSERA_EMULATOR_CORE_TRAPS_H
