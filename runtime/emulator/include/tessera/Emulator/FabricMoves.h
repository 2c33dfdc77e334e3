//===- FabricMoves.h - moves between memory and the fabric ------*- C++ -*-===//
//
// A PE exchanging halos runs several moves between memory and the fabric at
// once, each one element a cycle, so the cost of a cycle is mostly that of
// reaching the element: run(), the element path, virtual port calls and
// the operand slots. DSDEngine::runFabricMove does what they do for these
// moves alone, from the operation's FabricMove, with the ports' class known
// at compile time. Only the caller that owns the ports (the PE model)
// includes this.
//
//===----------------------------------------------------------------------===//

#ifndef TESSERA_EMULATOR_FABRICMOVES_H
#define TESSERA_EMULATOR_FABRICMOVES_H

#include "tessera/Emulator/DSDEngine.h"

namespace tessera::emulator {

template <class Ports>
bool DSDEngine::runFabricMove(DSDOperation &op, PEMemory &memory, DSRFile &dsrs,
                              Ports &ports, uint64_t maxElements,
                              DSDProgress &progress) {
  detail::FabricMove &move = op.move;
  progress = {};
  if (move.kind == detail::FabricMove::None)
    return false;
  const bool receive = move.kind == detail::FabricMove::Receive;
  const bool half =
      op.opcode == pe::Opcode::FMovHV || op.opcode == pe::Opcode::Mov16V;
  const unsigned bytes = move.bytes;
  for (;;) {
    if (op.next == op.length) {
      if (!op.completed) {
        leaveFabricMove(op);
        complete(op, dsrs);
      }
      progress.status = DSDStatus::Done;
      return true;
    }
    if (progress.elements == maxElements) {
      progress.status = DSDStatus::Paused;
      return true;
    }
    // A sent element reads memory once; a received one writes it.
    bool touchesMemory = receive || !(op.fetched & 2u);
    int64_t address = move.address;
    if (touchesMemory &&
        (address < 0 ||
         address > static_cast<int64_t>(PEMemory::Size - bytes) ||
         (address & 1))) {
      leaveFabricMove(op);
      return false;
    }
    uint32_t at = static_cast<uint32_t>(address);
    if (!(op.fetched & 2u)) {
      if (receive) {
        std::optional<uint32_t> payload = ports.popWavelet(move.endpoint);
        if (!payload) {
          progress.status = DSDStatus::Blocked;
          return true;
        }
        op.values[1] = move.fabric16 ? *payload & 0xFFFF : *payload;
      } else if (bytes == 2) {
        uint16_t value;
        memory.load16(at, value);
        op.values[1] = value;
      } else {
        memory.load32(at, op.values[1]);
      }
      op.fetched = 2u;
    }
    if (!op.resultReady) {
      op.result = half ? op.values[1] & 0xFFFF : op.values[1];
      op.resultReady = true;
    }
    if (receive) {
      if (bytes == 2)
        memory.store16(at, static_cast<uint16_t>(op.result));
      else
        memory.store32(at, op.result);
    } else {
      uint32_t payload = move.fabric16 ? op.result & 0xFFFF : op.result;
      if (move.indexOffset)
        payload = (payload & 0xFFFF) | static_cast<uint32_t>(op.index) << 16;
      if (!ports.pushWavelet(move.endpoint, payload)) {
        progress.status = DSDStatus::Blocked;
        return true;
      }
    }
    if (move.shaped) {
      detail::Cursor &cursor = op.slots[receive ? 0 : 1].cursor;
      cursor.advance(1);
      move.address = cursor.address;
    } else {
      move.address = static_cast<int64_t>(static_cast<uint64_t>(address) +
                                          static_cast<uint64_t>(move.step));
    }
    finishElement(op, progress);
  }
}

} // namespace tessera::emulator

#endif // TESSERA_EMULATOR_FABRICMOVES_H
