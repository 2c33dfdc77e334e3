//===- Edge.cpp - host streams through the rectangle's edge ---------------===//
//
// The links of edge PEs that face off the rectangle lead nowhere inside the
// model; host streams give them a far end. The host puts wavelets into such
// a port's input buffer, as a neighbour would, and takes those a router
// sends through a declared exit from the exit's queue.
//
//===----------------------------------------------------------------------===//

#include "NetworkState.h"

namespace tessera::emulator {

namespace {

std::string pe(unsigned x, unsigned y) {
  return "PE (" + std::to_string(x) + ", " + std::to_string(y) + ")";
}

} // namespace

bool Network::State::facesOff(unsigned x, unsigned y, unsigned port) const {
  switch (static_cast<pe::Port>(port)) {
  case pe::Port::West:
    return x == 0;
  case pe::Port::East:
    return x + 1 == width;
  case pe::Port::North:
    return y == 0;
  case pe::Port::South:
    return y + 1 == height;
  case pe::Port::Ramp:
    break;
  }
  return false;
}

uint32_t Network::State::findExit(unsigned x, unsigned y, unsigned direction,
                                  unsigned color) const {
  auto it = exitOf.find(exitKey(indexOf(x, y), direction, color));
  return it == exitOf.end() ? None : it->second;
}

bool Network::State::checkEdgeCall(const char *call, unsigned x, unsigned y,
                                   pe::Port port, unsigned color) {
  if (!checkPE(call, x, y) || !checkColor(call, x, y, color))
    return false;
  unsigned index = static_cast<unsigned>(port);
  if (index < RampPort && facesOff(x, y, index))
    return true;
  std::string message = std::string(call) + ": ";
  if (index == RampPort)
    message +=
        "the ramp of " + pe(x, y) + " leads to its CE, not off the rectangle";
  else if (index > RampPort)
    message +=
        "port " + std::to_string(index) + " of " + pe(x, y) + " does not exist";
  else
    message += std::string("the ") + portName(index) + " port of " + pe(x, y) +
               " does not face off the " + std::to_string(width) + "x" +
               std::to_string(height) + " rectangle";
  report(RouteErrorKind::NotAnEdgePort, x, y, color,
         index < NumPorts ? std::optional(port) : std::nullopt, 0,
         std::move(message));
  return false;
}

void Network::State::leave(const Router &router, unsigned direction,
                           uint8_t color, const Entry &wavelet,
                           uint32_t payload) {
  uint32_t exit = findExit(router.x, router.y, direction, color);
  exits[exit].queue.push_back(
      {payload, color, wavelet.control != 0, wavelet.id});
  ++counters.hops;
  ++counters.edgeOut;
}

//===----------------------------------------------------------------------===//
// Network
//===----------------------------------------------------------------------===//

bool Network::injectAtEdge(unsigned x, unsigned y, pe::Port port,
                           Wavelet wavelet) {
  State &s = *state;
  if (!s.checkEdgeCall("injectAtEdge", x, y, port, wavelet.color))
    return false;
  unsigned index = static_cast<unsigned>(port);
  uint32_t router = s.ensureRouter(s.indexOf(x, y));
  unsigned color = wavelet.color;
  uint32_t lane = s.ensureLane(router, color);
  // The receiving router's swap flags relabel it, as for a neighbour's.
  bool sideways = port == pe::Port::West || port == pe::Port::East;
  if (s.lanes[lane].has(sideways ? SwapX : SwapY)) {
    color ^= 1;
    lane = s.ensureLane(router, color);
  }
  if (!s.admit(lane, index, color, wavelet))
    return false;
  ++s.counters.hops;
  ++s.counters.edgeIn;
  return true;
}

unsigned Network::getEdgeInjectSpace(unsigned x, unsigned y, pe::Port port,
                                     unsigned color) const {
  const State &s = *state;
  unsigned index = static_cast<unsigned>(port);
  if (index >= RampPort || !s.contains(x, y) || !s.facesOff(x, y, index))
    return 0;
  std::optional<LaneView> view = s.viewLane(x, y, color);
  if (!view)
    return 0;
  bool sideways = port == pe::Port::West || port == pe::Port::East;
  if (view->lane.has(sideways ? SwapX : SwapY))
    view = s.viewLane(x, y, color ^ 1);
  const Buffer &buffer = view->lane.buffers[index];
  return buffer.capacity - buffer.count;
}

bool Network::declareEdgeExit(unsigned x, unsigned y, pe::Port port,
                              unsigned color) {
  State &s = *state;
  if (!s.checkEdgeCall("declareEdgeExit", x, y, port, color))
    return false;
  uint64_t key =
      State::exitKey(s.indexOf(x, y), static_cast<unsigned>(port), color);
  if (s.exitOf.emplace(key, uint32_t(s.exits.size())).second)
    s.exits.emplace_back();
  return true;
}

std::optional<Wavelet> Network::pollEdgeExit(unsigned x, unsigned y,
                                             pe::Port port, unsigned color) {
  State &s = *state;
  const char *call = "pollEdgeExit";
  if (!s.checkEdgeCall(call, x, y, port, color))
    return std::nullopt;
  uint32_t exit = s.findExit(x, y, static_cast<unsigned>(port), color);
  if (exit == None) {
    s.report(RouteErrorKind::NotAnEdgePort, x, y, color, port, 0,
             std::string(call) + ": " + pe(x, y) + " has no exit declared " +
                 "for color " + std::to_string(color) + " through its " +
                 portName(static_cast<unsigned>(port)) + " port");
    return std::nullopt;
  }
  std::deque<Wavelet> &queue = s.exits[exit].queue;
  if (queue.empty())
    return std::nullopt;
  Wavelet wavelet = queue.front();
  queue.pop_front();
  return wavelet;
}

unsigned Network::getEdgeExitCount(unsigned x, unsigned y, pe::Port port,
                                   unsigned color) const {
  const State &s = *state;
  if (!s.contains(x, y) || color >= s.numColors ||
      static_cast<unsigned>(port) >= RampPort)
    return 0;
  uint32_t exit = s.findExit(x, y, static_cast<unsigned>(port), color);
  return exit == None ? 0 : unsigned(s.exits[exit].queue.size());
}

} // namespace tessera::emulator
