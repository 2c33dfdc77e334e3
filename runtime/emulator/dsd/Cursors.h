//===- Cursors.h - where the elements of an operand lie ---------*- C++ -*-===//
//
// Builds the detail::Cursor of a memory DSR or a pointer, and bounds the
// bytes the next n elements touch (for the fast path's range check).
// Address arithmetic wraps modulo 2^64: an element far outside memory
// traps, it never overflows. Internal to the DSD engine.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_DSD_CURSORS_H
#define TESSERA_EMULATOR_DSD_CURSORS_H

#include "tessera/Emulator/DSDEngine.h"

namespace tessera::emulator::dsd {

/// Sets `c` (in place: it is an operand slot's) to element 0 of memory DSR
/// `d` in an operation whose `index` option is `index` (used by
/// wavelet-index-offset DSRs) and which accesses the operand `accessBits`
/// wide. Strides, lengths and the index count elements
/// of the operation's width, which may differ from the descriptor's (a
/// 32-bit operation over an f16 array steps 4 bytes, as fft-1d-2d's
/// transpose needs); the offset counts elements of the descriptor's width,
/// the array's element type it was made from.
void initMemoryCursor(detail::Cursor &c, const Descriptor &d, int32_t index,
                      unsigned accessBits);

/// The same address for every element (a pointer operand).
detail::Cursor makeFixedCursor(uint32_t address);

/// The bytes [lo, hi) that cover the next `n` >= 1 elements of `cursor`
/// accessed `bytes` wide; may be wider than needed (mem4d, circbuf), never
/// narrower.
void boundElements(const detail::Cursor &cursor, uint64_t n, unsigned bytes,
                   int64_t &lo, int64_t &hi);

} // namespace tessera::emulator::dsd

#endif // TESSERA_EMULATOR_DSD_CURSORS_H
