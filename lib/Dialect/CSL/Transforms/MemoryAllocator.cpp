//===- MemoryAllocator.cpp - lay out one PE program's memory --------------===//
//
// Addresses are computed in 64 bits: a piece may be up to 4 GiB, and the sum
// of several must not wrap around into a layout that seems to fit.
//
//===----------------------------------------------------------------------===//

#include "tessera/Dialect/CSL/Transforms/MemoryAllocator.h"
#include "tessera/Support/Format.h"

#include <algorithm>

using namespace tessera::csl;

namespace {

uint64_t alignUp(uint64_t value, uint32_t alignment) {
  uint64_t step = std::max<uint32_t>(alignment, 1);
  return (value + step - 1) / step * step;
}

/// Rounds toward minus infinity: a stack larger than memory gives a
/// negative begin, which still measures how much is missing.
int64_t alignDown(int64_t value, uint32_t alignment) {
  int64_t step = std::max<uint32_t>(alignment, 1);
  int64_t quotient = value / step;
  if (value % step < 0)
    --quotient;
  return quotient * step;
}

uint32_t clampTo32(int64_t value) {
  if (value < 0)
    return 0;
  return static_cast<uint32_t>(std::min<int64_t>(value, UINT32_MAX));
}

bool isNamedData(MemoryPieceKind kind) {
  return kind == MemoryPieceKind::InitializedData ||
         kind == MemoryPieceKind::ZeroData;
}

} // namespace

std::optional<MemoryOverflow>
MemoryAllocator::allocate(const std::vector<MemoryPiece> &pieces,
                          MemoryLayout &layout) const {
  layout = MemoryLayout();
  layout.addresses.assign(pieces.size(), 0);

  // Data and code grow upward from 0, one kind after the other.
  uint64_t end = 0;
  std::optional<uint64_t> firstOfKind;
  auto placeUpward = [&](MemoryPieceKind kind) {
    firstOfKind.reset();
    for (size_t i = 0; i < pieces.size(); ++i) {
      if (pieces[i].kind != kind)
        continue;
      uint64_t address = alignUp(end, pieces[i].alignment);
      if (!firstOfKind)
        firstOfKind = address;
      layout.addresses[i] = clampTo32(address);
      end = address + pieces[i].bytes;
    }
  };
  placeUpward(MemoryPieceKind::InitializedData);
  uint64_t dataEnd = end;
  placeUpward(MemoryPieceKind::ZeroData);
  uint64_t bssEnd = end;
  placeUpward(MemoryPieceKind::Code);
  uint64_t codeBegin = firstOfKind.value_or(bssEnd);
  uint64_t codeEnd = end;

  // Stack pieces grow downward from the top, the first one highest.
  int64_t stackBegin = capacity;
  for (size_t i = 0; i < pieces.size(); ++i) {
    if (pieces[i].kind != MemoryPieceKind::Stack)
      continue;
    uint32_t alignment = std::max(pieces[i].alignment, getStackAlignment());
    stackBegin = alignDown(stackBegin - static_cast<int64_t>(pieces[i].bytes),
                           alignment);
    layout.addresses[i] = clampTo32(stackBegin);
  }
  uint64_t stackRegion = static_cast<uint64_t>(capacity - stackBegin);
  uint64_t needed = codeEnd + stackRegion;

  layout.dataBegin = 0;
  layout.dataEnd = clampTo32(dataEnd);
  layout.bssBegin = layout.dataEnd;
  layout.bssEnd = clampTo32(bssEnd);
  layout.codeBegin = clampTo32(codeBegin);
  layout.codeEnd = clampTo32(codeEnd);
  layout.stackBegin = clampTo32(stackBegin);
  layout.usedBytes = clampTo32(needed);
  if (needed <= capacity)
    return std::nullopt;

  MemoryOverflow overflow;
  overflow.neededBytes = needed;
  overflow.capacityBytes = capacity;
  std::vector<size_t> order;
  for (size_t i = 0; i < pieces.size(); ++i)
    if (pieces[i].bytes != 0)
      order.push_back(i);
  // Ties keep the order given.
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (pieces[a].bytes != pieces[b].bytes)
      return pieces[a].bytes > pieces[b].bytes;
    return a < b;
  });
  if (order.size() > maxListed)
    order.resize(maxListed);
  overflow.largest = order;

  for (size_t index : overflow.largest) {
    const MemoryPiece &piece = pieces[index];
    if (!overflow.largestList.empty())
      overflow.largestList += ", ";
    overflow.largestList +=
        isNamedData(piece.kind) ? "'" + piece.name + "'" : piece.name;
    overflow.largestList += " " + formatThousands(piece.bytes) + " bytes";
  }
  overflow.message = "needs " + formatThousands(needed) + " bytes of " +
                     formatThousands(capacity);
  if (!overflow.largestList.empty())
    overflow.message += "; largest: " + overflow.largestList;
  return overflow;
}
