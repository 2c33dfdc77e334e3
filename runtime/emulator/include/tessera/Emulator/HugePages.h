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

#include <cstddef>
#include <cstdlib>
#include <new>

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

} // namespace tessera::emulator

#endif // TESSERA_EMULATOR_HUGEPAGES_H
