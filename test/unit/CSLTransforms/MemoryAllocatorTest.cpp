//===- MemoryAllocatorTest.cpp - laying out a PE program's memory ---------===//

#include "tessera/Dialect/CSL/Transforms/MemoryAllocator.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

using namespace tessera::csl;

namespace {

constexpr uint32_t peMemory = 49152;

MemoryPiece initialized(const char *name, uint32_t bytes,
                        uint32_t alignment = 1) {
  return {name, MemoryPieceKind::InitializedData, bytes, alignment};
}
MemoryPiece zeroed(const char *name, uint32_t bytes, uint32_t alignment = 1) {
  return {name, MemoryPieceKind::ZeroData, bytes, alignment};
}
MemoryPiece code(uint32_t bytes) {
  return {"code", MemoryPieceKind::Code, bytes, 2};
}
MemoryPiece stack(uint32_t bytes) {
  return {"stack", MemoryPieceKind::Stack, bytes, 4};
}

} // namespace

TEST_CASE("no pieces fit in any memory", "[allocator]") {
  MemoryLayout layout;
  CHECK_FALSE(MemoryAllocator(peMemory).allocate({}, layout));
  CHECK(layout.addresses.empty());
  CHECK(layout.dataEnd == 0);
  CHECK(layout.bssEnd == 0);
  CHECK(layout.codeBegin == 0);
  CHECK(layout.codeEnd == 0);
  CHECK(layout.stackBegin == peMemory);
  CHECK(layout.usedBytes == 0);
  CHECK_FALSE(MemoryAllocator(0).allocate({}, layout));
}

TEST_CASE("initialised data, zero-filled data, code, then the stack on top",
          "[allocator]") {
  std::vector<MemoryPiece> pieces = {zeroed("a", 4, 4), initialized("b", 3),
                                     code(10),          initialized("c", 2, 2),
                                     stack(100),        zeroed("d", 8, 8)};
  MemoryLayout layout;
  REQUIRE_FALSE(MemoryAllocator(1000).allocate(pieces, layout));
  // b [0,3), c [4,6) | a [8,12), d [16,24) | code [24,34) ... stack [900,1000)
  CHECK(layout.addresses == std::vector<uint32_t>{8, 0, 24, 4, 900, 16});
  CHECK(layout.dataBegin == 0);
  CHECK(layout.dataEnd == 6);
  CHECK(layout.bssBegin == 6);
  CHECK(layout.bssEnd == 24);
  CHECK(layout.codeBegin == 24);
  CHECK(layout.codeEnd == 34);
  CHECK(layout.stackBegin == 900);
  CHECK(layout.usedBytes == 134);
}

TEST_CASE("code is aligned after the data and starts at the data's end "
          "without code pieces",
          "[allocator]") {
  MemoryLayout layout;
  REQUIRE_FALSE(MemoryAllocator(peMemory).allocate(
      {initialized("x", 5), code(8)}, layout));
  CHECK(layout.addresses == std::vector<uint32_t>{0, 6});
  CHECK(layout.codeBegin == 6);
  CHECK(layout.codeEnd == 14);

  REQUIRE_FALSE(MemoryAllocator(peMemory).allocate({zeroed("y", 5)}, layout));
  CHECK(layout.dataEnd == 0);
  CHECK(layout.bssEnd == 5);
  CHECK(layout.codeBegin == 5);
  CHECK(layout.codeEnd == 5);
}

TEST_CASE("the stack begins at an address aligned down to 4", "[allocator]") {
  MemoryLayout layout;
  REQUIRE_FALSE(MemoryAllocator(1002).allocate({stack(10)}, layout));
  CHECK(layout.stackBegin == 992);
  CHECK(layout.usedBytes == 10);
  REQUIRE_FALSE(MemoryAllocator(1003).allocate({stack(10)}, layout));
  CHECK(layout.stackBegin == 992);
  CHECK(layout.usedBytes == 11);
  // Several stack pieces grow downward, the first one highest.
  REQUIRE_FALSE(MemoryAllocator(1000).allocate({stack(6), stack(4)}, layout));
  CHECK(layout.addresses == std::vector<uint32_t>{992, 988});
  CHECK(layout.stackBegin == 988);
}

TEST_CASE("pieces that fill memory exactly fit", "[allocator]") {
  MemoryLayout layout;
  std::vector<MemoryPiece> pieces = {initialized("w", 40000, 4), code(8128),
                                     stack(1024)};
  CHECK_FALSE(MemoryAllocator(peMemory).allocate(pieces, layout));
  CHECK(layout.codeEnd == layout.stackBegin);
  CHECK(layout.usedBytes == peMemory);

  pieces[1].bytes += 2;
  std::optional<MemoryOverflow> overflow =
      MemoryAllocator(peMemory).allocate(pieces, layout);
  REQUIRE(overflow);
  CHECK(overflow->neededBytes == peMemory + 2);
  CHECK(overflow->capacityBytes == peMemory);
}

TEST_CASE("an overflow lists the largest pieces, globals quoted",
          "[allocator]") {
  std::vector<MemoryPiece> pieces = {
      zeroed("x", 800, 4), initialized("weights", 40000, 4),
      zeroed("small", 376), code(9000), stack(1024)};
  MemoryLayout layout;
  std::optional<MemoryOverflow> overflow =
      MemoryAllocator(peMemory, 4).allocate(pieces, layout);
  REQUIRE(overflow);
  CHECK(overflow->neededBytes == 51200);
  CHECK(overflow->capacityBytes == peMemory);
  CHECK(overflow->largest == std::vector<size_t>{1, 3, 4, 0});
  CHECK(overflow->largestList == "'weights' 40,000 bytes, code 9,000 bytes, "
                                 "stack 1,024 bytes, 'x' 800 bytes");
  CHECK(overflow->message ==
        "needs 51,200 bytes of 49,152; largest: 'weights' 40,000 bytes, code "
        "9,000 bytes, stack 1,024 bytes, 'x' 800 bytes");

  // Five by default.
  overflow = MemoryAllocator(peMemory).allocate(pieces, layout);
  REQUIRE(overflow);
  CHECK(overflow->largest == std::vector<size_t>{1, 3, 4, 0, 2});
  CHECK(overflow->message ==
        "needs 51,200 bytes of 49,152; largest: 'weights' 40,000 bytes, code "
        "9,000 bytes, stack 1,024 bytes, 'x' 800 bytes, 'small' 376 bytes");
}

TEST_CASE("equal sizes are listed in the order given", "[allocator]") {
  std::vector<MemoryPiece> pieces = {zeroed("a", 100), zeroed("b", 200),
                                     initialized("c", 100),
                                     initialized("d", 200)};
  MemoryLayout layout;
  std::optional<MemoryOverflow> overflow =
      MemoryAllocator(500, 3).allocate(pieces, layout);
  REQUIRE(overflow);
  CHECK(overflow->largest == std::vector<size_t>{1, 3, 0});
  CHECK(overflow->message == "needs 600 bytes of 500; largest: 'b' 200 bytes, "
                             "'d' 200 bytes, 'a' 100 bytes");
}

TEST_CASE("empty pieces take an aligned address and are never listed",
          "[allocator]") {
  std::vector<MemoryPiece> pieces = {
      initialized("a", 3), initialized("empty", 0, 8), initialized("b", 1)};
  MemoryLayout layout;
  REQUIRE_FALSE(MemoryAllocator(100).allocate(pieces, layout));
  CHECK(layout.addresses == std::vector<uint32_t>{0, 8, 8});
  CHECK(layout.dataEnd == 9);

  std::optional<MemoryOverflow> overflow =
      MemoryAllocator(8).allocate(pieces, layout);
  REQUIRE(overflow);
  CHECK(overflow->largest == std::vector<size_t>{0, 2});
  CHECK(overflow->message ==
        "needs 9 bytes of 8; largest: 'a' 3 bytes, 'b' 1 bytes");
}

TEST_CASE("an overflow without listed pieces says only what is needed",
          "[allocator]") {
  MemoryLayout layout;
  std::optional<MemoryOverflow> overflow =
      MemoryAllocator(10, 0).allocate({zeroed("a", 11)}, layout);
  REQUIRE(overflow);
  CHECK(overflow->largest.empty());
  CHECK(overflow->largestList.empty());
  CHECK(overflow->message == "needs 11 bytes of 10");
}

TEST_CASE("alignment 0 counts as 1", "[allocator]") {
  MemoryLayout layout;
  REQUIRE_FALSE(MemoryAllocator(100).allocate(
      {initialized("a", 1, 0), initialized("b", 1, 0)}, layout));
  CHECK(layout.addresses == std::vector<uint32_t>{0, 1});
}

TEST_CASE("sizes near 4 GiB do not wrap around", "[allocator]") {
  MemoryLayout layout;
  std::optional<MemoryOverflow> overflow = MemoryAllocator(peMemory).allocate(
      {zeroed("a", UINT32_MAX), zeroed("b", UINT32_MAX)}, layout);
  REQUIRE(overflow);
  CHECK(overflow->neededBytes == 2ull * UINT32_MAX);
  CHECK(overflow->message ==
        "needs 8,589,934,590 bytes of 49,152; largest: 'a' 4,294,967,295 "
        "bytes, 'b' 4,294,967,295 bytes");

  // A stack larger than memory: its region is rounded to 4 bytes as well.
  overflow = MemoryAllocator(peMemory).allocate({stack(UINT32_MAX)}, layout);
  REQUIRE(overflow);
  CHECK(overflow->neededBytes == 4294967296ull);
  CHECK(overflow->message == "needs 4,294,967,296 bytes of 49,152; largest: "
                             "stack 4,294,967,295 bytes");

  // A large alignment pushes a piece past the end instead of to 0.
  overflow = MemoryAllocator(peMemory).allocate(
      {initialized("a", 1), initialized("b", 2, 1u << 31)}, layout);
  REQUIRE(overflow);
  CHECK(overflow->neededBytes == (1ull << 31) + 2);

  // Code and stack of almost 4 GiB each on a full 32-bit capacity.
  overflow =
      MemoryAllocator(UINT32_MAX)
          .allocate({code(UINT32_MAX - 1), stack(UINT32_MAX - 3)}, layout);
  REQUIRE(overflow);
  CHECK(overflow->neededBytes == 2ull * UINT32_MAX - 1);
}

TEST_CASE("a layout is reset by each allocation", "[allocator]") {
  MemoryLayout layout;
  REQUIRE_FALSE(MemoryAllocator(100).allocate(
      {initialized("a", 10), code(10), stack(8)}, layout));
  REQUIRE_FALSE(MemoryAllocator(100).allocate({zeroed("b", 4)}, layout));
  CHECK(layout.addresses == std::vector<uint32_t>{0});
  CHECK(layout.dataEnd == 0);
  CHECK(layout.bssEnd == 4);
  CHECK(layout.codeEnd == 4);
  CHECK(layout.stackBegin == 100);
  CHECK(layout.usedBytes == 4);
}
