//===- FabricMoves.h - moves between memory and the fabric ------*- C++ -*-===//
//
// A PE exchanging halos runs several moves between memory and the fabric at
// once, each one element a cycle, so the cost of a cycle is mostly that of
// reaching the element: run(), the element path and virtual port calls.
// DSDEngine::runFabricMove does what they do for these moves alone, with
// the ports' class known at compile time. Only the caller that owns the
// ports (the PE model) includes this.
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
  using detail::OperandClass;
  detail::OperandSlot &dest = op.slots[0], &source = op.slots[1];
  bool receive =
      source.cls == OperandClass::FabIn && dest.cls == OperandClass::Memory;
  bool send =
      dest.cls == OperandClass::FabOut && source.cls == OperandClass::Memory;
  if (!op.isMove || !(receive || send))
    return false;
  const bool half =
      op.opcode == pe::Opcode::FMovHV || op.opcode == pe::Opcode::Mov16V;
  detail::OperandSlot &inMemory = receive ? dest : source;
  const unsigned bytes = inMemory.width / 8;
  progress = {};
  for (;;) {
    if (op.next == op.length) {
      if (!op.completed)
        complete(op, dsrs);
      progress.status = DSDStatus::Done;
      return true;
    }
    if (progress.elements == maxElements) {
      progress.status = DSDStatus::Paused;
      return true;
    }
    // A sent element reads memory once; a received one writes it.
    bool touchesMemory = receive || !(op.fetched & 2u);
    int64_t address = inMemory.cursor.address;
    if (touchesMemory &&
        (address < 0 ||
         address > static_cast<int64_t>(PEMemory::Size - bytes) ||
         (address & 1)))
      return false;
    uint32_t at = static_cast<uint32_t>(address);
    if (!(op.fetched & 2u)) {
      if (receive) {
        std::optional<uint32_t> payload = ports.popWavelet(source.descriptor);
        if (!payload) {
          progress.status = DSDStatus::Blocked;
          return true;
        }
        op.values[1] = source.width == 16 ? *payload & 0xFFFF : *payload;
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
      uint32_t payload = dest.width == 16 ? op.result & 0xFFFF : op.result;
      if (dest.descriptor.waveletIndexOffset)
        payload = (payload & 0xFFFF) | static_cast<uint32_t>(op.index) << 16;
      if (!ports.pushWavelet(dest.descriptor, payload)) {
        progress.status = DSDStatus::Blocked;
        return true;
      }
    }
    finishMoveElement(op, progress);
  }
}

} // namespace tessera::emulator

#endif // TESSERA_EMULATOR_FABRICMOVES_H
