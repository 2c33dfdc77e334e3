//===- MainStreams.cpp - the main thread's transfers between turns --------===//
//
// docs/Emulator.md "Transfers between turns": a synchronous plain move
// between memory and the fabric (`@fmovs(out_dsd, mem_dsd)`) holds the
// main thread and moves one element a cycle, so its PE would take a turn
// every cycle for it. Once its first cycle has run in a turn, with two
// elements or more left and no microthread of the PE busy, the band
// carries it as it carries a microthread's (Streams.cpp): before any turn
// of a cycle, a send pushes its next element into its inject buffer and a
// receive takes the wavelet delivered in the last step.
//
// The main thread's counters and readyAt move as its turns would have
// moved them: a cycle that moves an element is busy, and those between
// (a full inject buffer, an empty delivery queue) are stalled, charged
// when the next element moves or the turns take the operation back. The
// last element completes the operation here when that only activates a
// task; the main thread then runs on in a turn in the next cycle.
//
// Nothing else of the PE runs meanwhile: its microthreads are idle and
// its main thread is held, so the band's cycle may come before its turn.
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

#include "tessera/Emulator/FabricMoves.h"

#include <utility>

using namespace tessera;
using namespace tessera::emulator;
using namespace tessera::emulator::machine;

namespace {

/// The main thread's turn in `cycle` would have moved an element (a busy
/// cycle) or found none (a stalled one), as Band::continueOperation counts
/// them; the cycles since it last acted were stalled too.
void chargeCycle(PE &pe, uint64_t cycle, bool busy) {
  pe.counters.stallCycles += cycle - pe.readyAt + (busy ? 0 : 1);
  pe.counters.busyCycles += busy ? 1 : 0;
  pe.readyAt = cycle + 1;
}

} // namespace

void Band::tryStreamMain(PE &pe, bool moved) {
  Flight &flight = *pe.operation;
  const DSDOperation &op = flight.op;
  if (pe.mainStream || pe.inMapCall || pe.state != MainState::Operation ||
      pe.hasBusyMicrothread() || !DSDEngine::isPlainMove(op) ||
      op.getLength() - op.getElementsDone() < 2)
    return;
  const detail::FabricMove &move = op.getFabricMove();
  uint8_t color = colorOfMove(pe, flight);
  if (color >= 32 || findQueue(network, pe, color) == PE::NoQueue)
    return;
  uint32_t colorBit = uint32_t(1) << color;
  bool send = move.kind == detail::FabricMove::Send;
  if (send) {
    // The host's colors and a blocked queue take the turn's path.
    if ((hostColors & colorBit) ||
        (pe.blockedOutputQueues >> move.endpoint.queue & 1))
      return;
  } else if (pe.controlColors & colorBit) {
    return; // a control wavelet may wait: the turn's to take
  }
  pe.mainStream = MainStreamed;
  pe.mainStreamColor = color;
  ++carriedMainMoves;
  if (send) {
    pe.sendColors |= colorBit; // as its first push did
    pe.mainStream |= MainStreamSend;
    ++liveSends;
    listStreamPE(pe);
  } else {
    pe.streamedColors |= colorBit;
    if ((pe.deliveredColors & colorBit) || moved) {
      // Wavelets wait already, and the stream takes one a cycle from the
      // next; or the turn took one, and the next would look again.
      pe.deliveredColors &= ~colorBit;
      markReceiveReady(pe, pe.mainStream, MainStreamReady);
    }
  }
  if (!pe.listedStreaming) {
    pe.listedStreaming = true;
    streamingPEs.push_back(static_cast<uint32_t>(&pe - pes.data()));
  }
}

Band::DroppedStream Band::dropMainStream(PE &pe) {
  uint8_t flags = std::exchange(pe.mainStream, 0);
  --carriedMainMoves;
  if (flags & MainStreamSend) {
    --liveSends;
    return DroppedStream::Send;
  }
  pe.streamedColors &= ~(uint32_t(1) << pe.mainStreamColor);
  if (!(flags & MainStreamReady))
    return DroppedStream::Receive;
  --readyReceives;
  return DroppedStream::ReceiveWithDelivery;
}

void Band::unstreamMain(PE &pe) {
  if (!pe.mainStream)
    return;
  switch (dropMainStream(pe)) {
  case DroppedStream::Send:
    // Its turns take every cycle, and count each one it found no room in
    // as stalled: those since its last element, up to this cycle's turn
    // (or the cycle the host stops at), which goes on from there.
    if (cycle > pe.readyAt) {
      pe.counters.stallCycles += cycle - pe.readyAt;
      pe.readyAt = cycle;
    }
    wake(pe);
    break;
  case DroppedStream::ReceiveWithDelivery:
    // The delivery the stream had not taken is the turn's.
    pe.deliveredColors |= uint32_t(1) << pe.mainStreamColor;
    wake(pe);
    break;
  case DroppedStream::Receive:
    break; // the PE sleeps until a delivery, as after its turns
  }
}

bool Band::takeMainStreamDelivery(PE &pe, bool control) {
  if (control) {
    unstreamMain(pe); // the turn sees what a control wavelet does
    return false;
  }
  markReceiveReady(pe, pe.mainStream, MainStreamReady);
  return true;
}

void Band::runMainStream(PE &pe) {
  Flight &flight = *pe.operation;
  DSDOperation &op = flight.op;
  uint64_t left = op.getLength() - op.getElementsDone();
  bool send = pe.mainStream & MainStreamSend;
  // A completion that does more than activate a task is the turn's.
  if (left == 0 || (left == 1 && !mayCompleteApart(flight)) ||
      pe.state != MainState::Operation ||
      (send &&
       (pe.blockedOutputQueues >> op.getFabricMove().endpoint.queue & 1))) {
    unstreamMain(pe);
    return;
  }
  uint8_t color = pe.mainStreamColor;
  bool nowEmpty = false;
  if (send) {
    switch (sendCarriedElement(pe, flight, color)) {
    case SendStep::GiveBack:
      unstreamMain(pe);
      return;
    case SendStep::Waiting:
      return;
    case SendStep::Sent:
      break;
    }
  } else {
    switch (receiveCarriedElement(pe, flight, color, nowEmpty)) {
    case ReceiveStep::GiveBack:
      unstreamMain(pe);
      return;
    case ReceiveStep::Empty:
      // The turn after an element looks again and finds nothing: a
      // stalled cycle, then the PE sleeps until a delivery.
      chargeCycle(pe, cycle, /*busy=*/false);
      flight.blockedOn = {true, false, false, color,
                          op.getFabricMove().endpoint.queue};
      pe.mainStream &= uint8_t(~MainStreamReady);
      --readyReceives;
      return;
    case ReceiveStep::Taken:
      break;
    }
  }
  chargeCycle(pe, cycle, /*busy=*/true);
  if (left == 1) {
    // What continueOperation does when the operation is done; the main
    // thread runs on in the next cycle's turn.
    dropMainStream(pe);
    if (!send && !nowEmpty) {
      // What the turn's poll leaves for the next operation or task.
      pe.deliveredColors |= uint32_t(1) << color;
      wake(pe);
    }
    DSDEngine::finishPlainMove(op, pe.dsrs);
    complete(pe, flight);
    pe.ce.pc = flight.next;
    recycle(pe.operation);
    pe.state = MainState::Running;
    wakeAt(pe, cycle + 1);
  }
  // A receive that emptied its queue stays ready: the next cycle's turn
  // would look again, and find a wavelet delivered meanwhile or stall.
}
