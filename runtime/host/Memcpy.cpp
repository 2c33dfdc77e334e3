//===- Memcpy.cpp - copy-mode memcpy between host arrays and symbols ------===//
//
// docs/HostRuntime.md "Copy mode": element e of PE (x + c, y + r) is host
// word ((r * w) + c) * E + e in ROW_MAJOR order, (e * w + c) * h + r in
// COL_MAJOR order. A copy waits until no task runs on the region's PEs (the
// memcpy tasks need the CE), moves the data, then lets the device run one
// cycle per element.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include "tessera/Support/Format.h"

#include <cstdio>

using namespace tessera;
using namespace tessera::host;

namespace {

struct Copy {
  const char *what;
  const emulator::ExportInfo *symbol;
  Region region;
  uint64_t elements; ///< per PE
  unsigned bytes;    ///< per device element
  MemcpyOrder order;
  bool toDevice;

  uint64_t hostIndex(int64_t c, int64_t r, uint64_t e) const {
    return host::hostIndex(order, region, elements, c, r, e);
  }
};

/// Checks a copy's arguments against the output and the host array.
Copy checkCopy(const SdkRuntime::State &s, const char *what, uint32_t id,
               Region region, uint64_t elements, MemcpyDataType type,
               MemcpyOrder order, size_t hostWords, bool toDevice) {
  s.requireRunning(what);
  const emulator::ExportInfo &symbol = s.exportOf(what, id);
  std::string name = "'" + symbol.name + "'";
  if (symbol.kind != pe::SymbolKind::Data)
    throw HostError(std::string(what) + ": " + name +
                    " is a function; memcpy needs a data symbol");
  checkRegion(what, s.output.metadata, region, elements, hostWords);
  if (toDevice && !symbol.isMutable)
    throw HostError(std::string(what) + ": " + name +
                    " is exported immutable; the host cannot write it");
  unsigned bytes = pe::getElemTypeBytes(symbol.type);
  unsigned wanted = type == MemcpyDataType::Bits32 ? 4 : 2;
  if (bytes != wanted)
    throw HostError(std::string(what) + ": " + name + " holds " +
                    std::to_string(bytes * 8) + "-bit elements; use " +
                    (bytes == 4 ? "MEMCPY_32BIT" : "MEMCPY_16BIT"));
  return {what, &symbol, region, elements, bytes, order, toDevice};
}

/// The message for a copy of more elements than the symbol holds.
std::string overrunMessage(const SdkRuntime::State &s, const Copy &copy,
                           const pe::Symbol &symbol, unsigned x, unsigned y) {
  return std::string(copy.what) + ": '" + copy.symbol->name + "' holds " +
         formatThousands(symbol.count) + " elements on " + s.describePE(x, y) +
         "; " + formatThousands(copy.elements) + " do not fit";
}

/// The symbol on PE (x, y). A write must fit it; a read may go on into the
/// memory after it, as a device's memcpy does (25-pt-stencil reads 6
/// elements of a 5-element array; prepareCopy warns).
const pe::Symbol &symbolOn(const SdkRuntime::State &s, const Copy &copy,
                           unsigned x, unsigned y) {
  const pe::Symbol *symbol =
      s.output.findSymbolAt(x, y, copy.symbol->name);
  if (!symbol || symbol->kind != pe::SymbolKind::Data)
    throw HostError(std::string(copy.what) + ": " + s.describePE(x, y) +
                    " does not export '" + copy.symbol->name + "'");
  if (copy.toDevice && copy.elements > symbol->count)
    throw HostError(overrunMessage(s, copy, *symbol, x, y));
  return *symbol;
}

/// Waits until no task runs on the region's PEs. The condition is checked
/// every cycle, so it walks on from the first PE not seen idle yet rather
/// than over the whole region each time.
void waitForRegion(SdkRuntime::State &s, const Copy &copy) {
  const Region &r = copy.region;
  uint64_t count = uint64_t(r.width) * r.height, done = 0;
  Scan idle{r, PETest::MainThreadIdle};
  s.runUntil(copy.what, [&] {
    done = s.device->findFirstFailing(idle, done);
    return done == count;
  });
}

/// Whether `bytes` bytes at `address` lie in a PE's memory.
bool fitsMemory(uint32_t address, size_t bytes) {
  return uint64_t(address) + bytes <= pe::MemoryBytes;
}

/// Everything a copy checks, then the wait for the region's CEs.
Copy prepareCopy(SdkRuntime::State &s, const char *what, uint32_t id,
                 Region region, uint64_t elements, MemcpyDataType type,
                 MemcpyOrder order, size_t hostWords, bool toDevice) {
  Copy copy = checkCopy(s, what, id, region, elements, type, order,
                        hostWords, toDevice);
  bool warned = false;
  for (int64_t r = 0; r < region.height; ++r) {
    for (int64_t c = 0; c < region.width; ++c) {
      const pe::Symbol &symbol = symbolOn(s, copy, region.x + c, region.y + r);
      if (!warned && elements > symbol.count) {
        std::string message =
            "warning: " +
            overrunMessage(s, copy, symbol, region.x + c, region.y + r) +
            " (the rest is read from the memory after it)\n";
        std::fputs(message.c_str(), stderr);
        warned = true;
      }
    }
  }
  waitForRegion(s, copy);
  return copy;
}

} // namespace

void host::checkRegion(const char *what, const emulator::OutputMetadata &m,
                       const Region &region, uint64_t elements,
                       size_t hostWords) {
  if (region.width <= 0 || region.height <= 0 || region.x < 0 ||
      region.y < 0 || region.x + region.width > m.rectWidth ||
      region.y + region.height > m.rectHeight)
    throw HostError(std::string(what) + ": the region at (" +
                    std::to_string(region.x) + ", " +
                    std::to_string(region.y) + ") of " +
                    std::to_string(region.width) + "x" +
                    std::to_string(region.height) +
                    " PEs is not inside the " + std::to_string(m.rectWidth) +
                    "x" + std::to_string(m.rectHeight) + " rectangle");
  if (elements == 0)
    throw HostError(std::string(what) + ": elem_per_pe must be positive");
  uint64_t needed = uint64_t(region.width) * region.height * elements;
  if (hostWords != needed)
    throw HostError(std::string(what) + ": the host array has " +
                    formatThousands(hostWords) + " elements; " +
                    std::to_string(region.width) + "x" +
                    std::to_string(region.height) + " PEs of " +
                    formatThousands(elements) + " need " +
                    formatThousands(needed));
}

TaskHandle SdkRuntime::memcpyH2D(uint32_t symbolId,
                                 std::span<const uint32_t> data, Region region,
                                 uint64_t elementsPerPE, MemcpyDataType type,
                                 MemcpyOrder order) {
  State &s = *state;
  Copy copy = prepareCopy(s, "memcpy_h2d", symbolId, region, elementsPerPE,
                          type, order, data.size(), true);
  // One request for the region; the PEs before one the symbol does not
  // fit are written, as PE after PE would.
  std::vector<MemoryPiece> pieces;
  std::optional<std::string> misfit;
  for (int64_t r = 0; r < region.height && !misfit; ++r) {
    for (int64_t c = 0; c < region.width && !misfit; ++c) {
      unsigned x = region.x + c, y = region.y + r;
      const pe::Symbol &symbol = symbolOn(s, copy, x, y);
      MemoryPiece &piece = pieces.emplace_back();
      piece = {x, y, symbol.address,
               std::vector<uint8_t>(elementsPerPE * copy.bytes)};
      for (uint64_t e = 0; e < elementsPerPE; ++e) {
        uint32_t word = data[copy.hostIndex(c, r, e)];
        for (unsigned b = 0; b < copy.bytes; ++b)
          piece.bytes[e * copy.bytes + b] =
              static_cast<uint8_t>(word >> (8 * b));
      }
      if (!fitsMemory(symbol.address, piece.bytes.size())) {
        misfit = "memcpy_h2d: '" + symbol.name + "' lies outside " +
                 s.describePE(x, y) + "'s memory";
        pieces.pop_back();
      }
    }
  }
  size_t failed = s.device->writeMemory(pieces);
  if (failed < pieces.size())
    misfit = "memcpy_h2d: '" + copy.symbol->name + "' lies outside " +
             s.describePE(pieces[failed].x, pieces[failed].y) + "'s memory";
  if (misfit)
    throw HostError(*misfit);
  s.runFor("memcpy_h2d", elementsPerPE);
  return {s.nextHandle++};
}

TaskHandle SdkRuntime::memcpyD2H(std::span<uint32_t> data, uint32_t symbolId,
                                 Region region, uint64_t elementsPerPE,
                                 MemcpyDataType type, MemcpyOrder order) {
  State &s = *state;
  Copy copy = prepareCopy(s, "memcpy_d2h", symbolId, region, elementsPerPE,
                          type, order, data.size(), false);
  std::vector<MemoryPiece> pieces;
  for (int64_t r = 0; r < region.height; ++r)
    for (int64_t c = 0; c < region.width; ++c) {
      unsigned x = region.x + c, y = region.y + r;
      const pe::Symbol &symbol = symbolOn(s, copy, x, y);
      pieces.push_back({x, y, symbol.address,
                        std::vector<uint8_t>(elementsPerPE * copy.bytes)});
    }
  // The host array is written up to the first PE that cannot be read, as
  // PE after PE would.
  size_t failed = s.device->readMemory(pieces);
  for (size_t i = 0; i < pieces.size(); ++i) {
    const MemoryPiece &piece = pieces[i];
    if (i == failed)
      throw HostError("memcpy_d2h: '" + copy.symbol->name + "' lies outside " +
                      s.describePE(piece.x, piece.y) + "'s memory");
    int64_t c = int64_t(i) % region.width, r = int64_t(i) / region.width;
    for (uint64_t e = 0; e < elementsPerPE; ++e) {
      uint32_t word = 0;
      for (unsigned b = 0; b < copy.bytes; ++b)
        word |= uint32_t(piece.bytes[e * copy.bytes + b]) << (8 * b);
      data[copy.hostIndex(c, r, e)] = word;
    }
  }
  s.runFor("memcpy_d2h", elementsPerPE);
  return {s.nextHandle++};
}
