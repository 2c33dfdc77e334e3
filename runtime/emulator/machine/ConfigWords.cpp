//===- ConfigWords.cpp - cfg.get and cfg.set ------------------------------===//
//
// The config words of docs/Library.md: router words go to the network, the
// rest are the PE's own (coordinates, the timestamp counter, the simprint
// port). Unknown words read 0 and ignore writes (docs/ISA.md).
//
//===----------------------------------------------------------------------===//

#include "Machine.h"

using namespace tessera;
using namespace tessera::emulator;
using namespace tessera::emulator::machine;

namespace {

enum : uint32_t {
  ColorConfigBase = 0x7F20,
  SwitchConfigBase = 0x7F40,
  NumConfigColors = 32,
  XCoord = 0x7F80,
  YCoord = 0x7F81,
  TscLow = 0x7F88,
  TscMid = 0x7F89,
  TscHigh = 0x7F8A,
  TscControl = 0x7F8B,
  SimprintPort = 0x7F90,
};

/// A line longer than this is printed in pieces, so a program that never
/// ends its line cannot grow the emulator's memory without bound.
constexpr size_t MaxPrintLine = 4096;

uint64_t tscValue(const PE &pe, uint64_t cycle) {
  return pe.tscBase + (pe.tscEnabled ? cycle - pe.tscSince : 0);
}

} // namespace

uint16_t Band::readConfig(PE &pe, uint32_t address) {
  unsigned x = pe.coord.x, y = pe.coord.y;
  if (address >= ColorConfigBase &&
      address < ColorConfigBase + NumConfigColors)
    return network.getColorConfigWord(x, y, address - ColorConfigBase)
        .value_or(0);
  if (address >= SwitchConfigBase &&
      address < SwitchConfigBase + NumConfigColors)
    return network.getSwitchConfigWord(x, y, address - SwitchConfigBase)
        .value_or(0);
  switch (address) {
  case XCoord:
    return pe.coord.x;
  case YCoord:
    return pe.coord.y;
  case TscLow: {
    uint64_t value = tscValue(pe, cycle);
    pe.tscLatch[0] = static_cast<uint16_t>(value >> 16);
    pe.tscLatch[1] = static_cast<uint16_t>(value >> 32);
    return static_cast<uint16_t>(value);
  }
  case TscMid:
    return pe.tscLatch[0];
  case TscHigh:
    return pe.tscLatch[1];
  case TscControl:
    return pe.tscEnabled ? 1 : 0;
  default:
    return 0;
  }
}

void Band::writeConfig(PE &pe, uint32_t address, uint16_t value) {
  unsigned x = pe.coord.x, y = pe.coord.y;
  if (address >= ColorConfigBase &&
      address < ColorConfigBase + NumConfigColors) {
    network.setColorConfigWord(x, y, address - ColorConfigBase, value);
    return;
  }
  if (address >= SwitchConfigBase &&
      address < SwitchConfigBase + NumConfigColors) {
    network.setSwitchConfigWord(x, y, address - SwitchConfigBase, value);
    return;
  }
  switch (address) {
  case TscControl: {
    bool enable = value & 1;
    if (enable == pe.tscEnabled)
      return;
    if (enable)
      pe.tscSince = cycle;
    else
      pe.tscBase += cycle - pe.tscSince;
    pe.tscEnabled = enable;
    return;
  }
  case SimprintPort: {
    char ch = static_cast<char>(value & 0xFF);
    if (ch != '\n')
      pe.printLine.push_back(ch);
    if (ch == '\n' || pe.printLine.size() >= MaxPrintLine) {
      // Emulator::State hands it to options.onPrint after the cycle, in
      // an order that does not depend on how the fabric is split.
      printed.push_back({cycle, pe.coord, std::move(pe.printLine)});
      pe.printLine.clear();
    }
    return;
  }
  default:
    return; // read-only or unknown
  }
}
