//===- Streams.cpp - transfers carried between turns ----------------------===//
//
// docs/Emulator.md "Transfers between turns": a microthread's plain move
// between memory and the fabric moves one element a cycle, so a PE
// exchanging halos would take a turn every cycle for it. From its start
// (once its router has the lane), the band carries such a move instead:
// at the start of each cycle, before any turn, a send pushes its next
// element into its inject buffer, and a receive takes the wavelet
// delivered to it in the last step (after its start or an element, its
// turn would look in the next cycle whether or not one came: the band is
// not quiet until then, Band::lookEnd).
// Both do what the microthread's turn would have done in that cycle; the
// PE sleeps unless something else needs it. The last element completes the
// operation here too when that only activates a task, and wakes the PE if its
// turn would act on it.
//
// The band's work comes before the turns, not in them, so it must not
// depend on what the PE's other threads do in the same cycle: the PE's
// streamed moves use distinct colors, and no memory one writes is touched
// by another (the main thread comes after every microthread anyway).
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include "tessera/Emulator/FabricMoves.h"

#include <algorithm>
#include <bit>

using namespace tessera;
using namespace tessera::emulator;
using namespace tessera::emulator::machine;

namespace {

using detail::FabricMove;

uint8_t bitOf(unsigned ut) { return static_cast<uint8_t>(1u << ut); }

bool isSend(const Flight &flight) {
  return flight.op.getFabricMove().kind == FabricMove::Send;
}

/// A plain move's remaining elements: `count` of `bytes` bytes each, at
/// `first`, first + step, ...
struct Progression {
  int64_t first, step, count, bytes;
  explicit Progression(const DSDOperation &op) {
    const FabricMove &move = op.getFabricMove();
    first = move.address;
    step = move.step;
    count = static_cast<int64_t>(op.getLength() - op.getElementsDone());
    bytes = move.bytes;
    if (step < 0) { // the same bytes, walked upwards
      first += (count - 1) * step;
      step = -step;
    }
  }
  /// Its elements leave no gap: it is its span.
  bool isSolid() const { return count <= 1 || step <= bytes; }
  int64_t end() const { return first + (count - 1) * step + bytes; }
  /// No element meets [low, high).
  bool misses(int64_t low, int64_t high) const {
    // The first element ending after `low`, if any, must start at `high`
    // or later.
    int64_t k = low - bytes < first ? 0 : (low - bytes - first) / step + 1;
    return k >= count || first + k * step >= high;
  }
};

/// The elements two plain moves have left share no byte: their spans do
/// not meet; or one is solid and no element of the other falls in it (a
/// halo column beside an edge row); or with one stride the elements of
/// each fall between the other's (a halo column beside an edge column).
bool touchApart(const DSDOperation &opA, const DSDOperation &opB) {
  Progression a(opA), b(opB);
  if (a.end() <= b.first || b.end() <= a.first)
    return true;
  if (a.isSolid() && b.isSolid())
    return false;
  if (b.isSolid())
    return a.misses(b.first, b.end());
  if (a.isSolid())
    return b.misses(a.first, a.end());
  if (a.step != b.step)
    return false;
  // A's elements start `offset` bytes into each of B's strides.
  int64_t offset = ((a.first - b.first) % a.step + a.step) % a.step;
  return offset >= b.bytes && offset + a.bytes <= a.step;
}

/// Two operations of one PE whose cycles may run in either order: plain
/// moves on different colors, neither writing memory the other touches.
bool mayRunApart(const Flight &a, uint8_t colorA, const Flight &b,
                 uint8_t colorB) {
  if (!DSDEngine::isPlainMove(b.op) || colorA == colorB)
    return false;
  return (isSend(a) && isSend(b)) || touchApart(a.op, b.op);
}

} // namespace

uint8_t Band::colorOfMove(const PE &pe, const Flight &flight) const {
  const FabricMove &move = flight.op.getFabricMove();
  const ProgramInfo &info = programOf(pe);
  return endpointColor(move.endpoint,
                       move.kind == FabricMove::Receive ? info.inputQueueColor
                                                        : info.outputQueueColor,
                       model.getDataTaskSource() ==
                           target::DataTaskSource::InputQueue);
}

bool Band::mayStreamBeside(const PE &pe, unsigned ut,
                           uint8_t knownApart) const {
  const Flight &flight = *pe.microthreads[ut];
  uint8_t color = colorOfMove(pe, flight);
  for (uint8_t others = pe.getBusyMicrothreads() & ~bitOf(ut) & ~knownApart;
       others; others &= others - 1) {
    const Flight &other = *pe.microthreads[std::countr_zero(others)];
    if (other.interactive &&
        !mayRunApart(flight, color, other, colorOfMove(pe, other)))
      return false;
  }
  return true;
}

void Band::tryStream(PE &pe, unsigned ut, bool looksNext, uint8_t knownApart) {
  Flight &flight = *pe.microthreads[ut];
  const DSDOperation &op = flight.op;
  if (!DSDEngine::isPlainMove(op) || op.getLength() - op.getElementsDone() < 2)
    return;
  uint8_t bit = bitOf(ut);
  if (pe.blockedMicrothreads & bit)
    return;
  const FabricMove &move = op.getFabricMove();
  uint8_t color = colorOfMove(pe, flight);
  if (color >= 32 || findQueue(network, pe, color) == PE::NoQueue)
    return;
  bool send = move.kind == FabricMove::Send;
  if (send) {
    // The host's colors and a blocked queue take the turn's path.
    if ((hostColors >> color & 1) ||
        (pe.blockedOutputQueues >> move.endpoint.queue & 1))
      return;
  } else if (pe.controlColors >> color & 1) {
    return; // a control wavelet may wait: the turn's to take
  }
  if (!mayStreamBeside(pe, ut, knownApart))
    return;
  pe.streamedMicrothreads |= bit;
  pe.streamColor[ut] = color;
  if (send) {
    pe.sendColors |= uint32_t(1) << color; // as its first push would
    pe.streamedSends |= bit;
    ++liveSends;
    listStreamPE(pe);
  } else {
    uint32_t colorBit = uint32_t(1) << color;
    pe.streamedColors |= colorBit;
    if (pe.deliveredColors & colorBit) {
      // Wavelets wait already: the stream owns the queue and takes one a
      // cycle from the next on.
      pe.deliveredColors &= ~colorBit;
      markReceiveReady(pe, pe.readyStreams, bit);
    } else {
      // What a turn finding the queue empty leaves (a move carried from
      // its start has had none), for deadlock reports; the next one would
      // look whether or not a wavelet came.
      flight.blockedOn = {true, false, false, color, move.endpoint.queue};
      if (looksNext)
        lookEnd = std::max(lookEnd, cycle + 2);
    }
  }
  if (!pe.listedStreaming) {
    pe.listedStreaming = true;
    streamingPEs.push_back(static_cast<uint32_t>(&pe - pes.data()));
  }
}

Band::DroppedStream Band::dropStream(PE &pe, unsigned ut) {
  uint8_t bit = bitOf(ut);
  pe.streamedMicrothreads &= uint8_t(~bit);
  if (pe.streamedSends & bit) {
    pe.streamedSends &= uint8_t(~bit);
    --liveSends;
    return DroppedStream::Send;
  }
  pe.streamedColors &= ~(uint32_t(1) << pe.streamColor[ut]);
  if (!(pe.readyStreams & bit))
    return DroppedStream::Receive;
  pe.readyStreams &= uint8_t(~bit);
  --readyReceives;
  return DroppedStream::ReceiveWithDelivery;
}

void Band::unstream(PE &pe, uint8_t threads) {
  threads &= pe.streamedMicrothreads;
  for (; threads; threads &= threads - 1) {
    unsigned ut = unsigned(std::countr_zero(threads));
    switch (dropStream(pe, ut)) {
    case DroppedStream::Send:
      // The send acts in the PE's next turn, unless its microthread is
      // blocked: then the turn would leave it alone, and the PE may sleep.
      if (!(pe.blockedMicrothreads >> ut & 1))
        wake(pe);
      break;
    case DroppedStream::ReceiveWithDelivery:
      // The delivery the stream had not taken yet is the turn's, as if
      // the stream had never been.
      pe.deliveredColors |= uint32_t(1) << pe.streamColor[ut];
      wake(pe);
      break;
    case DroppedStream::Receive:
      break;
    }
  }
}

uint8_t Band::onOperationBeside(PE &pe, unsigned ut) {
  if (!pe.streamedMicrothreads || !pe.microthreads[ut]->interactive)
    return 0;
  const Flight &flight = *pe.microthreads[ut];
  if (!DSDEngine::isPlainMove(flight.op)) {
    unstream(pe, pe.streamedMicrothreads);
    return 0;
  }
  uint8_t color = colorOfMove(pe, flight);
  uint8_t conflicting = 0;
  for (uint8_t threads = pe.streamedMicrothreads; threads;
       threads &= threads - 1) {
    unsigned other = unsigned(std::countr_zero(threads));
    if (!mayRunApart(flight, color, *pe.microthreads[other],
                     pe.streamColor[other]))
      conflicting |= bitOf(other);
  }
  unstream(pe, conflicting);
  return pe.streamedMicrothreads;
}

bool Band::takeStreamDelivery(PE &pe, unsigned color, bool control) {
  if (!(pe.streamedColors >> color & 1))
    return false;
  if ((pe.mainStream & (MainStreamed | MainStreamSend)) == MainStreamed &&
      pe.mainStreamColor == color)
    return takeMainStreamDelivery(pe, control);
  uint8_t receives = pe.streamedMicrothreads & ~pe.streamedSends;
  unsigned ut = 0;
  while (ut < pe.streamColor.size() &&
         (pe.streamColor[ut] != color || !(receives >> ut & 1)))
    ++ut; // the color's bit says one is there
  if (ut == pe.streamColor.size())
    return false;
  uint8_t bit = bitOf(ut);
  if (control) {
    unstream(pe, bit); // the turn sees what a control wavelet does
    return false;
  }
  markReceiveReady(pe, pe.readyStreams, bit);
  return true;
}

bool Band::mayCompleteApart(const Flight &flight) {
  const ResolvedOptions &options = flight.op.getOptions();
  return !options.unblock && !flight.op.getAdvanceSwitchColor();
}

void Band::completeStream(PE &pe, unsigned ut) {
  Flight &flight = *pe.microthreads[ut];
  dropStream(pe, ut);
  // What the turn's advance and finish do, in their order.
  DSDEngine::finishPlainMove(flight.op, pe.dsrs);
  complete(pe, flight);
  pe.microthreadsByPriority[unsigned(flight.op.getOptions().priority) & 3] &=
      uint8_t(~bitOf(ut));
  recycle(pe.microthreads[ut]);
  progressed = true;
  // That turn would then run the main thread, unless it is computing
  // until a later cycle (it has a timer or a turn for that): an activated
  // task, a freed microthread or an operation's retry is its business. An
  // idle one that exited ahead (a chain) picks a task from its readyAt.
  bool computing =
      (pe.state == MainState::Running ||
       (pe.state == MainState::Operation && !pe.operation->interactive)) &&
      pe.readyAt > cycle;
  if (pe.state == MainState::Idle && pe.readyAt > cycle)
    wakeAt(pe, pe.readyAt);
  else if (!computing)
    wake(pe);
}

Band::SendStep Band::sendCarriedElement(PE &pe, Flight &flight, uint8_t color) {
  DSDOperation &op = flight.op;
  uint32_t queue = pe.deliveryQueue[color];
  bool full = network.isInjectBufferFullAt(queue);
  if (full && flight.blockedOn.valid)
    return SendStep::Waiting; // Band::wouldBlockAgain: the turn would pass
  uint32_t value, payload;
  if (!DSDEngine::fetchPlainSend(op, pe.memory, value, payload))
    return SendStep::GiveBack; // the turn reports the fault
  if (full || !network.injectAt(queue, Wavelet{payload, color, false, 0})) {
    DSDEngine::holdPlainSend(op, value);
    flight.blockedOn = {true, true, false, color,
                        op.getFabricMove().endpoint.queue};
    return SendStep::Waiting;
  }
  DSDEngine::finishPlainSend(op);
  flight.blockedOn = {};
  ++carriedElements;
  ++pe.counters.waveletsSent;
  ++pe.counters.dsdElements;
  progressed = true;
  pe.dsdProgressCycle = cycle;
  return SendStep::Sent;
}

Band::ReceiveStep Band::receiveCarriedElement(PE &pe, Flight &flight,
                                              uint8_t color, bool &nowEmpty) {
  DSDOperation &op = flight.op;
  uint32_t queue = pe.deliveryQueue[color];
  std::optional<Wavelet> head = network.peekDeliveryQueue(queue);
  if (!head)
    return ReceiveStep::Empty;
  if (head->control ||
      !DSDEngine::receivePlainElement(op, pe.memory, head->payload))
    return ReceiveStep::GiveBack; // the turn faults or finds what to do
  network.dropDeliveryHead(queue, nowEmpty);
  // What the PE's next turn would find, unless a wavelet comes first.
  flight.blockedOn = {true, false, false, color,
                      op.getFabricMove().endpoint.queue};
  ++pe.counters.waveletsReceived;
  ++pe.counters.dsdElements;
  ++carriedElements;
  progressed = true;
  pe.dsdProgressCycle = cycle;
  return ReceiveStep::Taken;
}

bool Band::stepSendStream(PE &pe, unsigned ut) {
  Flight &flight = *pe.microthreads[ut];
  DSDOperation &op = flight.op;
  // Whatever a block changed is a turn's work; so is a completion that
  // does more than activate a task.
  uint64_t left = op.getLength() - op.getElementsDone();
  if (left == 0 || (left == 1 && !mayCompleteApart(flight)) ||
      pe.state == MainState::Faulted || (pe.blockedMicrothreads >> ut & 1) ||
      (pe.blockedOutputQueues >> op.getFabricMove().endpoint.queue & 1))
    return false;
  switch (sendCarriedElement(pe, flight, pe.streamColor[ut])) {
  case SendStep::GiveBack:
    return false;
  case SendStep::Waiting:
    return true;
  case SendStep::Sent:
    break;
  }
  if (left == 1)
    completeStream(pe, ut);
  return true;
}

Band::StreamStep Band::stepReceiveStream(PE &pe, unsigned ut) {
  Flight &flight = *pe.microthreads[ut];
  DSDOperation &op = flight.op;
  uint64_t left = op.getLength() - op.getElementsDone();
  if (left == 0 || (left == 1 && !mayCompleteApart(flight)) ||
      pe.state == MainState::Faulted || (pe.blockedMicrothreads >> ut & 1))
    return StreamStep::GiveBack;
  uint8_t color = pe.streamColor[ut];
  bool nowEmpty = false;
  switch (receiveCarriedElement(pe, flight, color, nowEmpty)) {
  case ReceiveStep::GiveBack:
    return StreamStep::GiveBack;
  case ReceiveStep::Empty:
    // A queue found empty after all: the turn's look would find nothing,
    // and the PE sleep until a delivery.
    return StreamStep::Done;
  case ReceiveStep::Taken:
    break;
  }
  if (left == 1) {
    if (!nowEmpty) {
      // What the turn's poll leaves for the next operation or task.
      pe.deliveredColors |= uint32_t(1) << color;
      wake(pe);
    }
    completeStream(pe, ut);
    return StreamStep::Completed;
  }
  if (!nowEmpty)
    return StreamStep::MoreWaiting;
  // The next cycle's turn would look again, and find a wavelet delivered
  // meanwhile (whose delivery readies the stream) or nothing.
  lookEnd = std::max(lookEnd, cycle + 2);
  return StreamStep::Done;
}

namespace {
/// What the carried transfers of a PE read, fetched ahead in three stages
/// as Band::runPEs does for turns: a large fabric's PEs are far apart in
/// memory, and each is visited once a cycle.
constexpr size_t PEAhead = 8, FlightAhead = 4, ElementAhead = 2;
/// PEs with carried transfers from which a cycle fetches ahead: fewer
/// PEs' lines stay in the caches, and fetching would only cost
/// instructions.
constexpr size_t PrefetchFromPEs = 256;

/// Those a chain started ahead wait for beginStreams.
uint8_t streamsWithWork(const PE &pe) {
  return (pe.streamedSends | pe.readyStreams) & ~pe.laterMicrothreads;
}
/// The main thread's carried move has work in the next cycle.
bool mainStreamHasWork(const PE &pe) {
  return pe.mainStream & (MainStreamSend | MainStreamReady);
}
/// `withMain`: some main thread's move is carried.
bool hasWorkToCarry(const PE &pe, bool withMain) {
  return streamsWithWork(pe) || (withMain && mainStreamHasWork(pe));
}

void prefetchStreamPE(const PE &pe) {
  // Every line of the PE a step reads: flags and masks, the colors, the
  // operations, the counters (with the progress cycle), the queues'
  // numbers and the memory's pointers and first pages' owners (the rest
  // of its owners only where the data lie higher up).
  __builtin_prefetch(&pe);
  __builtin_prefetch(&pe.streamColor);
  __builtin_prefetch(&pe.microthreads);
  __builtin_prefetch(&pe.counters);
  __builtin_prefetch(&pe.deliveryQueue[0]);
  __builtin_prefetch(&pe.deliveryQueue[16]);
  pe.memory.prefetchHeader();
}
// One pass over the PE's streams each, not one per kind of line: a PE
// exchanging halos has eight.
void prefetchStreamFlights(const Network &network, const PE &pe,
                           bool withMain) {
  for (uint8_t rest = streamsWithWork(pe); rest; rest &= rest - 1) {
    unsigned ut = unsigned(std::countr_zero(rest));
    __builtin_prefetch(pe.microthreads[ut].get());
    network.prefetchQueue(pe.deliveryQueue[pe.streamColor[ut]]);
  }
  if (withMain && mainStreamHasWork(pe)) {
    __builtin_prefetch(pe.operation.get());
    network.prefetchQueue(pe.deliveryQueue[pe.mainStreamColor]);
  }
  pe.memory.prefetchPageTable();
}
void prefetchStreamElements(const Network &network, const PE &pe,
                            bool withMain) {
  for (uint8_t rest = streamsWithWork(pe); rest; rest &= rest - 1) {
    unsigned ut = unsigned(std::countr_zero(rest));
    int64_t address = pe.microthreads[ut]->op.getFabricMoveAddress();
    if (address >= 0)
      pe.memory.prefetch(static_cast<uint32_t>(address));
    if (pe.readyStreams >> ut & 1)
      network.prefetchDeliveryHead(pe.deliveryQueue[pe.streamColor[ut]]);
  }
  if (withMain && mainStreamHasWork(pe)) {
    int64_t address = pe.operation->op.getFabricMoveAddress();
    if (address >= 0)
      pe.memory.prefetch(static_cast<uint32_t>(address));
    if (pe.mainStream & MainStreamReady)
      network.prefetchDeliveryHead(pe.deliveryQueue[pe.mainStreamColor]);
  }
}
} // namespace

void Band::prefetchStreams(size_t i, bool withMain) {
  size_t count = streamPEsNow.size();
  if (i + PEAhead < count)
    prefetchStreamPE(pes[streamPEsNow[i + PEAhead]]);
  if (i + FlightAhead < count)
    prefetchStreamFlights(network, pes[streamPEsNow[i + FlightAhead]],
                          withMain);
  if (i + ElementAhead < count)
    prefetchStreamElements(network, pes[streamPEsNow[i + ElementAhead]],
                           withMain);
}

void Band::runStreams() {
  // PE by PE, so that a PE's lines are read once for all its transfers:
  // receives of wavelets delivered in the last step (one left waiting,
  // when the queue held more, is taken in the next cycle, as the turn
  // would), then sends.
  streamPEsNow.swap(streamPEs);
  bool fetchAhead = streamPEsNow.size() >= PrefetchFromPEs;
  // Only turns start carrying a main thread's move, so a cycle that
  // begins with none looks for none.
  bool withMain = carriedMainMoves != 0;
  for (size_t i = 0; i < streamPEsNow.size(); ++i) {
    if (fetchAhead)
      prefetchStreams(i, withMain);
    PE &pe = pes[streamPEsNow[i]];
    for (uint8_t ready = pe.readyStreams & ~pe.laterMicrothreads; ready;
         ready &= ready - 1) {
      unsigned ut = unsigned(std::countr_zero(ready));
      switch (stepReceiveStream(pe, ut)) {
      case StreamStep::Done:
        pe.readyStreams &= uint8_t(~bitOf(ut));
        --readyReceives;
        break;
      case StreamStep::MoreWaiting:
      case StreamStep::Completed:
        break;
      case StreamStep::GiveBack:
        unstream(pe, bitOf(ut));
        break;
      }
    }
    for (uint8_t sends = pe.streamedSends & ~pe.laterMicrothreads; sends;
         sends &= sends - 1) {
      unsigned ut = unsigned(std::countr_zero(sends));
      if (!stepSendStream(pe, ut))
        unstream(pe, bitOf(ut));
    }
    // The main thread's, if any, is the only operation of its PE.
    if (withMain && mainStreamHasWork(pe))
      runMainStream(pe);
    if (hasWorkToCarry(pe, withMain))
      streamPEs.push_back(streamPEsNow[i]);
    else
      pe.streamListed = false;
  }
  streamPEsNow.clear();
}

void Band::beginStreams() {
  // Entries are PE index << 3 | microthread. A microthread starts no new
  // operation ahead before its last one's entry is due (that one must end
  // first), so the entry's bit is its own.
  streamStarts.popDue(cycle, dueStarts);
  for (auto [at, entry] : dueStarts) {
    PE &pe = pes[entry >> 3];
    pe.laterMicrothreads &= uint8_t(~(1u << (entry & 7)));
    if (hasWorkToCarry(pe, carriedMainMoves != 0))
      listStreamPE(pe);
  }
}

void Band::settleStreams() {
  for (uint32_t index : streamingPEs) {
    PE &pe = pes[index];
    unstream(pe, pe.streamedMicrothreads);
    unstreamMain(pe);
    pe.listedStreaming = false;
    pe.streamListed = false;
  }
  streamingPEs.clear();
  streamPEs.clear();
}
