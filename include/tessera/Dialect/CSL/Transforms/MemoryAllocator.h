//===- MemoryAllocator.h - lay out one PE program's memory ------*- C++ -*-===//
//
// Places the pieces of one program (globals, code, stack) in the PE's byte
// address space and, when they do not fit, says which pieces are largest.
// Plain C++ so that it is tested on its own; the tessera-allocate-memory
// pass and the lowering to PE binaries both use it.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_DIALECT_CSL_TRANSFORMS_MEMORYALLOCATOR_H
#define TESSERA_DIALECT_CSL_TRANSFORMS_MEMORYALLOCATOR_H

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera::csl {

/// What a piece of memory holds. Data pieces get addresses from 0 upward in
/// the order given (initialised data first, then zero-filled), code follows
/// the data, and the stack sits at the top of memory.
enum class MemoryPieceKind { InitializedData, ZeroData, Code, Stack };

struct MemoryPiece {
  std::string name; ///< a global's symbol, "code", or "stack"
  MemoryPieceKind kind = MemoryPieceKind::ZeroData;
  uint32_t bytes = 0;
  uint32_t alignment = 1; ///< a power of two; 0 counts as 1
};

struct MemoryLayout {
  /// Byte address of each piece, in the order the pieces were given.
  std::vector<uint32_t> addresses;
  uint32_t dataBegin = 0, dataEnd = 0; ///< initialised data
  /// Zero-filled data; bssBegin == dataEnd, so alignment padding between
  /// the two counts as zero-filled.
  uint32_t bssBegin = 0, bssEnd = 0;
  /// Code; codeBegin is the first code piece's address (bssEnd without code).
  uint32_t codeBegin = 0, codeEnd = 0;
  uint32_t stackBegin = 0; ///< the stack occupies [stackBegin, capacity)
  uint32_t usedBytes = 0;  ///< every piece plus alignment padding
};

/// The pieces did not fit.
struct MemoryOverflow {
  /// The end of the code plus the stack region: what memory would need.
  /// 64 bits, since pieces near 4 GiB each add up past 32.
  uint64_t neededBytes = 0;
  uint32_t capacityBytes = 0;
  /// Indices into the pieces, largest first (ties in the order given), at
  /// most `maxListed` of them; empty pieces are never listed.
  std::vector<size_t> largest;
  /// The listed pieces as the diagnostic prints them: "'a' 40,000 bytes,
  /// code 9,000 bytes" (globals quoted, code and stack by their bare name).
  std::string largestList;
  /// "needs 51,200 bytes of 49,152; largest: 'a' 40,000 bytes, code 9,000
  /// bytes, ..." as the diagnostic prints it (without "; largest: ..." when
  /// nothing is listed).
  std::string message;
};

class MemoryAllocator {
public:
  explicit MemoryAllocator(uint32_t capacityBytes, size_t maxListed = 5)
      : capacity(capacityBytes), maxListed(maxListed) {}

  /// Lays out `pieces`; on overflow returns the error and leaves `layout`
  /// unspecified.
  std::optional<MemoryOverflow> allocate(const std::vector<MemoryPiece> &pieces,
                                         MemoryLayout &layout) const;

  /// The stack region is aligned down to this many bytes.
  static constexpr uint32_t getStackAlignment() { return 4; }

private:
  uint32_t capacity;
  size_t maxListed;
};

} // namespace tessera::csl

#endif // TESSERA_DIALECT_CSL_TRANSFORMS_MEMORYALLOCATOR_H
