//===- TestFabric.h - small fabrics for router tests ------------*- C++ -*-===//
//
// Tests build a fabric file by hand, one route per PE and color, and run a
// Network over its layout; nothing else of the emulator is involved.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_TEST_UNIT_EMULATORROUTER_TESTFABRIC_H
#define TESSERA_TEST_UNIT_EMULATORROUTER_TESTFABRIC_H

#include "tessera/Emulator/Network.h"

#include <optional>
#include <utility>
#include <vector>

namespace routertest {

using namespace tessera;
using namespace tessera::emulator;

/// Direction sets as in the color config word.
inline constexpr uint8_t W = 1, E = 2, S = 4, N = 8, R = 16;

inline pe::RouterConfig routes(uint8_t rx, uint8_t tx) {
  pe::RouterConfig config;
  config.rx = rx;
  config.tx = tx;
  return config;
}

inline pe::SwitchPosition rxPos(pe::Port port) { return {true, port}; }
inline pe::SwitchPosition txPos(pe::Port port) { return {false, port}; }

/// A fabric file of one program-less rectangle with the routes added.
struct Fabric {
  explicit Fabric(uint16_t width, uint16_t height,
                  target::Arch arch = target::Arch::WSE2) {
    file.arch = arch;
    file.dimsWidth = file.rectWidth = width;
    file.dimsHeight = file.rectHeight = height;
  }
  Fabric &route(uint16_t x, uint16_t y, uint8_t color,
                const pe::RouterConfig &config) {
    pe::RouteRun run;
    run.color = color;
    run.x = x;
    run.y = y;
    run.config = config;
    file.routes.push_back(run);
    return *this;
  }
  pe::FabricFile file;
};

/// A network over the fabric's layout, which it owns.
struct Harness {
  explicit Harness(const Fabric &fabric, NetworkOptions options = {})
      : layout(fabric.file),
        net(layout, target::TargetModel::get(fabric.file.arch), options) {}
  Harness(const Harness &) = delete;
  Harness &operator=(const Harness &) = delete;

  /// Steps `cycles` times.
  void run(unsigned cycles) {
    for (unsigned i = 0; i < cycles; ++i)
      net.step();
  }
  /// Polls every wavelet delivered to (x, y) on `color`.
  std::vector<Wavelet> drain(unsigned x, unsigned y, unsigned color) {
    std::vector<Wavelet> out;
    while (std::optional<Wavelet> w = net.pollDelivered(x, y, color))
      out.push_back(*w);
    return out;
  }

  FabricLayout layout;
  Network net;
};

inline Wavelet data(uint8_t color, uint32_t payload) {
  return {payload, color, false, 0};
}
inline Wavelet ctrl(uint8_t color, uint32_t payload) {
  return {payload, color, true, 0};
}
/// A delivered wavelet as tests expect it: the network numbered it `id`.
inline Wavelet got(uint8_t color, uint32_t payload, uint64_t id,
                   bool control = false) {
  return {payload, color, control, id};
}

/// The payloads of `wavelets`, in order.
inline std::vector<uint32_t> payloads(const std::vector<Wavelet> &wavelets) {
  std::vector<uint32_t> out;
  for (const Wavelet &w : wavelets)
    out.push_back(w.payload);
  return out;
}

/// A control payload with the given 3-bit slot values and no entry point.
inline uint32_t slots(std::vector<unsigned> values) {
  uint32_t payload = control::NoEntryPoint << 16;
  for (unsigned i = 0; i < values.size(); ++i)
    payload = control::setSlot(payload, i, values[i]);
  return payload;
}

inline constexpr unsigned Adv = 1, Rst = 2, Tdn = 3, Ignore = 4;

} // namespace routertest

#endif // TESSERA_TEST_UNIT_EMULATORROUTER_TESTFABRIC_H
