//===- Streaming.cpp - streaming-mode memcpy: wavelets to and from CEs -----===//
//
// docs/HostRuntime.md "Streaming mode": H2D puts each PE's words, one per
// cycle, into the queue its CE reads the color from; D2H takes the
// wavelets the PEs send on the color, which memcpy routes to the host.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include "tessera/Support/Format.h"

using namespace tessera;
using namespace tessera::host;

namespace {

/// A streamed color must be one the routers have.
void checkColor(const SdkRuntime::State &s, const char *what,
                unsigned color) {
  unsigned colors = target::TargetModel::get(s.output.metadata.arch)
                        .getNumRoutableColors();
  if (color >= colors)
    throw HostError(std::string(what) + ": color " + std::to_string(color) +
                    " is not a routable color (0.." +
                    std::to_string(colors - 1) + ")");
}

} // namespace

namespace {

/// One PE's words of a streaming H2D.
struct Stream {
  unsigned x, y;
  int64_t c, r;
  uint64_t next = 0; ///< elements delivered
};

/// Host streams move words every cycle the device runs, which only rank 0
/// can do: each cycle is then a delivery and a run of one cycle.
FeedEnd feedEachCycle(SdkRuntime::State &s, unsigned color,
                      std::span<const uint32_t> data, const Region &region,
                      uint64_t elements, MemcpyOrder order,
                      std::vector<Stream> &streams) {
  uint64_t cycles = 0;
  std::vector<Delivery> offers;
  std::vector<Stream *> offered;
  while (true) {
    offers.clear();
    offered.clear();
    for (Stream &st : streams) {
      if (st.next == elements)
        continue;
      uint32_t word =
          data[hostIndex(order, region, elements, st.c, st.r, st.next)];
      offers.push_back(
          {st.x, st.y, emulator::Wavelet{word, uint8_t(color), false, 0}});
      offered.push_back(&st);
    }
    bool delivered = false, pending = false;
    std::vector<uint8_t> taken = s.device->deliver(offers);
    for (size_t i = 0; i < offered.size(); ++i) {
      if (taken[i]) {
        ++offered[i]->next;
        delivered = true;
      }
      pending = pending || offered[i]->next < elements;
    }
    if (!pending)
      return FeedEnd::Done;
    emulator::RunOutcome outcome = s.runDevice(1);
    ++cycles;
    if (outcome.status == emulator::RunStatus::Faulted)
      return FeedEnd::Faulted;
    bool stuck = !delivered && outcome.status != emulator::RunStatus::CycleLimit;
    if (stuck || cycles > s.options.maxCyclesPerCommand)
      return FeedEnd::Stuck;
  }
}

/// Otherwise the device does the same in one request, each rank for its
/// own PEs (Requests.cpp), with no message per cycle from the host.
FeedEnd feedWhole(SdkRuntime::State &s, unsigned color,
                  std::span<const uint32_t> data, const Region &region,
                  uint64_t elements, MemcpyOrder order,
                  std::vector<Stream> &streams) {
  std::vector<Feed> feeds;
  for (const Stream &st : streams) {
    Feed &feed = feeds.emplace_back();
    feed.x = st.x;
    feed.y = st.y;
    for (uint64_t e = 0; e < elements; ++e)
      feed.words.push_back(
          data[hostIndex(order, region, elements, st.c, st.r, e)]);
  }
  std::vector<uint64_t> delivered;
  FeedEnd end = s.device->feed(color, feeds, elements,
                               s.options.maxCyclesPerCommand, delivered);
  for (size_t i = 0; i < streams.size(); ++i)
    streams[i].next = delivered[i];
  return end;
}

} // namespace

TaskHandle SdkRuntime::memcpyH2DStream(unsigned color,
                                       std::span<const uint32_t> data,
                                       Region region, uint64_t elementsPerPE,
                                       MemcpyOrder order) {
  State &s = *state;
  const char *what = "memcpy_h2d";
  s.requireRunning(what);
  checkColor(s, what, color);
  checkRegion(what, s.output.metadata, region, elementsPerPE, data.size());

  std::vector<Stream> streams;
  for (int64_t r = 0; r < region.height; ++r)
    for (int64_t c = 0; c < region.width; ++c)
      streams.push_back(
          {unsigned(region.x + c), unsigned(region.y + r), c, r, 0});
  FeedEnd end = (s.streams.empty() ? feedWhole : feedEachCycle)(
      s, color, data, region, elementsPerPE, order, streams);
  if (end == FeedEnd::Faulted)
    throw HostError(std::string(what) + ": the device faulted: " +
                    emulator::formatFault(*s.device->getFault()));
  if (end == FeedEnd::Stuck) {
    const Stream *first = nullptr;
    for (const Stream &st : streams)
      if (st.next < elementsPerPE && !first)
        first = &st;
    std::string text =
        std::string(what) + " (streaming on color " + std::to_string(color) +
        ") cannot finish: " + s.describePE(first->x, first->y) + " took " +
        formatThousands(first->next) + " of " + formatThousands(elementsPerPE) +
        " wavelets and takes no more";
    emulator::DeadlockReport report = s.device->getDeadlock();
    if (!report.waits.empty() || !report.wavelets.empty())
      text += "; " + emulator::formatDeadlock(report);
    throw HostError(text);
  }
  return {s.nextHandle++};
}

TaskHandle SdkRuntime::memcpyD2HStream(std::span<uint32_t> data,
                                       unsigned color, Region region,
                                       uint64_t elementsPerPE,
                                       MemcpyOrder order) {
  State &s = *state;
  const char *what = "memcpy_d2h";
  s.requireRunning(what);
  checkColor(s, what, color);
  checkRegion(what, s.output.metadata, region, elementsPerPE, data.size());
  s.device->captureColor(color);

  std::vector<emulator::PECoord> pes;
  for (int64_t r = 0; r < region.height; ++r)
    for (int64_t c = 0; c < region.width; ++c)
      pes.push_back({uint16_t(region.x + c), uint16_t(region.y + r)});
  size_t count = pes.size();
  uint64_t done = 0; // PEs in row order whose elements have all arrived
  Scan arrived{region, PETest::CapturedAtLeast, color, elementsPerPE};
  s.runUntil(
      std::string(what) + " (streaming on color " + std::to_string(color) + ")",
      [&] {
        done = s.device->findFirstFailing(arrived, done);
        return done == count;
      },
      [&] {
        emulator::PECoord pe = pes[done];
        uint64_t sent = s.device->getCapturedCounts({&pe, 1}, color)[0];
        return s.describePE(pe.x, pe.y) + " sent " + formatThousands(sent) +
               " of " + formatThousands(elementsPerPE) + " wavelets";
      });
  std::vector<std::vector<uint32_t>> words =
      s.device->takeCaptured(pes, color, elementsPerPE);
  for (size_t i = 0; i < count; ++i) {
    int64_t c = int64_t(i) % region.width, r = int64_t(i) / region.width;
    for (uint64_t e = 0; e < elementsPerPE && e < words[i].size(); ++e)
      data[hostIndex(order, region, elementsPerPE, c, r, e)] = words[i][e];
  }
  return {s.nextHandle++};
}
