//===- Wire.h - what ranks send each other, as bytes ------------*- C++ -*-===//
//
// Faults, lines, reports, views and recorded events in the byte form of
// tessera/Emulator/Bytes.h, for the exchanges of docs/Scaling.md "Ranks".
// Internal.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_MACHINE_WIRE_H
#define TESSERA_EMULATOR_MACHINE_WIRE_H

#include "tessera/Emulator/Bytes.h"
#include "tessera/Emulator/Emulator.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tessera::emulator::machine {

void writeFault(ByteWriter &out, const std::optional<PEFault> &fault);
std::optional<PEFault> readFault(ByteReader &in);
void writeLine(ByteWriter &out, uint64_t cycle, PECoord pe,
               const std::string &text);
void writeDeadlock(ByteWriter &out, const DeadlockReport &report);
/// Appends what `in` holds to `report`.
void readDeadlock(ByteReader &in, DeadlockReport &report);
void writeView(ByteWriter &out, const BoundaryView &view);
BoundaryView readView(ByteReader &in);
void writeEvents(ByteWriter &out, const RecordedEvents &events);
/// Appends what `in` holds to `events`.
void readEvents(ByteReader &in, RecordedEvents &events);

} // namespace tessera::emulator::machine

#endif // TESSERA_EMULATOR_MACHINE_WIRE_H
