//===- LargeArray.cpp - uninitialised arrays on huge pages ----------------===//

#include "tessera/MemoryX/LargeArray.h"

#include <cstdlib>
#include <new>

#if defined(__linux__)
#include <sys/mman.h>
#endif

using namespace tessera::memoryx;

namespace {
constexpr size_t HugePage = size_t(2) << 20;
constexpr size_t CacheLine = 64;
} // namespace

void *detail::allocateLarge(size_t bytes) {
  // Huge-page alignment only pays for arrays of at least one huge page.
  size_t alignment = bytes >= HugePage ? HugePage : CacheLine;
  size_t rounded = (bytes + alignment - 1) / alignment * alignment;
  if (rounded < bytes || rounded == 0)
    rounded = bytes ? bytes : alignment;
  void *memory = std::aligned_alloc(alignment, rounded);
  if (!memory)
    throw std::bad_alloc();
#if defined(__linux__) && defined(MADV_HUGEPAGE)
  // Advice only: without transparent huge pages this is a no-op.
  if (alignment == HugePage)
    madvise(memory, rounded, MADV_HUGEPAGE);
#endif
  return memory;
}

void detail::freeLarge(void *memory) { std::free(memory); }
