//===- Deadlock.cpp - what waits where, and the report's text -------------===//

#include "Machine.h"

#include "tessera/Support/Format.h"

#include <cstdio>

using namespace tessera;
using namespace tessera::emulator;
using namespace tessera::emulator::machine;

namespace {

std::string hex(uint32_t value, int digits) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "0x%0*x", digits, value);
  return buffer;
}

std::string describeActivity(const PE &pe, const ProgramInfo &info) {
  if (pe.activity.isCall)
    return "a call of " + hex(pe.activity.entry, 4);
  unsigned t = pe.activity.task;
  if (t >= ControlTableSlot && t < NumTaskSlots)
    return "control table entry " + std::to_string(t - ControlTableSlot);
  if (t < NumTaskIDs && info.kind[t])
    return "task " + std::to_string(t) + " (" +
           std::string(pe::getTaskKindName(*info.kind[t])) + ")";
  return "no task";
}

std::string describeOperation(const Flight &flight) {
  std::string text(pe::getInstInfo(flight.op.getOpcode())->mnemonic);
  const BlockedOn &on = flight.blockedOn;
  if (on.fifo)
    text += " waits on a FIFO (full or empty)";
  else if (on.valid && on.send)
    text += " waits to send on color " + std::to_string(on.color) +
            " (output queue " + std::to_string(on.queue) + ")";
  else if (on.valid)
    text += " waits for a wavelet on color " + std::to_string(on.color) +
            " (input queue " + std::to_string(on.queue) + ")";
  else
    text += " waits";
  uint64_t length = flight.op.getLength();
  text += ", element " + std::to_string(flight.op.getElementsDone() + 1);
  if (length != UINT64_MAX)
    text += " of " + std::to_string(length);
  return text;
}

} // namespace

void Band::describeWaits(DeadlockReport &report) const {
  for (const PE &pe : pes) {
    const ProgramInfo &info = programs[pe.program];
    auto add = [&](std::string what, uint32_t pc) {
      report.waits.push_back({pe.coord, info.loaded->name, std::move(what),
                              info.code.getLocation(pc)});
    };
    std::string activity = describeActivity(pe, info);
    if (pe.state == MainState::Operation && pe.operation && !pe.inMapCall)
      add("main thread in " + activity + ": " +
              describeOperation(*pe.operation),
          pe.operation->pc);
    if (pe.state == MainState::WaitThread)
      add("main thread in " + activity +
              ": an asynchronous operation waits for its microthread",
          pe.ce.pc);
    for (unsigned ut = 0; ut < pe.microthreads.size(); ++ut)
      if (const Flight *flight = pe.microthreads[ut].get())
        add("microthread " + std::to_string(ut) + ": " +
                describeOperation(*flight),
            flight->pc);
    uint64_t pending = (pe.activated | pe.controlPending) & pe.blocked;
    for (unsigned t = 0; t < NumTaskIDs; ++t) {
      if (!(pending >> t & 1))
        continue;
      if (info.kind[t])
        add("task " + std::to_string(t) + " (" +
                std::string(pe::getTaskKindName(*info.kind[t])) +
                ") is activated but blocked",
            info.entry[t]);
      else
        report.waits.push_back(
            {pe.coord, info.loaded->name,
             "task " + std::to_string(t) +
                 " is activated but blocked, and has no entry in the task "
                 "table",
             std::nullopt});
    }
    uint64_t tableWaiting = pe.tablePending & pe.tableBlocked;
    for (unsigned e = 0; e < NumTaskIDs; ++e)
      if (tableWaiting >> e & 1)
        add("control table entry " + std::to_string(e) +
                " is activated but blocked",
            *info.controlEntry[e]);
    for (unsigned c = 0; c < 32; ++c) {
      uint8_t task = info.dataTaskOfColor[c];
      if (task == NoTask || !(pe.blocked >> task & 1))
        continue;
      if (network.getDeliveredCount(pe.coord.x, pe.coord.y, c))
        add("task " + std::to_string(task) +
                " (data) is blocked with wavelets waiting on color " +
                std::to_string(c),
            info.entry[task]);
    }
  }
  for (BufferedWavelet &w : network.listBuffered())
    report.wavelets.push_back(std::move(w));
  for (const RouteError &error : network.getErrors())
    report.routeErrors.push_back(error);
}

std::string
emulator::formatLocation(const std::optional<SourceLocation> &location) {
  if (!location || location->file.empty())
    return "";
  return location->file + ":" + std::to_string(location->line) + ":" +
         std::to_string(location->column);
}

std::string emulator::formatFault(const PEFault &fault) {
  std::string text = "PE (" + std::to_string(fault.pe.x) + ", " +
                     std::to_string(fault.pe.y) + ") '" + fault.program +
                     "' at pc " + hex(fault.pc, 4);
  std::string where = formatLocation(fault.location);
  if (!where.empty())
    text += " (" + where + ")";
  return text + ", cycle " + formatThousands(fault.cycle) + ": " +
         fault.message;
}

std::string emulator::formatDeadlock(const DeadlockReport &report) {
  std::string text = "deadlock at cycle " + formatThousands(report.cycle) +
                     ": work is pending but nothing can move\n";
  for (const WaitRecord &wait : report.waits) {
    text += "  PE (" + std::to_string(wait.pe.x) + ", " +
            std::to_string(wait.pe.y) + ") '" + wait.program + "'";
    std::string where = formatLocation(wait.location);
    if (!where.empty())
      text += " at " + where;
    text += ": " + wait.what + "\n";
  }
  if (!report.wavelets.empty()) {
    text += "wavelets in routers:\n";
    for (const BufferedWavelet &w : report.wavelets) {
      text += "  PE (" + std::to_string(w.pe.x) + ", " +
              std::to_string(w.pe.y) + ") color " + std::to_string(w.color) +
              ": " + (w.wavelet.control ? "control " : "") +
              hex(w.wavelet.payload, 8) + " (wavelet " +
              std::to_string(w.wavelet.id) + ") ";
      if (w.toCE)
        text += "delivered, waiting for the CE";
      else if (w.port == pe::Port::Ramp)
        text += "sent by the CE, waiting in the router";
      else
        text += "in the buffer from " + std::string(pe::getPortName(w.port));
      text += "\n";
    }
  }
  for (const RouteError &error : report.routeErrors)
    text += "router: cycle " + formatThousands(error.cycle) + ", PE (" +
            std::to_string(error.pe.x) + ", " + std::to_string(error.pe.y) +
            ") color " + std::to_string(error.color) + ": " + error.message +
            "\n";
  return text;
}
