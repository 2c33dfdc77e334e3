//===- Tasks.cpp - delivery to the CE, the task picker, task control ------===//
//
// docs/Emulator.md "Tasks": a task ID is ready when it is activated (a local
// task by `activate`, a control task by a control wavelet, a data task by a
// data wavelet at the head of its queue) and not blocked. The picker goes
// round robin over the task slots (the task table's 64 IDs, then WSE-3's
// separate control task table), or takes the lowest, or in shuffle mode a
// seeded pseudo-random one.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include <bit>
#include <cstdio>
#include <type_traits>

using namespace tessera;
using namespace tessera::emulator;
using namespace tessera::emulator::machine;

namespace {

uint64_t bit(unsigned id) { return uint64_t(1) << id; }

std::string hexWord(uint32_t value) {
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "0x%08x", value);
  return buffer;
}

/// The color a data task receives on.
std::optional<uint8_t> colorOfDataTask(const ProgramInfo &info, unsigned task) {
  for (unsigned c = 0; c < info.dataTaskOfColor.size(); ++c)
    if (info.dataTaskOfColor[c] == task)
      return static_cast<uint8_t>(c);
  return std::nullopt;
}

} // namespace

Band::ControlHead Band::classifyControlHead(const PE &pe, unsigned color,
                                            std::optional<Wavelet> &head,
                                            unsigned *slot) const {
  head = peekDelivered(network, pe, color);
  if (!head || !head->control)
    return ControlHead::None;
  const ProgramInfo &info = programOf(pe);
  uint8_t gate = info.gateOfColor[color];
  if (gate != NoTask && (pe.blocked & bit(gate)))
    return ControlHead::None;
  unsigned task = control::getEntryPoint(head->payload);
  if (task == control::NoEntryPoint)
    return ControlHead::Drop;
  if (info.separateControlTable) {
    // The queue's ctrl_table_id moves the entry point within the table.
    unsigned entry =
        (task + info.controlTableStride * info.ctrlTableIDOfColor[color]) %
        NumTaskIDs;
    if (slot)
      *slot = ControlTableSlot + entry;
    if (!info.controlEntry[entry])
      return ControlHead::NoEntry;
    return pe.tablePending & bit(entry) ? ControlHead::None : ControlHead::Take;
  }
  if (slot)
    *slot = task;
  if (!info.kind[task])
    return ControlHead::NoEntry;
  // Taken once the task has run with the previous argument.
  return pe.controlPending & bit(task) ? ControlHead::None : ControlHead::Take;
}

void Band::takeWaitingControl(PE &pe) {
  for (uint32_t colors = pe.deliveredColors & pe.controlColors; colors;
       colors &= colors - 1) {
    unsigned color = std::countr_zero(colors);
    std::optional<Wavelet> head;
    unsigned slot = 0;
    ControlHead action = classifyControlHead(pe, color, head, &slot);
    if (!head) {
      pe.deliveredColors &= ~(uint32_t(1) << color);
      pe.controlColors &= ~(uint32_t(1) << color);
      continue;
    }
    if (action == ControlHead::None)
      continue;
    if (action == ControlHead::NoEntry) {
      fail(pe, pe.ce.pc,
           "a control wavelet on color " + std::to_string(color) +
               " activates " +
               (slot >= ControlTableSlot
                    ? "entry " + std::to_string(slot - ControlTableSlot) +
                          " of the control task table, which has no task"
                    : "task " + std::to_string(slot) +
                          ", which has no entry in the task table"));
      return;
    }
    (void)pollDelivered(network, pe, color);
    ++pe.counters.waveletsReceived;
    recordWavelet(pe, static_cast<uint8_t>(color), false);
    progressed = true;
    if (action == ControlHead::Take) {
      if (slot >= ControlTableSlot)
        pe.tablePending |= bit(slot - ControlTableSlot);
      else
        pe.controlPending |= bit(slot);
      pe.controlArgs.emplace_back(static_cast<uint8_t>(slot),
                                  static_cast<uint16_t>(head->payload));
    }
  }
  const ProgramInfo &info = programOf(pe);
  unsigned x = pe.coord.x, y = pe.coord.y;

  // WSE-3 qflush: the teardown task runs once the queue is empty.
  for (uint8_t queues = pe.flushQueues; queues; queues &= queues - 1) {
    unsigned q = std::countr_zero(queues);
    std::optional<uint8_t> color = info.inputQueueColor[q];
    if (color && network.getDeliveredCount(x, y, *color) != 0)
      continue;
    pe.flushQueues &= ~(1u << q);
    activate(pe, target::TargetModel::getTeardownTaskID());
    progressed = true;
  }
}

uint64_t Band::readyTasks(const PE &pe) const {
  const ProgramInfo &info = programOf(pe);
  uint64_t dataReady = 0;
  for (uint32_t colors = pe.deliveredColors; colors; colors &= colors - 1) {
    unsigned color = std::countr_zero(colors);
    uint8_t task = info.dataTaskOfColor[color];
    if (task == NoTask)
      continue;
    std::optional<Wavelet> head = peekDelivered(network, pe, color);
    if (head && !head->control)
      dataReady |= bit(task);
  }
  uint64_t ready =
      (pe.activated & ~info.dataTasks) | pe.controlPending | dataReady;
  return ready & ~pe.blocked;
}

bool Band::pickWork(PE &pe) {
  CEState &ce = pe.ce;
  if (!pe.calls.empty()) {
    PendingCall call = pe.calls.front();
    pe.calls.erase(pe.calls.begin());
    ce.r.fill(0);
    for (unsigned i = 0; i < call.numArgs; ++i)
      ce.r[i] = call.args[i];
    ce.r[14] = ce.r[15] = TopLevelReturn;
    ce.pc = call.address;
    pe.activityStart = cycle;
    if (options.trace)
      trace(pe, call.address, "call starts");
    pe.activity = {true, NoTask, call.address};
    pe.state = MainState::Running;
    pe.readyAt = cycle + target::TargetModel::getTaskSwitchCycles();
    progressed = true;
    return true;
  }

  // Task slots: the task table's IDs, then the separate control table's
  // entries (docs/Emulator.md "Tasks").
  uint64_t ready = readyTasks(pe);
  uint64_t tableReady = pe.tablePending & ~pe.tableBlocked;
  if (!ready && !tableReady)
    return false;
  auto lowestSlot = [](uint64_t low, uint64_t high) {
    return low ? unsigned(std::countr_zero(low))
               : ControlTableSlot + unsigned(std::countr_zero(high));
  };
  unsigned slot = lowestSlot(ready, tableReady);
  if (options.picker == PickerPolicy::RoundRobin &&
      pe.lastPicked < NumTaskSlots - 1) {
    // The first ready slot above the last one picked, else the lowest.
    unsigned next = pe.lastPicked + 1u;
    uint64_t lowAbove = next < 64 ? ready & (~uint64_t(0) << next) : 0;
    unsigned highFrom = next > 64 ? next - 64 : 0;
    uint64_t highAbove =
        highFrom < 64 ? tableReady & (~uint64_t(0) << highFrom) : 0;
    if (lowAbove || highAbove)
      slot = lowestSlot(lowAbove, highAbove);
  }
  if (options.shuffleSeed) {
    // xorshift64: which of the ready slots, uniformly.
    pe.pickerState ^= pe.pickerState << 13;
    pe.pickerState ^= pe.pickerState >> 7;
    pe.pickerState ^= pe.pickerState << 17;
    unsigned skip = static_cast<unsigned>(
        pe.pickerState % (std::popcount(ready) + std::popcount(tableReady)));
    uint64_t low = ready, high = tableReady;
    for (; skip; --skip)
      (low ? low : high) &= (low ? low : high) - 1;
    slot = lowestSlot(low, high);
  }

  const ProgramInfo &info = programOf(pe);
  ce.r.fill(0);
  ce.r[15] = TopLevelReturn;
  pe.lastPicked = static_cast<uint8_t>(slot);
  if (slot >= ControlTableSlot)
    return startControlTableTask(pe, slot - ControlTableSlot);
  unsigned task = slot;
  if (!info.kind[task]) {
    fail(pe, ce.pc,
         "task " + std::to_string(task) +
             " is activated but has no entry in the task table");
    return false;
  }
  // A control wavelet may name a task of any kind: running it uses up the
  // activation and the argument, or the task would be ready for ever.
  if (pe.controlPending & bit(task)) {
    takeControlArgument(pe, slot);
    pe.controlPending &= ~bit(task);
  }
  switch (*info.kind[task]) {
  case target::TaskKind::Data: {
    std::optional<uint8_t> color = colorOfDataTask(info, task);
    std::optional<Wavelet> wavelet;
    if (color)
      wavelet = pollDelivered(network, pe, *color);
    if (wavelet) {
      ce.r[0] = wavelet->payload;
      ++pe.counters.waveletsReceived;
      recordWavelet(pe, *color, false);
    }
    break;
  }
  case target::TaskKind::Control:
  case target::TaskKind::Local:
    pe.activated &= ~bit(task);
    break;
  }
  if (options.trace) {
    std::string what = "task " + std::to_string(task) + " (" +
                       pe::getTaskKindName(*info.kind[task]) + ") starts";
    if (*info.kind[task] == target::TaskKind::Data)
      what += ", argument " + hexWord(ce.r[0]);
    trace(pe, info.entry[task], what);
  }
  ce.pc = info.entry[task];
  pe.activity = {false, static_cast<uint8_t>(task), info.entry[task]};
  pe.activityStart = cycle;
  pe.state = MainState::Running;
  pe.readyAt = cycle + target::TargetModel::getTaskSwitchCycles();
  ++pe.counters.tasksRun;
  progressed = true;
  return true;
}

void Band::takeControlArgument(PE &pe, unsigned slot) {
  for (auto it = pe.controlArgs.begin(); it != pe.controlArgs.end(); ++it) {
    if (it->first != slot)
      continue;
    pe.ce.r[0] = it->second;
    pe.controlArgs.erase(it);
    return;
  }
}

bool Band::startControlTableTask(PE &pe, unsigned entry) {
  const ProgramInfo &info = programOf(pe);
  CEState &ce = pe.ce;
  takeControlArgument(pe, ControlTableSlot + entry);
  pe.tablePending &= ~bit(entry);
  uint16_t address = *info.controlEntry[entry];
  if (options.trace)
    trace(pe, address,
          "control table entry " + std::to_string(entry) + " starts");
  ce.pc = address;
  pe.activity = {false, static_cast<uint8_t>(ControlTableSlot + entry),
                 address};
  pe.activityStart = cycle;
  pe.state = MainState::Running;
  pe.readyAt = cycle + target::TargetModel::getTaskSwitchCycles();
  ++pe.counters.tasksRun;
  progressed = true;
  return true;
}

void Band::setBlocked(PE &pe, pe::BlockSpace space, unsigned id, bool blocked) {
  auto apply = [&](auto &mask, unsigned limit) {
    if (id >= limit)
      return;
    using Mask = std::remove_reference_t<decltype(mask)>;
    Mask b = static_cast<Mask>(Mask(1) << id);
    mask = blocked ? static_cast<Mask>(mask | b) : static_cast<Mask>(mask & ~b);
  };
  switch (space) {
  case pe::BlockSpace::Task:
  case pe::BlockSpace::Color:      // WSE-2: the data task ID is the color
  case pe::BlockSpace::InputQueue: // WSE-3: ... the input queue
    apply(pe.blocked, NumTaskIDs);
    break;
  case pe::BlockSpace::OutputQueue:
    apply(pe.blockedOutputQueues, 8);
    if (blocked) // a blocked queue or thread is the turn's to wait on
      unstream(pe, pe.streamedMicrothreads);
    break;
  case pe::BlockSpace::UT:
    apply(pe.blockedMicrothreads, 8);
    if (blocked)
      unstream(pe, pe.streamedMicrothreads);
    else if (id < pe.microthreads.size() && pe.microthreads[id])
      // It retries in the next turn: what it waited for may have come
      // while it was blocked, with no delivery left to wake it.
      pe.microthreads[id]->blockedOn = {};
    break;
  case pe::BlockSpace::ControlTask:
    apply(pe.tableBlocked, NumTaskIDs);
    break;
  }
}

void Band::activate(PE &pe, unsigned task) {
  if (task < NumTaskIDs)
    pe.activated |= bit(task);
}

void Band::onTeardown(PE &pe, unsigned color) {
  const ProgramInfo &info = programOf(pe);
  if (color < info.teardownHandler.size() && info.teardownHandler[color])
    pe.calls.push_back({*info.teardownHandler[color], {}, 0});
  else if (info.kind[target::TargetModel::getTeardownTaskID()])
    activate(pe, target::TargetModel::getTeardownTaskID());
  else
    pe.teardownColors |= uint32_t(1) << color;
  wake(pe);
}
