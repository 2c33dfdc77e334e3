//===- Operations.cpp - DSD operations on the main thread and microthreads ===//
//
// docs/Emulator.md "DSD operations in time": an operation on memory only
// runs whole when it starts and then occupies its thread for its cost in
// cycles (elements / SIMD width); one with fabric operands moves one
// element per cycle, one with FIFO operands a SIMD width, and either may
// block and retry. A synchronous operation holds the main thread; an
// asynchronous one runs on its microthread while the main thread goes on.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include "tessera/Emulator/FabricMoves.h"
#include "tessera/Emulator/Prefetch.h"

#include <algorithm>
#include <bit>

using namespace tessera;
using namespace tessera::emulator;
using namespace tessera::emulator::machine;

namespace {

/// The fabric side of one PE's operations: the router's delivery queues
/// and inject buffers, named by the descriptor's color (or on WSE-3 the
/// color its queue is bound to).
class PEPorts final : public DSDPorts {
public:
  /// `recorder`: the band, when it records wavelets.
  PEPorts(Network &network, PE &pe, const ProgramInfo &info, bool byQueue,
          uint32_t hostColors, BlockedOn &blockedOn, Band *recorder)
      : network(network), pe(pe), info(info), byQueue(byQueue),
        hostColors(hostColors), blockedOn(blockedOn), recorder(recorder) {}

  std::optional<uint32_t> popWavelet(const FabricEndpoint &fabin) override {
    uint8_t color = colorOf(fabin, info.inputQueueColor);
    // Found once, peeked, and dropped without being found or read again;
    // a clear bit in deliveredColors is an empty queue, not looked for.
    uint32_t queue = PE::NoQueue;
    if (color >= 32 || (pe.deliveredColors >> color & 1))
      queue = findQueue(network, pe, color);
    while (true) {
      std::optional<Wavelet> head;
      if (queue != PE::NoQueue)
        head = network.peekDeliveryQueue(queue);
      if (head && head->control && !fabin.controlTransform) {
        // A control wavelet for a task is the picker's; one for no task
        // (entry point 31) is dropped here so the data behind it flows.
        if (control::getEntryPoint(head->payload) != control::NoEntryPoint)
          head.reset();
        else {
          dropDelivered(network, pe, color, queue);
          ++pe.counters.waveletsReceived;
          if (recorder)
            recorder->recordWavelet(pe, color, false);
          continue;
        }
      }
      if (!head) {
        blockedOn = {true, false, false, color, fabin.queue};
        return std::nullopt;
      }
      dropDelivered(network, pe, color, queue);
      ++pe.counters.waveletsReceived;
      if (recorder)
        recorder->recordWavelet(pe, color, false);
      return head->payload;
    }
  }

  bool pushWavelet(const FabricEndpoint &fabout, uint32_t payload) override {
    uint8_t color = colorOf(fabout, info.outputQueueColor);
    if (color < 32 && (hostColors >> color & 1) &&
        !(pe.blockedOutputQueues >> fabout.queue & 1)) {
      pe.toHost.emplace_back(color, payload); // memcpy's D2H stream
      ++pe.counters.waveletsSent;
      if (recorder)
        recorder->recordWavelet(pe, color, true);
      return true;
    }
    if (color < 32)
      pe.sendColors |= uint32_t(1) << color;
    if ((pe.blockedOutputQueues >> fabout.queue & 1) ||
        !injectWavelet(Wavelet{payload, color, fabout.control, 0})) {
      blockedOn = {true, true, false, color, fabout.queue};
      return false;
    }
    ++pe.counters.waveletsSent;
    if (recorder)
      recorder->recordWavelet(pe, color, true);
    return true;
  }

private:
  /// Network::inject through the lane number the PE keeps once its router
  /// has the color's lane (a send every cycle would find it again).
  bool injectWavelet(const Wavelet &wavelet) {
    uint32_t queue = findQueue(network, pe, wavelet.color);
    if (queue != PE::NoQueue)
      return network.injectAt(queue, wavelet);
    return network.inject(pe.coord.x, pe.coord.y, wavelet);
  }

  uint8_t colorOf(const FabricEndpoint &d,
                  const std::array<std::optional<uint8_t>, 8> &bound) const {
    return endpointColor(d, bound, byQueue);
  }

  Network &network;
  PE &pe;
  const ProgramInfo &info;
  bool byQueue;
  uint32_t hostColors;
  BlockedOn &blockedOn;
  Band *recorder;
};

std::optional<DSRId> dsrOf(const pe::Operand &operand) {
  return DSRId::fromOperand(operand);
}

/// WSE-2: the color of a fabin operand whose delivery queue has not taken
/// an input queue's depth yet (PE::sizedColors).
const Descriptor *unsizedFabIn(const PE &pe, const pe::Operand &operand) {
  std::optional<DSRId> id = dsrOf(operand);
  if (!id)
    return nullptr;
  const Descriptor &d = pe.dsrs.get(*id);
  if (d.kind != DSRKind::FabIn || d.color >= 32 ||
      (pe.sizedColors >> d.color & 1))
    return nullptr;
  return &d;
}

} // namespace

bool Band::wouldSizeQueue(const PE &pe, const pe::Instruction &inst) const {
  if (model.getDataTaskSource() != target::DataTaskSource::Color)
    return false;
  for (const pe::Operand &operand : inst.operands)
    if (unsizedFabIn(pe, operand))
      return true;
  return false;
}

/// Classifies a started operation: fabric or FIFO operands make it
/// interactive; the widest memory operand sets its SIMD rate.
static void classify(Flight &flight, const pe::Instruction &inst,
                     const DSRFile &dsrs, bool &fabric, unsigned &bits) {
  fabric = false;
  bits = 16;
  bool fifo = false;
  for (const pe::Operand &operand : inst.operands) {
    std::optional<DSRId> id = dsrOf(operand);
    if (!id)
      continue;
    const Descriptor &d = dsrs.get(*id);
    if (d.kind == DSRKind::FabIn || d.kind == DSRKind::FabOut)
      fabric = true;
    else if (d.kind == DSRKind::Fifo)
      fifo = true;
    else
      bits = std::max<unsigned>(bits, d.width);
  }
  flight.interactive = fabric || fifo || flight.op.isMap();
}

Flight *FlightArena::make() {
  if (blocks.empty() || blocks.back().used == blocks.back().capacity) {
    // Small fabrics need a few dozen; large ones grow to a huge page.
    size_t capacity = blocks.empty() ? 32
                                     : std::min(2 * blocks.back().capacity,
                                                HugePageBytes / sizeof(Flight));
    void *memory = allocateLarge(capacity * sizeof(Flight), alignof(Flight));
    blocks.push_back({static_cast<Flight *>(memory), capacity, 0});
  }
  Block &block = blocks.back();
  return new (block.flights + block.used++) Flight();
}

FlightArena::~FlightArena() {
  for (Block &block : blocks) {
    for (size_t i = 0; i < block.used; ++i)
      block.flights[i].~Flight();
    freeLarge(block.flights, block.capacity * sizeof(Flight), alignof(Flight));
  }
}

FlightPtr Band::takeFlight(bool owning) {
  // A spare of the other kind rather than a new one: the band then holds
  // no more operations than were ever in flight at once, though one phase
  // of a program runs transfers on every PE and the next other operations
  // (a spare without slots gets its own and joins the owning ones).
  std::vector<FlightPtr> *spares = owning ? &spareOwningFlights : &spareFlights;
  if (spares->empty())
    spares = owning ? &spareFlights : &spareOwningFlights;
  if (spares->empty())
    return FlightPtr(flights.make());
  FlightPtr flight = std::move(spares->back());
  spares->pop_back();
  // The next start most likely takes the next spare and writes its
  // operand slots, which have been out of the cache since it last ran:
  // fetch them now, turns before.
  if (!spares->empty())
    prefetchLines<true>(spares->back().get(), sizeof(Flight));
  // start() rewrites the operation; the rest is set by startOperation,
  // except what runWhole and advance set later.
  flight->readyAt = 0;
  flight->blockedOn = {};
  return flight;
}

void Band::recycle(FlightPtr &flight) {
  // Operations end and start all over the band in one cycle; a new one
  // costs clearing 256 bytes (and its slots, if it needs its own). The band
  // keeps every finished one: no more than were once in flight together, which
  // its arena holds anyway.
  if (flight)
    (flight->op.ownsSlots() ? spareOwningFlights : spareFlights)
        .push_back(std::move(flight));
  flight.reset();
}

void Band::startOperation(PE &pe, const pe::Instruction &inst) {
  CEState &ce = pe.ce;
  const ProgramInfo &info = programOf(pe);
  const DecodedInst *decoded = info.code.lookup(ce.pc);
  StartTemplate *kept = startTemplates.find(pe.program, decoded->aux);
  bool copied = kept && kept->matches(pe);
  FlightPtr flight = takeFlight(!copied);
  if (copied) {
    DSDEngine::restart(flight->op, kept->op);
    flight->interactive = kept->interactive;
    flight->fabric = kept->fabric;
    flight->bits = kept->bits;
  } else {
    DSDTrap trap;
    if (!DSDEngine::start(flight->op, inst, ce, pe.dsrs, pe.fifos, trap)) {
      fail(pe, ce.pc, trap.message);
      return;
    }
    classify(*flight, inst, pe.dsrs, flight->fabric, flight->bits);
    kept = startTemplates.remember(pe.program, decoded->aux, inst, pe, *flight);
  }
  flight->pc = ce.pc;
  flight->next = ce.pc + 2 * decoded->size;
  flight->startCycle = cycle;
  flight->microthread = -1;

  // WSE-2 binds a queue to a color through the fabin that reads it: the
  // color's delivery queue takes that queue's depth.
  if (model.getDataTaskSource() == target::DataTaskSource::Color)
    for (const pe::Operand &operand : inst.operands)
      if (const Descriptor *d = unsizedFabIn(pe, operand))
        if (network.getDeliveredCount(pe.coord.x, pe.coord.y, d->color) <=
                model.getInputQueueDepth(d->queue) &&
            network.setDeliveryQueueDepth(pe.coord.x, pe.coord.y, d->color,
                                          model.getInputQueueDepth(d->queue)))
          pe.sizedColors |= uint32_t(1) << d->color;

  const ResolvedOptions &options = flight->op.getOptions();
  bool async = options.async && !flight->op.isMap();
  if (async) {
    unsigned ut = options.microthread;
    flight->microthread = static_cast<int8_t>(ut);
    if (ut >= pe.microthreads.size()) {
      fail(pe, ce.pc,
           std::string(pe::getInstInfo(inst.opcode)->mnemonic) +
               ": microthread " + std::to_string(ut) + " is not in 0.." +
               std::to_string(pe.microthreads.size() - 1));
      return;
    }
    if (pe.microthreads[ut]) {
      // Never two operations on one microthread: wait for it.
      recycle(flight);
      pe.state = MainState::WaitThread;
      ++pe.counters.stallCycles;
      pe.readyAt = cycle + 1; // where runMainThread counts slept cycles from
      return;
    }
    if (!flight->interactive && !runWhole(pe, *flight))
      return;
    if (this->options.trace)
      trace(pe, ce.pc,
            std::string(pe::getInstInfo(inst.opcode)->mnemonic) +
                " starts on microthread " + std::to_string(ut));
    pe.microthreads[ut] = std::move(flight);
    pe.microthreadsByPriority[unsigned(options.priority) & 3] |=
        uint8_t(1u << ut);
    // A chain's start, ahead of the band: nothing acts on it before its
    // cycle has passed (beginStreams clears the bit then).
    if (cycle > getBandCycle()) {
      pe.laterMicrothreads |= uint8_t(1u << ut);
      streamStarts.push(cycle + 1,
                        static_cast<uint32_t>(&pe - pes.data()) << 3 | ut);
    }
    uint8_t streamedApart = onOperationBeside(pe, ut);
    pe.state = MainState::Running;
    ce.pc = pe.microthreads[ut]->next;
    ++pe.counters.instructions;
    ++pe.counters.busyCycles;
    pe.readyAt = cycle + target::TargetModel::getInstructionCycles();
    progressed = true;
    // With transfers carried, a halo exchange's PE sleeps between its
    // starts: the band carries the new transfer from its first element,
    // and the builders before the next start run now.
    if (streamsEnabled) {
      tryStream(pe, ut, /*looksNext=*/true, streamedApart);
      runRegisterBatch(pe);
    }
    return;
  }

  ++pe.counters.instructions;
  if (!flight->interactive) {
    if (!runWhole(pe, *flight))
      return;
    if (kept)
      kept->ranWhole = true;
    complete(pe, *flight);
    ce.pc = flight->next;
    pe.state = MainState::Running;
    pe.readyAt = flight->readyAt;
    pe.counters.busyCycles += flight->readyAt - cycle;
    progressed = true;
    recycle(flight);
    return;
  }
  pe.operation = std::move(flight);
  pe.state = MainState::Operation;
  continueOperation(pe);
}

bool Band::runWhole(PE &pe, Flight &flight) {
  NoPorts ports;
  DSDContext context{pe.memory, pe.dsrs, pe.fifos, ports};
  DSDTrap trap;
  DSDProgress progress = engine.run(flight.op, context, trap);
  pe.counters.dsdElements += progress.elements;
  if (progress.status != DSDStatus::Done) {
    fail(pe, flight.pc,
         progress.status == DSDStatus::Trapped
             ? trap.message
             : "internal error: an operation on memory did not finish");
    return false;
  }
  uint64_t rate = model.getSIMDElementsPerCycle(flight.bits);
  uint64_t cost = std::max<uint64_t>(1, (progress.elements + rate - 1) / rate);
  flight.readyAt = cycle + cost;
  return true;
}

DSDProgress Band::advance(PE &pe, Flight &flight) {
  uint64_t budget = flight.fabric
                        ? target::TargetModel::getFabricElementsPerCycle()
                        : model.getSIMDElementsPerCycle(flight.bits);
  if (flight.op.isMap() && !flight.fabric)
    budget = detail::Unbounded;
  flight.blockedOn = {};
  PEPorts ports(network, pe, programOf(pe),
                model.getDataTaskSource() == target::DataTaskSource::InputQueue,
                hostColors, flight.blockedOn,
                options.record && options.record->wavelets ? this : nullptr);
  DSDProgress progress;
  std::optional<DSDTrap> trap; // made (a string) only on the general path
  if (!DSDEngine::runFabricMove(flight.op, pe.memory, pe.dsrs, ports, budget,
                                progress)) {
    DSDContext context{pe.memory, pe.dsrs, pe.fifos, ports};
    uint64_t done = progress.elements;
    progress = engine.run(flight.op, context, trap.emplace(), budget - done);
    progress.elements += done;
  }
  pe.counters.dsdElements += progress.elements;
  if (progress.elements) {
    progressed = true;
    pe.dsdProgressCycle = cycle;
  }
  for (uint64_t tasks = progress.activatedTasks; tasks; tasks &= tasks - 1)
    activate(pe, std::countr_zero(tasks));
  if (progress.status == DSDStatus::Blocked && !flight.blockedOn.valid)
    flight.blockedOn = {true, false, true, 0, 0}; // a FIFO full or empty
  if (progress.status == DSDStatus::Trapped)
    fail(pe, flight.pc, trap->message); // only run() traps
  return progress;
}

bool Band::wouldBlockAgain(const PE &pe, const Flight &flight) const {
  const BlockedOn &on = flight.blockedOn;
  if (!on.valid || on.fifo)
    return false;
  if (!on.send) {
    // PEPorts::popWavelet. A color's delivery queue holds nothing while
    // its bit in deliveredColors is clear (cleared only on an empty queue;
    // every delivery sets it).
    if (on.color < 32 && !(pe.deliveredColors >> on.color & 1))
      return true;
    return !peekDelivered(network, pe, on.color);
  }
  // PEPorts::pushWavelet: a blocked queue refuses; the host's colors never
  // fill; otherwise the inject buffer decides.
  if (pe.blockedOutputQueues >> on.queue & 1)
    return true;
  if (on.color < 32 && (hostColors >> on.color & 1))
    return false;
  // Without the color's lane inject would make it, with room.
  uint32_t queue = findQueue(network, pe, on.color);
  return queue != PE::NoQueue && network.isInjectBufferFullAt(queue);
}

void Band::complete(PE &pe, Flight &flight) {
  // An interactive operation completes in this cycle; one on memory when
  // its cost has elapsed.
  recordOperation(pe, flight, flight.interactive ? cycle + 1 : flight.readyAt);
  const ResolvedOptions &options = flight.op.getOptions();
  if (this->options.trace &&
      (options.async || options.activate || options.unblock)) {
    std::string what = options.async ? "async operation on microthread " +
                                           std::to_string(options.microthread) +
                                           " completes"
                                     : std::string("operation completes");
    if (options.activate)
      what += ", activates task " + std::to_string(*options.activate);
    if (options.unblock)
      what += ", unblocks task " + std::to_string(*options.unblock);
    trace(pe, flight.pc, what);
  }
  if (options.activate)
    activate(pe, *options.activate);
  if (options.unblock)
    setBlocked(pe, pe::BlockSpace::Task, *options.unblock, false);
  if (std::optional<uint8_t> color = flight.op.getAdvanceSwitchColor())
    network.advanceSwitch(pe.coord.x, pe.coord.y, *color);
}

void Band::continueOperation(PE &pe) {
  Flight &flight = *pe.operation;
  if (wouldBlockAgain(pe, flight)) {
    pe.readyAt = cycle + 1;
    ++pe.counters.stallCycles;
    return;
  }
  DSDProgress progress = advance(pe, flight);
  CEState &ce = pe.ce;
  switch (progress.status) {
  case DSDStatus::Done:
    complete(pe, flight);
    ce.pc = flight.next;
    recycle(pe.operation);
    pe.state = MainState::Running;
    pe.readyAt = cycle + 1;
    ++pe.counters.busyCycles;
    progressed = true;
    return;
  case DSDStatus::Paused:
    pe.readyAt = cycle + 1;
    ++pe.counters.busyCycles;
    if (streamsEnabled)
      tryStreamMain(pe, true);
    return;
  case DSDStatus::Blocked:
    pe.readyAt = cycle + 1;
    ++(progress.elements ? pe.counters.busyCycles : pe.counters.stallCycles);
    if (streamsEnabled)
      tryStreamMain(pe, progress.elements != 0);
    return;
  case DSDStatus::CallMap: {
    // The map function runs on the main thread like a call; its return to
    // TopLevelReturn hands r0 back to the operation.
    MapCall call = flight.op.getMapCall();
    for (unsigned i = 0; i < call.numArgs; ++i)
      ce.r[i] = call.args[i];
    ce.r[14] = TopLevelReturn;
    ce.pc = call.function;
    pe.inMapCall = true;
    pe.state = MainState::Running;
    pe.readyAt = cycle + 1;
    ++pe.counters.busyCycles;
    progressed = true;
    return;
  }
  case DSDStatus::Trapped:
    return;
  }
}

void Band::runMicrothreads(PE &pe) {
  static_assert(target::TargetModel::getNumMicrothreads() <= 8,
                "a PE's microthreads fit a byte");
  // High before medium before low before default; ties by ID: the PE's
  // mask of microthreads per priority, walked from high down, each from
  // the lowest ID.
  static_assert(unsigned(pe::Priority::Default) == 0 &&
                    unsigned(pe::Priority::Low) == 1 &&
                    unsigned(pe::Priority::Medium) == 2 &&
                    unsigned(pe::Priority::High) == 3,
                "microthreadsByPriority is indexed by the priority");
  const std::array<uint8_t, 4> byPriority = pe.microthreadsByPriority;
  for (unsigned priority = 4; priority-- > 0;)
    for (uint8_t threads = byPriority[priority]; threads;
         threads &= threads - 1) {
      unsigned ut = unsigned(std::countr_zero(threads));
      // A blocked one waits; a streamed one has had its cycle; one a chain
      // started has not begun.
      uint8_t passedBy = pe.blockedMicrothreads | pe.streamedMicrothreads |
                         pe.laterMicrothreads;
      if (passedBy >> ut & 1)
        continue;
      Flight &flight = *pe.microthreads[ut];
      auto finish = [&] {
        complete(pe, flight);
        recycle(pe.microthreads[ut]);
        pe.microthreadsByPriority[priority] &= uint8_t(~(1u << ut));
        progressed = true;
      };
      if (!flight.interactive) {
        if (flight.readyAt > cycle) {
          progressed = true;
          continue;
        }
        finish();
        continue;
      }
      if (wouldBlockAgain(pe, flight))
        continue;
      DSDProgress progress = advance(pe, flight);
      if (progress.status == DSDStatus::Trapped)
        return;
      if (progress.status == DSDStatus::Done)
        finish();
      else if (streamsEnabled)
        tryStream(pe, ut, progress.elements != 0);
    }
}
