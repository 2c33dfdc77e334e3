//===- Prefetch.h - asking the cache for an object's lines -------*- C++ -*-===//
//
// A large fabric's PEs, operations and descriptors are far apart and out
// of the caches by the time they are visited again, so the emulator asks
// for their lines a few visits ahead (docs/Emulator.md, "Memory and
// speed"). This is the one way it asks for an object, or part of one.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_PREFETCH_H
#define TESSERA_EMULATOR_PREFETCH_H

#include <cstddef>
#include <cstdint>

namespace tessera::emulator {

inline constexpr size_t CacheLineBytes = 64;

/// Asks the cache for every line that bytes [from, to) of `object`
/// touch; `ForWrite` when they are about to be written. A type aligned to
/// a line starts one, so that with constant bounds the loop unrolls into a
/// fixed set of prefetches; any other object may start mid-line.
template <bool ForWrite = false, typename T>
inline void prefetchLines(const T *object, size_t from, size_t to) {
  const char *base = reinterpret_cast<const char *>(object);
  if constexpr (alignof(T) < CacheLineBytes) {
    size_t into = reinterpret_cast<uintptr_t>(base) % CacheLineBytes;
    base -= into;
    from += into;
    to += into;
  }
  for (size_t at = from / CacheLineBytes * CacheLineBytes; at < to;
       at += CacheLineBytes)
    __builtin_prefetch(base + at, ForWrite ? 1 : 0);
}

/// The lines of the first `bytes` bytes of `object`.
template <bool ForWrite = false, typename T>
inline void prefetchLines(const T *object, size_t bytes) {
  prefetchLines<ForWrite>(object, 0, bytes);
}

} // namespace tessera::emulator

#endif // TESSERA_EMULATOR_PREFETCH_H
