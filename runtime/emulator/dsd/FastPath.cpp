//===- FastPath.cpp - DSD operations on memory and registers only ---------===//
//
// When every operand is a memory DSR, a scalar or a pointer, a chunk of
// elements runs as one loop per operation over a mirror of the memory the
// chunk touches: the bytes each operand's elements cover are copied into
// the mirror at their own addresses, the loop reads and writes the mirror
// element by element (so overlapping operands behave exactly as in memory),
// and the destination's bytes are copied back. A chunk some element of
// which would leave memory or be misaligned is left to the element path,
// which traps at the right element.
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

/// An operand's bytes in the mirror (or a scalar's) and the byte step
/// between consecutive elements of the current run.
struct Lane {
  uint8_t *at;
  int64_t step;
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
void kernel(uint64_t n, const Lane *lanes, uint32_t &carry) {
  constexpr OpShape shape = *getShape(Op);
  uint8_t *d = lanes[0].at, *a = lanes[1].at;
  const int64_t ds = lanes[0].step, as = lanes[1].step;
  uint8_t *b = shape.sources > 1 ? lanes[2].at : nullptr;
  uint8_t *c = shape.sources > 2 ? lanes[3].at : nullptr;
  const int64_t bs = shape.sources > 1 ? lanes[2].step : 0;
  const int64_t cs = shape.sources > 2 ? lanes[3].step : 0;
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

/// The common case of consecutive elements, when no element reads what an
/// earlier one wrote: steps known at compile time and a result block that
/// aliases nothing let the compiler vectorize. Scalars come as repeated
/// copies (the broadcast block); lanes[0] is the result block.
template <pe::Opcode Op>
void unitKernel(uint64_t n, const Lane *lanes, uint32_t &carry) {
  constexpr OpShape shape = *getShape(Op);
  constexpr unsigned DB = shape.dest / 8, AB = shape.src[0] / 8,
                     BB = shape.src[1] / 8, CB = shape.src[2] / 8;
  uint8_t *__restrict d = lanes[0].at;
  const uint8_t *a = lanes[1].at;
  const uint8_t *b = shape.sources > 1 ? lanes[2].at : nullptr;
  const uint8_t *c = shape.sources > 2 ? lanes[3].at : nullptr;
  uint32_t carried = carry;
  for (uint64_t i = 0; i < n; ++i) {
    uint32_t x = load<shape.src[0]>(a + i * AB);
    uint32_t y = load<shape.src[1]>(b + i * BB);
    uint32_t z = load<shape.src[2]>(c + i * CB);
    store<shape.dest>(d + i * DB, apply<Op>(x, y, z, carried));
  }
  carry = carried;
}

using KernelFn = void (*)(uint64_t, const Lane *, uint32_t &);

struct Kernels {
  KernelFn strided = nullptr;
  KernelFn unit = nullptr;
};

Kernels getKernels(pe::Opcode opcode) {
  switch (opcode) {
#define TESSERA_KERNEL(Name, ...)                                              \
  case pe::Opcode::Name:                                                       \
    return {&kernel<pe::Opcode::Name>, &unitKernel<pe::Opcode::Name>};
    TESSERA_DSD_OPS(TESSERA_KERNEL)
#undef TESSERA_KERNEL
  default:
    return {};
  }
}

/// Elements per call of a unit kernel: one block of results, of a
/// source's elements or of copies of a scalar.
constexpr uint64_t BlockElements = 1024;
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

/// Runs `n` elements over the mirror run by run, on copies of the
/// operands' cursors. Scalars are read from their broadcast blocks.
void runMirrored(const Kernels &kernels, uint8_t *mirror, uint8_t *results,
                 std::array<detail::Cursor, 4> cursors,
                 const std::array<uint8_t *, 4> &broadcast,
                 const std::array<unsigned, 4> &bytes,
                 const std::array<unsigned, 4> &memoryBytes, unsigned count,
                 uint64_t n, uint32_t &carry) {
  std::array<Lane, 4> lanes{};
  std::array<int64_t, 4> at{};
  for (uint64_t left = n; left > 0;) {
    uint64_t segment = left;
    bool unit = true;
    for (unsigned i = 0; i < count; ++i) {
      if (broadcast[i]) {
        lanes[i] = {broadcast[i], 0};
        continue;
      }
      const detail::Cursor &c = cursors[i];
      segment = std::min(segment, c.run);
      lanes[i] = {mirror + c.address, c.step};
      at[i] = c.address;
      unit &= c.step == static_cast<int64_t>(bytes[i]);
    }
    for (uint64_t done = 0; done < segment;) {
      uint64_t block = std::min(segment - done, BlockElements);
      if (unit && readsBeforeWrites(at, memoryBytes, count, block)) {
        uint8_t *dest = lanes[0].at;
        lanes[0].at = results;
        kernels.unit(block, lanes.data(), carry);
        std::memcpy(dest, results, block * bytes[0]);
        lanes[0].at = dest;
      } else {
        kernels.strided(block, lanes.data(), carry);
      }
      for (unsigned i = 0; i < count; ++i) {
        lanes[i].at += static_cast<int64_t>(block) * lanes[i].step;
        at[i] += static_cast<int64_t>(block) * lanes[i].step;
      }
      done += block;
    }
    for (unsigned i = 0; i < count; ++i)
      cursors[i].advance(segment);
    left -= segment;
  }
}

} // namespace

bool DSDEngine::canRunFast(const DSDOperation &op) {
  if (op.isMap() || op.fetched || op.resultReady)
    return false;
  for (unsigned i = 0; i < op.numOperands; ++i) {
    OperandClass cls = op.slots[i].cls;
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
  std::array<uint8_t *, 4> broadcast{};
  std::array<unsigned, 4> bytes{}, memoryBytes{};
  bool consecutive = true;
  uint64_t copies = std::min({budget, op.length - op.next, BlockElements});
  for (unsigned i = 0; i < count; ++i) {
    const OperandSlot &slot = op.slots[i];
    bytes[i] = slot.width / 8;
    if (slot.cls != OperandClass::Scalar) {
      memoryBytes[i] = bytes[i];
      consecutive &= isConsecutive(slot);
      continue;
    }
    broadcast[i] = mirror + BroadcastAt + (i - 1) * BlockBytes;
    if (slot.width == 16)
      std::fill_n(reinterpret_cast<uint16_t *>(broadcast[i]), copies,
                  static_cast<uint16_t>(slot.scalar));
    else
      std::fill_n(reinterpret_cast<uint32_t *>(broadcast[i]), copies,
                  slot.scalar);
  }

  uint64_t done = 0;
  while (done < budget && op.next < op.length) {
    uint64_t n = std::min({budget - done, op.length - op.next, FastChunk});
    std::array<int64_t, 4> lo{}, hi{}, first{};
    for (unsigned i = 0; i < count; ++i) {
      const OperandSlot &slot = op.slots[i];
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

    if (consecutive && readsBeforeWrites(first, memoryBytes, count, n)) {
      // Streaming: block by block from memory to memory; a later block
      // reads what an earlier one wrote, as element order demands.
      std::array<Lane, 4> lanes{};
      for (uint64_t at = 0; at < n; at += BlockElements) {
        uint64_t block = std::min(n - at, BlockElements);
        lanes[0] = {results, 0};
        for (unsigned i = 1; i < count; ++i) {
          if (broadcast[i]) {
            lanes[i] = {broadcast[i], 0};
            continue;
          }
          uint8_t *buffer = mirror + SourceBlocksAt + (i - 1) * BlockBytes;
          memory.read(static_cast<uint32_t>(first[i] + at * bytes[i]),
                      {buffer, block * bytes[i]});
          lanes[i] = {buffer, 0};
        }
        kernels.unit(block, lanes.data(), op.carry);
        memory.write(static_cast<uint32_t>(first[0] + at * bytes[0]),
                     {results, block * bytes[0]});
      }
    } else {
      // Mirror: the chunk's bytes at their own addresses, in any shape.
      for (unsigned i = 0; i < count; ++i)
        if (inMemory(op.slots[i]) && (i > 0 || !isDense(op.slots[i])))
          memory.read(static_cast<uint32_t>(lo[i]),
                      {mirror + lo[i], static_cast<size_t>(hi[i] - lo[i])});
      std::array<detail::Cursor, 4> cursors;
      for (unsigned i = 0; i < count; ++i)
        cursors[i] = op.slots[i].cursor;
      runMirrored(kernels, mirror, results, cursors, broadcast, bytes,
                  memoryBytes, count, n, op.carry);
      memory.write(static_cast<uint32_t>(lo[0]),
                   {mirror + lo[0], static_cast<size_t>(hi[0] - lo[0])});
    }
    for (unsigned i = 0; i < count; ++i)
      op.slots[i].cursor.advance(n);
    op.next += n;
    done += n;
  }
  return done;
}
