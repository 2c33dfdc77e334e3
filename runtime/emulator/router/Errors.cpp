//===- Errors.cpp - checking calls and recording route errors -------------===//
//
// Messages follow docs/CodingStyle.md: lowercase, no trailing period,
// naming the PE, the color and the wavelet.
//
//===----------------------------------------------------------------------===//

#include "NetworkState.h"

#include <algorithm>

namespace tessera::emulator {

namespace {

std::string pe(unsigned x, unsigned y) {
  return "PE (" + std::to_string(x) + ", " + std::to_string(y) + ")";
}

} // namespace

void Network::State::report(RouteErrorKind kind, unsigned x, unsigned y,
                            unsigned color, std::optional<pe::Port> port,
                            uint64_t waveletId, std::string message) {
  RouteError &error = errors.emplace_back();
  error.kind = kind;
  error.cycle = counters.cycles;
  error.pe = {uint16_t(std::min(x, 0xFFFFu)), uint16_t(std::min(y, 0xFFFFu))};
  error.color = uint8_t(color);
  error.port = port;
  error.waveletId = waveletId;
  error.message = std::move(message);
}

unsigned Network::State::checkDepth(const char *what, unsigned depth,
                                    unsigned fallback) {
  if (depth >= 1 && depth <= NetworkOptions::MaxDepth)
    return depth;
  report(RouteErrorKind::BadDepth, 0, 0, 0, std::nullopt, 0,
         std::string(what) + " " + std::to_string(depth) +
             " is not between 1 and " +
             std::to_string(NetworkOptions::MaxDepth) + "; using " +
             std::to_string(fallback));
  return fallback;
}

bool Network::State::checkPE(const char *call, unsigned x, unsigned y) {
  if (contains(x, y))
    return true;
  if (inRectangle(x, y)) {
    report(RouteErrorKind::OutsideRectangle, x, y, 0, std::nullopt, 0,
           std::string(call) + ": " + pe(x, y) +
               " is outside this network's band of rows " +
               std::to_string(firstRow) + " to " + std::to_string(endRow - 1));
    return false;
  }
  // The record clamps coordinates to 16 bits; the message has them whole.
  report(RouteErrorKind::OutsideRectangle, x, y, 0, std::nullopt, 0,
         std::string(call) + ": " + pe(x, y) + " is outside the " +
             std::to_string(width) + "x" + std::to_string(height) +
             " rectangle");
  return false;
}

bool Network::State::checkColor(const char *call, unsigned x, unsigned y,
                                unsigned color) {
  if (color < numColors)
    return true;
  report(RouteErrorKind::BadColor, x, y, color, std::nullopt, 0,
         std::string(call) + ": color " + std::to_string(color) +
             " is not routable on " + std::string(model->getName()) +
             " (colors 0 to " + std::to_string(numColors - 1) + ")");
  return false;
}

bool Network::State::checkConfigured(const char *call, unsigned x, unsigned y,
                                     unsigned color, uint32_t lane) {
  if (lane != None && lanes[lane].has(Configured))
    return true;
  report(RouteErrorKind::UnconfiguredColor, x, y, color, std::nullopt, 0,
         std::string(call) + ": " + pe(x, y) + " does not route color " +
             std::to_string(color));
  return false;
}

std::optional<uint32_t> Network::State::laneToConfigure(const char *call,
                                                        unsigned x, unsigned y,
                                                        unsigned color) {
  if (!checkPE(call, x, y) || !checkColor(call, x, y, color))
    return std::nullopt;
  uint32_t index = ensureLane(ensureRouter(indexOf(x, y)), color);
  lanes[index].set(Configured, true);
  return index;
}

std::optional<uint32_t> Network::State::configuredLane(const char *call,
                                                       unsigned x, unsigned y,
                                                       unsigned color) {
  if (!checkPE(call, x, y) || !checkColor(call, x, y, color))
    return std::nullopt;
  uint32_t index = routers[ensureRouter(indexOf(x, y))].laneOf[color];
  if (!checkConfigured(call, x, y, color, index))
    return std::nullopt;
  return index;
}

void Network::State::reportUnroutableWavelet(const Lane &lane, unsigned port,
                                             Entry &entry) {
  const Router &router = routers[lane.router];
  std::string color = std::to_string(lane.color);
  std::string wavelet = "wavelet " + std::to_string(entry.id);
  std::string how = port == RampPort
                        ? "its CE injected " + wavelet
                        : wavelet + " arrived from the " + portName(port);
  if (!lane.has(Configured)) {
    report(RouteErrorKind::UnconfiguredColor, router.x, router.y, lane.color,
           pe::Port(port), entry.id,
           pe(router.x, router.y) + " does not route color " + color +
               ", but " + how + " on it");
  } else {
    report(RouteErrorKind::PortNotInRx, router.x, router.y, lane.color,
           pe::Port(port), entry.id,
           pe(router.x, router.y) + " color " + color + ": " + how +
               ", but no switch position of the color receives from the " +
               portName(port));
  }
  entry.reported |= ReportedUnroutable;
}

void Network::State::reportLeaving(const Router &router, unsigned color,
                                   unsigned direction, Entry &entry) {
  if (entry.reported & ReportedLeaving)
    return; // once per wavelet, not once per cycle it waits
  entry.reported |= ReportedLeaving;
  report(RouteErrorKind::LeavesRectangle, router.x, router.y, color,
         pe::Port(direction), entry.id,
         pe(router.x, router.y) + " color " + std::to_string(color) +
             ": wavelet " + std::to_string(entry.id) + " is sent " +
             portName(direction) + ", off the " + std::to_string(width) + "x" +
             std::to_string(height) + " rectangle");
}

} // namespace tessera::emulator
