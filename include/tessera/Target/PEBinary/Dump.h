//===- Dump.h - Human-readable listings of PE binaries -----------*- C++ -*-===//
//
// What tessera-objdump prints: a program binary's tables and its code
// disassembled with source lines, and a fabric file's geometry, placement
// and one PE's router configuration.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_TARGET_PEBINARY_DUMP_H
#define TESSERA_TARGET_PEBINARY_DUMP_H

#include "tessera/Target/PEBinary/Binary.h"

#include <string>

namespace tessera::pe {

/// Header, symbols, tasks, queues, start-up actions, entry points, then the
/// code: one instruction per line with its byte address, and `; file:line:col`
/// where the line table has an entry for it. Undecodable words are listed as
/// `.word` lines with the reason, so a damaged code section still prints.
std::string dumpProgram(const ProgramBinary &program);

/// The symbol table, as dumpProgram shows it.
std::string dumpSymbols(const ProgramBinary &program);

/// Every PE that routes at least one color, by row then column: its program
/// and router configuration per color (cslc --out-routes).
std::string dumpRoutes(const FabricFile &fabric);

/// Geometry, program files and placement runs.
std::string dumpFabric(const FabricFile &fabric);

/// The program PE (x, y) runs and its router configuration per color; an
/// error line when (x, y) is outside the fabric.
std::string dumpPE(const FabricFile &fabric, uint16_t x, uint16_t y);

} // namespace tessera::pe

#endif // TESSERA_TARGET_PEBINARY_DUMP_H
