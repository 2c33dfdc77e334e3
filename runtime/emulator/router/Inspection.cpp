//===- Inspection.cpp - counters and buffer listings ----------------------===//

#include "NetworkState.h"

#include <algorithm>
#include <tuple>

namespace tessera::emulator {

bool Network::isIdle() const {
  // Wavelets sent to another band count until it has taken them.
  return state->inFlight == 0 && state->outbox[0].empty() &&
         state->outbox[1].empty();
}
uint64_t Network::getCycle() const { return state->counters.cycles; }
const NetworkCounters &Network::getCounters() const { return state->counters; }
size_t Network::getLastStepMoves() const { return state->numMoves; }
const std::vector<DeliveryNote> &Network::getLastStepDeliveries() const {
  return state->deliveries;
}
size_t Network::getWaveletsInFlight() const { return state->inFlight; }
size_t Network::getWaveletsAwaitingCE() const { return state->awaitingCE; }
const std::vector<RouteError> &Network::getErrors() const {
  return state->errors;
}

uint64_t Network::getLinkBusyCycles(unsigned x, unsigned y,
                                    pe::Port port) const {
  const State &s = *state;
  unsigned link = static_cast<unsigned>(port);
  if (!s.contains(x, y) || link >= NumPorts)
    return 0;
  uint32_t router = s.routerOf[s.indexOf(x, y)];
  if (router == None)
    return 0;
  return s.routers[router].busyHigh[link] + s.routers[router].busyLow[link];
}

uint64_t Network::State::getSent(uint32_t lane, unsigned link) const {
  uint64_t count = cold[lane].sentLow[link];
  if (!sentWraps.empty())
    if (auto found = sentWraps.find(uint64_t(lane) << 3 | link);
        found != sentWraps.end())
      count += found->second;
  return count;
}

std::vector<LinkCount> Network::getLinkCounts() const {
  const State &s = *state;
  std::vector<LinkCount> list;
  for (size_t i = 0; i < s.lanes.size(); ++i) {
    const Router &router = s.routers[s.lanes[i].router];
    for (unsigned port = 0; port < NumPorts; ++port)
      if (uint64_t count = s.getSent(uint32_t(i), port))
        list.push_back(
            {{router.x, router.y}, s.lanes[i].color, pe::Port(port), count});
  }
  // Lanes are numbered in the order PEs were touched; the listing is not.
  std::sort(list.begin(), list.end(),
            [](const LinkCount &a, const LinkCount &b) {
              return std::tuple(a.pe.y, a.pe.x, a.color, unsigned(a.port)) <
                     std::tuple(b.pe.y, b.pe.x, b.color, unsigned(b.port));
            });
  return list;
}

std::vector<BufferedWavelet> Network::listBuffered() const {
  const State &s = *state;
  std::vector<BufferedWavelet> list;
  for (const Lane &lane : s.lanes) {
    const Router &router = s.routers[lane.router];
    for (unsigned index = 0; index < NumBuffers; ++index) {
      const Buffer &buffer = lane.buffers[index];
      for (unsigned i = 0; i < buffer.count; ++i) {
        const Entry &entry = s.slot(buffer, i);
        BufferedWavelet &item = list.emplace_back();
        item.pe = {router.x, router.y};
        item.color = lane.color;
        item.toCE = index == DeliveryBuffer;
        item.port = pe::Port(item.toCE ? RampPort : index);
        item.index = i;
        item.wavelet = {entry.payload, entry.color, entry.control != 0,
                        entry.id};
        item.pendingAdvances = entry.advances;
      }
    }
  }
  // Lanes are numbered in the order PEs were touched; the listing is not.
  auto key = [](const BufferedWavelet &item) {
    return std::make_tuple(item.pe.y, item.pe.x, item.color, item.toCE,
                           static_cast<unsigned>(item.port), item.index);
  };
  std::sort(list.begin(), list.end(),
            [&](const BufferedWavelet &a, const BufferedWavelet &b) {
              return key(a) < key(b);
            });
  return list;
}

} // namespace tessera::emulator
