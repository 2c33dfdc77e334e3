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

namespace detail {
/// Whether a move's element at `address` may touch memory; if not, run()
/// takes the element and reports the fault.
inline bool isMoveAddressUsable(int32_t address, unsigned bytes) {
  return address >= 0 &&
         address <= static_cast<int32_t>(PEMemory::Size - bytes) &&
         !(address & 1);
}
/// fmovh and mov16 move 16-bit elements whatever the operands hold.
inline bool isHalfMove(pe::Opcode opcode) {
  return opcode == pe::Opcode::FMovHV || opcode == pe::Opcode::Mov16V;
}
} // namespace detail

template <class Ports>
bool DSDEngine::runFabricMove(DSDOperation &op, PEMemory &memory, DSRFile &dsrs,
                              Ports &ports, uint64_t maxElements,
                              DSDProgress &progress) {
  detail::FabricMove &move = op.move;
  progress = {};
  if (move.kind == detail::FabricMove::None)
    return false;
  const bool receive = move.kind == detail::FabricMove::Receive;
  const bool half = detail::isHalfMove(op.opcode);
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
    // A sent element reads memory once; a received one writes it. The
    // element stays out of values[] and result (another cache line): only
    // a send that cannot go keeps it, in move.held.
    const bool holding = op.fetched & 2u;
    bool touchesMemory = receive || !holding;
    int32_t address = move.address;
    if (touchesMemory && !detail::isMoveAddressUsable(address, bytes)) {
      leaveFabricMove(op);
      return false;
    }
    uint32_t at = static_cast<uint32_t>(address);
    uint32_t value;
    if (holding) {
      value = move.held;
    } else if (receive) {
      std::optional<uint32_t> payload = ports.popWavelet(move.endpoint);
      if (!payload) {
        progress.status = DSDStatus::Blocked;
        return true;
      }
      value = move.fabric16 ? *payload & 0xFFFF : *payload;
    } else if (bytes == 2) {
      uint16_t half16;
      memory.load16(at, half16);
      value = half16;
    } else {
      memory.load32(at, value);
    }
    uint32_t result = half ? value & 0xFFFF : value;
    if (receive) {
      if (bytes == 2)
        memory.store16(at, static_cast<uint16_t>(result));
      else
        memory.store32(at, result);
    } else {
      uint32_t payload = move.fabric16 ? result & 0xFFFF : result;
      if (move.indexOffset)
        payload = (payload & 0xFFFF) | static_cast<uint32_t>(op.index) << 16;
      if (!ports.pushWavelet(move.endpoint, payload)) {
        move.held = value;
        op.fetched = 2u;
        progress.status = DSDStatus::Blocked;
        return true;
      }
    }
    if (move.shaped) {
      detail::Cursor &cursor = op.slot(receive ? 0 : 1).cursor;
      cursor.advance(1);
      move.address = detail::toMoveAddress(cursor.address);
    } else {
      // Cannot overflow: the address was in memory, the step 2^17 at most.
      move.address = address + move.step;
    }
    finishElement(op, progress);
  }
}

inline std::pair<int64_t, int64_t>
DSDEngine::getPlainMoveSpan(const DSDOperation &op) {
  const detail::FabricMove &move = op.move;
  int64_t remaining = static_cast<int64_t>(op.length - op.next);
  int64_t first = move.address;
  int64_t last = first + (remaining > 0 ? remaining - 1 : 0) * move.step;
  return {std::min(first, last), std::max(first, last) + move.bytes};
}

inline bool DSDEngine::receivePlainElement(DSDOperation &op, PEMemory &memory,
                                           uint32_t payload) {
  detail::FabricMove &move = op.move;
  int32_t address = move.address;
  if (!detail::isMoveAddressUsable(address, move.bytes))
    return false;
  uint32_t value = move.fabric16 ? payload & 0xFFFF : payload;
  bool half = detail::isHalfMove(op.opcode);
  uint32_t result = half ? value & 0xFFFF : value;
  uint32_t at = static_cast<uint32_t>(address);
  if (move.bytes == 2)
    memory.store16(at, static_cast<uint16_t>(result));
  else
    memory.store32(at, result);
  move.address = address + move.step;
  DSDProgress progress;
  finishElement(op, progress);
  return true;
}

inline bool DSDEngine::fetchPlainSend(const DSDOperation &op,
                                      const PEMemory &memory, uint32_t &value,
                                      uint32_t &payload) {
  const detail::FabricMove &move = op.move;
  if (op.fetched & 2u) {
    value = move.held;
  } else {
    if (!detail::isMoveAddressUsable(move.address, move.bytes))
      return false;
    uint32_t at = static_cast<uint32_t>(move.address);
    if (move.bytes == 2) {
      uint16_t half16;
      memory.load16(at, half16);
      value = half16;
    } else {
      memory.load32(at, value);
    }
  }
  bool half = detail::isHalfMove(op.opcode);
  uint32_t result = half ? value & 0xFFFF : value;
  payload = move.fabric16 ? result & 0xFFFF : result;
  return true;
}

inline void DSDEngine::finishPlainSend(DSDOperation &op) {
  op.move.address += op.move.step;
  DSDProgress progress;
  finishElement(op, progress);
}

} // namespace tessera::emulator

#endif // TESSERA_EMULATOR_FABRICMOVES_H
