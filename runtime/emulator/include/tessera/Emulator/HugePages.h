//===- HugePages.h - large emulator arrays on huge pages --------*- C++ -*-===//
//
// A fabric of thousands of PEs visits its PE records, router lanes and
// operations in flight every cycle, all over a heap of tens or hundreds of
// megabytes: with 4 KiB pages most visits also miss the TLB. Debian's
// kernels back memory with 2 MiB pages only where the process asks
// (transparent_hugepage "madvise"), so the emulator's large arrays ask.
// Small ones (every array of a small fabric) come from the usual heap.
// docs/Performance.md, "Profile of the emulator".
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_HUGEPAGES_H
#define TESSERA_EMULATOR_HUGEPAGES_H

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <new>
#include <type_traits>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace tessera::emulator {

inline constexpr size_t HugePageBytes = size_t(2) << 20;
/// Arrays from this size on are worth a huge page of their own.
inline constexpr size_t HugePageMinimum = size_t(1) << 20;

/// `bytes` aligned to `align`; from HugePageMinimum on, whole 2 MiB pages
/// the kernel is asked to back with huge pages. Throws std::bad_alloc.
inline void *allocateLarge(size_t bytes, size_t align) {
  if (bytes < HugePageMinimum)
    return ::operator new(bytes, std::align_val_t(align));
  size_t rounded = (bytes + HugePageBytes - 1) / HugePageBytes * HugePageBytes;
  void *p = std::aligned_alloc(HugePageBytes, rounded);
  if (!p)
    throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  (void)madvise(p, rounded, MADV_HUGEPAGE); // only advice: may be refused
#endif
  return p;
}

/// Frees what allocateLarge(bytes, align) returned.
inline void freeLarge(void *p, size_t bytes, size_t align) {
  if (bytes < HugePageMinimum)
    ::operator delete(p, std::align_val_t(align));
  else
    std::free(p);
}

/// A std allocator over allocateLarge, for the emulator's per-PE and
/// per-lane vectors.
template <typename T> struct LargeAllocator {
  using value_type = T;
  LargeAllocator() = default;
  template <typename U> LargeAllocator(const LargeAllocator<U> &) {}
  T *allocate(size_t n) {
    return static_cast<T *>(allocateLarge(n * sizeof(T), alignof(T)));
  }
  void deallocate(T *p, size_t n) { freeLarge(p, n * sizeof(T), alignof(T)); }
  template <typename U> bool operator==(const LargeAllocator<U> &) const {
    return true;
  }
};

/// Scratch room for up to capacity() objects that are rewritten before
/// they are read, such as a cycle's moves: nothing is zeroed or copied when
/// it grows, so pages it never uses are never touched (a wafer's network
/// would otherwise clear a few hundred megabytes it mostly never uses).
template <typename T> class ScratchArray {
  static_assert(std::is_trivially_copyable_v<T> &&
                    std::is_trivially_destructible_v<T>,
                "the room holds plain data only");

public:
  ScratchArray() = default;
  ScratchArray(const ScratchArray &) = delete;
  ScratchArray &operator=(const ScratchArray &) = delete;
  ~ScratchArray() {
    if (items)
      freeLarge(items, room * sizeof(T), alignof(T));
  }
  /// Room for at least `n`; what it held is lost when it grows.
  void reserveDiscarding(size_t n) {
    if (n <= room)
      return;
    size_t grown = std::max(n, 2 * room);
    T *fresh = static_cast<T *>(allocateLarge(grown * sizeof(T), alignof(T)));
    if (items)
      freeLarge(items, room * sizeof(T), alignof(T));
    items = fresh;
    room = grown;
  }
  size_t capacity() const { return room; }
  T &operator[](size_t i) { return items[i]; }
  const T &operator[](size_t i) const { return items[i]; }
  T *data() { return items; }

private:
  T *items = nullptr;
  size_t room = 0;
};

} // namespace tessera::emulator

#endif // TESSERA_EMULATOR_HUGEPAGES_H
