//===- Emulator.cpp - the bands in lockstep, and host access --------------===//
//
// docs/Scaling.md: the rectangle is cut into bands of rows. A cycle runs in
// two halves: every band first takes the wavelets its neighbours sent
// across their sides in the last step, runs its PEs and publishes what its
// boundary buffers can take; then every band steps its routers against its
// neighbours' offers and keeps what crossed its sides. Between the halves
// the bands touch nothing of each other, so threads can run them at once.
// What bands report (faults, printed lines, trace lines) is merged by
// (cycle, y, x), the order one band of the whole rectangle gives too.
//
//===----------------------------------------------------------------------===//

#include "BandThreads.h"
#include "Machine.h"

#include <algorithm>
#include <cstdio>
#include <ostream>
#include <tuple>

using namespace tessera;
using namespace tessera::emulator;
using namespace tessera::emulator::machine;

namespace {

/// Where band boundaries go: rows split so that each band has about the
/// same number of PEs with a program (each row also counts one, for its
/// routers), every band at least one row.
std::vector<unsigned> splitRows(const FabricLayout &layout, unsigned count) {
  unsigned height = layout.getHeight();
  count = std::clamp(count, 1u, std::max(height, 1u));
  std::vector<uint64_t> weight(height, 1);
  for (unsigned y = 0; y < height; ++y)
    for (unsigned x = 0; x < layout.getWidth(); ++x)
      weight[y] += layout.programAt(x, y).has_value();
  uint64_t total = 0;
  for (uint64_t w : weight)
    total += w;
  std::vector<unsigned> firstRows{0};
  uint64_t sum = 0;
  for (unsigned y = 0; y < height && firstRows.size() < count; ++y) {
    sum += weight[y];
    unsigned bandsLeft = count - static_cast<unsigned>(firstRows.size());
    bool due = sum * count >= total * firstRows.size();
    // Leave a row for every band still to come.
    bool mustCut = height - (y + 1) <= bandsLeft;
    if ((due || mustCut) && y + 1 < height)
      firstRows.push_back(y + 1);
  }
  return firstRows;
}

auto orderKey(uint64_t cycle, PECoord pe) {
  return std::tuple(cycle, pe.y, pe.x);
}

/// Sorts items [first, end) of `items` by (cycle, y, x), keeping the order
/// of equal ones. Not std::stable_sort: libstdc++ 12's uses a deprecated
/// buffer function that warns.
template <typename T, typename KeyOf>
void sortByCyclePE(std::vector<T> &items, size_t first, KeyOf keyOf) {
  std::vector<std::pair<decltype(keyOf(items[0])), size_t>> keys;
  for (size_t i = first; i < items.size(); ++i)
    keys.emplace_back(keyOf(items[i]), i);
  std::sort(keys.begin(), keys.end());
  std::vector<T> sorted;
  sorted.reserve(keys.size());
  for (const auto &[key, index] : keys)
    sorted.push_back(std::move(items[index]));
  std::move(sorted.begin(), sorted.end(), items.begin() + first);
}

} // namespace

PECounters &PECounters::operator+=(const PECounters &other) {
  instructions += other.instructions;
  dsdElements += other.dsdElements;
  tasksRun += other.tasksRun;
  busyCycles += other.busyCycles;
  stallCycles += other.stallCycles;
  waveletsSent += other.waveletsSent;
  waveletsReceived += other.waveletsReceived;
  return *this;
}

//===----------------------------------------------------------------------===//
// Emulator::State
//===----------------------------------------------------------------------===//

Emulator::State::State(const LoadedOutput &output, EmulatorOptions options)
    : shared(output, std::move(options)) {
  const EmulatorOptions &opts = shared.options;
  const FabricLayout &layout = output.layout;
  unsigned wanted = opts.bands ? opts.bands : std::max(opts.threads, 1u);
  std::vector<unsigned> firstRows = splitRows(layout, wanted);
  bandOfRow.assign(layout.getHeight(), 0);
  for (size_t i = 0; i < firstRows.size(); ++i) {
    unsigned end =
        i + 1 < firstRows.size() ? firstRows[i + 1] : layout.getHeight();
    bands.push_back(std::make_unique<Band>(shared, firstRows[i], end));
    for (unsigned y = firstRows[i]; y < end; ++y)
      bandOfRow[y] = static_cast<uint32_t>(i);
  }
  for (auto &band : bands)
    band->load();
  if (!shared.loadError.empty())
    for (auto &band : bands)
      if (!band->pes.empty()) {
        band->fail(band->pes.front(), 0, shared.loadError);
        break;
      }

  size_t n = bands.size();
  outboxNorth.resize(n);
  outboxSouth.resize(n);
  viewNorth.resize(n);
  viewSouth.resize(n);
  unsigned threadCount = std::min<unsigned>(opts.threads, n);
  if (threadCount > 1)
    threads = std::make_unique<BandThreads>(
        n, threadCount, [this](size_t band, bool secondHalf) {
          if (secondHalf)
            runSecondHalf(band);
          else
            runFirstHalf(band);
        });
  collect();
}

Emulator::State::~State() = default;

PE *Emulator::State::findPE(unsigned x, unsigned y) {
  if (y >= bandOfRow.size())
    return nullptr;
  return bandOf(y).findPE(x, y);
}

const PE *Emulator::State::findPE(unsigned x, unsigned y) const {
  return const_cast<State *>(this)->findPE(x, y);
}

void Emulator::State::runFirstHalf(size_t index) {
  Band &band = *bands[index];
  size_t n = bands.size();
  // What crossed into this band in the last step arrived in that step; it
  // enters before anything of this cycle reads the buffers.
  if (index > 0)
    for (const BoundaryWavelet &w : outboxSouth[index - 1])
      band.network.acceptFromBoundary(BandSide::North, w);
  if (index + 1 < n)
    for (const BoundaryWavelet &w : outboxNorth[index + 1])
      band.network.acceptFromBoundary(BandSide::South, w);
  band.runPEs();
  if (n == 1)
    return;
  // After the PEs' turns, which may reconfigure the boundary routers.
  if (index > 0)
    viewNorth[index] = band.network.getBoundaryView(BandSide::North);
  if (index + 1 < n)
    viewSouth[index] = band.network.getBoundaryView(BandSide::South);
}

void Emulator::State::runSecondHalf(size_t index) {
  Band &band = *bands[index];
  size_t n = bands.size();
  // Each view has one reader: the band beyond that side.
  if (index > 0)
    band.network.setNeighbourView(BandSide::North,
                                  std::move(viewSouth[index - 1]));
  if (index + 1 < n)
    band.network.setNeighbourView(BandSide::South,
                                  std::move(viewNorth[index + 1]));
  band.stepNetwork();
  if (index > 0)
    outboxNorth[index] = band.network.takeBoundaryOutbox(BandSide::North);
  if (index + 1 < n)
    outboxSouth[index] = band.network.takeBoundaryOutbox(BandSide::South);
}

void Emulator::State::stepCycle() {
  if (threads) {
    threads->runCycle();
  } else {
    for (size_t i = 0; i < bands.size(); ++i)
      runFirstHalf(i);
    for (size_t i = 0; i < bands.size(); ++i)
      runSecondHalf(i);
  }
  ++cycle;
  collect();
}

void Emulator::State::settle() {
  size_t n = bands.size();
  for (size_t i = 0; i < n && n > 1; ++i) {
    Band &band = *bands[i];
    if (i > 0)
      for (const BoundaryWavelet &w : outboxSouth[i - 1])
        band.network.acceptFromBoundary(BandSide::North, w);
    if (i + 1 < n)
      for (const BoundaryWavelet &w : outboxNorth[i + 1])
        band.network.acceptFromBoundary(BandSide::South, w);
  }
  for (size_t i = 0; i < n; ++i) {
    outboxNorth[i].clear();
    outboxSouth[i].clear();
  }
}

void Emulator::State::collect() {
  if (!fault) {
    for (const auto &band : bands)
      if (band->fault &&
          (!fault || orderKey(band->fault->cycle, band->fault->pe) <
                         orderKey(fault->cycle, fault->pe)))
        fault = band->fault;
  }
  bool anyPrinted = false, anyTraced = false;
  for (const auto &band : bands) {
    anyPrinted |= !band->printed.empty();
    anyTraced |= !band->traced.empty();
  }
  if (anyPrinted) {
    size_t first = printed.size();
    for (const auto &band : bands) {
      for (PrintedLine &line : band->printed)
        printed.push_back(std::move(line));
      band->printed.clear();
    }
    sortByCyclePE(printed, first, [](const PrintedLine &line) {
      return orderKey(line.cycle, line.pe);
    });
    if (shared.options.onPrint)
      for (size_t i = first; i < printed.size(); ++i)
        shared.options.onPrint(printed[i]);
  }
  if (anyTraced) {
    std::vector<TraceLine> lines;
    for (const auto &band : bands) {
      for (TraceLine &line : band->traced)
        lines.push_back(std::move(line));
      band->traced.clear();
    }
    sortByCyclePE(lines, 0, [](const TraceLine &line) {
      return orderKey(line.cycle, line.pe);
    });
    if (std::ostream *os = shared.options.trace)
      for (const TraceLine &line : lines)
        *os << line.text << '\n';
  }
}

bool Emulator::State::isQuiet() const {
  for (size_t i = 0; i < bands.size(); ++i)
    if (!bands[i]->isQuiet() || !outboxNorth[i].empty() ||
        !outboxSouth[i].empty())
      return false;
  return true;
}

bool Emulator::State::hasLeftovers() const {
  for (size_t i = 0; i < bands.size(); ++i)
    if (bands[i]->hasLeftovers() || !outboxNorth[i].empty() ||
        !outboxSouth[i].empty())
      return true;
  return false;
}

bool Emulator::State::progressed() const {
  for (const auto &band : bands)
    if (band->progressed)
      return true;
  return false;
}

uint64_t Emulator::State::skipToNextTimer(uint64_t limit) {
  std::optional<uint64_t> next;
  for (size_t i = 0; i < bands.size(); ++i) {
    const Band &band = *bands[i];
    if (!band.awake.empty() || !band.network.isIdle() ||
        !outboxNorth[i].empty() || !outboxSouth[i].empty())
      return 0;
    if (std::optional<uint64_t> at = band.nextTimer())
      next = next ? std::min(*next, *at) : *at;
  }
  if (!next)
    return 0;
  uint64_t skip = std::min(*next - cycle, limit);
  if (skip == 0)
    return 0;
  for (auto &band : bands)
    band->skipCycles(skip); // every network is idle: none refuses
  cycle += skip;
  return skip;
}

//===----------------------------------------------------------------------===//
// Emulator
//===----------------------------------------------------------------------===//

Emulator::Emulator(const LoadedOutput &output, EmulatorOptions options)
    : state(std::make_unique<State>(output, std::move(options))) {}

Emulator::~Emulator() = default;

RunOutcome Emulator::run(uint64_t maxCycles,
                         const std::function<bool()> &until) {
  State &s = *state;
  RunOutcome result;
  auto finish = [&](RunStatus status) {
    s.settle();
    result.status = status;
    return result;
  };
  while (true) {
    if (s.fault)
      return finish(RunStatus::Faulted);
    if (until && until())
      return finish(RunStatus::Reached);
    if (s.isQuiet())
      return finish(s.hasLeftovers() ? RunStatus::Stalled : RunStatus::Idle);
    if (result.cycles == maxCycles)
      return finish(RunStatus::CycleLimit);
    // A condition is checked every cycle, so no cycle is skipped past.
    if (!until)
      result.cycles += s.skipToNextTimer(maxCycles - result.cycles);
    if (result.cycles == maxCycles)
      continue;
    s.stepCycle();
    ++result.cycles;
    if (s.fault)
      return finish(RunStatus::Faulted);
    if (!s.progressed() && !s.isQuiet())
      return finish(RunStatus::Stalled);
  }
}

bool Emulator::step() {
  if (state->fault)
    return false;
  state->stepCycle();
  state->settle();
  return !state->fault;
}

uint64_t Emulator::getCycle() const { return state->cycle; }

bool Emulator::isIdle() const {
  return state->isQuiet() && !state->hasLeftovers();
}

const std::optional<PEFault> &Emulator::getFault() const {
  return state->fault;
}

DeadlockReport Emulator::getDeadlock() const {
  DeadlockReport report;
  report.cycle = state->cycle;
  for (const auto &band : state->bands)
    band->describeWaits(report);
  // Each band lists its router errors as it found them; merged by when and
  // where, they read the same whatever the split.
  sortByCyclePE(report.routeErrors, 0, [](const RouteError &error) {
    return orderKey(error.cycle, error.pe);
  });
  return report;
}

PECounters Emulator::getCounters() const {
  PECounters total;
  for (const auto &band : state->bands)
    for (const PE &pe : band->pes)
      total += pe.counters;
  return total;
}

PECounters Emulator::getCounters(unsigned x, unsigned y) const {
  const PE *pe = state->findPE(x, y);
  return pe ? pe->counters : PECounters{};
}

NetworkCounters Emulator::getNetworkCounters() const {
  NetworkCounters total;
  for (const auto &band : state->bands) {
    const NetworkCounters &c = band->network.getCounters();
    total.cycles = std::max(total.cycles, c.cycles);
    total.injected += c.injected;
    total.hops += c.hops;
    total.delivered += c.delivered;
    total.withheld += c.withheld;
    total.polled += c.polled;
    total.waitCycles += c.waitCycles;
    total.rxConflicts += c.rxConflicts;
    total.switchCommands += c.switchCommands;
    total.teardowns += c.teardowns;
    total.edgeIn += c.edgeIn;
    total.edgeOut += c.edgeOut;
  }
  return total;
}

unsigned Emulator::getNumBands() const {
  return static_cast<unsigned>(state->bands.size());
}

const Network &Emulator::getNetwork() const {
  return state->bands.front()->network;
}
Network &Emulator::getNetwork() { return state->bands.front()->network; }

Network &Emulator::getNetworkForRow(unsigned y) {
  if (y >= state->bandOfRow.size())
    return state->bands.back()->network;
  return state->bandOf(y).network;
}

const std::vector<PrintedLine> &Emulator::getPrintedLines() const {
  return state->printed;
}

MemoryStatus Emulator::readMemory(unsigned x, unsigned y, uint32_t address,
                                  std::span<uint8_t> out) const {
  const PE *pe = state->findPE(x, y);
  if (!pe)
    return MemoryStatus::OutOfRange;
  return pe->memory.read(address, out);
}

MemoryStatus Emulator::writeMemory(unsigned x, unsigned y, uint32_t address,
                                   std::span<const uint8_t> bytes) {
  PE *pe = state->findPE(x, y);
  if (!pe)
    return MemoryStatus::OutOfRange;
  return pe->memory.write(address, bytes);
}

bool Emulator::call(unsigned x, unsigned y, uint32_t address,
                    std::span<const uint32_t> args, std::string &error) {
  PE *pe = state->findPE(x, y);
  if (!pe) {
    error = "PE (" + std::to_string(x) + ", " + std::to_string(y) +
            ") runs no program";
    return false;
  }
  const ProgramInfo &info = state->shared.programs[pe->program];
  if (!info.code.lookup(address)) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%04x", address);
    error = "address " + std::string(hex) + " is not in the code of '" +
            info.loaded->name + "'";
    return false;
  }
  if (args.size() > 8) {
    error =
        "a call takes at most 8 arguments, not " + std::to_string(args.size());
    return false;
  }
  PendingCall call;
  call.address = address;
  call.numArgs = static_cast<uint8_t>(args.size());
  std::copy(args.begin(), args.end(), call.args.begin());
  pe->calls.push_back(call);
  state->bandOf(y).wake(*pe);
  return true;
}

bool Emulator::isTaskBlocked(unsigned x, unsigned y, unsigned task) const {
  const PE *pe = state->findPE(x, y);
  return pe && task < NumTaskIDs && (pe->blocked >> task & 1);
}

void Emulator::setTaskBlocked(unsigned x, unsigned y, unsigned task,
                              bool blocked) {
  PE *pe = state->findPE(x, y);
  if (!pe || task >= NumTaskIDs)
    return;
  Band &band = state->bandOf(y);
  band.setBlocked(*pe, pe::BlockSpace::Task, task, blocked);
  band.wake(*pe); // a task may have become ready
  state->collect();
}

bool Emulator::isMainThreadIdle(unsigned x, unsigned y) const {
  const PE *pe = state->findPE(x, y);
  return !pe || (pe->state == MainState::Idle && pe->calls.empty() &&
                 !state->bandOf(y).hasReadyTask(*pe));
}

bool Emulator::deliver(unsigned x, unsigned y, Wavelet wavelet) {
  PE *pe = state->findPE(x, y);
  if (!pe || wavelet.color >= 32 ||
      !state->bandOf(y).network.deliverFromHost(x, y, wavelet))
    return false;
  pe->deliveredColors |= uint32_t(1) << wavelet.color;
  state->bandOf(y).wake(*pe);
  return true;
}

void Emulator::captureColor(unsigned color) {
  if (color >= 32 || (state->shared.hostColors >> color & 1))
    return;
  state->shared.hostColors |= uint32_t(1) << color;
  // What PEs sent on the color before the host took it waits in their
  // routers (which do not route it): it goes to the host first.
  for (auto &band : state->bands)
    for (PE &pe : band->pes)
      for (const Wavelet &w :
           band->network.takeInjected(pe.coord.x, pe.coord.y, color)) {
        pe.toHost.emplace_back(static_cast<uint8_t>(color), w.payload);
        band->wake(pe); // its blocked fabout can go on
      }
}

std::vector<uint32_t> Emulator::takeCaptured(unsigned x, unsigned y,
                                             unsigned color, size_t max) {
  std::vector<uint32_t> taken;
  PE *pe = state->findPE(x, y);
  if (!pe)
    return taken;
  auto kept = pe->toHost.begin();
  for (auto it = pe->toHost.begin(); it != pe->toHost.end(); ++it) {
    if (it->first == color && taken.size() < max)
      taken.push_back(it->second);
    else
      *kept++ = *it;
  }
  pe->toHost.erase(kept, pe->toHost.end());
  return taken;
}

size_t Emulator::getCapturedCount(unsigned x, unsigned y,
                                  unsigned color) const {
  const PE *pe = state->findPE(x, y);
  if (!pe)
    return 0;
  size_t count = 0;
  for (const auto &[c, payload] : pe->toHost)
    count += c == color;
  return count;
}
