//===- Lanes.cpp - buffers, routes and switch positions of a lane ---------===//

#include "NetworkState.h"

#include <bit>

namespace tessera::emulator {

const char *portName(unsigned port) {
  static const char *const names[] = {"west", "east", "south", "north", "ramp"};
  return port < NumPorts ? names[port] : "?";
}

bool Network::State::resize(Lane &lane, unsigned index, unsigned capacity) {
  Buffer &buffer = lane.buffers[index];
  if (buffer.base == None) {
    buffer.capacity = uint8_t(capacity);
    return true;
  }
  // Move the contents to a fresh block in order; the old block stays
  // unused (depths change once, at load, if at all).
  std::vector<Entry> held;
  for (unsigned i = 0; i < buffer.count; ++i)
    held.push_back(slot(buffer, i));
  buffer.base = uint32_t(pool.size());
  pool.resize(pool.size() + capacity);
  buffer.head = 0;
  buffer.capacity = uint8_t(capacity);
  for (unsigned i = 0; i < held.size(); ++i)
    pool[buffer.base + i] = held[i];
  // Room for lanes parked on it: its own (the delivery queue) or a
  // neighbour's (an input buffer).
  wakeParkedAround(lane.router);
  return true;
}

void Network::State::updateRoutes(Lane &lane, const LaneCold &cold) {
  lane.lastPosition = 0;
  lane.rxAny = cold.rx;
  for (unsigned i = 0; i < 3; ++i) {
    uint8_t nibble = cold.positions[i];
    if ((nibble & 7) > RampPort)
      continue;
    lane.lastPosition = uint8_t(i + 1);
    if (nibble & 8)
      lane.rxAny |= uint8_t(1u << (nibble & 7));
  }
  // A position replaces one side of the route the switch is in, so position
  // k routes as position 0 with positions 1..k applied in order (cholesky's
  // `.pos1 = .{ .tx = EAST }, .pos2 = .{ .rx = RAMP }` sends east only at
  // position 2); an unset position changes nothing.
  lane.curRx = cold.rx;
  lane.curTx = cold.tx;
  for (unsigned p = 1; p <= cold.position && p <= 3; ++p) {
    uint8_t nibble = cold.positions[p - 1];
    if ((nibble & 7) > RampPort)
      continue;
    uint8_t only = uint8_t(1u << (nibble & 7));
    if (nibble & 8)
      lane.curRx = only;
    else
      lane.curTx = only;
  }
}

void Network::State::park(Lane &lane, uint32_t laneIndex, bool conflict) {
  uint32_t bit = 1u << lane.color;
  pending[lane.router] &= ~bit;
  parked[lane.router] |= bit;
  lane.flags |= Parked;
  cold[laneIndex].parkedConflict = conflict;
  parkedConflicts += conflict;
}

void Network::State::unpark(uint32_t index) {
  Lane &lane = lanes[index];
  lane.flags &= uint8_t(~Parked);
  parked[lane.router] &= ~(1u << lane.color);
  LaneCold &rest = cold[index];
  parkedConflicts -= rest.parkedConflict;
  rest.parkedConflict = false;
}

void Network::State::wakeParked(uint32_t router) {
  for (uint32_t colors = parked[router]; colors; colors &= colors - 1)
    refreshPending(routers[router].laneOf[std::countr_zero(colors)]);
}

void Network::State::wakeParkedAround(uint32_t router) {
  wakeParked(router);
  for (uint32_t neighbour : neighbours[router])
    if (neighbour < routers.size())
      wakeParked(neighbour);
}

void Network::State::advance(uint32_t index) {
  Lane &lane = lanes[index];
  // A new route: the CE may advance a parked lane.
  if (lane.has(Parked))
    refreshPending(index);
  LaneCold &rest = cold[index];
  if (rest.position < lane.lastPosition)
    ++rest.position;
  else if (lane.has(Ring))
    rest.position = 0;
  updateRoutes(lane, rest);
}

void Network::State::reset(uint32_t index) {
  if (lanes[index].has(Parked))
    refreshPending(index);
  cold[index].position = 0;
  updateRoutes(lanes[index], cold[index]);
}

bool Network::State::admit(uint32_t laneIndex, unsigned buffer, unsigned color,
                           const Wavelet &wavelet) {
  Lane &lane = lanes[laneIndex];
  if (lane.buffers[buffer].count >= lane.buffers[buffer].capacity)
    return false;
  Entry &entry = push(lane, buffer);
  entry.id = ++counters.injected;
  entry.payload = wavelet.payload;
  entry.color = uint8_t(color);
  entry.control = wavelet.control;
  entry.advances = 0;
  entry.reported = 0;
  reportUnroutable(lane, buffer, entry);
  ++inFlight;
  refreshPending(laneIndex);
  return true;
}

} // namespace tessera::emulator
