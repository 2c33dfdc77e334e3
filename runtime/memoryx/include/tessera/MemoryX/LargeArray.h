//===- LargeArray.h - uninitialised arrays on huge pages --------*- C++ -*-===//
//
// The master weights, the optimizer state and the streamed arrays are tens
// of megabytes each, and the transposed order reads the values with a
// stride of a whole row: on 4 KiB pages nearly every read would miss the
// TLB. LargeArray asks the kernel for transparent huge pages and, unlike
// std::vector, does not zero what the next pass overwrites anyway.
// Allocation failure throws std::bad_alloc, which the public entry points
// turn into an Error.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_MEMORYX_LARGEARRAY_H
#define TESSERA_MEMORYX_LARGEARRAY_H

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <new>
#include <span>
#include <type_traits>
#include <utility>

namespace tessera::memoryx {

namespace detail {
/// At least `bytes` bytes, aligned for huge pages when that large; throws
/// std::bad_alloc on failure.
void *allocateLarge(size_t bytes);
void freeLarge(void *memory);
} // namespace detail

template <typename T> class LargeArray {
  static_assert(std::is_trivially_copyable_v<T>);

public:
  LargeArray() = default;
  explicit LargeArray(size_t count) { resize(count); }
  LargeArray(const LargeArray &other) { *this = other; }
  LargeArray(LargeArray &&other) noexcept { swap(other); }
  ~LargeArray() { detail::freeLarge(elements); }

  LargeArray &operator=(const LargeArray &other) {
    if (this != &other) {
      resize(other.count);
      if (count)
        std::memcpy(elements, other.elements, count * sizeof(T));
    }
    return *this;
  }
  LargeArray &operator=(LargeArray &&other) noexcept {
    LargeArray moved(std::move(other));
    swap(moved);
    return *this;
  }

  void swap(LargeArray &other) noexcept {
    std::swap(elements, other.elements);
    std::swap(count, other.count);
    std::swap(capacity, other.capacity);
  }

  /// Keeps the first min(old, new) elements; new ones are uninitialised.
  void resize(size_t newCount) {
    if (newCount > capacity) {
      if (newCount > SIZE_MAX / sizeof(T))
        throw std::bad_alloc();
      T *grown = static_cast<T *>(detail::allocateLarge(newCount * sizeof(T)));
      if (count)
        std::memcpy(grown, elements, count * sizeof(T));
      detail::freeLarge(elements);
      elements = grown;
      capacity = newCount;
    }
    count = newCount;
  }

  void fill(const T &value) {
    for (size_t i = 0; i < count; ++i)
      elements[i] = value;
  }

  size_t size() const { return count; }
  bool empty() const { return count == 0; }
  T *data() { return elements; }
  const T *data() const { return elements; }
  T &operator[](size_t i) { return elements[i]; }
  const T &operator[](size_t i) const { return elements[i]; }
  std::span<T> span() { return {elements, count}; }
  std::span<const T> span() const { return {elements, count}; }

private:
  T *elements = nullptr;
  size_t count = 0;
  size_t capacity = 0;
};

} // namespace tessera::memoryx

#endif // TESSERA_MEMORYX_LARGEARRAY_H
