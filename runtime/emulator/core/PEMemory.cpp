//===- PEMemory.cpp - one PE's 48 KiB memory, sparse ----------------------===//

#include "tessera/Emulator/PEMemory.h"

#include <algorithm>
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
  ownedPages.clear();
}

uint8_t *PEMemory::writePage(unsigned page) {
  if (uint8_t owner = owners[page])
    return ownedPages[owner - 1]->data();
  auto copy = std::make_unique<Page>();
  std::memcpy(copy->data(), base + page * PageBytes, PageBytes);
  ownedPages.push_back(std::move(copy));
  owners[page] = static_cast<uint8_t>(ownedPages.size());
  return ownedPages.back()->data();
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
  uint16_t low, high;
  // Only 2-byte alignment is required, so the halves may be on two pages.
  load16(address, low);
  load16(address + 2, high);
  value = static_cast<uint32_t>(low) | static_cast<uint32_t>(high) << 16;
  return MemoryStatus::Ok;
}

MemoryStatus PEMemory::store8(uint32_t address, uint8_t value) {
  if (MemoryStatus status = check(address, 1); status != MemoryStatus::Ok)
    return status;
  writePage(address / PageBytes)[address % PageBytes] = value;
  return MemoryStatus::Ok;
}

MemoryStatus PEMemory::store16(uint32_t address, uint16_t value) {
  if (MemoryStatus status = check(address, 2); status != MemoryStatus::Ok)
    return status;
  uint8_t *p = writePage(address / PageBytes) + address % PageBytes;
  p[0] = static_cast<uint8_t>(value);
  p[1] = static_cast<uint8_t>(value >> 8);
  return MemoryStatus::Ok;
}

MemoryStatus PEMemory::store32(uint32_t address, uint32_t value) {
  if (MemoryStatus status = check(address, 4); status != MemoryStatus::Ok)
    return status;
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
