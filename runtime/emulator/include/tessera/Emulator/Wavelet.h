//===- Wavelet.h - what travels between PEs ---------------------*- C++ -*-===//
//
// A wavelet is a 32-bit payload with out-of-band routing state: its color
// and whether it is a control wavelet. Control payloads carry eight 3-bit
// command slots, one per router hop, in the layout docs/Library.md gives for
// `<control>`; the helpers here read and pop them for the routers and the PE
// model alike.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_WAVELET_H
#define TESSERA_EMULATOR_WAVELET_H

#include <cstdint>

namespace tessera::emulator {

struct Wavelet {
  uint32_t payload = 0;
  uint8_t color = 0;
  bool control = false;
  /// The network numbers wavelets as it accepts them (1, 2, ...); copies
  /// made by multicast keep the number, so a trace can follow them.
  uint64_t id = 0;
  bool operator==(const Wavelet &) const = default;
};

/// The command a router executes from the head slot of a control payload.
enum class ControlOpcode : uint8_t {
  Nop = 0,
  SwitchAdvance = 1,
  SwitchReset = 2,
  Teardown = 3
};

namespace control {

inline constexpr unsigned NumSlots = 8;
/// The entry point that activates no control task.
inline constexpr unsigned NoEntryPoint = 31;

/// The 3-bit value of command slot `slot` (0..7): opcode | ce_ignore << 2.
/// Slot 2 is split: opcode in bits 28..29, ce_ignore in bit 0.
constexpr unsigned getSlot(uint32_t payload, unsigned slot) {
  switch (slot) {
  case 0:
    return (payload >> 22) & 7;
  case 1:
    return (payload >> 25) & 7;
  case 2:
    return ((payload >> 28) & 3) | (payload & 1) << 2;
  default:
    return slot < NumSlots ? (payload >> (1 + 3 * (slot - 3))) & 7 : 0;
  }
}

/// `payload` with slot `slot` (0..7) set to the low 3 bits of `value`.
constexpr uint32_t setSlot(uint32_t payload, unsigned slot, unsigned value) {
  uint32_t v = value & 7;
  switch (slot) {
  case 0:
    return (payload & ~(7u << 22)) | v << 22;
  case 1:
    return (payload & ~(7u << 25)) | v << 25;
  case 2:
    return (payload & ~(3u << 28 | 1u)) | (v & 3) << 28 | v >> 2;
  default:
    if (slot >= NumSlots)
      return payload;
    unsigned shift = 1 + 3 * (slot - 3);
    return (payload & ~(7u << shift)) | v << shift;
  }
}

constexpr ControlOpcode getOpcode(unsigned slotValue) {
  return static_cast<ControlOpcode>(slotValue & 3);
}
/// ce_ignore: the router executing this slot does not deliver the wavelet
/// to its CE.
constexpr bool ignoresCE(unsigned slotValue) { return slotValue & 4; }

/// The control task the wavelet activates where it is delivered.
constexpr unsigned getEntryPoint(uint32_t payload) {
  return (payload >> 16) & 0x3F;
}

/// What a popping router sends on: slots 1..7 move down to 0..6 and slot 7
/// keeps its value (csl-reference.md 1.6: 0x09DF9249 becomes 0x091F9249;
/// what fills the last slot is not public, see docs/Emulator.md). The
/// entry point and bits 30..31 are unchanged.
constexpr uint32_t popSlot(uint32_t payload) {
  uint32_t popped = payload;
  for (unsigned slot = 0; slot + 1 < NumSlots; ++slot)
    popped = setSlot(popped, slot, getSlot(payload, slot + 1));
  return popped;
}

} // namespace control
} // namespace tessera::emulator

#endif // TESSERA_EMULATOR_WAVELET_H
