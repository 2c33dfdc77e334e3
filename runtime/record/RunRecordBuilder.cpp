//===- RunRecordBuilder.cpp - an emulator run as a run record -------------===//

#include "tessera/Record/RunRecordBuilder.h"

#include <algorithm>
#include <cstdio>

using namespace tessera;
using namespace tessera::emulator;

namespace {

viz::Direction directionOf(pe::Port port) {
  switch (port) {
  case pe::Port::West:
    return viz::Direction::West;
  case pe::Port::East:
    return viz::Direction::East;
  case pe::Port::South:
    return viz::Direction::South;
  case pe::Port::North:
    return viz::Direction::North;
  default:
    return viz::Direction::Ramp;
  }
}

/// What the record calls an activity (tessera-viz shows "task ID (NAME)"):
/// the function at the task's entry when the binary names it, else the
/// task's kind; "call 0x05a0" for a call, "control table entry" for one.
std::string nameActivity(const ActivitySpan &span, const LoadedOutput &output) {
  const LoadedProgram *program = output.programAt(span.pe.x, span.pe.y);
  if (span.kind == ActivitySpan::Kind::ControlEntry)
    return "control table entry";
  if (span.kind == ActivitySpan::Kind::Call) {
    char address[16];
    std::snprintf(address, sizeof address, "0x%04x", span.id);
    return "call " + std::string(address);
  }
  if (!program)
    return "";
  for (const pe::TaskEntry &task : program->binary.tasks) {
    if (task.id != span.id)
      continue;
    for (const pe::Symbol &symbol : program->binary.symbols)
      if (symbol.kind == pe::SymbolKind::Function &&
          symbol.address == task.entry)
        return symbol.name;
    return std::string(pe::getTaskKindName(task.kind));
  }
  return "";
}

} // namespace

viz::RunRecord tessera::buildRunRecord(const Emulator &emulator,
                                       const LoadedOutput &output) {
  viz::RunRecord record;
  record.arch = output.metadata.arch == target::Arch::WSE3 ? viz::Arch::WSE3
                                                           : viz::Arch::WSE2;
  const FabricLayout &layout = output.layout;
  record.width = layout.getWidth();
  record.height = layout.getHeight();
  record.cycles = emulator.getCycle();
  // Spans still open end with the run; nothing lies past its end.
  auto clamp = [&](uint64_t cycle) { return std::min(cycle, record.cycles); };

  // With ranks, rank 0 gets every rank's counters, links and events.
  std::vector<PECounters> counters(size_t(layout.getWidth()) *
                                   layout.getHeight());
  for (const auto &[pe, c] : emulator.getPECounters())
    counters[size_t(pe.y) * layout.getWidth() + pe.x] = c;
  for (unsigned y = 0; y < layout.getHeight(); ++y)
    for (unsigned x = 0; x < layout.getWidth(); ++x) {
      const LoadedProgram *program = output.programAt(x, y);
      if (!program)
        continue;
      const PECounters &c = counters[size_t(y) * layout.getWidth() + x];
      viz::PERecord &pe = record.pes.emplace_back();
      pe.x = x;
      pe.y = y;
      pe.program = program->name;
      pe.set(viz::PEMetric::Instructions, c.instructions);
      pe.set(viz::PEMetric::DSDElements, c.dsdElements);
      pe.set(viz::PEMetric::TasksRun, c.tasksRun);
      pe.set(viz::PEMetric::BusyCycles, c.busyCycles);
      pe.set(viz::PEMetric::StallCycles, c.stallCycles);
      pe.set(viz::PEMetric::WaveletsSent, c.waveletsSent);
      pe.set(viz::PEMetric::WaveletsReceived, c.waveletsReceived);
      pe.set(viz::PEMetric::MemoryBytesUsed, program->binary.getMemoryBytes());
    }

  // Colors past the routable ones never cross a link or reach a picture's
  // color scale.
  for (const LinkCount &link : emulator.getLinkCounts())
    if (link.color < viz::NumColors)
      record.links.push_back({link.pe.x, link.pe.y, directionOf(link.port),
                              link.color, link.wavelets});

  RecordedEvents events = emulator.getRecordedEvents();
  for (const ActivitySpan &span : events.activities)
    record.tasks.push_back({span.pe.x, span.pe.y, span.id,
                            nameActivity(span, output), clamp(span.start),
                            clamp(span.end)});
  for (const OperationSpan &span : events.operations) {
    viz::DSDSpan &out = record.dsdOperations.emplace_back();
    out.x = span.pe.x;
    out.y = span.pe.y;
    if (span.microthread >= 0)
      out.microthread = unsigned(span.microthread);
    const pe::InstInfo *info = pe::getInstInfo(span.opcode);
    out.operation = info ? std::string(info->mnemonic) : "?";
    out.start = clamp(span.start);
    out.end = clamp(span.end);
  }
  for (const WaveletRecord &w : events.wavelets)
    if (w.color < viz::NumColors)
      record.wavelets.push_back({w.cycle, w.pe.x, w.pe.y, w.color,
                                 w.sent ? viz::WaveletEventKind::Send
                                        : viz::WaveletEventKind::Receive});
  for (const PrintedLine &line : emulator.getPrintedLines())
    record.prints.push_back(
        {clamp(line.cycle), line.pe.x, line.pe.y, line.text});
  return record;
}
