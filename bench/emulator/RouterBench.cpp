//===- RouterBench.cpp - wavelet-hops per host second of the network ------===//
//
// Builds a fabric file in memory, runs a Network over it with the CE side
// played by this driver (inject every cycle, poll every delivery), and
// prints the network's hop count per host second on one core. Scenarios:
//
//   rows      every row streams east on color 1: the west PE injects a
//             wavelet per cycle, every PE forwards it, the east PE's CE
//             receives it;
//   mixed     rows on color 1 as above, plus every column streaming south
//             on color 2 with a copy delivered to every CE on the way
//             (multicast), so each router handles two colors at once.
//
// usage: tessera-router-bench [rows|mixed] [WIDTH HEIGHT [CYCLES]]
// The timed cycles follow the cycles that fill the pipelines; the time
// includes injecting and polling.
//
//===----------------------------------------------------------------------===//

#include "tessera/Emulator/Network.h"

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

using namespace tessera;
using namespace tessera::emulator;
using Clock = std::chrono::steady_clock;

namespace {

/// Direction sets as in the color config word.
constexpr uint8_t W = 1, E = 2, N = 8, S = 4, R = 16;
constexpr uint8_t RowColor = 1, ColumnColor = 2;

struct Scenario {
  bool columns = false;
  unsigned width = 64, height = 64;
  uint64_t cycles = 20000;
};

void addRun(pe::FabricFile &file, uint8_t color, unsigned x, unsigned y,
            unsigned length, uint8_t rx, uint8_t tx) {
  pe::RouteRun run;
  run.color = color;
  run.x = static_cast<uint16_t>(x);
  run.y = static_cast<uint16_t>(y);
  run.length = static_cast<uint16_t>(length);
  run.config.rx = rx;
  run.config.tx = tx;
  file.routes.push_back(run);
}

pe::FabricFile makeFabric(const Scenario &s) {
  pe::FabricFile file;
  file.arch = target::Arch::WSE2;
  file.dimsWidth = file.rectWidth = static_cast<uint16_t>(s.width);
  file.dimsHeight = file.rectHeight = static_cast<uint16_t>(s.height);
  for (unsigned y = 0; y < s.height; ++y) {
    addRun(file, RowColor, 0, y, 1, R, E);
    if (s.width > 2)
      addRun(file, RowColor, 1, y, s.width - 2, W, E);
    addRun(file, RowColor, s.width - 1, y, 1, W, R);
    // A column's route depends on the row only: one run per row.
    if (!s.columns)
      continue;
    if (y == 0)
      addRun(file, ColumnColor, 0, y, s.width, R, S);
    else if (y + 1 < s.height)
      addRun(file, ColumnColor, 0, y, s.width, N, S | R);
    else
      addRun(file, ColumnColor, 0, y, s.width, N, R);
  }
  return file;
}

/// The CE side of one cycle: every source injects, every delivery is
/// polled.
void playCEs(Network &net, const Scenario &s, uint32_t payload) {
  for (unsigned y = 0; y < s.height; ++y)
    net.inject(0, y, {payload, RowColor, false, 0});
  if (s.columns)
    for (unsigned x = 0; x < s.width; ++x)
      net.inject(x, 0, {payload, ColumnColor, false, 0});
  for (const DeliveryNote &note : net.getLastStepDeliveries())
    while (net.pollDelivered(note.pe.x, note.pe.y, note.color))
      ;
}

bool parse(int argc, char **argv, Scenario &s) {
  int at = 1;
  if (at < argc && !std::strcmp(argv[at], "rows"))
    ++at;
  else if (at < argc && !std::strcmp(argv[at], "mixed"))
    s.columns = true, ++at;
  if (at + 1 < argc) {
    s.width = static_cast<unsigned>(std::atoi(argv[at]));
    s.height = static_cast<unsigned>(std::atoi(argv[at + 1]));
    at += 2;
  }
  if (at < argc)
    s.cycles = std::strtoull(argv[at++], nullptr, 10);
  return at == argc && s.width >= 2 && s.width <= 65535 && s.height >= 2 &&
         s.height <= 65535 && s.cycles > 0;
}

} // namespace

int main(int argc, char **argv) {
  Scenario s;
  if (!parse(argc, argv, s)) {
    std::fprintf(stderr, "usage: tessera-router-bench [rows|mixed] "
                         "[WIDTH HEIGHT [CYCLES]]\n");
    return 2;
  }
  Clock::time_point setupBegin = Clock::now();
  pe::FabricFile file = makeFabric(s);
  FabricLayout layout(file);
  Network net(layout, target::TargetModel::get(file.arch));
  // Until the first wavelet of every stream has arrived.
  uint64_t warmup = s.width + (s.columns ? s.height : 0);
  for (uint64_t c = 0; c < warmup; ++c) {
    playCEs(net, s, static_cast<uint32_t>(c));
    net.step();
  }
  NetworkCounters before = net.getCounters();
  Clock::time_point begin = Clock::now();
  for (uint64_t c = 0; c < s.cycles; ++c) {
    playCEs(net, s, static_cast<uint32_t>(c));
    net.step();
  }
  Clock::time_point end = Clock::now();
  NetworkCounters after = net.getCounters();
  if (!net.getErrors().empty()) {
    std::fprintf(stderr, "tessera-router-bench: %s\n",
                 net.getErrors().front().message.c_str());
    return 1;
  }

  double seconds = std::chrono::duration<double>(end - begin).count();
  double setup = std::chrono::duration<double>(begin - setupBegin).count();
  uint64_t hops = after.hops - before.hops;
  uint64_t cycles = after.cycles - before.cycles;
  std::printf(
      "%s %ux%u (%u PEs): %llu cycles, %llu hops (%.1f per cycle), "
      "%llu delivered, %.3f s (setup and warm-up %.3f s)\n",
      s.columns ? "mixed" : "rows", s.width, s.height, s.width * s.height,
      static_cast<unsigned long long>(cycles),
      static_cast<unsigned long long>(hops),
      static_cast<double>(hops) / static_cast<double>(cycles),
      static_cast<unsigned long long>(after.delivered - before.delivered),
      seconds, setup);
  std::printf("  %.3g wavelet-hops per second on one core (target >= 2e7)\n",
              static_cast<double>(hops) / seconds);
  return 0;
}
