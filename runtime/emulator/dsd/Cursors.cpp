//===- Cursors.cpp - where the elements of an operand lie -----------------===//

#include "Cursors.h"

#include <algorithm>

using namespace tessera;
using namespace tessera::emulator;
using detail::Cursor;

namespace {

/// a + b * c, wrapping.
int64_t madd(int64_t a, int64_t b, uint64_t c) {
  return static_cast<int64_t>(static_cast<uint64_t>(a) +
                              static_cast<uint64_t>(b) * c);
}

/// The mem4d address of the cursor's indices.
int64_t mem4dAddress(const Cursor &c) {
  int64_t address = c.base;
  for (unsigned d = 0; d < c.dims; ++d)
    address = madd(address, c.stride[d], c.index[d]);
  return address;
}

void initMem4d(Cursor &c, const Descriptor &d, int64_t elementBytes) {
  // Inner dimensions of extent 0 or 1 never move, and a dimension whose
  // stride spans the whole next one merges with it: (2, 12) (3, 4) (4, 1)
  // is one run of 24. The outermost index is unbounded, so its extent is
  // never used and merging into it is exact as well.
  unsigned dims = std::clamp<unsigned>(d.dims, 1, MaxMem4dDims);
  for (unsigned i = 0; i < dims; ++i) {
    uint64_t extent = d.extents[i];
    int64_t stride = d.strides[i] * elementBytes;
    if (i > 0 && extent <= 1)
      continue;
    if (c.dims > 0 &&
        c.stride[c.dims - 1] == static_cast<int64_t>(extent) * stride) {
      c.extent[c.dims - 1] *= extent;
      c.stride[c.dims - 1] = stride;
      continue;
    }
    c.extent[c.dims] = extent;
    c.stride[c.dims] = stride;
    ++c.dims;
  }
  uint64_t position = d.position;
  for (unsigned i = c.dims - 1; i > 0; --i) {
    c.index[i] = position % c.extent[i];
    position /= c.extent[i];
  }
  c.index[0] = position;
  c.address = mem4dAddress(c);
  c.step = c.stride[c.dims - 1];
  c.run = c.dims == 1 ? detail::Unbounded
                      : c.extent[c.dims - 1] - c.index[c.dims - 1];
}

} // namespace

void dsd::initMemoryCursor(Cursor &c, const Descriptor &d, int32_t index,
                           unsigned accessBits) {
  // Every field but the per-dimension arrays, which only mem4d's
  // initMem4d fills and only its `dims` are read of: an operation starts
  // in a reused slot, and not writing them spares it a cache line or two.
  c.address = 0;
  c.step = 0;
  c.run = detail::Unbounded;
  c.wrap = 0;
  c.lapIndex = 0;
  c.dims = 0;
  c.base = 0;
  int64_t elementBytes = d.width == 32 ? 4 : 2;
  int64_t accessBytes = accessBits == 32 ? 4 : 2;
  // The wavelet's index counts 16-bit words, whatever the element width:
  // an f32 column walk passes `.index = 2 * j` (sdklayout-05's gemv), an
  // f16 one `.index = j` (gemv-checkerboard-pattern).
  int64_t wio = d.waveletIndexOffset ? index : 0;
  constexpr uint64_t IndexUnitBytes = 2;
  switch (d.kind) {
  case DSRKind::Mem1d:
    c.address = madd(madd(d.base, static_cast<int64_t>(d.offset),
                          static_cast<uint64_t>(elementBytes)),
                     wio, IndexUnitBytes);
    c.step = d.stride * accessBytes;
    break;
  case DSRKind::Circbuf:
    c.base = d.base;
    c.wrap = std::max<uint64_t>(d.wrap, 1); // dsr.circbuf rejects 0
    c.lapIndex = d.position % c.wrap;
    c.step = elementBytes;
    c.address = c.base + static_cast<int64_t>(c.lapIndex) * elementBytes;
    c.run = c.wrap - c.lapIndex;
    break;
  case DSRKind::Mem4d:
    // No offset to add the index to: the base moves by `index` words.
    c.base = madd(d.base, wio, IndexUnitBytes);
    initMem4d(c, d, accessBytes);
    break;
  default:
    break;
  }
}

Cursor dsd::makeFixedCursor(uint32_t address) {
  Cursor c;
  c.address = address;
  return c;
}

void Cursor::advanceShaped(uint64_t n) {
  if (wrap) {
    lapIndex = (lapIndex + n % wrap) % wrap;
    address = base + static_cast<int64_t>(lapIndex) * step;
    run = wrap - lapIndex;
    return;
  }
  if (dims <= 1) {
    address = madd(address, step, n);
    if (dims == 1)
      index[0] += n;
    return;
  }
  unsigned last = dims - 1;
  index[last] += n;
  for (unsigned d = last; d > 0 && index[d] >= extent[d]; --d) {
    index[d - 1] += index[d] / extent[d];
    index[d] %= extent[d];
  }
  address = mem4dAddress(*this);
  run = extent[last] - index[last];
}

void dsd::boundElements(const Cursor &c, uint64_t n, unsigned bytes,
                        int64_t &lo, int64_t &hi) {
  int64_t first = c.address, last;
  if (c.run == detail::Unbounded || n <= c.run) {
    last = madd(first, c.step, n - 1);
  } else if (c.wrap) {
    first = c.base;
    last = c.base + static_cast<int64_t>(c.wrap - 1) * c.step;
  } else {
    // mem4d across rows: every inner index may occur; the outermost goes
    // from its current value to that of the last element.
    uint64_t inner = 1, rest = 0;
    for (unsigned d = c.dims - 1; d > 0; --d) {
      rest += c.index[d] * inner;
      inner *= c.extent[d];
    }
    uint64_t lastOuter = c.index[0] + (rest + n - 1) / inner;
    int64_t from = madd(c.base, c.stride[0], c.index[0]);
    int64_t to = madd(c.base, c.stride[0], lastOuter);
    first = std::min(from, to);
    last = std::max(from, to);
    for (unsigned d = 1; d < c.dims; ++d) {
      int64_t span = c.stride[d] * static_cast<int64_t>(c.extent[d] - 1);
      (span < 0 ? first : last) += span;
    }
  }
  lo = std::min(first, last);
  hi = std::max(first, last) + bytes;
}
