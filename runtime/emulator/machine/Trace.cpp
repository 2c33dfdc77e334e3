//===- Trace.cpp - one line per task event, for debugging programs --------===//
//
// The trace is what a user reads to see why a task never ran: who activated,
// blocked or unblocked it and when. A band keeps its lines; Emulator::State
// writes them after every cycle in (cycle, PE) order, so a run that faults
// or stalls still leaves everything up to that point and the order does not
// depend on how the fabric is split among threads.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include <string>

using namespace tessera::emulator;
using namespace tessera::emulator::machine;

void Band::trace(const PE &pe, std::optional<uint32_t> pc,
                 const std::string &what) {
  std::string text = "cycle " + std::to_string(cycle) + " PE (" +
                     std::to_string(pe.coord.x) + ", " +
                     std::to_string(pe.coord.y) + "): " + what;
  if (pc) {
    std::string where = formatLocation(programOf(pe).code.getLocation(*pc));
    if (!where.empty())
      text += " at " + where;
  }
  traced.push_back({cycle, pe.coord, std::move(text)});
}
