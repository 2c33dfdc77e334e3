//===- Record.cpp - task, operation and wavelet events for pictures -------===//
//
// docs/Emulator.md "Recording": with EmulatorOptions::record a band keeps
// structured events of the PEs and cycles asked for, which tessera-run
// turns into a run record (docs/RunRecord.md) for tessera-viz. Spans are
// kept when they end, with the cycle they began in.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

using namespace tessera;
using namespace tessera::emulator;
using namespace tessera::emulator::machine;

namespace {

bool inWindow(const RecordOptions &record, PECoord pe, uint64_t at) {
  return pe.x >= record.x0 && pe.x <= record.x1 && pe.y >= record.y0 &&
         pe.y <= record.y1 && at >= record.firstCycle && at < record.endCycle;
}

} // namespace

bool Band::records(const PE &pe) const {
  return options.record && inWindow(*options.record, pe.coord, cycle);
}

std::optional<ActivitySpan> Band::spanOfActivity(const PE &pe) const {
  if (!options.record || !inWindow(*options.record, pe.coord, pe.activityStart))
    return std::nullopt;
  ActivitySpan span;
  span.pe = pe.coord;
  if (pe.activity.isCall) {
    span.kind = ActivitySpan::Kind::Call;
    span.id = pe.activity.entry;
  } else if (pe.activity.task >= ControlTableSlot &&
             pe.activity.task < NumTaskSlots) {
    span.kind = ActivitySpan::Kind::ControlEntry;
    span.id = pe.activity.task - ControlTableSlot;
  } else if (pe.activity.task < NumTaskIDs) {
    span.id = pe.activity.task;
  } else {
    return std::nullopt; // nothing runs
  }
  span.start = pe.activityStart;
  span.end = std::max(cycle + 1, pe.activityStart + 1);
  return span;
}

void Band::recordActivity(const PE &pe) {
  if (std::optional<ActivitySpan> span = spanOfActivity(pe))
    recorded.activities.push_back(*span);
}

void Band::recordOperation(const PE &pe, const Flight &flight, uint64_t end) {
  if (!options.record ||
      !inWindow(*options.record, pe.coord, flight.startCycle))
    return;
  recorded.operations.push_back({pe.coord, flight.microthread,
                                 flight.op.getOpcode(), flight.startCycle,
                                 std::max(end, flight.startCycle + 1)});
}

void Band::recordWavelet(const PE &pe, uint8_t color, bool sent) {
  if (!options.record || !options.record->wavelets ||
      !(color < 32 && options.record->waveletColors >> color & 1) ||
      !inWindow(*options.record, pe.coord, cycle))
    return;
  recorded.wavelets.push_back({cycle, pe.coord, color, sent});
}
