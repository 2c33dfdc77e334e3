//===- Wire.cpp - faults, lines, reports, views and events as bytes -------===//

#include "Wire.h"

using namespace tessera;
using namespace tessera::emulator;
using namespace tessera::emulator::machine;

namespace {

void writeLocation(ByteWriter &out,
                   const std::optional<SourceLocation> &location) {
  out.put<uint8_t>(location.has_value());
  if (!location)
    return;
  out.putString(location->file);
  out.put(location->line);
  out.put(location->column);
}

std::optional<SourceLocation> readLocation(ByteReader &in) {
  if (!in.get<uint8_t>())
    return std::nullopt;
  SourceLocation location;
  location.file = in.getString();
  location.line = in.get<uint32_t>();
  location.column = in.get<uint16_t>();
  return location;
}

} // namespace

void machine::writeFault(ByteWriter &out, const std::optional<PEFault> &fault) {
  out.put<uint8_t>(fault.has_value());
  if (!fault)
    return;
  out.put(fault->cycle);
  out.put(fault->pe);
  out.putString(fault->program);
  out.put(fault->pc);
  writeLocation(out, fault->location);
  out.putString(fault->message);
}

std::optional<PEFault> machine::readFault(ByteReader &in) {
  if (!in.get<uint8_t>())
    return std::nullopt;
  PEFault fault;
  fault.cycle = in.get<uint64_t>();
  fault.pe = in.get<PECoord>();
  fault.program = in.getString();
  fault.pc = in.get<uint32_t>();
  fault.location = readLocation(in);
  fault.message = in.getString();
  return fault;
}

void machine::writeLine(ByteWriter &out, uint64_t cycle, PECoord pe,
                        const std::string &text) {
  out.put(cycle);
  out.put(pe);
  out.putString(text);
}

void machine::writeDeadlock(ByteWriter &out, const DeadlockReport &report) {
  out.put<uint64_t>(report.waits.size());
  for (const WaitRecord &wait : report.waits) {
    out.put(wait.pe);
    out.putString(wait.program);
    out.putString(wait.what);
    writeLocation(out, wait.location);
  }
  out.putVector(report.wavelets);
  out.put<uint64_t>(report.routeErrors.size());
  for (const RouteError &error : report.routeErrors) {
    out.put(error.kind);
    out.put(error.cycle);
    out.put(error.pe);
    out.put(error.color);
    out.put(error.port);
    out.put(error.waveletId);
    out.putString(error.message);
  }
}

void machine::readDeadlock(ByteReader &in, DeadlockReport &report) {
  uint64_t waits = in.get<uint64_t>();
  for (uint64_t i = 0; i < waits && in.isOK(); ++i) {
    WaitRecord wait;
    wait.pe = in.get<PECoord>();
    wait.program = in.getString();
    wait.what = in.getString();
    wait.location = readLocation(in);
    report.waits.push_back(std::move(wait));
  }
  for (BufferedWavelet &w : in.getVector<BufferedWavelet>())
    report.wavelets.push_back(w);
  uint64_t errors = in.get<uint64_t>();
  for (uint64_t i = 0; i < errors && in.isOK(); ++i) {
    RouteError error;
    error.kind = in.get<RouteErrorKind>();
    error.cycle = in.get<uint64_t>();
    error.pe = in.get<PECoord>();
    error.color = in.get<uint8_t>();
    error.port = in.get<std::optional<pe::Port>>();
    error.waveletId = in.get<uint64_t>();
    error.message = in.getString();
    report.routeErrors.push_back(std::move(error));
  }
}

void machine::writeView(ByteWriter &out, const BoundaryView &view) {
  out.putVector(view.free);
  out.putVector(view.swap);
}

BoundaryView machine::readView(ByteReader &in) {
  BoundaryView view;
  view.free = in.getVector<uint8_t>();
  view.swap = in.getVector<uint8_t>();
  return view;
}

void machine::writeEvents(ByteWriter &out, const RecordedEvents &events) {
  out.putVector(events.activities);
  out.putVector(events.operations);
  out.putVector(events.wavelets);
}

void machine::readEvents(ByteReader &in, RecordedEvents &events) {
  for (const ActivitySpan &span : in.getVector<ActivitySpan>())
    events.activities.push_back(span);
  for (const OperationSpan &span : in.getVector<OperationSpan>())
    events.operations.push_back(span);
  for (const WaveletRecord &w : in.getVector<WaveletRecord>())
    events.wavelets.push_back(w);
}
