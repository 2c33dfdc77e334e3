#include "tessera/Dialect/CSL/Transforms/MemoryAllocator.h"
std::optional<tessera::csl::MemoryOverflow>
tessera::csl::MemoryAllocator::allocate(const std::vector<MemoryPiece> &,
                                        MemoryLayout &) const {
  return std::nullopt;
}
