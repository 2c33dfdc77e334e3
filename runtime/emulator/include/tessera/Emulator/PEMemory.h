//===- PEMemory.h - one PE's 48 KiB memory, sparse --------------*- C++ -*-===//
//
// The memory of one processing element (docs/Emulator.md, "PE memory"). A
// wafer has ~850,000 PEs and most of each memory is the program's load image
// or untouched zeros, so a PEMemory owns only the 256-byte pages that were
// written; every other page is read from an image shared by all PEs running
// the same program (copy on write). Bulk users (the DSD engine) can view
// ranges as contiguous bytes: pages those ranges need together move into one
// block, the window, which covers only the pages asked for. Plain C++20, no
// exceptions: a bad access returns a status the caller turns into a trap.
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

/// One range of PEMemory::viewSpans: the range and whether it will be
/// written go in, its bytes come out.
struct MemorySpan {
  uint32_t address = 0;
  uint32_t size = 0;
  bool write = false;
  const uint8_t *bytes = nullptr; ///< the range's bytes
  uint8_t *writable = nullptr;    ///< the same bytes, when `write`
};

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
  static_assert(NumPages < 255, "page owners are stored in one byte");
  static_assert(Size <= 65536, "an address fits 16 bits");

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

  /// Views several ranges at once as contiguous bytes (docs/Emulator.md,
  /// "PE memory"), for bulk work such as the DSD engine's fast path. Each
  /// range must be non-empty and lie in memory, else OutOfRange and nothing
  /// changes. The pages of a range to write become this memory's own, as a
  /// write would make them. A range over several pages is first gathered
  /// into the window, which changes no byte, unless it is already there or
  /// it is a range to read none of whose pages is owned (it is read from the
  /// image in place, or from the window if that holds it: the same bytes).
  /// Ranges that overlap share their bytes, so writes
  /// through one are seen through the others. The pointers stay valid, and
  /// show every write, until the next store, write, viewSpans, reset or
  /// move.
  MemoryStatus viewSpans(std::span<MemorySpan> spans);

  /// Asks the cache for the byte at `address` (nothing outside memory): a
  /// hint for the element an operation will touch a little later. Its
  /// page's pointer is read: prefetchPageTable() first.
  void prefetch(uint32_t address) const {
    if (address < Size)
      __builtin_prefetch(readPage(address / PageBytes) + address % PageBytes);
  }
  /// Asks the cache for the bytes the last scalar store wrote: a task runs
  /// the same code each time, and a counter it loads and stores again
  /// (a halo exchange's completion count) has left the cache of a large
  /// fabric by the PE's next turn. prefetchPageTable() first.
  void prefetchLastStore() const { prefetch(lastStore); }
  /// Asks the cache for what an access reads before the bytes: the
  /// window, the pointers, and the owners of the first 18 pages (one line,
  /// where the object starts one). A page further up has its owner in a
  /// later line, read when it is needed.
  void prefetchHeader() const { __builtin_prefetch(this); }
  /// Asks the cache for the pointers to the first owned pages.
  void prefetchPageTable() const {
    if (!ownedPages.empty())
      __builtin_prefetch(ownedPages.data());
  }

  /// Pages this memory owns (written since construction or reset()).
  unsigned getTouchedPages() const { return touchedPages; }
  /// Bytes in the window, 0 when viewSpans never needed one.
  unsigned getWindowBytes() const {
    return (windowEnd - windowFirst) * PageBytes;
  }
  /// Drops every written page and the window: the memory reads as its image
  /// again.
  void reset();
  const MemoryImage &getImage() const { return image; }

  /// The memory a program starts with (docs/BinaryFormat.md, "Loading"):
  /// zeros, the code words at codeAddress and the data at dataAddress. Fails
  /// when either does not fit in memory, the code address is odd, or code
  /// and data overlap.
  static ImageResult buildImage(const pe::ProgramBinary &program);

private:
  using Page = std::array<uint8_t, PageBytes>;

  /// The owner of an owned page in the window.
  static constexpr uint8_t InWindow = 255;
  /// The window grows in steps of this many pages (1 KiB), so that ranges
  /// creeping up through memory do not copy it every time.
  static constexpr unsigned WindowAlign = 4;

  const uint8_t *readPage(unsigned page) const {
    uint8_t owner = owners[page];
    if (!owner)
      return base + page * PageBytes;
    if (owner != InWindow)
      return ownedPages[owner - 1]->data();
    return window.get() + (page - windowFirst) * PageBytes;
  }
  /// The page, made private to this memory first if it was shared.
  uint8_t *writePage(unsigned page);
  /// Makes the window cover pages [first, end), moving owned pages into it.
  void gather(unsigned first, unsigned end);
  /// viewSpans when the window holds every range and owns the pages of
  /// those to write: its unowned pages hold the shared bytes, so reading
  /// them there is reading the image. False changes nothing.
  bool viewInWindow(std::span<MemorySpan> spans);
  bool inWindow(unsigned first, unsigned end) const {
    return windowFirst <= first && end <= windowEnd;
  }
  /// Where the bytes of a range that needs no gathering are.
  const uint8_t *locate(uint32_t address, unsigned first, unsigned end) const;
  /// Whether the range's pages lie one after another in some storage.
  bool isContiguous(unsigned first, unsigned end) const;

  // What every access reads comes first, so that with the owners of the
  // first 18 pages (a PE's data, in most programs) it fills the object's
  // first cache line, the one prefetchHeader() asks for.
  std::unique_ptr<uint8_t[]> window;
  std::vector<std::unique_ptr<Page>> ownedPages;
  /// Where unowned pages are read: the image's bytes or a static zero block.
  const uint8_t *base;
  /// Owned pages, in ownedPages or in the window.
  uint8_t touchedPages = 0;
  /// The window holds pages [windowFirst, windowEnd). Its unowned pages hold
  /// what `base` does (they are read from there), so that a page can become
  /// owned, or the window grow, without copying anything twice.
  uint8_t windowFirst = 0, windowEnd = 0;
  /// The address of the last store8/16/32 (prefetchLastStore).
  uint16_t lastStore = 0;
  /// 0: the page is read from `base`; InWindow: it is in the window; k: it
  /// is ownedPages[k - 1].
  std::array<uint8_t, NumPages> owners{};
  MemoryImage image;
};

} // namespace tessera::emulator

#endif // TESSERA_EMULATOR_PEMEMORY_H
