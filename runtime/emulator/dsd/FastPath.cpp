//===- FastPath.cpp - DSD operations on memory and registers only ---------===//
//
// When every operand is a memory DSR, a scalar or a pointer, a chunk of
// elements runs as one loop per operation. A large chunk runs on PE memory
// itself, viewed as contiguous bytes (PEMemory::viewSpans, where operands
// that overlap share their bytes); a small one over a mirror: the bytes each
// operand's elements cover are copied into the mirror at their own
// addresses, and the destination's bytes are copied back. Either way the
// loop reads and writes element by element, so overlapping operands behave
// exactly as in memory. A chunk some element of which would leave memory or
// be misaligned is left to the element path, which traps at the right
// element.
//
//===----------------------------------------------------------------------===//

#include "Cursors.h"
#include "ElementOps.h"

#include "tessera/Emulator/DSDEngine.h"

#include <algorithm>
#include <bit>
#include <cstring>

using namespace tessera;
using namespace tessera::emulator;
using namespace tessera::emulator::dsd;
using detail::OperandClass;
using detail::OperandSlot;

static_assert(std::endian::native == std::endian::little,
              "the mirror holds PE memory's little-endian bytes as they are");

namespace {

/// Where a kernel's elements are: the current element of the destination
/// and of each source (in memory, the mirror, a block or a scalar's
/// broadcast block) and the byte steps to the next ones.
struct Lanes {
  uint8_t *dest = nullptr;
  int64_t destStep = 0;
  std::array<const uint8_t *, 3> src{};
  std::array<int64_t, 3> srcStep{};
};

template <unsigned Bits> uint32_t load(const uint8_t *at) {
  if constexpr (Bits == 16) {
    uint16_t value;
    std::memcpy(&value, at, 2);
    return value;
  } else if constexpr (Bits == 32) {
    uint32_t value;
    std::memcpy(&value, at, 4);
    return value;
  } else {
    return 0; // no such source
  }
}

template <unsigned Bits> void store(uint8_t *at, uint32_t value) {
  if constexpr (Bits == 16) {
    uint16_t half = static_cast<uint16_t>(value);
    std::memcpy(at, &half, 2);
  } else {
    std::memcpy(at, &value, 4);
  }
}

template <pe::Opcode Op>
void kernel(uint64_t n, const Lanes &lanes, uint32_t &carry) {
  constexpr OpShape shape = *getShape(Op);
  uint8_t *d = lanes.dest;
  const uint8_t *a = lanes.src[0], *b = lanes.src[1], *c = lanes.src[2];
  const int64_t ds = lanes.destStep, as = lanes.srcStep[0],
                bs = lanes.srcStep[1], cs = lanes.srcStep[2];
  uint32_t carried = carry;
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t x = load<shape.src[0]>(a);
    uint32_t y = load<shape.src[1]>(b);
    uint32_t z = load<shape.src[2]>(c);
    store<shape.dest>(d, apply<Op>(x, y, z, carried));
    d += ds;
    a += as;
    if constexpr (shape.sources > 1)
      b += bs;
    if constexpr (shape.sources > 2)
      c += cs;
  }
  carry = carried;
}

/// binary32 arithmetic and 32-bit moves: each element on its own, in
/// instructions SSE has for 4 lanes.
constexpr bool isLaneWise(pe::Opcode op) {
  using pe::Opcode;
  return op == Opcode::FAddSV || op == Opcode::FSubSV || op == Opcode::FMulSV ||
         op == Opcode::FMacSV || op == Opcode::FMovSV || op == Opcode::Mov32V;
}

/// The common case of consecutive elements, when no element reads what an
/// earlier one wrote: steps known at compile time and a destination that
/// aliases no source let the compiler vectorize. Scalars come as repeated
/// copies (the broadcast block); steps are ignored.
template <pe::Opcode Op>
void unitKernel(uint64_t n, const Lanes &lanes, uint32_t &carry) {
  constexpr OpShape shape = *getShape(Op);
  constexpr unsigned DB = shape.dest / 8, AB = shape.src[0] / 8,
                     BB = shape.src[1] / 8, CB = shape.src[2] / 8;
  uint8_t *__restrict d = lanes.dest;
  const uint8_t *a = lanes.src[0], *b = lanes.src[1], *c = lanes.src[2];
  uint32_t carried = carry;
  auto element = [&](uint64_t i) {
    uint32_t x = load<shape.src[0]>(a + i * AB);
    uint32_t y = load<shape.src[1]>(b + i * BB);
    uint32_t z = load<shape.src[2]>(c + i * CB);
    store<shape.dest>(d + i * DB, apply<Op>(x, y, z, carried));
  };
  if constexpr (isLaneWise(Op)) {
    // Rows of a few elements (the stencil's 8) are not worth vectorizing
    // to the cost model, but are: 4 lanes at once.
#pragma clang loop vectorize(enable)
    for (uint64_t i = 0; i < n; ++i)
      element(i);
  } else {
    for (uint64_t i = 0; i < n; ++i)
      element(i);
  }
  carry = carried;
}

/// Rows of `length` consecutive elements, `count` of them, none of which
/// reads what an earlier element of its row wrote: the destination's next
/// row starts `destRowStep` bytes on and each source's `srcRowStep[i]` on
/// (0 for a scalar's broadcast block). With `results`, each row is computed
/// there and copied to the destination (a source is the destination).
struct RowsJob {
  uint8_t *dest = nullptr;
  int64_t destRowStep = 0;
  std::array<const uint8_t *, 3> src{};
  std::array<int64_t, 3> srcRowStep{};
  uint64_t length = 0, count = 0;
  unsigned destBytes = 0; ///< per element
  uint8_t *results = nullptr;
};

/// unitKernel over every row of a job, in one loop: a stencil's blocks
/// are rows of a few elements, each of which would otherwise pay a call.
template <pe::Opcode Op> void rowsKernel(const RowsJob &job, uint32_t &carry) {
  Lanes lanes;
  lanes.src = job.src;
  uint8_t *dest = job.dest;
  for (uint64_t row = 0; row < job.count; ++row) {
    lanes.dest = job.results ? job.results : dest;
    unitKernel<Op>(job.length, lanes, carry);
    if (job.results)
      std::memcpy(dest, job.results, job.length * job.destBytes);
    dest += job.destRowStep;
    for (unsigned i = 0; i < 3; ++i)
      lanes.src[i] += job.srcRowStep[i];
  }
}

using KernelFn = void (*)(uint64_t, const Lanes &, uint32_t &);
using RowsKernelFn = void (*)(const RowsJob &, uint32_t &);

struct Kernels {
  KernelFn strided = nullptr;
  KernelFn unit = nullptr;
  RowsKernelFn rows = nullptr;
};

Kernels getKernels(pe::Opcode opcode) {
  switch (opcode) {
#define TESSERA_KERNEL(Name, ...)                                              \
  case pe::Opcode::Name:                                                       \
    return {&kernel<pe::Opcode::Name>, &unitKernel<pe::Opcode::Name>,          \
            &rowsKernel<pe::Opcode::Name>};
    TESSERA_DSD_OPS(TESSERA_KERNEL)
#undef TESSERA_KERNEL
  default:
    return {};
  }
}

/// Elements per call of a unit kernel: one block of results, of a
/// source's elements or of copies of a scalar.
constexpr uint64_t BlockElements = 1024;
/// Chunks of fewer elements go through the mirror: their copies cost
/// little, and viewing memory in place may gather pages into PEMemory's
/// window, which pays off only for ranges used in bulk.
constexpr uint64_t DirectElements = 64;
constexpr size_t BlockBytes = BlockElements * 4;
/// The engine's scratch: the mirror, then a result block and a block per
/// source, then a broadcast block per source.
constexpr size_t ResultsAt = PEMemory::Size;
constexpr size_t SourceBlocksAt = ResultsAt + BlockBytes;
constexpr size_t BroadcastAt = SourceBlocksAt + 3 * BlockBytes;
constexpr size_t ScratchBytes = BroadcastAt + 3 * BlockBytes;

bool inMemory(const OperandSlot &slot) {
  return slot.cls == OperandClass::Memory || slot.cls == OperandClass::Pointer;
}

/// Every byte of the destination's span is written: no need to copy it in.
bool isDense(const OperandSlot &slot) {
  const detail::Cursor &c = slot.cursor;
  return slot.cls == OperandClass::Memory && c.wrap == 0 && c.dims <= 1 &&
         (c.step == slot.width / 8 || c.step == -(slot.width / 8));
}

/// One run of consecutive elements for ever (mem1d or a merged mem4d).
bool isConsecutive(const OperandSlot &slot) {
  const detail::Cursor &c = slot.cursor;
  return slot.cls == OperandClass::Memory && c.wrap == 0 && c.dims <= 1 &&
         c.step == slot.width / 8;
}

/// Whether `n` consecutive elements can all be computed before any is
/// written: each source lies apart from the destination or is the
/// destination itself (element k then reads only what element k writes).
/// `at` are byte addresses, `bytes` element sizes; scalars have no bytes.
bool readsBeforeWrites(const std::array<int64_t, 4> &at,
                       const std::array<unsigned, 4> &bytes, unsigned count,
                       uint64_t n) {
  int64_t d = at[0], dEnd = d + static_cast<int64_t>(n * bytes[0]);
  for (unsigned i = 1; i < count; ++i) {
    if (!bytes[i])
      continue;
    int64_t s = at[i], sEnd = s + static_cast<int64_t>(n * bytes[i]);
    bool apart = sEnd <= d || dEnd <= s;
    if (!apart && !(s == d && bytes[i] == bytes[0]))
      return false;
  }
  return true;
}

/// Where each memory operand's bytes are during a chunk: the range [lo, hi)
/// of operand i starts at at[i] (the destination's, writable, at dest), in
/// PE memory or in the mirror.
struct Views {
  uint8_t *dest = nullptr;
  std::array<const uint8_t *, 4> at{};
  std::array<int64_t, 4> lo{};

  uint8_t *destAt(int64_t address) const { return dest + (address - lo[0]); }
  const uint8_t *sourceAt(unsigned i, int64_t address) const {
    return at[i] + (address - lo[i]);
  }
};

/// Runs `n` elements run by run over the views, on copies of the operands'
/// cursors. Scalars are read from their broadcast blocks.
void runViewed(const Kernels &kernels, const Views &views, uint8_t *results,
               std::array<detail::Cursor, 4> cursors,
               const std::array<const uint8_t *, 4> &broadcast,
               const std::array<unsigned, 4> &bytes,
               const std::array<unsigned, 4> &memoryBytes, unsigned count,
               uint64_t n, uint32_t &carry) {
  std::array<int64_t, 4> at{};
  for (uint64_t left = n; left > 0;) {
    uint64_t segment = left;
    bool unit = true;
    Lanes lanes;
    for (unsigned i = 0; i < count; ++i) {
      if (broadcast[i]) {
        lanes.src[i - 1] = broadcast[i];
        lanes.srcStep[i - 1] = 0;
        continue;
      }
      const detail::Cursor &c = cursors[i];
      segment = std::min(segment, c.run);
      at[i] = c.address;
      unit &= c.step == static_cast<int64_t>(bytes[i]);
      if (i == 0) {
        lanes.dest = views.destAt(c.address);
        lanes.destStep = c.step;
      } else {
        lanes.src[i - 1] = views.sourceAt(i, c.address);
        lanes.srcStep[i - 1] = c.step;
      }
    }
    for (uint64_t done = 0; done < segment;) {
      uint64_t block = std::min(segment - done, BlockElements);
      if (unit && readsBeforeWrites(at, memoryBytes, count, block)) {
        Lanes toResults = lanes;
        toResults.dest = results;
        kernels.unit(block, toResults, carry);
        std::memcpy(lanes.dest, results, block * bytes[0]);
      } else {
        kernels.strided(block, lanes, carry);
      }
      int64_t moved = static_cast<int64_t>(block);
      lanes.dest += moved * lanes.destStep;
      for (unsigned i = 0; i + 1 < count; ++i)
        lanes.src[i] += moved * lanes.srcStep[i];
      for (unsigned i = 0; i < count; ++i)
        at[i] += moved * (i == 0 ? lanes.destStep : lanes.srcStep[i - 1]);
      done += block;
    }
    for (unsigned i = 0; i < count; ++i)
      cursors[i].advance(segment);
    left -= segment;
  }
}

/// A chunk of whole rows of one length: each memory operand is a 2-D mem4d
/// at the start of a row, or runs consecutively for ever (a mem1d). Where
/// each operand's next row starts: rowStep bytes on.
struct Rows {
  uint64_t length = 0;
  uint64_t count = 0;
  std::array<int64_t, 4> rowStep{};
};

/// Whether the chunk of `n` elements is whole rows of consecutive elements
/// (the stencil's mem4d blocks). runViewed would find the same runs, but
/// recomputes every operand's place after each.
bool planRows(const DSDOperation &op, const std::array<unsigned, 4> &bytes,
              const std::array<unsigned, 4> &memoryBytes, uint64_t n,
              Rows &rows) {
  const unsigned count = op.getNumOperands();
  for (unsigned i = 0; i < count; ++i) {
    const detail::Cursor &c = op.slot(i).cursor;
    if (!memoryBytes[i] || c.dims != 2 || c.wrap != 0)
      continue;
    if (c.index[1] != 0 || c.step != static_cast<int64_t>(bytes[i]) ||
        (rows.length && c.extent[1] != rows.length))
      return false;
    rows.length = c.extent[1];
  }
  if (!rows.length || rows.length > BlockElements || n % rows.length)
    return false;
  for (unsigned i = 0; i < count; ++i) {
    if (!memoryBytes[i])
      continue;
    const OperandSlot &slot = op.slot(i);
    if (slot.cursor.dims == 2 && slot.cursor.wrap == 0)
      rows.rowStep[i] = slot.cursor.stride[0];
    else if (isConsecutive(slot))
      rows.rowStep[i] = static_cast<int64_t>(rows.length * bytes[i]);
    else
      return false;
  }
  rows.count = n / rows.length;
  return true;
}

/// The bytes operand `i`'s rows cover, first to last.
void rowsSpan(const Rows &rows, const std::array<int64_t, 4> &at,
              const std::array<unsigned, 4> &bytes, unsigned i, int64_t &lo,
              int64_t &hi) {
  int64_t last = at[i] + static_cast<int64_t>(rows.count - 1) * rows.rowStep[i];
  lo = std::min(at[i], last);
  hi = std::max(at[i], last) + static_cast<int64_t>(rows.length * bytes[i]);
}

/// Whether every row's elements read nothing an earlier one of the row
/// wrote, decided once for all the rows: each memory source lies apart
/// from the destination over all of them (the stencil's blocks of u
/// against v) or is the destination itself, row for row (`next = next +
/// left`). False leaves it to readsBeforeWrites row by row.
bool everyRowReadsBeforeWrites(const Rows &rows,
                               const std::array<int64_t, 4> &at,
                               const std::array<unsigned, 4> &bytes,
                               const std::array<unsigned, 4> &memoryBytes,
                               unsigned count) {
  int64_t destLo, destHi;
  rowsSpan(rows, at, bytes, 0, destLo, destHi);
  for (unsigned i = 1; i < count; ++i) {
    if (!memoryBytes[i] ||
        (at[i] == at[0] && rows.rowStep[i] == rows.rowStep[0] &&
         bytes[i] == bytes[0]))
      continue;
    int64_t lo, hi;
    rowsSpan(rows, at, bytes, i, lo, hi);
    if (hi > destLo && destHi > lo)
      return false;
  }
  return true;
}

/// Runs the rows over the views: a unit kernel per row whose elements read
/// nothing an earlier one wrote (into the results block when a source is
/// the destination), the element-by-element kernel otherwise.
void runRows(const Kernels &kernels, const Views &views, uint8_t *results,
             const DSDOperation &op, const Rows &rows,
             const std::array<const uint8_t *, 4> &broadcast,
             const std::array<unsigned, 4> &bytes,
             const std::array<unsigned, 4> &memoryBytes, uint32_t &carry) {
  const unsigned count = op.getNumOperands();
  std::array<int64_t, 4> at{};
  for (unsigned i = 0; i < count; ++i)
    if (memoryBytes[i])
      at[i] = op.slot(i).cursor.address;
  const bool everyRow =
      everyRowReadsBeforeWrites(rows, at, bytes, memoryBytes, count);
  // A source starting where the destination's row does is read through
  // the results block, which the row is copied from.
  auto readsDestination = [&] {
    for (unsigned i = 1; i < count; ++i)
      if (!broadcast[i] && at[i] == at[0])
        return true;
    return false;
  };
  // The lanes move on by each operand's row step (views are linear in the
  // address).
  Lanes lanes;
  lanes.destStep = bytes[0];
  for (unsigned i = 1; i < count; ++i) {
    lanes.src[i - 1] = broadcast[i] ? broadcast[i] : views.sourceAt(i, at[i]);
    lanes.srcStep[i - 1] = broadcast[i] ? 0 : bytes[i];
  }
  uint8_t *dest = views.destAt(at[0]);
  if (everyRow) {
    // The choice holds for every row, and so does the sharing of the
    // destination's first row: one loop over them all, nothing compared
    // again.
    RowsJob job;
    job.dest = dest;
    job.destRowStep = rows.rowStep[0];
    for (unsigned i = 1; i < count; ++i) {
      job.src[i - 1] = lanes.src[i - 1];
      job.srcRowStep[i - 1] = broadcast[i] ? 0 : rows.rowStep[i];
    }
    job.length = rows.length;
    job.count = rows.count;
    job.destBytes = bytes[0];
    job.results = readsDestination() ? results : nullptr;
    kernels.rows(job, carry);
    return;
  }
  // Otherwise each row is looked at on its own.
  for (uint64_t row = 0; row < rows.count; ++row) {
    bool inPlace = readsDestination();
    if (readsBeforeWrites(at, memoryBytes, count, rows.length)) {
      lanes.dest = inPlace ? results : dest;
      kernels.unit(rows.length, lanes, carry);
      if (inPlace)
        std::memcpy(dest, results, rows.length * bytes[0]);
    } else {
      lanes.dest = dest;
      kernels.strided(rows.length, lanes, carry);
    }
    dest += rows.rowStep[0];
    for (unsigned i = 1; i < count; ++i)
      if (!broadcast[i])
        lanes.src[i - 1] += rows.rowStep[i];
    for (unsigned i = 0; i < count; ++i)
      at[i] += rows.rowStep[i];
  }
}

/// Streams `n` consecutive elements that read nothing an earlier one wrote,
/// straight from the views: no copies but that of a destination which is
/// also a source, as the unit kernel writes to a block no source aliases.
void streamViewed(const Kernels &kernels, const Views &views, uint8_t *results,
                  const std::array<int64_t, 4> &first,
                  const std::array<const uint8_t *, 4> &broadcast,
                  const std::array<unsigned, 4> &bytes,
                  const std::array<unsigned, 4> &memoryBytes, unsigned count,
                  uint64_t n, uint32_t &carry) {
  bool inPlace = false;
  for (unsigned i = 1; i < count; ++i)
    inPlace |= memoryBytes[i] && first[i] == first[0];
  for (uint64_t at = 0; at < n; at += BlockElements) {
    uint64_t block = std::min(n - at, BlockElements);
    int64_t offset = static_cast<int64_t>(at);
    uint8_t *dest = views.destAt(first[0] + offset * bytes[0]);
    Lanes lanes;
    lanes.dest = inPlace ? results : dest;
    for (unsigned i = 1; i < count; ++i)
      lanes.src[i - 1] = broadcast[i]
                             ? broadcast[i]
                             : views.sourceAt(i, first[i] + offset * bytes[i]);
    kernels.unit(block, lanes, carry);
    if (inPlace)
      std::memcpy(dest, results, block * bytes[0]);
  }
}

/// Streams `n` such elements block by block, copying each source block out
/// of memory and the results back; a later block reads what an earlier one
/// wrote, as element order demands.
void streamCopied(const Kernels &kernels, PEMemory &memory, uint8_t *blocks,
                  uint8_t *results, const std::array<int64_t, 4> &first,
                  const std::array<const uint8_t *, 4> &broadcast,
                  const std::array<unsigned, 4> &bytes, unsigned count,
                  uint64_t n, uint32_t &carry) {
  for (uint64_t at = 0; at < n; at += BlockElements) {
    uint64_t block = std::min(n - at, BlockElements);
    Lanes lanes;
    lanes.dest = results;
    for (unsigned i = 1; i < count; ++i) {
      if (broadcast[i]) {
        lanes.src[i - 1] = broadcast[i];
        continue;
      }
      uint8_t *buffer = blocks + (i - 1) * BlockBytes;
      memory.read(static_cast<uint32_t>(first[i] + at * bytes[i]),
                  {buffer, block * bytes[i]});
      lanes.src[i - 1] = buffer;
    }
    kernels.unit(block, lanes, carry);
    memory.write(static_cast<uint32_t>(first[0] + at * bytes[0]),
                 {results, block * bytes[0]});
  }
}

/// Views the chunk's operands in memory itself; false when the chunk is
/// too small to be worth it or its destination is not in memory.
bool viewInMemory(PEMemory &memory, unsigned count, uint64_t n,
                  const std::array<int64_t, 4> &lo,
                  const std::array<int64_t, 4> &hi,
                  const std::array<unsigned, 4> &memoryBytes, Views &views) {
  if (n < DirectElements || !memoryBytes[0])
    return false;
  std::array<MemorySpan, 4> spans;
  std::array<unsigned, 4> spanOf{};
  unsigned numSpans = 0;
  for (unsigned i = 0; i < count; ++i) {
    if (!memoryBytes[i])
      continue;
    spanOf[i] = numSpans;
    MemorySpan &span = spans[numSpans++];
    span.address = static_cast<uint32_t>(lo[i]);
    span.size = static_cast<uint32_t>(hi[i] - lo[i]);
    span.write = i == 0;
  }
  if (memory.viewSpans({spans.data(), numSpans}) != MemoryStatus::Ok)
    return false;
  views.dest = spans[0].writable;
  for (unsigned i = 0; i < count; ++i) {
    views.at[i] = memoryBytes[i] ? spans[spanOf[i]].bytes : nullptr;
    views.lo[i] = lo[i];
  }
  return true;
}

} // namespace

bool DSDEngine::hasFastOperands(const DSDOperation &op) {
  if (op.isMap())
    return false;
  // Reductions into a pointer feed each result to the next element.
  if (op.slot(0).cls == OperandClass::Pointer && op.numOperands > 2)
    return false;
  for (unsigned i = 0; i < op.numOperands; ++i) {
    OperandClass cls = op.slot(i).cls;
    if (cls != OperandClass::Memory && cls != OperandClass::Pointer &&
        cls != OperandClass::Scalar)
      return false;
  }
  return true;
}

uint64_t DSDEngine::runFast(DSDOperation &op, PEMemory &memory,
                            uint64_t budget) {
  Kernels kernels = getKernels(op.opcode);
  if (!kernels.strided)
    return 0;
  if (!scratch)
    scratch = std::make_unique<uint8_t[]>(ScratchBytes);
  uint8_t *mirror = scratch.get();
  uint8_t *results = mirror + ResultsAt;
  const unsigned count = op.numOperands;
  std::array<const uint8_t *, 4> broadcast{};
  std::array<unsigned, 4> bytes{}, memoryBytes{};
  bool consecutive = true;
  uint64_t copies = std::min({budget, op.length - op.next, BlockElements});
  for (unsigned i = 0; i < count; ++i) {
    const OperandSlot &slot = std::as_const(op).slot(i);
    bytes[i] = slot.width / 8;
    if (slot.cls != OperandClass::Scalar) {
      memoryBytes[i] = bytes[i];
      consecutive &= isConsecutive(slot);
      continue;
    }
    // A 16-bit scalar's copies, two to a word, are the same bytes.
    uint8_t *block = mirror + BroadcastAt + (i - 1) * BlockBytes;
    uint32_t pattern =
        slot.width == 16 ? (slot.scalar & 0xFFFF) * 0x10001u : slot.scalar;
    uint64_t words = (copies * bytes[i] + 3) / 4;
    if (broadcastPattern[i - 1] != pattern || broadcastWords[i - 1] < words) {
      std::fill_n(reinterpret_cast<uint32_t *>(block), words, pattern);
      broadcastPattern[i - 1] = pattern;
      broadcastWords[i - 1] = words;
    }
    broadcast[i] = block;
  }

  uint64_t done = 0;
  while (done < budget && op.next < op.length) {
    uint64_t n = std::min({budget - done, op.length - op.next, FastChunk});
    std::array<int64_t, 4> lo{}, hi{}, first{};
    for (unsigned i = 0; i < count; ++i) {
      const OperandSlot &slot = std::as_const(op).slot(i);
      if (!inMemory(slot))
        continue;
      // Elements of one operand are a multiple of 2 bytes apart, so the
      // first one's parity is every one's.
      if (slot.cursor.address & 1)
        return done;
      first[i] = slot.cursor.address;
      boundElements(slot.cursor, n, bytes[i], lo[i], hi[i]);
      if (lo[i] < 0 || hi[i] > static_cast<int64_t>(PEMemory::Size))
        return done;
    }

    Views views;
    bool direct = viewInMemory(memory, count, n, lo, hi, memoryBytes, views);
    if (consecutive && readsBeforeWrites(first, memoryBytes, count, n)) {
      if (direct)
        streamViewed(kernels, views, results, first, broadcast, bytes,
                     memoryBytes, count, n, op.carry);
      else
        streamCopied(kernels, memory, mirror + SourceBlocksAt, results, first,
                     broadcast, bytes, count, n, op.carry);
    } else {
      if (!direct) {
        // Mirror: the chunk's bytes at their own addresses, in any shape.
        for (unsigned i = 0; i < count; ++i)
          if (memoryBytes[i] && (i > 0 || !isDense(std::as_const(op).slot(i))))
            memory.read(static_cast<uint32_t>(lo[i]),
                        {mirror + lo[i], static_cast<size_t>(hi[i] - lo[i])});
        views.dest = mirror + lo[0];
        for (unsigned i = 0; i < count; ++i) {
          views.at[i] = mirror + lo[i];
          views.lo[i] = lo[i];
        }
      }
      Rows rows;
      if (planRows(op, bytes, memoryBytes, n, rows)) {
        runRows(kernels, views, results, op, rows, broadcast, bytes,
                memoryBytes, op.carry);
      } else {
        std::array<detail::Cursor, 4> cursors;
        for (unsigned i = 0; i < count; ++i)
          cursors[i] = std::as_const(op).slot(i).cursor;
        runViewed(kernels, views, results, cursors, broadcast, bytes,
                  memoryBytes, count, n, op.carry);
      }
      if (!direct)
        memory.write(static_cast<uint32_t>(lo[0]),
                     {mirror + lo[0], static_cast<size_t>(hi[0] - lo[0])});
    }
    // Cursors that will not be read again stay as they are: an operation
    // copied from a template then never copies its slots.
    if (op.next + n != op.length)
      for (unsigned i = 0; i < count; ++i)
        op.slot(i).cursor.advance(n);
    op.next += n;
    done += n;
  }
  return done;
}
