//===- Trace.cpp - one line per task event, for debugging programs --------===//
//
// The trace is what a user reads to see why a task never ran: who activated,
// blocked or unblocked it and when. Lines are written as events happen, so a
// run that faults or stalls still leaves everything up to that point.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include <ostream>

using namespace tessera::emulator;
using namespace tessera::emulator::machine;

void Emulator::State::trace(const PE &pe, std::optional<uint32_t> pc,
                            const std::string &what) const {
  std::ostream &os = *options.trace;
  os << "cycle " << cycle << " PE (" << pe.coord.x << ", " << pe.coord.y
     << "): " << what;
  if (pc) {
    std::string where = formatLocation(programOf(pe).code.getLocation(*pc));
    if (!where.empty())
      os << " at " << where;
  }
  os << '\n';
}
