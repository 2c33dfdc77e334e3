//===- CoreState.cpp - a PE's state for core dumps ------------------------===//
//
// What a user needs beside memory to see where a PE stands (docs/
// Debugging.md "Core dumps"): registers and pc, the main thread's state
// and activity, task flags, operations in flight with their progress, and
// wavelets waiting in its delivery queues.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include <cstdio>

using namespace tessera;
using namespace tessera::emulator;
using namespace tessera::emulator::machine;

namespace {

const char *describeState(MainState state) {
  switch (state) {
  case MainState::Idle:
    return "idle";
  case MainState::Running:
    return "running";
  case MainState::Operation:
    return "operation";
  case MainState::WaitThread:
    return "waiting for a microthread";
  case MainState::Faulted:
    return "faulted";
  }
  return "?";
}

std::string describeActivity(const PE &pe) {
  if (pe.state == MainState::Idle)
    return "";
  if (pe.activity.isCall) {
    char text[32];
    std::snprintf(text, sizeof text, "call 0x%04x", pe.activity.entry);
    return text;
  }
  unsigned task = pe.activity.task;
  if (task >= ControlTableSlot && task < NumTaskSlots)
    return "control table entry " + std::to_string(task - ControlTableSlot);
  if (task < NumTaskIDs)
    return "task " + std::to_string(task);
  return "";
}

PECoreState::Operation describeFlight(const Flight &flight, int thread) {
  const pe::InstInfo *info = pe::getInstInfo(flight.op.getOpcode());
  return {thread, info ? std::string(info->mnemonic) : "?",
          flight.op.getElementsDone(), flight.op.getLength()};
}

} // namespace

std::optional<PECoreState> Emulator::getCoreState(unsigned x,
                                                  unsigned y) const {
  const PE *pe = state->findPE(x, y);
  if (!pe)
    return std::nullopt;
  const Band &band = state->bandOf(y);
  PECoreState core;
  core.pe = pe->coord;
  core.program = band.programOf(*pe).loaded->name;
  std::copy(pe->ce.r.begin(), pe->ce.r.end(), core.registers.begin());
  core.pc = pe->ce.pc;
  core.mainThread = describeState(pe->state);
  core.activity = describeActivity(*pe);
  core.activated = pe->activated;
  core.blocked = pe->blocked;
  if (pe->operation)
    core.operations.push_back(describeFlight(*pe->operation, -1));
  for (unsigned ut = 0; ut < pe->microthreads.size(); ++ut)
    if (pe->microthreads[ut])
      core.operations.push_back(
          describeFlight(*pe->microthreads[ut], static_cast<int>(ut)));
  for (unsigned color = 0; color < 32; ++color)
    if (size_t count = band.network.getDeliveredCount(x, y, color))
      core.queues.emplace_back(static_cast<uint8_t>(color), count);
  core.counters = pe->counters;
  return core;
}
