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
#include "Wire.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ostream>
#include <tuple>

using namespace tessera;
using namespace tessera::emulator;
using namespace tessera::emulator::machine;

namespace {

/// Where band boundaries go: rows [first, end) split so that each band
/// has about the same number of PEs with a program (each row also counts
/// one, for its routers), every band at least one row. Returns each band's
/// first row, then `end`.
std::vector<unsigned> splitRows(const FabricLayout &layout, unsigned first,
                                unsigned end, unsigned count) {
  unsigned rows = end - first;
  count = std::clamp(count, 1u, std::max(rows, 1u));
  std::vector<uint64_t> weight(rows, 1);
  for (unsigned y = first; y < end; ++y)
    for (unsigned x = 0; x < layout.getWidth(); ++x)
      weight[y - first] += layout.programAt(x, y).has_value();
  uint64_t total = 0;
  for (uint64_t w : weight)
    total += w;
  std::vector<unsigned> bounds{first};
  uint64_t sum = 0;
  for (unsigned i = 0; i < rows && bounds.size() < count; ++i) {
    sum += weight[i];
    unsigned bandsLeft = count - static_cast<unsigned>(bounds.size());
    bool due = sum * count >= total * bounds.size();
    // Leave a row for every band still to come.
    bool mustCut = rows - (i + 1) <= bandsLeft;
    if ((due || mustCut) && i + 1 < rows)
      bounds.push_back(first + i + 1);
  }
  bounds.push_back(end);
  return bounds;
}

/// The row of the rectangle's first PE with a program.
unsigned firstRowWithPE(const FabricLayout &layout) {
  for (unsigned y = 0; y < layout.getHeight(); ++y)
    for (unsigned x = 0; x < layout.getWidth(); ++x)
      if (layout.programAt(x, y))
        return y;
  return 0;
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
  link = opts.ranks && opts.ranks->getSize() > 1 ? opts.ranks : nullptr;
  firstRow = 0;
  endRow = layout.getHeight();
  if (link) {
    // Every rank computes the same slices; a rank beyond the rows has none.
    std::vector<unsigned> slices =
        splitRows(layout, 0, layout.getHeight(), link->getSize());
    unsigned rank = std::min<unsigned>(link->getRank(), slices.size() - 1);
    firstRow = slices[rank];
    endRow = rank + 1 < slices.size() ? slices[rank + 1] : firstRow;
    rankSlices = slices;
    northRank = firstRow > 0;
    southRank = endRow < layout.getHeight();
  }
  unsigned wanted = opts.bands ? opts.bands : std::max(opts.threads, 1u);
  std::vector<unsigned> bounds = splitRows(layout, firstRow, endRow, wanted);
  bandOfRow.assign(layout.getHeight(), 0);
  for (size_t i = 0; i + 1 < bounds.size(); ++i) {
    bands.push_back(std::make_unique<Band>(shared, bounds[i], bounds[i + 1]));
    for (unsigned y = bounds[i]; y < bounds[i + 1]; ++y)
      bandOfRow[y] = static_cast<uint32_t>(i);
  }
  for (auto &band : bands)
    band->load();
  // The first PE of the rectangle reports a program that does not load.
  if (!shared.loadError.empty())
    for (auto &band : bands)
      if (!band->pes.empty()) {
        if (band->pes.front().coord.y == firstRowWithPE(layout))
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
  refreshSummary();
  collect();
}

Emulator::State::~State() = default;

PE *Emulator::State::findPE(unsigned x, unsigned y) {
  if (!ownsRow(y))
    return nullptr;
  return bandOf(y).findPE(x, y);
}

const PE *Emulator::State::findPE(unsigned x, unsigned y) const {
  return const_cast<State *>(this)->findPE(x, y);
}

void Emulator::State::acceptIncoming(size_t index) {
  Band &band = *bands[index];
  size_t n = bands.size();
  if (index > 0 || northRank)
    for (const BoundaryWavelet &w :
         index > 0 ? outboxSouth[index - 1] : rankOutboxNorth)
      band.network.acceptFromBoundary(BandSide::North, w);
  if (index + 1 < n || southRank)
    for (const BoundaryWavelet &w :
         index + 1 < n ? outboxNorth[index + 1] : rankOutboxSouth)
      band.network.acceptFromBoundary(BandSide::South, w);
}

void Emulator::State::runFirstHalf(size_t index) {
  Band &band = *bands[index];
  size_t n = bands.size();
  bool north = index > 0 || northRank, south = index + 1 < n || southRank;
  // What crossed into this band in the last step arrived in that step; it
  // enters before anything of this cycle reads the buffers.
  acceptIncoming(index);
  band.runPEs();
  // After the PEs' turns, which may reconfigure the boundary routers.
  if (north)
    viewNorth[index] = band.network.getBoundaryView(BandSide::North);
  if (south)
    viewSouth[index] = band.network.getBoundaryView(BandSide::South);
}

void Emulator::State::runSecondHalf(size_t index) {
  Band &band = *bands[index];
  size_t n = bands.size();
  bool north = index > 0 || northRank, south = index + 1 < n || southRank;
  // Each view has one reader: the band beyond that side.
  if (north)
    band.network.setNeighbourView(
        BandSide::North,
        std::move(index > 0 ? viewSouth[index - 1] : rankViewNorth));
  if (south)
    band.network.setNeighbourView(
        BandSide::South,
        std::move(index + 1 < n ? viewNorth[index + 1] : rankViewSouth));
  band.stepNetwork();
  if (north)
    outboxNorth[index] = band.network.takeBoundaryOutbox(BandSide::North);
  if (south)
    outboxSouth[index] = band.network.takeBoundaryOutbox(BandSide::South);
}

void Emulator::State::exchangeViews() {
  ByteWriter toNorth, toSouth;
  if (northRank)
    writeView(toNorth, viewNorth.front());
  if (southRank)
    writeView(toSouth, viewSouth.back());
  std::vector<uint8_t> fromNorth, fromSouth;
  link->exchange(toNorth.bytes, toSouth.bytes, fromNorth, fromSouth);
  ByteReader north(fromNorth), south(fromSouth);
  if (northRank)
    rankViewNorth = readView(north);
  if (southRank)
    rankViewSouth = readView(south);
}

void Emulator::State::exchangeOutboxes() {
  ByteWriter toNorth, toSouth;
  if (northRank)
    toNorth.putVector(outboxNorth.front());
  if (southRank)
    toSouth.putVector(outboxSouth.back());
  std::vector<uint8_t> fromNorth, fromSouth;
  link->exchange(toNorth.bytes, toSouth.bytes, fromNorth, fromSouth);
  ByteReader north(fromNorth), south(fromSouth);
  rankOutboxNorth = north.getVector<BoundaryWavelet>();
  rankOutboxSouth = south.getVector<BoundaryWavelet>();
}

void Emulator::State::setChainLimit(uint64_t limit) {
  for (auto &band : bands)
    band->chainLimit = limit;
}

void Emulator::State::stepCycle() {
  size_t n = bands.size();
  if (threads)
    threads->runCycleHalf(false);
  else
    for (size_t i = 0; i < n; ++i)
      runFirstHalf(i);
  if (link)
    exchangeViews();
  if (threads)
    threads->runCycleHalf(true);
  else
    for (size_t i = 0; i < n; ++i)
      runSecondHalf(i);
  if (link)
    exchangeOutboxes();
  ++cycle;
  refreshSummary();
  collect();
}

void Emulator::State::settle() {
  size_t n = bands.size();
  for (size_t i = 0; i < n; ++i)
    bands[i]->settleStreams();
  for (size_t i = 0; i < n; ++i)
    acceptIncoming(i);
  for (size_t i = 0; i < n; ++i) {
    outboxNorth[i].clear();
    outboxSouth[i].clear();
  }
  rankOutboxNorth.clear();
  rankOutboxSouth.clear();
  refreshSummary();
}

Progress Emulator::State::getProgress() const {
  Progress progress;
  progress.cycle = cycle;
  size_t n = bands.size();
  for (size_t i = 0; i < n; ++i) {
    const Band &band = *bands[i];
    // Called twice a second at most: a pass over the PEs is affordable.
    for (const PE &pe : band.pes)
      progress.activePEs +=
          pe.awake || pe.timerAt != 0 || pe.streamedSends || pe.readyStreams ||
          (pe.mainStream &
           (machine::MainStreamSend | machine::MainStreamReady));
    progress.waveletsInFlight += band.network.getWaveletsInFlight() +
                                 band.network.getWaveletsAwaitingCE();
    // Wavelets that crossed into the band in the last cycle wait in the
    // sender's outbox (or the rank's) until the next: counted by the band
    // they enter, as one band would count them in its buffers.
    if (i > 0)
      progress.waveletsInFlight += outboxSouth[i - 1].size();
    else if (northRank)
      progress.waveletsInFlight += rankOutboxNorth.size();
    if (i + 1 < n)
      progress.waveletsInFlight += outboxNorth[i + 1].size();
    else if (southRank)
      progress.waveletsInFlight += rankOutboxSouth.size();
  }
  return progress;
}

Progress Emulator::State::gatherProgress() const {
  Progress mine = getProgress();
  if (!link)
    return mine;
  ByteWriter out;
  out.put(mine.activePEs);
  out.put(mine.waveletsInFlight);
  Progress all;
  all.cycle = cycle;
  for (const std::vector<uint8_t> &bytes : gatherToFirst(out.bytes)) {
    ByteReader in(bytes);
    all.activePEs += in.get<uint64_t>();
    all.waveletsInFlight += in.get<uint64_t>();
  }
  return all;
}

std::vector<std::vector<uint8_t>>
Emulator::State::gather(const std::vector<uint8_t> &bytes) const {
  if (!link)
    return {bytes};
  return link->allGather(bytes);
}

std::vector<std::vector<uint8_t>>
Emulator::State::gatherToFirst(const std::vector<uint8_t> &bytes) const {
  if (!link)
    return {bytes};
  return link->gather(bytes, 0);
}

void Emulator::State::refreshSummary() const {
  CycleSummary local;
  local.canSkip = rankOutboxNorth.empty() && rankOutboxSouth.empty();
  for (size_t i = 0; i < bands.size(); ++i) {
    const Band &band = *bands[i];
    local.fault |= band.fault.has_value();
    local.canSkip &= band.awake.empty() && !band.hasStreamWork() &&
                     band.network.isIdle() && outboxNorth[i].empty() &&
                     outboxSouth[i].empty();
    local.timers |= band.hasTimer();
    local.progressed |= band.progressed;
    if (local.canSkip) // read only when every band can skip
      local.nextTimer =
          std::min(local.nextTimer, band.nextTimer().value_or(UINT64_MAX));
    local.printed += band.printed.size();
    local.traced += band.traced.size();
  }
  local.progressDue = progressDue;
  if (!link) {
    summary = local;
    return;
  }
  ByteWriter out;
  out.put(local);
  CycleSummary all;
  all.canSkip = 1;
  for (const std::vector<uint8_t> &bytes : link->allGather(out.bytes)) {
    ByteReader in(bytes);
    CycleSummary one = in.get<CycleSummary>();
    all.fault |= one.fault;
    all.canSkip &= one.canSkip;
    all.timers |= one.timers;
    all.progressed |= one.progressed;
    all.progressDue |= one.progressDue;
    all.nextTimer = std::min(all.nextTimer, one.nextTimer);
    all.printed += one.printed;
    all.traced += one.traced;
  }
  summary = all;
}

template <typename Line>
void Emulator::State::takeLines(std::vector<Line> Band::*kept,
                                std::vector<Line> &into) {
  ByteWriter out;
  out.put<uint64_t>(0);
  uint64_t count = 0;
  for (const auto &band : bands) {
    std::vector<Line> &lines = (*band).*kept;
    for (const Line &line : lines)
      writeLine(out, line.cycle, line.pe, line.text);
    count += lines.size();
    lines.clear();
  }
  std::memcpy(out.bytes.data(), &count, sizeof count);
  for (const std::vector<uint8_t> &bytes : gather(out.bytes)) {
    ByteReader in(bytes);
    for (uint64_t i = in.get<uint64_t>(); i > 0 && in.isOK(); --i) {
      Line &line = into.emplace_back();
      line.cycle = in.get<uint64_t>();
      line.pe = in.get<PECoord>();
      line.text = in.getString();
    }
  }
}

void Emulator::State::collect() {
  if (!fault && summary.fault) {
    std::optional<PEFault> mine;
    for (const auto &band : bands)
      if (band->fault &&
          (!mine || orderKey(band->fault->cycle, band->fault->pe) <
                        orderKey(mine->cycle, mine->pe)))
        mine = band->fault;
    ByteWriter out;
    writeFault(out, mine);
    for (const std::vector<uint8_t> &bytes : gather(out.bytes)) {
      ByteReader in(bytes);
      std::optional<PEFault> one = readFault(in);
      if (one && (!fault || orderKey(one->cycle, one->pe) <
                                orderKey(fault->cycle, fault->pe)))
        fault = std::move(one);
    }
  }
  size_t newPrinted = printed.size();
  if (summary.printed) {
    takeLines(&Band::printed, printed);
    sortByCyclePE(printed, newPrinted, [](const PrintedLine &line) {
      return orderKey(line.cycle, line.pe);
    });
    if (shared.options.onPrint)
      for (size_t i = newPrinted; i < printed.size(); ++i)
        shared.options.onPrint(printed[i]);
  }
  std::ostream *os = shared.options.trace;
  if (summary.traced || (os && newPrinted < printed.size())) {
    std::vector<TraceLine> lines;
    takeLines(&Band::traced, lines);
    // The trace is the run's log: printed lines go in too, after the
    // PE's events of the same cycle.
    for (size_t i = newPrinted; i < printed.size(); ++i) {
      const PrintedLine &line = printed[i];
      lines.push_back({line.cycle, line.pe,
                       "cycle " + std::to_string(line.cycle) + " PE (" +
                           std::to_string(line.pe.x) + ", " +
                           std::to_string(line.pe.y) + "): prints \"" +
                           line.text + "\""});
    }
    sortByCyclePE(lines, 0, [](const TraceLine &line) {
      return orderKey(line.cycle, line.pe);
    });
    // With ranks the first writes the trace; the others only record.
    if (os && (!link || link->getRank() == 0))
      for (const TraceLine &line : lines)
        *os << line.text << '\n';
  }
  summary.printed = summary.traced = 0;
}

bool Emulator::State::hasLeftovers() const {
  uint8_t mine = 0;
  for (size_t i = 0; i < bands.size(); ++i)
    mine |= bands[i]->hasLeftovers() || !outboxNorth[i].empty() ||
            !outboxSouth[i].empty();
  mine |= !rankOutboxNorth.empty() || !rankOutboxSouth.empty();
  uint8_t any = 0;
  for (const std::vector<uint8_t> &bytes : gather({mine}))
    any |= !bytes.empty() && bytes[0];
  return any;
}

uint64_t Emulator::State::skipToNextTimer(uint64_t limit) {
  if (!summary.canSkip || summary.nextTimer == UINT64_MAX)
    return 0;
  uint64_t skip = std::min(summary.nextTimer - cycle, limit);
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
  // The host may have called, delivered or unblocked since the last cycle.
  s.refreshSummary();
  // The host sees the PEs when the run stops: chained operations start
  // before its last cycle, and not at all when a condition may stop it.
  s.setChainLimit(until ? 0
                        : s.cycle + std::min(maxCycles, UINT64_MAX - s.cycle));
  const auto &onProgress = s.shared.options.onProgress;
  auto lastProgress = std::chrono::steady_clock::now();
  for (uint64_t turn = 1;; ++turn) {
    // Reading the clock every cycle would cost more than a small cycle.
    // With ranks only rank 0 reports: its clock decides, the next summary
    // tells every rank, and the line counts every rank's PEs.
    if (onProgress && turn % 64 == 0 && !s.progressDue) {
      auto now = std::chrono::steady_clock::now();
      if (std::chrono::duration<double>(now - lastProgress).count() >=
          s.shared.options.progressSeconds) {
        lastProgress = now;
        s.progressDue = true; // refreshSummary is every rank's call
      }
    }
    if (s.summary.progressDue) {
      Progress progress = s.gatherProgress();
      s.progressDue = false;
      s.summary.progressDue = 0;
      if (onProgress)
        onProgress(progress);
    }
    // Every decision below reads only what all ranks agree on: the fault
    // and the summary are the same on each.
    if (s.fault)
      return finish(RunStatus::Faulted);
    if (until && until())
      return finish(RunStatus::Reached);
    if (s.summary.isQuiet())
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
    if (!s.summary.progressed && !s.summary.isQuiet())
      return finish(RunStatus::Stalled);
  }
}

bool Emulator::step() {
  if (state->fault)
    return false;
  state->setChainLimit(0);
  state->stepCycle();
  state->settle();
  return !state->fault;
}

uint64_t Emulator::getCycle() const { return state->cycle; }

bool Emulator::isIdle() const {
  state->refreshSummary();
  return state->summary.isQuiet() && !state->hasLeftovers();
}

const std::optional<PEFault> &Emulator::getFault() const {
  return state->fault;
}

DeadlockReport Emulator::getDeadlock() const {
  DeadlockReport mine;
  for (const auto &band : state->bands)
    band->describeWaits(mine);
  DeadlockReport report;
  report.cycle = state->cycle;
  if (!state->link) {
    report.waits = std::move(mine.waits);
    report.wavelets = std::move(mine.wavelets);
    report.routeErrors = std::move(mine.routeErrors);
  } else {
    // Ranks hold rows in order, so their lists follow one another.
    ByteWriter out;
    writeDeadlock(out, mine);
    for (const std::vector<uint8_t> &bytes : state->gather(out.bytes)) {
      ByteReader in(bytes);
      readDeadlock(in, report);
    }
  }
  // Each band lists its router errors as it found them; merged by when and
  // where, they read the same whatever the split.
  sortByCyclePE(report.routeErrors, 0, [](const RouteError &error) {
    return orderKey(error.cycle, error.pe);
  });
  return report;
}

uint64_t Emulator::getCarriedElements() const {
  return state->sumOverBands(&Band::carriedElements);
}

uint64_t Emulator::getChainedOperations() const {
  return state->sumOverBands(&Band::chainedOperations);
}

uint64_t Emulator::getTurns() const {
  return state->sumOverBands(&Band::turns);
}

uint64_t Emulator::getFirstBatchesBeside() const {
  return state->sumOverBands(&Band::firstBatchesBeside);
}

uint64_t Emulator::getFirstBatchesTakenBack() const {
  return state->sumOverBands(&Band::firstBatchesTakenBack);
}

PECounters Emulator::getCounters() const {
  PECounters mine;
  for (const auto &band : state->bands)
    for (const PE &pe : band->pes)
      mine += pe.counters;
  ByteWriter out;
  out.put(mine);
  PECounters total;
  for (const std::vector<uint8_t> &bytes : state->gather(out.bytes)) {
    ByteReader in(bytes);
    total += in.get<PECounters>();
  }
  return total;
}

PECounters Emulator::getCounters(unsigned x, unsigned y) const {
  const PE *pe = state->findPE(x, y);
  return pe ? pe->counters : PECounters{};
}

NetworkCounters Emulator::getNetworkCounters() const {
  ByteWriter out;
  for (const auto &band : state->bands)
    out.put(band->network.getCounters());
  NetworkCounters total;
  for (const std::vector<uint8_t> &bytes : state->gather(out.bytes)) {
    ByteReader in(bytes);
    while (!in.atEnd() && in.isOK()) {
      NetworkCounters c = in.get<NetworkCounters>();
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
  }
  return total;
}

std::vector<std::pair<PECoord, PECounters>> Emulator::getPECounters() const {
  // Bands and ranks hold rows in order, and a band its PEs by row.
  std::vector<std::pair<PECoord, PECounters>> mine;
  for (const auto &band : state->bands)
    for (const PE &pe : band->pes)
      mine.emplace_back(pe.coord, pe.counters);
  if (!state->link)
    return mine;
  ByteWriter out;
  out.put<uint64_t>(mine.size());
  for (const auto &[coord, counters] : mine) {
    out.put(coord);
    out.put(counters);
  }
  std::vector<std::vector<uint8_t>> parts = state->gatherToFirst(out.bytes);
  if (parts.empty())
    return mine;
  std::vector<std::pair<PECoord, PECounters>> all;
  for (const std::vector<uint8_t> &bytes : parts) {
    ByteReader in(bytes);
    for (uint64_t i = in.get<uint64_t>(); i > 0 && in.isOK(); --i) {
      PECoord coord = in.get<PECoord>();
      all.emplace_back(coord, in.get<PECounters>());
    }
  }
  return all;
}

std::vector<LinkCount> Emulator::getLinkCounts() const {
  // Bands and ranks hold rows in order and each lists its own by row.
  std::vector<LinkCount> mine;
  for (const auto &band : state->bands)
    for (const LinkCount &link : band->network.getLinkCounts())
      mine.push_back(link);
  if (!state->link)
    return mine;
  ByteWriter out;
  out.putVector(mine);
  std::vector<LinkCount> all;
  for (const std::vector<uint8_t> &bytes : state->gatherToFirst(out.bytes)) {
    ByteReader in(bytes);
    for (const LinkCount &link : in.getVector<LinkCount>())
      all.push_back(link);
  }
  return state->link->getRank() == 0 ? all : mine;
}

RecordedEvents Emulator::getRecordedEvents() const {
  RecordedEvents all;
  for (const auto &band : state->bands) {
    const RecordedEvents &mine = band->recorded;
    all.activities.insert(all.activities.end(), mine.activities.begin(),
                          mine.activities.end());
    all.operations.insert(all.operations.end(), mine.operations.begin(),
                          mine.operations.end());
    all.wavelets.insert(all.wavelets.end(), mine.wavelets.begin(),
                        mine.wavelets.end());
    // What runs now ends, for the record, at the current cycle.
    for (const PE &pe : band->pes)
      if (pe.state != MainState::Idle && pe.state != MainState::Faulted)
        if (std::optional<ActivitySpan> span = band->spanOfActivity(pe))
          all.activities.push_back(*span);
  }
  if (state->link) {
    // Rank after rank, so that the sort below keeps each PE's own order.
    ByteWriter out;
    writeEvents(out, all);
    std::vector<std::vector<uint8_t>> parts = state->gatherToFirst(out.bytes);
    if (!parts.empty()) { // rank 0
      all = RecordedEvents();
      for (const std::vector<uint8_t> &bytes : parts) {
        ByteReader in(bytes);
        readEvents(in, all);
      }
    }
  }
  auto key = [](uint64_t at, PECoord pe) { return orderKey(at, pe); };
  sortByCyclePE(all.activities, 0, [&](const ActivitySpan &span) {
    return key(span.start, span.pe);
  });
  sortByCyclePE(all.operations, 0, [&](const OperationSpan &span) {
    return key(span.start, span.pe);
  });
  sortByCyclePE(all.wavelets, 0,
                [&](const WaveletRecord &w) { return key(w.cycle, w.pe); });
  return all;
}

bool Emulator::ownsRow(unsigned y) const { return state->ownsRow(y); }

unsigned Emulator::getRankOfRow(unsigned y) const {
  const std::vector<unsigned> &slices = state->rankSlices;
  if (slices.size() < 2 || y >= slices.back())
    return 0;
  // The last slice start at or below y.
  auto after = std::upper_bound(slices.begin(), slices.end(), y);
  return static_cast<unsigned>(after - slices.begin() - 1);
}

unsigned Emulator::getNumBands() const {
  return static_cast<unsigned>(state->bands.size());
}

const Network &Emulator::getNetwork() const {
  return state->bands.front()->network;
}
Network &Emulator::getNetwork() { return state->bands.front()->network; }

Network &Emulator::getNetworkForRow(unsigned y) {
  if (!state->ownsRow(y))
    return state->bands[y < state->firstRow ? 0 : state->bands.size() - 1]
        ->network;
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
  if (wavelet.control)
    pe->controlColors |= uint32_t(1) << wavelet.color;
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
