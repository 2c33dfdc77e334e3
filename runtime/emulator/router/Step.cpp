//===- Step.cpp - one cycle of every active router ------------------------===//
//
// A cycle has two phases. First every router on the worklist decides what
// moves, reading only the state at the start of the cycle; then the moves
// are applied. So no result depends on the order routers are visited in: a
// buffer has room for a wavelet if it had room when the cycle began, and a
// wavelet that arrives in a cycle leaves in the next one at the earliest.
//
//===----------------------------------------------------------------------===//

#include "NetworkState.h"

#include <algorithm>
#include <bit>

namespace tessera::emulator {

namespace {

constexpr unsigned West = 0, East = 1, South = 2, North = 3;

/// Whether the lane's swap flags relabel a wavelet sent in `direction`,
/// which arrives from the opposite side: E/W by swap x, N/S by swap y.
bool swapsArrival(bool swapX, bool swapY, unsigned direction) {
  return direction == West || direction == East ? swapX : swapY;
}

int stepX(unsigned direction) {
  return direction == East ? 1 : direction == West ? -1 : 0;
}
int stepY(unsigned direction) {
  return direction == South ? 1 : direction == North ? -1 : 0;
}

/// The first port of `ready` after `last`, cyclically.
unsigned nextPort(uint8_t ready, unsigned last) {
  unsigned start = last + 1 == NumPorts ? 0 : last + 1;
  unsigned rotated = (ready >> start | ready << (NumPorts - start)) & 0x1F;
  unsigned port = start + unsigned(std::countr_zero(rotated));
  return port >= NumPorts ? port - NumPorts : port;
}

} // namespace

void Network::State::resolveLinks(const Router &router, const Lane &lane,
                                  LaneCold &links) {
  links.linksValid = true;
  for (unsigned direction = 0; direction < 4; ++direction) {
    uint32_t neighbour = neighbours[lane.router][direction];
    uint8_t color = lane.color;
    uint32_t dest =
        neighbour == Outside || neighbour == Ghost ? neighbour : None;
    // A ghost's color swap is looked up when a wavelet goes (planGhost):
    // the neighbour's view changes every cycle.
    if (neighbour != None && neighbour != Outside && neighbour != Ghost) {
      dest = routers[neighbour].laneOf[color];
      if (dest != None && swapsArrival(lanes[dest].has(SwapX),
                                       lanes[dest].has(SwapY), direction)) {
        color ^= 1;
        dest = routers[neighbour].laneOf[color];
      }
    } else if (neighbour == None && hasColorSwap) {
      // Not touched yet, so its lanes will be the layout's configs.
      const pe::RouterConfig *config =
          layout->routerAt(unsigned(int(router.x) + stepX(direction)),
                           unsigned(int(router.y) + stepY(direction)), color);
      if (config &&
          swapsArrival(config->colorSwapX, config->colorSwapY, direction))
        color ^= 1;
    }
    links.next[direction] = dest;
    links.nextColor[direction] = color;
  }
}

// A color's rank on a link: how many colors come after the link's last
// one before it, (color + 2n - 1 - last) % n. With color, last < n the sum
// lies in [n, 3n - 2], so one conditional subtraction replaces the
// division that arbitration paid per link.
[[gnu::always_inline]] inline unsigned
Network::State::rankOn(const Router &router, unsigned link,
                       unsigned color) const {
  unsigned rank = color + numColors - 1 - router.lastGranted[link];
  return rank >= numColors ? rank - numColors : rank;
}

[[gnu::always_inline]] inline unsigned
Network::State::worstRank(const Router &router, uint8_t links,
                          unsigned color) const {
  unsigned key = 0;
  for (unsigned rest = links; rest; rest &= rest - 1)
    key =
        std::max(key, rankOn(router, unsigned(std::countr_zero(rest)), color));
  return key;
}

// plan, decide, arrive and apply run once per hop or router and cycle;
// inlined into step, a hop costs a third fewer instructions.
[[gnu::always_inline]] inline bool Network::State::plan(const Router &router,
                                                        uint32_t laneIndex,
                                                        Entry &head, Move &move,
                                                        bool &parkable) {
  const Lane &lane = lanes[laneIndex];
  uint8_t tx = lane.curTx;
  parkable = false;
  if (!tx)
    return false; // nowhere to go: it waits for a new route
  LaneCold &rest = cold[laneIndex];
  if (!rest.linksValid)
    resolveLinks(router, lane, rest);
  bool fits = true;
  // Parked lanes and the CE drain slowly: a wavelet that waits only for
  // their buffers parks. One behind a lane that moves would be woken the
  // next cycle anyway; off the rectangle or into another band, room is
  // not this band's to announce.
  bool waitsLong = true;
  uint8_t sent = 0;
  for (unsigned dirs = tx & LinkBits; dirs; dirs &= dirs - 1) {
    unsigned direction = unsigned(std::countr_zero(dirs));
    uint32_t dest = rest.next[direction];
    if (dest == Outside) {
      waitsLong = false;
      // Off the rectangle: to the host through a declared exit, whose
      // queue holds wavelets back as a neighbour's buffer would.
      uint32_t exit = exits.empty()
                          ? None
                          : findExit(router.x, router.y, direction, lane.color);
      if (exit == None) {
        reportLeaving(router, lane.color, direction, head);
        fits = false;
        continue;
      }
      if (exits[exit].queue.size() >= options.edgeExitDepth)
        fits = false;
    } else if (dest == Ghost) {
      waitsLong = false;
      uint8_t arriving;
      if (!planGhost(router, direction, lane.color, arriving))
        fits = false;
      move.dest[direction] = dest;
      move.destColor[direction] = arriving;
      sent |= uint8_t(1u << direction);
      continue;
    } else if (dest != None) {
      const Lane &next = lanes[dest];
      const Buffer &buffer = next.buffers[direction ^ 1];
      if (buffer.count >= buffer.capacity) {
        fits = false;
        waitsLong = waitsLong && next.has(Parked);
      }
    }
    move.dest[direction] = dest;
    move.destColor[direction] = rest.nextColor[direction];
    sent |= uint8_t(1u << direction);
  }

  move.withheld = false;
  move.counted = false;
  if (tx & RampBit) {
    bool deliver = true;
    if (head.control && control::ignoresCE(control::getSlot(head.payload, 0))) {
      deliver = false;
    } else if (lane.has(Filtering)) {
      const pe::Filter &filter = rest.filter;
      if (filter.kind == pe::Filter::Kind::Range) {
        // Control payloads hold commands, not an index.
        uint32_t index = head.payload >> 16;
        deliver = head.control || (index >= filter.min && index <= filter.max);
      } else if (filter.kind == pe::Filter::Kind::Counter) {
        move.counted = head.control ? filter.countControl : filter.countData;
        if (move.counted)
          deliver = rest.counter <= filter.maxCounter;
      }
    }
    if (deliver) {
      const Buffer &queue = lane.buffers[DeliveryBuffer];
      if (queue.count >= queue.capacity)
        fits = false;
      sent |= RampBit;
    } else {
      move.withheld = true;
    }
  }
  move.links = sent;
  parkable = waitsLong;
  return fits;
}

[[gnu::always_inline]] inline void
Network::State::decide(uint32_t routerIndex) {
  Router &router = routers[routerIndex];
  // Requests are built in place at the end of the moves; those that do not
  // get their links are removed again.
  size_t first = numMoves;
  std::array<uint8_t, MaxColors> colorOf;
  for (uint32_t colors = pending[routerIndex] & ~Listed; colors;
       colors &= colors - 1) {
    unsigned color = unsigned(std::countr_zero(colors));
    uint32_t laneIndex = router.laneOf[color];
    Lane &lane = lanes[laneIndex];
    uint8_t ready = lane.nonEmpty & lane.curRx;
    if (!ready)
      continue; // waits for a switch position that receives from its port
    unsigned port = unsigned(std::countr_zero(ready));
    if (ready & (ready - 1)) {
      ++counters.rxConflicts;
      port = nextPort(ready, lane.lastPort);
    }
    Move &move = moves[numMoves];
    Entry &head = slot(lane.buffers[port], 0);
    bool parkable;
    if (!plan(router, laneIndex, head, move, parkable)) {
      if (parkable)
        park(lane, laneIndex, ready & (ready - 1));
      continue;
    }
    move.wavelet = head;
    move.lane = laneIndex;
    move.port = uint8_t(port);
    move.x = router.x;
    move.y = router.y;
    colorOf[numMoves++ - first] = uint8_t(color);
  }
  size_t count = numMoves - first;
  if (count == 0)
    return;
  if (count == 2) {
    // The common contention, e.g. a row and a column color crossing: the
    // same rule as arbitrate, inline. Two requests for different links
    // both go, in either order (they touch different lanes). Sharing one,
    // the second goes instead of the first only if its worst rank is lower
    // (colorOf is ascending).
    Move &a = moves[first], &b = moves[first + 1];
    if (a.links & b.links) {
      if (worstRank(router, b.links, colorOf[1]) <
          worstRank(router, a.links, colorOf[0]))
        a = b;
      numMoves = first + 1;
    }
  } else if (count > 2) {
    arbitrate(router, first, colorOf);
  }
  // The granted moves are counted here, where their lanes' cold halves
  // are still cached from planning.
  for (size_t i = first; i < numMoves; ++i) {
    const Move &move = moves[i];
    uint8_t color = lanes[move.lane].color;
    for (unsigned rest = move.links; rest; rest &= rest - 1) {
      unsigned link = unsigned(std::countr_zero(rest));
      router.lastGranted[link] = color;
      if (++router.busyLow[link] == 0)
        router.busyHigh[link] += 1u << 16;
      countSent(move.lane, link);
    }
    lanes[move.lane].lastPort = move.port;
  }
}

void Network::State::prefetchTargets(uint32_t routerIndex) const {
  const Router &router = routers[routerIndex];
  for (uint32_t colors = pending[routerIndex] & ~Listed; colors;
       colors &= colors - 1) {
    uint32_t lane = router.laneOf[std::countr_zero(colors)];
    // The wavelet plan would look at: that of its first ready port (a
    // second one, rarely ready too, may be picked instead).
    const Lane &hot = lanes[lane];
    uint8_t ready = hot.nonEmpty & hot.curRx;
    if (ready) {
      const Buffer &buffer = hot.buffers[std::countr_zero(ready)];
      __builtin_prefetch(&pool[buffer.base + buffer.head]);
    }
    const LaneCold &links = cold[lane];
    if (!links.linksValid)
      continue;
    for (unsigned dirs = lanes[lane].curTx & LinkBits; dirs; dirs &= dirs - 1) {
      uint32_t dest = links.next[std::countr_zero(dirs)];
      if (dest < lanes.size())
        __builtin_prefetch(&lanes[dest]);
    }
  }
}

bool Network::State::arbitrateSingleLinks(
    const Router &router, size_t first,
    const std::array<uint8_t, MaxColors> &colorOf) {
  // Requests for one link each (a lane sending one way or delivering)
  // compete only with those for the same link, and the lowest rank on it
  // wins; requests for none (withheld by a filter) always go. The moves
  // kept stay in their order, which does not matter: a router's moves
  // touch different lanes.
  size_t count = numMoves - first;
  std::array<uint8_t, NumPorts> winner, best;
  best.fill(UINT8_MAX);
  for (size_t i = 0; i < count; ++i) {
    uint8_t links = moves[first + i].links;
    if (links & (links - 1))
      return false;
    if (!links)
      continue;
    unsigned link = unsigned(std::countr_zero(links));
    unsigned rank = rankOn(router, link, colorOf[i]);
    if (rank < best[link]) {
      best[link] = uint8_t(rank);
      winner[link] = uint8_t(i);
    }
  }
  size_t kept = first;
  for (size_t i = 0; i < count; ++i) {
    uint8_t links = moves[first + i].links;
    if (links && winner[std::countr_zero(links)] != i)
      continue;
    if (kept != first + i)
      moves[kept] = moves[first + i];
    ++kept;
  }
  numMoves = kept;
  return true;
}

void Network::State::arbitrate(const Router &router, size_t first,
                               const std::array<uint8_t, MaxColors> &colorOf) {
  // Round robin per link: a color's rank on a link is how many colors come
  // after the link's last one before it; requests are served in order of
  // their worst rank over the links they need, then by color, and get
  // their links if all are still free.
  //
  // (decide handles two requests inline.) No std::sort or copies of whole
  // Move arrays: the order is an insertion sort of packed keys, and moves
  // are only shuffled when the grant order differs from the request order.
  size_t count = numMoves - first;
  if (arbitrateSingleLinks(router, first, colorOf))
    return;
  // Key per request: worst rank << 16 | color << 8 | index. Colors are
  // distinct, so the index never decides the order.
  std::array<uint32_t, MaxColors> order;
  for (size_t i = 0; i < count; ++i) {
    unsigned key = worstRank(router, moves[first + i].links, colorOf[i]);
    uint32_t packed =
        uint32_t(key) << 16 | uint32_t(colorOf[i]) << 8 | uint32_t(i);
    size_t at = i;
    for (; at > 0 && order[at - 1] > packed; --at)
      order[at] = order[at - 1];
    order[at] = packed;
  }
  std::array<uint8_t, MaxColors> keptIndex;
  size_t kept = 0;
  bool inPlace = true; // the granted moves are moves[first, first + kept)
  uint8_t used = 0;
  for (size_t i = 0; i < count; ++i) {
    unsigned index = order[i] & 0xFF;
    uint8_t links = moves[first + index].links;
    if (links & used)
      continue; // a link it needs went to an earlier color
    used |= links;
    inPlace = inPlace && index == kept;
    keptIndex[kept++] = uint8_t(index);
  }
  if (!inPlace) {
    std::array<Move, MaxColors> granted;
    for (size_t i = 0; i < kept; ++i)
      granted[i] = moves[first + keptIndex[i]];
    std::copy(granted.begin(), granted.begin() + kept, moves.data() + first);
  }
  numMoves = first + kept;
}

[[gnu::always_inline]] inline void
Network::State::arrive(uint32_t fromRouter, unsigned direction,
                       uint32_t laneIndex, uint8_t color, const Entry &wavelet,
                       uint32_t payload) {
  if (laneIndex == None) {
    unsigned x = unsigned(int(routers[fromRouter].x) + stepX(direction));
    unsigned y = unsigned(int(routers[fromRouter].y) + stepY(direction));
    laneIndex = ensureLane(ensureRouter(indexOf(x, y)), color);
  }
  arriveAt(laneIndex, direction ^ 1, color, wavelet.id, wavelet.control,
           payload);
}

[[gnu::always_inline]] inline void Network::State::apply(const Move &move) {
  const Entry &entry = move.wavelet;
  const Buffer &left = lanes[move.lane].buffers[move.port];
  bool wasFull = left.count >= left.capacity;
  drop(lanes[move.lane], move.port);
  --inFlight;
  uint32_t routerIndex = lanes[move.lane].router;
  if (wasFull && move.port < RampPort) {
    // The neighbour that fills this buffer may have parked on it.
    uint32_t from = neighbours[routerIndex][move.port];
    if (from < routers.size() && parked[from])
      wakeParked(from);
  }
  uint8_t color = lanes[move.lane].color;
  uint32_t sent = entry.payload;
  ControlOpcode command = ControlOpcode::Nop;
  if (entry.control) {
    const Lane &lane = lanes[move.lane];
    command = control::getOpcode(control::getSlot(entry.payload, 0));
    // pop_on_advance pops only when the advance moves the switch: a router
    // at its last position without ring mode passes the command on (the
    // next router of cholesky's row must still see its advance).
    bool moves = cold[move.lane].position < lane.lastPosition || lane.has(Ring);
    bool pops =
        lane.popMode == 1 ||
        (lane.popMode == 2 && command == ControlOpcode::SwitchAdvance && moves);
    // A router pops by its pop mode whether or not it has switch positions:
    // fft-1d-2d's sending PE has none and pops the NOP meant for itself,
    // so the next router sees the advance meant for it.
    if (pops)
      sent = control::popSlot(entry.payload);
  }
  for (unsigned dirs = move.links & LinkBits; dirs; dirs &= dirs - 1) {
    unsigned direction = unsigned(std::countr_zero(dirs));
    if (move.dest[direction] == Outside)
      leave(routers[routerIndex], direction, move.destColor[direction], entry,
            sent);
    else if (move.dest[direction] == Ghost)
      sendAcross(routers[routerIndex], direction, move.destColor[direction],
                 entry, sent);
    else
      arrive(routerIndex, direction, move.dest[direction],
             move.destColor[direction], entry, sent);
  }

  Lane &lane = lanes[move.lane]; // arrivals may have grown `lanes`
  if (move.links & RampBit) {
    // The CE sees the payload as it reached this router.
    Entry &copy = push(lane, DeliveryBuffer);
    copy = entry;
    copy.advances = 0;
    copy.reported = 0;
    ++awaitingCE;
    ++counters.delivered;
    ++counters.hops;
    deliveries.push_back({{move.x, move.y}, color, entry.control != 0});
  }
  if (move.withheld)
    ++counters.withheld;
  if (move.counted) {
    LaneCold &rest = cold[move.lane];
    rest.counter =
        rest.counter == rest.filter.limit1 ? 0 : uint16_t(rest.counter + 1);
  }

  // Commands take effect once their wavelet has passed (it used the old
  // position), then the CE's advances that waited for this wavelet.
  switch (command) {
  case ControlOpcode::SwitchAdvance:
    advance(move.lane);
    ++counters.switchCommands;
    break;
  case ControlOpcode::SwitchReset:
    reset(move.lane);
    ++counters.switchCommands;
    break;
  case ControlOpcode::Teardown: {
    lane.set(Teardown, true);
    ++counters.teardowns;
    const Router &router = routers[routerIndex];
    teardownEvents.push_back({counters.cycles, {router.x, router.y}, color});
    break;
  }
  case ControlOpcode::Nop:
    break;
  }
  for (unsigned i = 0; i < entry.advances; ++i) {
    advance(move.lane);
    ++counters.switchCommands;
  }
  // refreshPending, cheaper: the lane only lost a wavelet or was halted.
  if (!lane.nonEmpty || lane.has(Teardown))
    pending[lane.router] &= ~(1u << lane.color);
}

//===----------------------------------------------------------------------===//
// Network
//===----------------------------------------------------------------------===//

/// Active routers from which step fetches every lane it will touch ahead,
/// once the network and its companion hold PrefetchFromBytes: below that,
/// the caches keep what a cycle walks and fetching only costs
/// instructions (docs/Emulator.md, "Memory and speed").
static constexpr size_t PrefetchAllFrom = 1024;
static constexpr size_t PrefetchFromBytes = size_t(4) << 20;

void Network::step() {
  State &s = *state;
  size_t waitingAtStart = s.inFlight;
  // What the parked lanes' visits would have counted.
  s.counters.rxConflicts += s.parkedConflicts;
  // A lane moves at most one wavelet per cycle.
  s.moves.reserveDiscarding(s.lanes.size());
  s.numMoves = 0;
  s.deliveries.clear();
  // Routers left with nothing to route leave the worklist here, keeping its
  // order; those that become active in this cycle join at its end.
  size_t kept = 0;
  bool fetchAhead = s.active.size() >= PrefetchAllFrom &&
                    s.getFootprint() >= PrefetchFromBytes;
  s.fetchedAhead = fetchAhead;
  for (size_t i = 0, e = s.active.size(); i < e; ++i) {
    // Large fabrics miss the cache on every router and lane: fetch the
    // router 32 ahead, and 16 ahead (its router cached by now) its first
    // pending lane. A busy router's visit is short beside the latency of
    // a line that has left the last level shared with other guests.
    if (i + 32 < e)
      __builtin_prefetch(&s.routers[s.active[i + 32]]);
    if (i + 16 < e) {
      // Its pending lanes (all of them when fetching ahead, as a busy
      // router has several and they are far apart).
      uint32_t ahead = s.active[i + 16];
      for (uint32_t colors = s.pending[ahead] & ~State::Listed; colors;
           colors = fetchAhead ? colors & (colors - 1) : 0) {
        uint32_t lane = s.routers[ahead].laneOf[std::countr_zero(colors)];
        __builtin_prefetch(&s.lanes[lane]);
        __builtin_prefetch(&s.cold[lane]);
      }
    }
    // 8 ahead (its lanes and their cold halves cached by now): the
    // wavelets plan reads and the lanes they would enter, whose room plan
    // checks.
    if (fetchAhead && i + 8 < e)
      s.prefetchTargets(s.active[i + 8]);
    uint32_t router = s.active[i];
    if (s.pending[router] == State::Listed) {
      s.pending[router] = 0;
      continue;
    }
    s.active[kept++] = router;
    s.decide(router);
  }
  s.active.resize(kept);
  // When fetching ahead, the lanes decide read may have left the cache
  // since: fetch each move's lane and the lanes it sends to 16 moves ahead
  // (the move holds its wavelet, and decide counted it).
  size_t ahead = fetchAhead ? s.numMoves : 0;
  for (size_t i = 0; i < s.numMoves; ++i) {
    if (i + 16 < ahead) {
      const Move &ahead = s.moves[i + 16];
      __builtin_prefetch(&s.lanes[ahead.lane]);
      for (unsigned dirs = ahead.links & LinkBits; dirs; dirs &= dirs - 1) {
        uint32_t dest = ahead.dest[std::countr_zero(dirs)];
        if (dest < s.lanes.size())
          __builtin_prefetch(&s.lanes[dest]);
      }
    }
    s.apply(s.moves[i]);
  }
  s.counters.waitCycles += waitingAtStart - s.numMoves;
  ++s.counters.cycles;
}

bool Network::skipIdleCycles(uint64_t cycles) {
  if (!isIdle())
    return false;
  State &s = *state;
  s.numMoves = 0;
  s.deliveries.clear();
  s.counters.cycles += cycles;
  return true;
}

uint64_t Network::runUntilIdle(uint64_t maxCycles) {
  uint64_t ran = 0;
  while (ran < maxCycles && !isIdle()) {
    step();
    ++ran;
  }
  return ran;
}

} // namespace tessera::emulator
