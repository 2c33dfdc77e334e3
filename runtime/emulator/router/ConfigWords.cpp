//===- ConfigWords.cpp - the router's memory-mapped config words ----------===//
//
// docs/Library.md's encoding. Color config (0x7F20 + color): tx bits 0..4,
// rx 5..9, swap N/S 10, swap E/W 11, pop mode 12..13, teardown in progress
// 14, point to point 15. Switch config (0x7F40 + color): positions 1..3 as
// nibbles in bits 0..11 (direction 0..4, more is unset; bit 3 = rx side),
// ring mode 12, current position 13..14.
//
//===----------------------------------------------------------------------===//

#include "NetworkState.h"

namespace tessera::emulator {

namespace {

uint16_t colorWord(const LaneView &view) {
  const Lane &lane = view.lane;
  if (!lane.has(Configured))
    return 0;
  return uint16_t(view.cold.tx | view.cold.rx << 5 |
                  (lane.has(SwapY) ? 1u << 10 : 0) |
                  (lane.has(SwapX) ? 1u << 11 : 0) | (lane.popMode & 3) << 12 |
                  (lane.has(Teardown) ? 1u << 14 : 0) |
                  (lane.has(PointToPoint) ? 1u << 15 : 0));
}

uint16_t switchWord(const LaneView &view) {
  if (!view.lane.has(Configured))
    return 0;
  const LaneCold &cold = view.cold;
  return uint16_t(
      cold.positions[0] | cold.positions[1] << 4 | cold.positions[2] << 8 |
      (view.lane.has(Ring) ? 1u << 12 : 0) | (cold.position & 3) << 13);
}

pe::PopMode popModeOf(uint8_t bits) {
  switch (bits) {
  case 1:
    return pe::PopMode::AlwaysPop;
  case 2:
    return pe::PopMode::PopOnAdvance;
  default:
    return pe::PopMode::NoPop;
  }
}

} // namespace

std::optional<uint16_t> Network::getColorConfigWord(unsigned x, unsigned y,
                                                    unsigned color) const {
  std::optional<LaneView> view = state->viewLane(x, y, color);
  return view ? std::optional<uint16_t>(colorWord(*view)) : std::nullopt;
}

std::optional<uint16_t> Network::getSwitchConfigWord(unsigned x, unsigned y,
                                                     unsigned color) const {
  std::optional<LaneView> view = state->viewLane(x, y, color);
  return view ? std::optional<uint16_t>(switchWord(*view)) : std::nullopt;
}

bool Network::setColorConfigWord(unsigned x, unsigned y, unsigned color,
                                 uint16_t word) {
  State &s = *state;
  std::optional<uint32_t> found =
      s.laneToConfigure("setColorConfigWord", x, y, color);
  if (!found)
    return false;
  uint32_t index = *found;
  Lane &lane = s.lanes[index];
  LaneCold &cold = s.cold[index];
  cold.tx = word & 0x1F;
  cold.rx = (word >> 5) & 0x1F;
  // Without color swap (WSE-3) the swap bits do not exist: they read 0.
  lane.set(SwapY, s.hasColorSwap && (word >> 10 & 1));
  lane.set(SwapX, s.hasColorSwap && (word >> 11 & 1));
  s.invalidateLinksAround(s.lanes[index].router); // may lead to c^1 now
  lane.popMode = (word >> 12) & 3;
  // Setting TIP halts the color like a TEARDOWN command, but it is not
  // one: the teardown task is not activated.
  lane.set(Teardown, word >> 14 & 1);
  lane.set(PointToPoint, word >> 15 & 1);
  s.updateRoutes(lane, cold);
  s.refreshPending(index);
  return true;
}

bool Network::setSwitchConfigWord(unsigned x, unsigned y, unsigned color,
                                  uint16_t word) {
  State &s = *state;
  std::optional<uint32_t> found =
      s.laneToConfigure("setSwitchConfigWord", x, y, color);
  if (!found)
    return false;
  uint32_t index = *found;
  Lane &lane = s.lanes[index];
  LaneCold &cold = s.cold[index];
  for (unsigned i = 0; i < 3; ++i)
    cold.positions[i] = (word >> (4 * i)) & 0xF;
  lane.set(Ring, word >> 12 & 1);
  cold.position = (word >> 13) & 3;
  s.updateRoutes(lane, cold);
  s.refreshPending(index);
  return true;
}

std::optional<LaneState> Network::getLaneState(unsigned x, unsigned y,
                                               unsigned color) const {
  std::optional<LaneView> found = state->viewLane(x, y, color);
  if (!found)
    return std::nullopt;
  const Lane &lane = found->lane;
  const LaneCold &cold = found->cold;
  LaneState view;
  view.configured = lane.has(Configured);
  view.baseRx = cold.rx;
  view.baseTx = cold.tx;
  view.rx = lane.curRx;
  view.tx = lane.curTx;
  for (unsigned i = 0; i < 3; ++i) {
    uint8_t nibble = cold.positions[i];
    if ((nibble & 7) <= RampPort)
      view.positions[i] =
          pe::SwitchPosition{(nibble & 8) != 0, pe::Port(nibble & 7)};
  }
  view.position = cold.position;
  view.ringMode = lane.has(Ring);
  view.popMode = popModeOf(lane.popMode);
  view.teardown = lane.has(Teardown);
  view.colorSwapX = lane.has(SwapX);
  view.colorSwapY = lane.has(SwapY);
  view.filter = cold.filter;
  view.counter = cold.counter;
  view.deliveryQueueDepth = lane.buffers[DeliveryBuffer].capacity;
  return view;
}

} // namespace tessera::emulator
