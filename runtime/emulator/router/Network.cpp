//===- Network.cpp - creating routers and the CE side ---------------------===//

#include "NetworkState.h"

#include <algorithm>

namespace tessera::emulator {

Network::State::State(const FabricLayout &layout,
                      const target::TargetModel &model, NetworkOptions options,
                      NetworkBand band)
    : layout(&layout), model(&model), options(options),
      width(layout.getWidth()), height(layout.getHeight()),
      numColors(std::min(model.getNumRoutableColors(), MaxColors)),
      firstRow(std::min(band.firstRow, height)),
      endRow(std::max(firstRow, std::min(band.endRow, height))),
      hasColorSwap(model.hasColorSwap()) {
  NetworkOptions defaults;
  this->options.linkBufferDepth = checkDepth(
      "link buffer depth", options.linkBufferDepth, defaults.linkBufferDepth);
  this->options.injectBufferDepth =
      checkDepth("inject buffer depth", options.injectBufferDepth,
                 defaults.injectBufferDepth);
  this->options.deliveryQueueDepth =
      checkDepth("delivery queue depth", options.deliveryQueueDepth,
                 defaults.deliveryQueueDepth);
  this->options.edgeExitDepth = checkDepth(
      "edge exit depth", options.edgeExitDepth, defaults.edgeExitDepth);
  routerOf.assign(size_t(width) * (endRow - firstRow), None);
  // Made room for once: on a large fabric each doubling of these arrays
  // would copy them and fault in fresh pages, which took a third of a
  // wafer's load. The room is address space; pages come with use.
  size_t pes = routerOf.size();
  routers.reserve(pes);
  neighbours.reserve(pes);
  pending.reserve(pes);
  parked.reserve(pes);
  size_t configured = layout.countConfigured(firstRow, endRow);
  lanes.reserve(configured);
  cold.reserve(configured);
  // Every buffer of every configured lane carved once.
  pool.reserve(configured * (4 * size_t(this->options.linkBufferDepth) +
                             this->options.injectBufferDepth +
                             this->options.deliveryQueueDepth));
  for (BandSide side : {BandSide::North, BandSide::South})
    if (hasNeighbourBand(side))
      neighbourView[unsigned(side)] = wholeBuffers();
}

LaneView Network::State::makeLane(uint32_t router, unsigned color,
                                  const pe::RouterConfig *config) const {
  LaneView view;
  Lane &lane = view.lane;
  LaneCold &rest = view.cold;
  lane.router = router;
  lane.color = uint8_t(color);
  for (unsigned port = 0; port < RampPort; ++port)
    lane.buffers[port].capacity = uint8_t(options.linkBufferDepth);
  lane.buffers[RampPort].capacity = uint8_t(options.injectBufferDepth);
  lane.buffers[DeliveryBuffer].capacity = uint8_t(options.deliveryQueueDepth);
  if (!config)
    return view;
  lane.set(Configured, true);
  rest.rx = config->rx & 0x1F;
  rest.tx = config->tx & 0x1F;
  for (unsigned i = 0; i < 3; ++i)
    if (const auto &position = config->positions[i])
      rest.positions[i] = uint8_t(static_cast<unsigned>(position->port) |
                                  (position->rxSide ? 8 : 0));
  rest.position = config->currentPosition & 3;
  lane.set(Ring, config->ringMode);
  lane.popMode = static_cast<uint8_t>(config->popMode);
  rest.filter = config->filter;
  rest.counter = config->filter.initCounter;
  lane.set(Filtering, config->filter.kind != pe::Filter::Kind::None);
  lane.set(Teardown, config->teardown);
  // WSE-3 has no color swap: flags a fabric file should not carry anyway
  // have no effect there.
  lane.set(SwapX, hasColorSwap && config->colorSwapX);
  lane.set(SwapY, hasColorSwap && config->colorSwapY);
  updateRoutes(lane, rest);
  return view;
}

uint32_t Network::State::addLane(uint32_t router, unsigned color,
                                 const pe::RouterConfig *config) {
  uint32_t index = uint32_t(lanes.size());
  LaneView view = makeLane(router, color, config);
  lanes.push_back(view.lane);
  cold.push_back(view.cold);
  routers[router].laneOf[color] = index;
  return index;
}

uint32_t Network::State::ensureRouter(unsigned peIndex) {
  if (routerOf[peIndex] != None)
    return routerOf[peIndex];
  uint32_t index = uint32_t(routers.size());
  routerOf[peIndex] = index;
  Router &router = routers.emplace_back();
  neighbours.push_back({None, None, None, None});
  pending.push_back(0);
  parked.push_back(0);
  router.x = uint16_t(peIndex % width);
  router.y = uint16_t(peIndex / width + firstRow);
  router.laneOf.fill(None);
  // Color 0 ranks first on every link until a link has carried something.
  router.lastGranted.fill(uint8_t(numColors - 1));
  unsigned x = router.x, y = router.y;
  // Link the neighbours both ways, so that a cycle follows indices instead
  // of computing coordinates.
  const int dx[4] = {-1, 1, 0, 0}, dy[4] = {0, 0, 1, -1};
  for (unsigned direction = 0; direction < 4; ++direction) {
    int nx = int(x) + dx[direction], ny = int(y) + dy[direction];
    if (nx < 0 || ny < 0 || !inRectangle(unsigned(nx), unsigned(ny))) {
      neighbours[index][direction] = Outside;
      continue;
    }
    if (!contains(unsigned(nx), unsigned(ny))) {
      neighbours[index][direction] = Ghost;
      continue;
    }
    uint32_t other = routerOf[indexOf(unsigned(nx), unsigned(ny))];
    neighbours[index][direction] = other;
    if (other != None)
      neighbours[other][direction ^ 1] = index;
  }
  for (unsigned color = 0; color < numColors; ++color)
    if (const pe::RouterConfig *config = layout->routerAt(x, y, color))
      addLane(index, color, config);
  invalidateLinksAround(index);
  return index;
}

uint32_t Network::State::ensureLane(uint32_t router, unsigned color) {
  uint32_t lane = routers[router].laneOf[color];
  if (lane != None)
    return lane;
  lane = addLane(router, color, nullptr);
  invalidateLinksAround(router);
  return lane;
}

void Network::State::invalidateLinksAround(uint32_t router) {
  for (uint32_t neighbour : neighbours[router]) {
    if (neighbour == None || neighbour == Outside || neighbour == Ghost)
      continue;
    for (uint32_t lane : routers[neighbour].laneOf)
      if (lane != None)
        cold[lane].linksValid = false;
    // Their wavelets may now go to another lane.
    wakeParked(neighbour);
  }
}

const Lane *Network::State::findLane(unsigned x, unsigned y,
                                     unsigned color) const {
  if (!contains(x, y) || color >= numColors)
    return nullptr;
  uint32_t router = routerOf[indexOf(x, y)];
  if (router == None || routers[router].laneOf[color] == None)
    return nullptr;
  return &lanes[routers[router].laneOf[color]];
}

std::optional<LaneView> Network::State::viewLane(unsigned x, unsigned y,
                                                 unsigned color) const {
  if (!contains(x, y) || color >= numColors)
    return std::nullopt;
  uint32_t router = routerOf[indexOf(x, y)];
  if (router != None && routers[router].laneOf[color] != None) {
    uint32_t lane = routers[router].laneOf[color];
    return LaneView{lanes[lane], cold[lane]};
  }
  // Not created yet: what ensureRouter or ensureLane would make of it.
  if (router != None)
    return makeLane(None, color, nullptr);
  return makeLane(None, color, layout->routerAt(x, y, color));
}

//===----------------------------------------------------------------------===//
// Network
//===----------------------------------------------------------------------===//

Network::Network(const FabricLayout &layout, const target::TargetModel &model,
                 NetworkOptions options, NetworkBand band)
    : state(std::make_unique<State>(layout, model, options, band)) {}
Network::~Network() = default;
Network::Network(Network &&) noexcept = default;
Network &Network::operator=(Network &&) noexcept = default;

bool Network::inject(unsigned x, unsigned y, Wavelet wavelet) {
  State &s = *state;
  if (!s.checkPE("inject", x, y) ||
      !s.checkColor("inject", x, y, wavelet.color))
    return false;
  uint32_t router = s.ensureRouter(s.indexOf(x, y));
  unsigned color = wavelet.color;
  uint32_t lane = s.ensureLane(router, color);
  // With both swap flags the CE's own wavelets change color too.
  if (s.lanes[lane].has(SwapX) && s.lanes[lane].has(SwapY)) {
    color ^= 1;
    lane = s.ensureLane(router, color);
  }
  return s.admit(lane, RampPort, color, wavelet);
}

bool Network::deliverFromHost(unsigned x, unsigned y, Wavelet wavelet) {
  State &s = *state;
  if (!s.checkPE("deliverFromHost", x, y) ||
      !s.checkColor("deliverFromHost", x, y, wavelet.color))
    return false;
  uint32_t router = s.ensureRouter(s.indexOf(x, y));
  uint32_t lane = s.ensureLane(router, wavelet.color);
  const Buffer &queue = s.lanes[lane].buffers[DeliveryBuffer];
  if (queue.count >= queue.capacity)
    return false;
  Entry &entry = s.push(s.lanes[lane], DeliveryBuffer);
  entry.id = ++s.counters.injected;
  entry.payload = wavelet.payload;
  entry.color = wavelet.color;
  entry.control = wavelet.control;
  entry.advances = 0;
  entry.reported = 0;
  ++s.awaitingCE;
  ++s.counters.delivered;
  return true;
}

std::vector<Wavelet> Network::takeInjected(unsigned x, unsigned y,
                                           unsigned color) {
  State &s = *state;
  std::vector<Wavelet> taken;
  if (!s.contains(x, y) || color >= MaxColors)
    return taken;
  uint32_t router = s.routerOf[s.indexOf(x, y)];
  if (router == None)
    return taken;
  uint32_t lane = s.routers[router].laneOf[color];
  if (lane == None)
    return taken;
  while (s.lanes[lane].buffers[RampPort].count) {
    Entry entry = s.pop(s.lanes[lane], RampPort);
    taken.push_back({entry.payload, entry.color, entry.control != 0, entry.id});
    --s.inFlight;
  }
  s.refreshPending(lane);
  return taken;
}

unsigned Network::getInjectSpace(unsigned x, unsigned y, unsigned color) const {
  std::optional<LaneView> view = state->viewLane(x, y, color);
  if (!view)
    return 0;
  if (view->lane.has(SwapX) && view->lane.has(SwapY))
    view = state->viewLane(x, y, color ^ 1);
  const Buffer &buffer = view->lane.buffers[RampPort];
  return buffer.capacity - buffer.count;
}

bool Network::isInjectBufferFull(unsigned x, unsigned y, unsigned color) const {
  const State &s = *state;
  if (!s.contains(x, y) || color >= s.numColors)
    return false;
  uint32_t router = s.routerOf[s.indexOf(x, y)];
  if (router == None)
    return false; // inject makes the router with empty buffers
  uint32_t lane = s.routers[router].laneOf[color];
  return lane != None && isInjectBufferFullAt(lane);
}

bool Network::isInjectBufferFullAt(uint32_t queue) const {
  const State &s = *state;
  if (queue >= s.lanes.size())
    return false;
  uint32_t lane = queue;
  // With both swap flags the CE's own wavelets go out on the other color.
  if (s.lanes[lane].has(SwapX) && s.lanes[lane].has(SwapY)) {
    lane = s.routers[s.lanes[queue].router].laneOf[s.lanes[queue].color ^ 1];
    if (lane == None)
      return false; // inject makes it with empty buffers
  }
  const Buffer &buffer = s.lanes[lane].buffers[RampPort];
  return buffer.count >= buffer.capacity;
}

void Network::prefetchQueues(const uint32_t *queues, uint32_t which) const {
  for (; which; which &= which - 1)
    prefetchQueue(queues[std::countr_zero(which)]);
}

void Network::prefetchDeliveryHeads(const uint32_t *queues,
                                    uint32_t which) const {
  for (; which; which &= which - 1)
    prefetchDeliveryHead(queues[std::countr_zero(which)]);
}

void Network::prefetchQueue(uint32_t queue) const {
  if (queue < state->lanes.size())
    __builtin_prefetch(state->lanes.data() + queue);
}

void Network::prefetchDeliveryHead(uint32_t queue) const {
  const State &s = *state;
  if (queue >= s.lanes.size())
    return;
  const Buffer &buffer = s.lanes[queue].buffers[DeliveryBuffer];
  if (buffer.count)
    __builtin_prefetch(&s.pool[buffer.base + buffer.head]);
}

bool Network::injectAt(uint32_t queue, Wavelet wavelet) {
  State &s = *state;
  // The lane is the PE's and the color's: inject's checks passed when it
  // was made.
  if (queue >= s.lanes.size() || s.lanes[queue].color != wavelet.color)
    return false;
  uint32_t lane = queue;
  unsigned color = wavelet.color;
  if (s.lanes[lane].has(SwapX) && s.lanes[lane].has(SwapY)) {
    color ^= 1;
    lane = s.ensureLane(s.lanes[queue].router, color);
  }
  return s.admit(lane, RampPort, color, wavelet);
}

std::optional<Wavelet> Network::peekDelivered(unsigned x, unsigned y,
                                              unsigned color) const {
  const Lane *lane = state->findLane(x, y, color);
  if (!lane || !lane->buffers[DeliveryBuffer].count)
    return std::nullopt;
  const Entry &entry = state->slot(lane->buffers[DeliveryBuffer], 0);
  return Wavelet{entry.payload, entry.color, entry.control != 0, entry.id};
}

std::optional<uint32_t> Network::findDeliveryQueue(unsigned x, unsigned y,
                                                   unsigned color) const {
  const State &s = *state;
  if (!s.contains(x, y) || color >= s.numColors)
    return std::nullopt;
  uint32_t router = s.routerOf[s.indexOf(x, y)];
  if (router == None || s.routers[router].laneOf[color] == None)
    return std::nullopt;
  return s.routers[router].laneOf[color];
}

std::optional<Wavelet> Network::peekDeliveryQueue(uint32_t queue) const {
  const State &s = *state;
  if (queue >= s.lanes.size() || !s.lanes[queue].buffers[DeliveryBuffer].count)
    return std::nullopt;
  const Entry &entry = s.slot(s.lanes[queue].buffers[DeliveryBuffer], 0);
  return Wavelet{entry.payload, entry.color, entry.control != 0, entry.id};
}

std::optional<Wavelet> Network::pollDeliveryQueue(uint32_t queue) {
  std::optional<Wavelet> wavelet = peekDeliveryQueue(queue);
  bool nowEmpty;
  if (wavelet)
    dropDeliveryHead(queue, nowEmpty);
  return wavelet;
}

bool Network::dropDeliveryHead(uint32_t queue, bool &nowEmpty) {
  State &s = *state;
  if (queue >= s.lanes.size() || !s.lanes[queue].buffers[DeliveryBuffer].count)
    return false;
  Lane &lane = s.lanes[queue];
  const Buffer &buffer = lane.buffers[DeliveryBuffer];
  bool wasFull = buffer.count >= buffer.capacity;
  s.pop(lane, DeliveryBuffer);
  // Room for the wavelet the lane may have parked with.
  if (wasFull && lane.has(Parked))
    s.refreshPending(queue);
  --s.awaitingCE;
  ++s.counters.polled;
  nowEmpty = lane.buffers[DeliveryBuffer].count == 0;
  return true;
}

std::optional<Wavelet> Network::pollDelivered(unsigned x, unsigned y,
                                              unsigned color) {
  State &s = *state;
  // A CE polls every delivery and once more to see its queue empty: test
  // the arguments inline (the checks only report), and find the lane once.
  if ((!s.contains(x, y) && !s.checkPE("pollDelivered", x, y)) ||
      (color >= s.numColors && !s.checkColor("pollDelivered", x, y, color)))
    return std::nullopt;
  uint32_t router = s.routerOf[s.indexOf(x, y)];
  if (router == None)
    return std::nullopt;
  uint32_t lane = s.routers[router].laneOf[color];
  if (lane == None)
    return std::nullopt;
  return pollDeliveryQueue(lane);
}

unsigned Network::getDeliveredCount(unsigned x, unsigned y,
                                    unsigned color) const {
  const Lane *lane = state->findLane(x, y, color);
  return lane ? lane->buffers[DeliveryBuffer].count : 0;
}

bool Network::setDeliveryQueueDepth(unsigned x, unsigned y, unsigned color,
                                    unsigned depth) {
  State &s = *state;
  const char *call = "setDeliveryQueueDepth";
  if (!s.checkPE(call, x, y) || !s.checkColor(call, x, y, color))
    return false;
  // Built only for an error: the loader sets every delivery queue of a
  // wafer (millions of calls).
  auto where = [&] {
    return " for PE (" + std::to_string(x) + ", " + std::to_string(y) +
           ") color " + std::to_string(color);
  };
  if (depth < 1 || depth > NetworkOptions::MaxDepth) {
    s.report(RouteErrorKind::BadDepth, x, y, color, std::nullopt, 0,
             std::string(call) + ": depth " + std::to_string(depth) + where() +
                 " is not between 1 and " +
                 std::to_string(NetworkOptions::MaxDepth));
    return false;
  }
  uint32_t lane = s.ensureLane(s.ensureRouter(s.indexOf(x, y)), color);
  unsigned held = s.lanes[lane].buffers[DeliveryBuffer].count;
  if (depth < held) {
    s.report(RouteErrorKind::BadDepth, x, y, color, std::nullopt, 0,
             std::string(call) + ": depth " + std::to_string(depth) + where() +
                 " is below the " + std::to_string(held) +
                 " wavelets its delivery queue holds");
    return false;
  }
  return s.resize(s.lanes[lane], DeliveryBuffer, depth);
}

bool Network::advanceSwitch(unsigned x, unsigned y, unsigned color) {
  State &s = *state;
  std::optional<uint32_t> found =
      s.configuredLane("advanceSwitch", x, y, color);
  if (!found)
    return false;
  uint32_t index = *found;
  Lane &lane = s.lanes[index];
  Buffer &inject = lane.buffers[RampPort];
  if (inject.count) {
    // After the wavelets the CE sent before it: they use the old route.
    Entry &last = s.slot(inject, inject.count - 1u);
    last.advances = uint8_t(std::min(last.advances + 1, 255));
    return true;
  }
  s.advance(index);
  ++s.counters.switchCommands;
  return true;
}

bool Network::exitTeardown(unsigned x, unsigned y, unsigned color) {
  State &s = *state;
  std::optional<uint32_t> found = s.configuredLane("exitTeardown", x, y, color);
  if (!found)
    return false;
  uint32_t index = *found;
  s.lanes[index].set(Teardown, false);
  s.refreshPending(index);
  return true;
}

bool Network::isInTeardown(unsigned x, unsigned y, unsigned color) const {
  std::optional<LaneView> view = state->viewLane(x, y, color);
  return view && view->lane.has(Teardown);
}

std::vector<TeardownEvent> Network::takeTeardownEvents() {
  std::vector<TeardownEvent> events;
  events.swap(state->teardownEvents);
  return events;
}

const NetworkOptions &Network::getOptions() const { return state->options; }

void Network::setCompanionBytes(size_t bytes) { state->companionBytes = bytes; }

bool Network::didLastStepFetchAhead() const { return state->fetchedAhead; }

} // namespace tessera::emulator
