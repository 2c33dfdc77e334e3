//===- Messages.h - trap messages of the DSD engine -------------*- C++ -*-===//
//
// The cold path: building DSDTrap reports with the wording docs/Emulator.md
// lists. Internal to the DSD engine.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_DSD_MESSAGES_H
#define TESSERA_EMULATOR_DSD_MESSAGES_H

#include "tessera/Emulator/DSRFile.h"

#include <string>
#include <string_view>

namespace tessera::emulator::dsd {

/// Byte addresses print with at least four hex digits, as the core's do.
std::string hex(uint32_t value);

/// "(0x0000..0xbfff)": the byte addresses of PE memory.
std::string memoryRange();

/// The mnemonic of `opcode`, or "?" for an unassigned one.
std::string_view mnemonic(pe::Opcode opcode);

/// "load of 4 bytes at 0xbffe does not fit in memory (0x0000..0xbfff)" or
/// "store of 2 bytes at odd address 0x0101".
std::string describeAccess(bool store, MemoryStatus status, uint32_t address,
                           unsigned bytes);

[[gnu::cold]] void badOperand(DSDTrap &trap, std::string message);
[[gnu::cold]] void badMemoryAccess(DSDTrap &trap, std::string message,
                                   uint32_t address, unsigned bytes,
                                   uint64_t element = 0);

} // namespace tessera::emulator::dsd

#endif // TESSERA_EMULATOR_DSD_MESSAGES_H
