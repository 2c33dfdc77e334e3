//===- Schedule.cpp - a band's cycle: which PEs take a turn --------------===//
//
// docs/Emulator.md "The clock and its cycle": only awake PEs take a turn. A
// PE that is only computing (a scalar batch, an operation on memory) sleeps
// on a timer until the cycle it is done; one whose threads all wait for
// wavelets sleeps until one is delivered to it. When nothing is awake and
// no wavelet moves, the clock jumps to the next timer.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include "tessera/Emulator/Prefetch.h"

#include <algorithm>
#include <bit>

using namespace tessera;
using namespace tessera::emulator;
using namespace tessera::emulator::machine;

namespace {

/// What a thread needs before it can act again.
struct Need {
  bool now = false;     ///< it acts in the next cycle
  uint64_t time = 0;    ///< it acts at this cycle (0: none)
  bool passive = false; ///< a wavelet or another thread must come first

  void at(uint64_t cycle, uint64_t next) {
    if (cycle <= next)
      now = true;
    else
      time = time ? std::min(time, cycle) : cycle;
  }
  /// `fifoMoved`: an operation of the PE moved elements this cycle, maybe
  /// through the FIFO this flight waits on.
  void add(const Flight &flight, uint64_t next, bool fifoMoved) {
    if (!flight.interactive)
      at(flight.readyAt, next);
    else if (flight.blockedOn.valid && flight.blockedOn.fifo && fifoMoved)
      now = true;
    else if (flight.blockedOn.valid && !flight.blockedOn.send)
      passive = true; // a delivery or its FIFO's other side wakes it
    else
      now = true;
  }
};

} // namespace

void Band::reschedule(PE &pe) {
  // takeControlWavelets takes one control wavelet per color a turn: a PE
  // with another one to take (or one behind a gate just opened) stays awake.
  if (pe.state != MainState::Faulted)
    for (uint32_t colors = pe.deliveredColors & pe.controlColors; colors;
         colors &= colors - 1) {
      std::optional<Wavelet> head;
      if (classifyControlHead(pe, std::countr_zero(colors), head) !=
          ControlHead::None) {
        wake(pe);
        return;
      }
    }
  if (!hasWork(pe)) {
    // A call's last batch returned at once, or a chain ran a task's exit
    // ahead, but its instructions run until readyAt - 1: the clock must
    // get there, as if each took its cycle.
    if (pe.state == MainState::Idle && pe.readyAt > cycle + 1)
      holdClock(pe.readyAt - 1);
    return; // asleep until a delivery or a call
  }
  uint64_t next = cycle + 1;
  Need need;
  if (!pe.calls.empty() || pe.flushQueues)
    need.now = true;
  switch (pe.state) {
  case MainState::Idle:
    if (hasReadyTask(pe))
      need.at(pe.readyAt, next);
    else if (pe.readyAt > next)
      holdClock(pe.readyAt - 1); // as above, with a thread busy
    break;
  case MainState::Running:
    need.at(pe.readyAt, next);
    break;
  case MainState::Operation:
    if (pe.mainStream)
      break; // the band's until it comes back
    if (pe.readyAt > next)
      need.at(pe.readyAt, next);
    else
      need.add(*pe.operation, next, pe.dsdProgressCycle == cycle);
    break;
  case MainState::WaitThread:
    need.passive = true; // for its microthread, below
    break;
  case MainState::Faulted:
    return;
  }
  // Streamed transfers are the band's until they come back.
  for (uint8_t threads = pe.getBusyMicrothreads() & ~pe.streamedMicrothreads;
       threads; threads &= threads - 1) {
    unsigned ut = unsigned(std::countr_zero(threads));
    const Flight &flight = *pe.microthreads[ut];
    if (pe.blockedMicrothreads >> ut & 1)
      need.passive = true; // the main thread must unblock it
    else if (pe.laterMicrothreads >> ut & 1)
      need.at(flight.startCycle + 1, next); // a chain started it ahead
    else
      need.add(flight, next, pe.dsdProgressCycle == cycle);
  }
  if (need.now) {
    wake(pe);
  } else if (need.time) {
    pe.timerAt = need.time;
    timers.push(need.time, static_cast<uint32_t>(&pe - pes.data()));
  }
  // Otherwise only passive waits: a delivery wakes it.
}

void Band::holdClock(uint64_t at) {
  if (!heldCycles.hold(at, cycle))
    timers.push(at, static_cast<uint32_t>(pes.size())); // no PE's
}

bool Band::hasTimer() const { return !timers.empty() || !heldCycles.empty(); }

std::optional<uint64_t> Band::nextTimer() const {
  std::optional<uint64_t> next = timers.earliest();
  std::optional<uint64_t> held = heldCycles.next(cycle);
  if (held && (!next || *held < *next))
    next = held;
  return next;
}

bool Band::skipCycles(uint64_t cycles) {
  if (!awake.empty() || hasStreamWork() || !network.skipIdleCycles(cycles))
    return false;
  cycle += cycles;
  return true;
}

/// Due timers in a cycle from which runPEs fetches their PEs ahead.
static constexpr size_t PrefetchFromTimers = 256;

/// Turns in a cycle from which runPEs prefetches. A PE is visited again
/// only after the others' turns have passed through the caches, so a
/// fabric of a few thousand PEs (22 MB at 64x64, L2 is 1 MB) misses on
/// turns too. 128 rather than 1,024: the 64x64 stencil 2 to 4 % faster in
/// two rounds of 20 and 30 runs in turn, the same in a third, when the
/// guest was fast; 8x8, whose state stays cached, never gets there.
static constexpr size_t PrefetchFromTurns = 128;

/// The lines a turn reads of the PE: those before its memory (PE puts
/// them first) and the memory's first.
static void prefetchPE(const PE &pe) {
  // Offsets within the PE, which starts a line: constants, so that the
  // prefetches unroll.
  auto offsetOf = [&pe](const void *member) {
    return size_t(static_cast<const char *>(member) -
                  reinterpret_cast<const char *>(&pe));
  };
  prefetchLines(&pe, offsetOf(&pe.memory));
  // Of the memory, its pointers and first pages' owners.
  pe.memory.prefetchHeader();
  // The DSR file's slots and pointers, for prefetchFlights.
  size_t dsrs = offsetOf(&pe.dsrs);
  prefetchLines(&pe, dsrs, dsrs + sizeof(DSRFile));
}

/// The first `bytes` of an operation in flight.
static void prefetchFlight(const Flight *flight, size_t bytes) {
  if (flight)
    prefetchLines(flight, bytes);
}

/// The PE's operations, and the router lanes its transfers poll or
/// inject at: those of colors with deliveries waiting and of colors it
/// sends on. A microthread's operation is a transfer (one on memory alone
/// finished when it started), whose cycle reads its first line (Flight,
/// FabricMove); the main thread's may run on memory, through its operand
/// slots.
static void prefetchFlights(const Network &network, const PE &pe) {
  pe.memory.prefetchPageTable(); // for prefetchElements
  prefetchFlight(pe.operation.get(), sizeof(Flight));
  for (uint8_t threads = pe.getBusyMicrothreads(); threads;
       threads &= threads - 1)
    prefetchFlight(pe.microthreads[std::countr_zero(threads)].get(), 64);
  network.prefetchQueues(pe.deliveryQueue.data(),
                         pe.knownQueues & (pe.deliveredColors | pe.sendColors));
  pe.dsrs.prefetch();
}

/// The data a PE's transfers go on with: the memory element of each
/// microthread's transfer (its operation is in the cache by now), and the
/// wavelets waiting at the heads of its delivery queues (their lanes are);
/// and where its last scalar store went, which its tasks likely touch again.
static void prefetchTransferData(const Network &network, const PE &pe) {
  pe.memory.prefetchLastStore();
  network.prefetchDeliveryHeads(pe.deliveryQueue.data(),
                                pe.knownQueues & pe.deliveredColors);
  for (uint8_t threads = pe.getBusyMicrothreads() & ~pe.streamedMicrothreads;
       threads; threads &= threads - 1) {
    const Flight &flight = *pe.microthreads[std::countr_zero(threads)];
    int64_t address = flight.op.getFabricMoveAddress();
    if (address >= 0)
      pe.memory.prefetch(static_cast<uint32_t>(address));
  }
}

void Band::runPEs() {
  progressed = false;
  timers.popDue(cycle, dueTimers);
  // holdClock's cycles: a turn would have run an exit or return now.
  if (heldCycles.take(cycle))
    progressed = true;
  // A computing phase's end wakes thousands of PEs far apart: fetch the
  // lines of each that the check and wake read (its first two) ahead.
  size_t timersAhead = dueTimers.size() >= PrefetchFromTimers ? 16 : 0;
  for (size_t i = 0; i < dueTimers.size(); ++i) {
    if (timersAhead && i + timersAhead < dueTimers.size() &&
        dueTimers[i + timersAhead].second < pes.size())
      prefetchLines<true>(&pes[dueTimers[i + timersAhead].second],
                          2 * CacheLineBytes);
    auto [at, index] = dueTimers[i];
    if (index == pes.size()) {
      progressed = true;
      continue;
    }
    PE &pe = pes[index];
    if (pe.timerAt == at) {
      pe.timerAt = 0;
      wake(pe);
    }
  }
  // Streamed transfers act first; those they give back wake their PEs
  // for this cycle's turn.
  beginStreams();
  if (!streamPEs.empty())
    runStreams();
  // The turn list and the awake list trade buffers each cycle, so neither
  // allocates once both have grown.
  turn.clear();
  turn.swap(awake);
  // When many PEs take turns, a PE's state, its operations and its lanes
  // are out of the caches by its turn: fetch the PE ten turns ahead, its
  // operations, page pointers and lanes six ahead (its PE is in by now),
  // and its transfers' memory elements and its delivery queues' head
  // wavelets three ahead (their operations and lanes are in). Many turns
  // are short (a completion task's count), so fewer ahead left their
  // loads waiting. Fewer PEs' state stays cached, and fetching would only
  // cost instructions.
  size_t ahead = turn.size() >= PrefetchFromTurns ? turn.size() : 0;
  for (size_t i = 0; i < turn.size(); ++i) {
    if (i + 10 < ahead)
      prefetchPE(pes[turn[i + 10]]);
    if (i + 6 < ahead)
      prefetchFlights(network, pes[turn[i + 6]]);
    if (i + 3 < ahead)
      prefetchTransferData(network, pes[turn[i + 3]]);
    PE &pe = pes[turn[i]];
    pe.awake = false;
    ++turns;
    takeControlWavelets(pe);
    if (pe.getBusyMicrothreads() & ~pe.streamedMicrothreads)
      runMicrothreads(pe);
    runMainThread(pe);
    reschedule(pe);
  }
}

/// Deliveries in a cycle from which stepNetwork fetches their PEs ahead.
static constexpr size_t PrefetchFromDeliveries = 256;

void Band::stepNetwork() {
  network.step();
  if (network.getLastStepMoves() != 0 || hasTimer())
    progressed = true; // wavelets moved, or PEs are computing
  const auto &deliveries = network.getLastStepDeliveries();
  // Many deliveries go to PEs far apart, each seen once: fetch the first
  // line of the PE, which a delivery reads, 32 deliveries ahead (a
  // delivery takes little time beside a line from memory).
  size_t ahead = deliveries.size() >= PrefetchFromDeliveries ? 32 : 0;
  for (size_t i = 0; i < deliveries.size(); ++i) {
    if (ahead && i + ahead < deliveries.size())
      if (const PE *next =
              findPE(deliveries[i + ahead].pe.x, deliveries[i + ahead].pe.y))
        __builtin_prefetch(next);
    const DeliveryNote &note = deliveries[i];
    if (PE *pe = findPE(note.pe.x, note.pe.y)) {
      if (pe->streamedColors &&
          takeStreamDelivery(*pe, note.color, note.control))
        continue;
      pe->deliveredColors |= uint32_t(1) << note.color;
      if (note.control)
        pe->controlColors |= uint32_t(1) << note.color;
      wake(*pe);
    }
  }
  for (const TeardownEvent &event : network.takeTeardownEvents())
    if (PE *pe = findPE(event.pe.x, event.pe.y))
      onTeardown(*pe, event.color);
  ++cycle;
}
