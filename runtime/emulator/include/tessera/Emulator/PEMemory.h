//===- PEMemory.h - one PE's 48 KiB memory, sparse --------------*- C++ -*-===//
//
// The memory of one processing element (docs/Emulator.md, "PE memory"). A
// wafer has ~850,000 PEs and most of each memory is the program's load image
// or untouched zeros, so a PEMemory owns only the 256-byte pages that were
// written; every other page is read from an image shared by all PEs running
// the same program (copy on write). Plain C++20, no exceptions: a bad access
// returns a status the caller turns into a trap.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_PEMEMORY_H
#define TESSERA_EMULATOR_PEMEMORY_H

#include "tessera/Target/PEBinary/Binary.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tessera::emulator {

/// The outcome of one memory access. Range is checked before alignment.
enum class MemoryStatus : uint8_t {
  Ok,
  OutOfRange, ///< some byte of the access lies at or above pe::MemoryBytes
  Misaligned, ///< a 16- or 32-bit access at an odd address
};

/// A program's load image (pe::MemoryBytes bytes), shared read-only.
using MemoryImage = std::shared_ptr<const std::vector<uint8_t>>;

/// buildImage's result: the image, or why the program cannot be loaded.
struct ImageResult {
  MemoryImage image;
  std::optional<std::string> error;
  explicit operator bool() const { return !error; }
};

class PEMemory {
public:
  static constexpr unsigned Size = pe::MemoryBytes;
  static constexpr unsigned PageBytes = 256;
  static constexpr unsigned NumPages = Size / PageBytes;
  static_assert(Size % PageBytes == 0, "pages tile the memory");
  static_assert(NumPages < 256, "page owners are stored in one byte");

  /// All zeros.
  PEMemory();
  /// Starts as `image`: bytes past its end read as zero and bytes past
  /// pe::MemoryBytes are ignored. A null image means all zeros.
  explicit PEMemory(MemoryImage image);

  PEMemory(PEMemory &&) = default;
  PEMemory &operator=(PEMemory &&) = default;

  /// Little-endian loads; `value` is unchanged unless the status is Ok.
  MemoryStatus load8(uint32_t address, uint8_t &value) const;
  MemoryStatus load16(uint32_t address, uint16_t &value) const;
  MemoryStatus load32(uint32_t address, uint32_t &value) const;
  /// Little-endian stores; memory is unchanged unless the status is Ok.
  MemoryStatus store8(uint32_t address, uint8_t value);
  MemoryStatus store16(uint32_t address, uint16_t value);
  MemoryStatus store32(uint32_t address, uint32_t value);

  /// Bulk copies of any alignment (the host's memcpy); all or nothing: the
  /// whole range [address, address + size) must lie in memory.
  MemoryStatus read(uint32_t address, std::span<uint8_t> out) const;
  MemoryStatus write(uint32_t address, std::span<const uint8_t> bytes);

  /// Pages this memory owns (written since construction or reset()).
  unsigned getTouchedPages() const {
    return static_cast<unsigned>(ownedPages.size());
  }
  /// Drops every written page: the memory reads as its image again.
  void reset();
  const MemoryImage &getImage() const { return image; }

  /// The memory a program starts with (docs/BinaryFormat.md, "Loading"):
  /// zeros, the code words at codeAddress and the data at dataAddress. Fails
  /// when either does not fit in memory, the code address is odd, or code
  /// and data overlap.
  static ImageResult buildImage(const pe::ProgramBinary &program);

private:
  using Page = std::array<uint8_t, PageBytes>;

  const uint8_t *readPage(unsigned page) const {
    uint8_t owner = owners[page];
    return owner ? ownedPages[owner - 1]->data() : base + page * PageBytes;
  }
  /// The page, made private to this memory first if it was shared.
  uint8_t *writePage(unsigned page);

  MemoryImage image;
  /// Where unowned pages are read: the image's bytes or a static zero block.
  const uint8_t *base;
  /// 0: the page is read from `base`; k: it is ownedPages[k - 1].
  std::array<uint8_t, NumPages> owners{};
  std::vector<std::unique_ptr<Page>> ownedPages;
};

} // namespace tessera::emulator

#endif // TESSERA_EMULATOR_PEMEMORY_H
