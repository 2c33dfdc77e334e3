//===- PEMemory.cpp - one PE's 48 KiB memory, sparse ----------------------===//

#include "tessera/Emulator/PEMemory.h"

#include <algorithm>
#include <bit>
#include <cstring>

using namespace tessera::emulator;

namespace {

/// What every page of a memory without an image reads as.
constexpr std::array<uint8_t, PEMemory::Size> Zeros{};

/// Whether [address, address + size) lies in memory, without overflow.
bool inRange(uint32_t address, uint64_t size) {
  return address <= PEMemory::Size && size <= PEMemory::Size - address;
}

MemoryStatus check(uint32_t address, unsigned size) {
  if (!inRange(address, size))
    return MemoryStatus::OutOfRange;
  if (size > 1 && (address & 1))
    return MemoryStatus::Misaligned;
  return MemoryStatus::Ok;
}

} // namespace

static_assert(std::endian::native == std::endian::little,
              "load32 and store32 copy PE memory's little-endian words");

PEMemory::PEMemory() : base(Zeros.data()) {}

PEMemory::PEMemory(MemoryImage image) : image(std::move(image)) {
  if (!this->image || this->image->size() >= Size) {
    base = this->image ? this->image->data() : Zeros.data();
    return;
  }
  // A short image cannot be read page by page in place; copy it once into
  // owned pages and read the rest as zeros.
  base = Zeros.data();
  write(0, *this->image);
}

void PEMemory::reset() {
  owners.fill(0);
  touchedPages = 0;
  ownedPages.clear();
  window.reset();
  windowFirst = windowEnd = 0;
}

uint8_t *PEMemory::writePage(unsigned page) {
  uint8_t owner = owners[page];
  if (owner == InWindow)
    return window.get() + (page - windowFirst) * PageBytes;
  if (owner)
    return ownedPages[owner - 1]->data();
  ++touchedPages;
  if (inWindow(page, page + 1)) {
    // The window already holds the shared bytes: nothing to copy.
    owners[page] = InWindow;
    return window.get() + (page - windowFirst) * PageBytes;
  }
  auto copy = std::make_unique<Page>();
  std::memcpy(copy->data(), base + page * PageBytes, PageBytes);
  ownedPages.push_back(std::move(copy));
  owners[page] = static_cast<uint8_t>(ownedPages.size());
  return ownedPages.back()->data();
}

void PEMemory::gather(unsigned first, unsigned end) {
  if (window) {
    first = std::min<unsigned>(first, windowFirst);
    end = std::max<unsigned>(end, windowEnd);
  }
  first = first / WindowAlign * WindowAlign;
  end = std::min((end + WindowAlign - 1) / WindowAlign * WindowAlign, NumPages);
  if (window && first == windowFirst && end == windowEnd)
    return;
  // Every page as it reads now: owned ones with what was written, the
  // others with the shared bytes they are still read from.
  std::unique_ptr<uint8_t[]> grown(new uint8_t[(end - first) * PageBytes]);
  for (unsigned page = first; page < end; ++page)
    std::memcpy(grown.get() + (page - first) * PageBytes, readPage(page),
                PageBytes);
  // Owned pages now in the window give up their own storage; the others
  // are numbered again.
  std::vector<std::unique_ptr<Page>> kept;
  for (unsigned page = 0; page < NumPages; ++page) {
    uint8_t owner = owners[page];
    if (!owner || owner == InWindow)
      continue;
    if (first <= page && page < end) {
      owners[page] = InWindow;
      continue;
    }
    kept.push_back(std::move(ownedPages[owner - 1]));
    owners[page] = static_cast<uint8_t>(kept.size());
  }
  ownedPages = std::move(kept);
  window = std::move(grown);
  windowFirst = static_cast<uint8_t>(first);
  windowEnd = static_cast<uint8_t>(end);
}

bool PEMemory::isContiguous(unsigned first, unsigned end) const {
  if (end - first == 1 || inWindow(first, end))
    return true;
  // Pages read from the shared bytes lie one after another there.
  return std::all_of(owners.begin() + first, owners.begin() + end,
                     [](uint8_t owner) { return owner == 0; });
}

const uint8_t *PEMemory::locate(uint32_t address, unsigned first,
                                unsigned end) const {
  if (end - first == 1)
    return readPage(first) + address % PageBytes;
  if (inWindow(first, end))
    return window.get() + (address - windowFirst * PageBytes);
  return base + address;
}

bool PEMemory::viewInWindow(std::span<MemorySpan> spans) {
  if (!window)
    return false;
  uint32_t lo = windowFirst * PageBytes, hi = windowEnd * PageBytes;
  for (const MemorySpan &span : spans) {
    if (span.size == 0 || span.address < lo || span.address >= hi ||
        span.size > hi - span.address)
      return false;
    if (!span.write)
      continue;
    for (unsigned page = span.address / PageBytes,
                  end = (span.address + span.size - 1) / PageBytes + 1;
         page < end; ++page)
      if (owners[page] != InWindow)
        return false;
  }
  for (MemorySpan &span : spans) {
    uint8_t *at = window.get() + (span.address - lo);
    span.bytes = at;
    span.writable = span.write ? at : nullptr;
  }
  return true;
}

MemoryStatus PEMemory::viewSpans(std::span<MemorySpan> spans) {
  // A DSD operation run again over the same blocks finds them gathered
  // and its destination's pages written before.
  if (viewInWindow(spans))
    return MemoryStatus::Ok;
  for (const MemorySpan &span : spans)
    if (span.size == 0 || !inRange(span.address, span.size))
      return MemoryStatus::OutOfRange;
  auto firstPage = [](const MemorySpan &span) {
    return span.address / PageBytes;
  };
  auto endPage = [](const MemorySpan &span) {
    return (span.address + span.size - 1) / PageBytes + 1;
  };
  // Ranges to write first: those over several pages must be in the window
  // before their pages become owned, which in turn decides which ranges to
  // read are contiguous.
  for (bool writes : {true, false}) {
    unsigned first = NumPages, end = 0;
    for (const MemorySpan &span : spans) {
      unsigned f = firstPage(span), e = endPage(span);
      if (span.write != writes ||
          (writes ? e - f == 1 || inWindow(f, e) : isContiguous(f, e)))
        continue;
      first = std::min(first, f);
      end = std::max(end, e);
    }
    if (first < end)
      gather(first, end);
    if (!writes)
      continue;
    for (const MemorySpan &span : spans)
      if (span.write)
        for (unsigned page = firstPage(span); page < endPage(span); ++page)
          writePage(page);
  }
  // Only now, as gathering moves pages.
  for (MemorySpan &span : spans) {
    unsigned f = firstPage(span), e = endPage(span);
    span.bytes = locate(span.address, f, e);
    span.writable = nullptr;
    if (span.write)
      span.writable =
          e - f == 1 ? writePage(f) + span.address % PageBytes
                     : window.get() + (span.address - windowFirst * PageBytes);
  }
  return MemoryStatus::Ok;
}

MemoryStatus PEMemory::load8(uint32_t address, uint8_t &value) const {
  if (MemoryStatus status = check(address, 1); status != MemoryStatus::Ok)
    return status;
  value = readPage(address / PageBytes)[address % PageBytes];
  return MemoryStatus::Ok;
}

MemoryStatus PEMemory::load16(uint32_t address, uint16_t &value) const {
  if (MemoryStatus status = check(address, 2); status != MemoryStatus::Ok)
    return status;
  // Even addresses never straddle a page (pages are an even size).
  const uint8_t *p = readPage(address / PageBytes) + address % PageBytes;
  value = static_cast<uint16_t>(p[0] | p[1] << 8);
  return MemoryStatus::Ok;
}

MemoryStatus PEMemory::load32(uint32_t address, uint32_t &value) const {
  if (MemoryStatus status = check(address, 4); status != MemoryStatus::Ok)
    return status;
  // Only 2-byte alignment is required, so the halves may be on two pages;
  // mostly they are not (bytes are little-endian here as on the PE).
  if (address % PageBytes <= PageBytes - 4) {
    std::memcpy(&value, readPage(address / PageBytes) + address % PageBytes, 4);
    return MemoryStatus::Ok;
  }
  uint16_t low, high;
  load16(address, low);
  load16(address + 2, high);
  value = static_cast<uint32_t>(low) | static_cast<uint32_t>(high) << 16;
  return MemoryStatus::Ok;
}

MemoryStatus PEMemory::store8(uint32_t address, uint8_t value) {
  if (MemoryStatus status = check(address, 1); status != MemoryStatus::Ok)
    return status;
  lastStore = static_cast<uint16_t>(address);
  writePage(address / PageBytes)[address % PageBytes] = value;
  return MemoryStatus::Ok;
}

MemoryStatus PEMemory::store16(uint32_t address, uint16_t value) {
  if (MemoryStatus status = check(address, 2); status != MemoryStatus::Ok)
    return status;
  lastStore = static_cast<uint16_t>(address);
  uint8_t *p = writePage(address / PageBytes) + address % PageBytes;
  p[0] = static_cast<uint8_t>(value);
  p[1] = static_cast<uint8_t>(value >> 8);
  return MemoryStatus::Ok;
}

MemoryStatus PEMemory::store32(uint32_t address, uint32_t value) {
  if (MemoryStatus status = check(address, 4); status != MemoryStatus::Ok)
    return status;
  lastStore = static_cast<uint16_t>(address);
  if (address % PageBytes <= PageBytes - 4) {
    std::memcpy(writePage(address / PageBytes) + address % PageBytes, &value,
                4);
    return MemoryStatus::Ok;
  }
  store16(address, static_cast<uint16_t>(value));
  store16(address + 2, static_cast<uint16_t>(value >> 16));
  return MemoryStatus::Ok;
}

MemoryStatus PEMemory::read(uint32_t address, std::span<uint8_t> out) const {
  if (!inRange(address, out.size()))
    return MemoryStatus::OutOfRange;
  size_t done = 0;
  while (done < out.size()) {
    uint32_t at = address + static_cast<uint32_t>(done);
    size_t chunk =
        std::min<size_t>(PageBytes - at % PageBytes, out.size() - done);
    std::memcpy(out.data() + done, readPage(at / PageBytes) + at % PageBytes,
                chunk);
    done += chunk;
  }
  return MemoryStatus::Ok;
}

MemoryStatus PEMemory::write(uint32_t address, std::span<const uint8_t> bytes) {
  if (!inRange(address, bytes.size()))
    return MemoryStatus::OutOfRange;
  size_t done = 0;
  while (done < bytes.size()) {
    uint32_t at = address + static_cast<uint32_t>(done);
    size_t chunk =
        std::min<size_t>(PageBytes - at % PageBytes, bytes.size() - done);
    std::memcpy(writePage(at / PageBytes) + at % PageBytes, bytes.data() + done,
                chunk);
    done += chunk;
  }
  return MemoryStatus::Ok;
}
