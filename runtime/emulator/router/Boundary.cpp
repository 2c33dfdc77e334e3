//===- Boundary.cpp - a band's links to the networks of other bands -------===//
//
// docs/Scaling.md: the fabric split into bands of rows, each with its own
// network, stepping in lockstep. A link across a band boundary is decided
// on the neighbour's view (its buffers' room and color swaps as of the
// start of the cycle, as one network's plan reads them) and carried by the
// outbox, which the neighbour accepts before the next cycle: a wavelet
// arrives in the same cycle and leaves in the next at the earliest, as
// through one network.
//
//===----------------------------------------------------------------------===//

#include "NetworkState.h"

namespace tessera::emulator {

namespace {

constexpr unsigned South = 2, North = 3;

unsigned sideIndex(BandSide side) { return static_cast<unsigned>(side); }

/// The band side a link towards `direction` crosses (from a boundary row).
BandSide sideOf(unsigned direction) {
  return direction == North ? BandSide::North : BandSide::South;
}

} // namespace

BoundaryView Network::State::wholeBuffers() const {
  BoundaryView view;
  view.free.assign(size_t(width) * numColors,
                   uint8_t(options.linkBufferDepth));
  view.swap.assign(size_t(width) * numColors, 0);
  return view;
}

bool Network::State::planGhost(const Router &router, unsigned direction,
                               uint8_t color, uint8_t &arrivingColor) const {
  const BoundaryView &view = neighbourView[sideIndex(sideOf(direction))];
  size_t column = size_t(router.x) * numColors;
  if (view.swap[column + color])
    color ^= 1;
  arrivingColor = color;
  return view.free[column + color] > 0;
}

void Network::State::sendAcross(const Router &router, unsigned direction,
                                uint8_t color, const Entry &wavelet,
                                uint32_t payload) {
  BoundaryWavelet &out = outbox[sideIndex(sideOf(direction))].emplace_back();
  out.x = router.x;
  out.y = uint16_t(direction == North ? router.y - 1 : router.y + 1);
  out.color = color;
  out.control = wavelet.control != 0;
  out.payload = payload;
  out.id = wavelet.id;
}

NetworkBand Network::getBand() const {
  return {state->firstRow, state->endRow};
}

BoundaryView Network::getBoundaryView(BandSide side) const {
  const State &s = *state;
  if (!s.hasNeighbourBand(side) || s.firstRow == s.endRow)
    return {};
  BoundaryView view = s.wholeBuffers();
  unsigned row = side == BandSide::North ? s.firstRow : s.endRow - 1;
  // The input buffer facing the neighbour: wavelets from the band above
  // travel south and enter through the north port.
  unsigned port = side == BandSide::North ? North : South;
  for (unsigned x = 0; x < s.width; ++x) {
    size_t column = size_t(x) * s.numColors;
    uint32_t router = s.routerOf[s.indexOf(x, row)];
    for (unsigned color = 0; color < s.numColors; ++color) {
      if (router == None) {
        // Not created yet: its lanes will be the layout's.
        const pe::RouterConfig *config = s.layout->routerAt(x, row, color);
        view.swap[column + color] =
            s.hasColorSwap && config && config->colorSwapY;
        continue;
      }
      uint32_t lane = s.routers[router].laneOf[color];
      if (lane == None)
        continue;
      const Buffer &buffer = s.lanes[lane].buffers[port];
      view.free[column + color] = uint8_t(buffer.capacity - buffer.count);
      view.swap[column + color] = s.lanes[lane].has(SwapY);
    }
  }
  return view;
}

bool Network::setNeighbourView(BandSide side, BoundaryView view) {
  State &s = *state;
  size_t size = size_t(s.width) * s.numColors;
  if (!s.hasNeighbourBand(side) || view.free.size() != size ||
      view.swap.size() != size) {
    s.report(RouteErrorKind::OutsideRectangle, 0, s.firstRow, 0, std::nullopt,
             0,
             std::string("setNeighbourView: ") +
                 (s.hasNeighbourBand(side)
                      ? "a view needs " + std::to_string(size) +
                            " entries per vector"
                      : "no band lies beyond this band's " +
                            std::string(side == BandSide::North ? "north"
                                                                : "south") +
                            " side"));
    return false;
  }
  s.neighbourView[sideIndex(side)] = std::move(view);
  return true;
}

std::vector<BoundaryWavelet> Network::takeBoundaryOutbox(BandSide side) {
  std::vector<BoundaryWavelet> out;
  out.swap(state->outbox[sideIndex(side)]);
  return out;
}

bool Network::acceptFromBoundary(BandSide side,
                                 const BoundaryWavelet &wavelet) {
  State &s = *state;
  const char *call = "acceptFromBoundary";
  unsigned row = side == BandSide::North ? s.firstRow : s.endRow - 1;
  if (!s.hasNeighbourBand(side) || !s.checkPE(call, wavelet.x, wavelet.y) ||
      !s.checkColor(call, wavelet.x, wavelet.y, wavelet.color))
    return false;
  if (wavelet.y != row) {
    s.report(RouteErrorKind::OutsideRectangle, wavelet.x, wavelet.y,
             wavelet.color, std::nullopt, wavelet.id,
             std::string(call) + ": PE (" + std::to_string(wavelet.x) + ", " +
                 std::to_string(wavelet.y) + ") is not on the row facing " +
                 (side == BandSide::North ? "north" : "south"));
    return false;
  }
  unsigned port = side == BandSide::North ? North : South;
  uint32_t lane =
      s.ensureLane(s.ensureRouter(s.indexOf(wavelet.x, row)), wavelet.color);
  const Buffer &buffer = s.lanes[lane].buffers[port];
  if (buffer.count >= buffer.capacity) {
    s.report(RouteErrorKind::BadDepth, wavelet.x, wavelet.y, wavelet.color,
             static_cast<pe::Port>(port), wavelet.id,
             std::string(call) + ": the " + portName(port) +
                 " input buffer of PE (" + std::to_string(wavelet.x) + ", " +
                 std::to_string(wavelet.y) + ") color " +
                 std::to_string(wavelet.color) +
                 " is full: the neighbour's view was stale");
    return false;
  }
  // It arrived in the step just taken: errors about it carry that cycle.
  uint64_t now = s.counters.cycles;
  s.counters.cycles = now ? now - 1 : 0;
  s.arriveAt(lane, port, wavelet.color, wavelet.id, wavelet.control,
             wavelet.payload);
  s.counters.cycles = now;
  return true;
}

} // namespace tessera::emulator
