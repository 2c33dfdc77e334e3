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

TaskHandle SdkRuntime::memcpyH2DStream(unsigned color,
                                       std::span<const uint32_t> data,
                                       Region region, uint64_t elementsPerPE,
                                       MemcpyOrder order) {
  State &s = *state;
  const char *what = "memcpy_h2d";
  s.requireRunning(what);
  checkColor(s, what, color);
  checkRegion(what, s.output.metadata, region, elementsPerPE, data.size());

  struct Stream {
    unsigned x, y;
    int64_t c, r;
    uint64_t next = 0; ///< elements delivered
  };
  std::vector<Stream> streams;
  for (int64_t r = 0; r < region.height; ++r)
    for (int64_t c = 0; c < region.width; ++c)
      streams.push_back(
          {unsigned(region.x + c), unsigned(region.y + r), c, r, 0});

  uint64_t cycles = 0;
  while (true) {
    bool delivered = false, pending = false;
    for (Stream &st : streams) {
      if (st.next == elementsPerPE)
        continue;
      uint32_t word =
          data[hostIndex(order, region, elementsPerPE, st.c, st.r, st.next)];
      if (s.emulator->deliver(st.x, st.y,
                              emulator::Wavelet{word, uint8_t(color), false,
                                                0})) {
        ++st.next;
        delivered = true;
      }
      pending = pending || st.next < elementsPerPE;
    }
    if (!pending)
      break;
    emulator::RunOutcome outcome = s.runDevice(1);
    ++cycles;
    if (outcome.status == emulator::RunStatus::Faulted)
      throw HostError(std::string(what) + ": the device faulted: " +
                      emulator::formatFault(*s.emulator->getFault()));
    bool stuck = !delivered && outcome.status != emulator::RunStatus::CycleLimit;
    if (stuck || cycles > s.options.maxCyclesPerCommand) {
      const Stream *first = nullptr;
      for (const Stream &st : streams)
        if (st.next < elementsPerPE && !first)
          first = &st;
      std::string text = std::string(what) + " (streaming on color " +
                         std::to_string(color) + ") cannot finish: " +
                         s.describePE(first->x, first->y) + " took " +
                         formatThousands(first->next) + " of " +
                         formatThousands(elementsPerPE) +
                         " wavelets and takes no more";
      emulator::DeadlockReport report = s.emulator->getDeadlock();
      if (!report.waits.empty() || !report.wavelets.empty())
        text += "; " + emulator::formatDeadlock(report);
      throw HostError(text);
    }
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
  s.emulator->captureColor(color);

  size_t done = 0; // PEs in row order whose elements have all arrived
  auto peAt = [&](size_t i) {
    return std::pair<unsigned, unsigned>(region.x + i % region.width,
                                         region.y + i / region.width);
  };
  size_t count = size_t(region.width) * region.height;
  s.runUntil(
      std::string(what) + " (streaming on color " + std::to_string(color) +
          ")",
      [&] {
        while (done < count) {
          auto [x, y] = peAt(done);
          if (s.emulator->getCapturedCount(x, y, color) < elementsPerPE)
            return false;
          ++done;
        }
        return true;
      },
      [&] {
        auto [x, y] = peAt(done);
        return s.describePE(x, y) + " sent " +
               formatThousands(s.emulator->getCapturedCount(x, y, color)) +
               " of " + formatThousands(elementsPerPE) + " wavelets";
      });
  for (size_t i = 0; i < count; ++i) {
    auto [x, y] = peAt(i);
    std::vector<uint32_t> words =
        s.emulator->takeCaptured(x, y, color, elementsPerPE);
    int64_t c = int64_t(x) - region.x, r = int64_t(y) - region.y;
    for (uint64_t e = 0; e < elementsPerPE; ++e)
      data[hostIndex(order, region, elementsPerPE, c, r, e)] = words[e];
  }
  return {s.nextHandle++};
}
