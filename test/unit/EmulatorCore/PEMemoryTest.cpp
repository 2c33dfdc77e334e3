//===- PEMemoryTest.cpp - sparse PE memory and load images ----------------===//

#include "TestSupport.h"

using namespace emutest;

namespace {

MemoryImage imageOf(std::vector<uint8_t> bytes) {
  return std::make_shared<const std::vector<uint8_t>>(std::move(bytes));
}

/// A full-size image whose byte i is i * 7 (mod 256).
MemoryImage patternImage() {
  std::vector<uint8_t> bytes(PEMemory::Size);
  for (size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<uint8_t>(i * 7);
  return imageOf(std::move(bytes));
}

} // namespace

TEST_CASE("a memory without an image reads zeros and owns no page",
          "[pememory]") {
  PEMemory memory;
  uint32_t value = 1;
  CHECK(memory.load32(0, value) == MemoryStatus::Ok);
  CHECK(value == 0);
  CHECK(memory.load32(PEMemory::Size - 4, value) == MemoryStatus::Ok);
  CHECK(value == 0);
  CHECK(memory.getTouchedPages() == 0);
  CHECK(PEMemory::Size == 49152);
  CHECK(PEMemory::NumPages == 192);

  PEMemory nullImage(nullptr);
  uint8_t byte = 1;
  CHECK(nullImage.load8(100, byte) == MemoryStatus::Ok);
  CHECK(byte == 0);
  CHECK(nullImage.getTouchedPages() == 0);
}

TEST_CASE("loads and stores are little-endian", "[pememory]") {
  PEMemory memory;
  REQUIRE(memory.store32(0x200, 0x11223344) == MemoryStatus::Ok);
  uint8_t b;
  uint16_t hw;
  uint32_t w;
  CHECK((memory.load8(0x200, b) == MemoryStatus::Ok && b == 0x44));
  CHECK((memory.load8(0x203, b) == MemoryStatus::Ok && b == 0x11));
  CHECK((memory.load16(0x202, hw) == MemoryStatus::Ok && hw == 0x1122));
  REQUIRE(memory.store16(0x202, 0xBEEF) == MemoryStatus::Ok);
  REQUIRE(memory.store8(0x200, 0x99) == MemoryStatus::Ok);
  CHECK((memory.load32(0x200, w) == MemoryStatus::Ok && w == 0xBEEF3399));
}

TEST_CASE("accesses past the end or at odd addresses fail and change nothing",
          "[pememory]") {
  PEMemory memory;
  uint8_t b = 0xAA;
  uint16_t hw = 0xAAAA;
  uint32_t w = 0xAAAAAAAA;
  // The last byte, halfword and word that fit.
  CHECK(memory.load8(0xBFFF, b) == MemoryStatus::Ok);
  CHECK(memory.load16(0xBFFE, hw) == MemoryStatus::Ok);
  CHECK(memory.load32(0xBFFC, w) == MemoryStatus::Ok);
  CHECK(memory.store8(0xBFFF, 1) == MemoryStatus::Ok);
  CHECK(memory.store16(0xBFFE, 1) == MemoryStatus::Ok);
  CHECK(memory.store32(0xBFFC, 1) == MemoryStatus::Ok);

  b = 0xAA;
  hw = 0xAAAA;
  w = 0xAAAAAAAA;
  CHECK(memory.load8(0xC000, b) == MemoryStatus::OutOfRange);
  CHECK(memory.load16(0xC000, hw) == MemoryStatus::OutOfRange);
  CHECK(memory.load32(0xBFFE, w) == MemoryStatus::OutOfRange);
  CHECK(memory.load32(0xFFFFFFFE, w) == MemoryStatus::OutOfRange);
  CHECK(memory.load8(0xFFFFFFFF, b) == MemoryStatus::OutOfRange);
  CHECK(b == 0xAA);
  CHECK(hw == 0xAAAA);
  CHECK(w == 0xAAAAAAAA);

  CHECK(memory.load16(0x101, hw) == MemoryStatus::Misaligned);
  CHECK(memory.load32(0x103, w) == MemoryStatus::Misaligned);
  CHECK(hw == 0xAAAA);
  CHECK(w == 0xAAAAAAAA);
  // Range is checked before alignment.
  CHECK(memory.load16(0xC001, hw) == MemoryStatus::OutOfRange);
  CHECK(memory.store32(0xBFFF, 0) == MemoryStatus::OutOfRange);

  unsigned pages = memory.getTouchedPages();
  CHECK(memory.store8(0xC000, 1) == MemoryStatus::OutOfRange);
  CHECK(memory.store16(0x301, 1) == MemoryStatus::Misaligned);
  CHECK(memory.store32(0x301, 1) == MemoryStatus::Misaligned);
  CHECK(memory.store32(0xBFFE, 1) == MemoryStatus::OutOfRange);
  CHECK(memory.getTouchedPages() == pages);
  CHECK((memory.load32(0x300, w) == MemoryStatus::Ok && w == 0));
  CHECK((memory.load32(0xBFFC, w) == MemoryStatus::Ok && w == 1));
}

TEST_CASE("a 32-bit access may straddle two pages", "[pememory]") {
  PEMemory memory(patternImage());
  uint32_t w;
  // 0xFE is even but the word's upper half is on the next page.
  REQUIRE(memory.load32(0xFE, w) == MemoryStatus::Ok);
  CHECK(w == ((0xFEu * 7 & 0xFF) | (0xFFu * 7 & 0xFF) << 8 |
              (0x100u * 7 & 0xFF) << 16 | (0x101u * 7 & 0xFF) << 24));
  REQUIRE(memory.store32(0xFE, 0xA1B2C3D4) == MemoryStatus::Ok);
  CHECK(memory.getTouchedPages() == 2);
  CHECK((memory.load32(0xFE, w) == MemoryStatus::Ok && w == 0xA1B2C3D4));
}

TEST_CASE("writes copy a page from the shared image, never into it",
          "[pememory]") {
  MemoryImage image = patternImage();
  PEMemory first(image), second(image);
  CHECK(first.getImage() == image);

  REQUIRE(first.store16(0x1000, 0xFFFF) == MemoryStatus::Ok);
  CHECK(first.getTouchedPages() == 1);
  CHECK(second.getTouchedPages() == 0);
  CHECK((*image)[0x1000] == static_cast<uint8_t>(0x1000 * 7));

  uint16_t hw;
  CHECK((first.load16(0x1000, hw) == MemoryStatus::Ok && hw == 0xFFFF));
  CHECK((second.load16(0x1000, hw) == MemoryStatus::Ok &&
         hw == ((0x1000 * 7 & 0xFF) | (0x1001 * 7 & 0xFF) << 8)));
  // The rest of the written page is still the image's.
  uint8_t b;
  CHECK((first.load8(0x10FF, b) == MemoryStatus::Ok &&
         b == static_cast<uint8_t>(0x10FF * 7)));
  CHECK((first.load8(0x1100, b) == MemoryStatus::Ok &&
         b == static_cast<uint8_t>(0x1100 * 7)));

  // A second write to the same page allocates nothing new.
  REQUIRE(first.store8(0x10FF, 0) == MemoryStatus::Ok);
  CHECK(first.getTouchedPages() == 1);

  first.reset();
  CHECK(first.getTouchedPages() == 0);
  CHECK((first.load16(0x1000, hw) == MemoryStatus::Ok &&
         hw == ((0x1000 * 7 & 0xFF) | (0x1001 * 7 & 0xFF) << 8)));
}

TEST_CASE("bulk reads and writes span pages and are all or nothing",
          "[pememory]") {
  PEMemory memory(patternImage());
  std::vector<uint8_t> bytes(600);
  for (size_t i = 0; i < bytes.size(); ++i)
    bytes[i] = static_cast<uint8_t>(255 - i);
  // 0x0F1 .. 0x348: four pages, unaligned at both ends.
  REQUIRE(memory.write(0xF1, bytes) == MemoryStatus::Ok);
  CHECK(memory.getTouchedPages() == 4);

  std::vector<uint8_t> back(602);
  REQUIRE(memory.read(0xF0, back) == MemoryStatus::Ok);
  CHECK(back.front() == static_cast<uint8_t>(0xF0 * 7));
  CHECK(std::equal(bytes.begin(), bytes.end(), back.begin() + 1));
  CHECK(back.back() == static_cast<uint8_t>((0xF1 + 600) * 7));

  std::vector<uint8_t> two(2, 0x55);
  CHECK(memory.write(0xBFFF, two) == MemoryStatus::OutOfRange);
  CHECK(memory.read(0xBFFF, two) == MemoryStatus::OutOfRange);
  CHECK(memory.write(0xFFFFFFFF, two) == MemoryStatus::OutOfRange);
  CHECK(two == std::vector<uint8_t>(2, 0x55));
  CHECK(memory.getTouchedPages() == 4);
  // Empty ranges are fine up to the end of memory, not past it.
  CHECK(memory.write(0xC000, {}) == MemoryStatus::Ok);
  CHECK(memory.read(0xC001, {}) == MemoryStatus::OutOfRange);
  // Bulk accesses have no alignment rule.
  CHECK(memory.read(0xBFFF, std::span(two).first(1)) == MemoryStatus::Ok);
}

TEST_CASE("an image of the wrong size is zero-extended or cut", "[pememory]") {
  PEMemory shortImage(imageOf({1, 2, 3}));
  uint32_t w;
  CHECK((shortImage.load32(0, w) == MemoryStatus::Ok && w == 0x00030201));
  CHECK((shortImage.load32(0x8000, w) == MemoryStatus::Ok && w == 0));
  CHECK(shortImage.getTouchedPages() == 1);

  std::vector<uint8_t> longBytes(PEMemory::Size + 10, 9);
  PEMemory longImage(imageOf(longBytes));
  CHECK((longImage.load32(0xBFFC, w) == MemoryStatus::Ok && w == 0x09090909));
  uint8_t b;
  CHECK(longImage.load8(0xC000, b) == MemoryStatus::OutOfRange);
  CHECK(longImage.getTouchedPages() == 0);
}

TEST_CASE("the load image holds code and data at their addresses",
          "[pememory]") {
  pe::ProgramBinary program;
  program.codeAddress = 0x40;
  program.code = {0x0100, 0xABCD};
  program.dataAddress = 0x3;
  program.data = {7, 8, 9};
  program.bssAddress = 0x10;
  program.bssSize = 4;
  ImageResult result = PEMemory::buildImage(program);
  REQUIRE(result);
  const std::vector<uint8_t> &image = *result.image;
  REQUIRE(image.size() == PEMemory::Size);
  std::vector<uint8_t> expected(PEMemory::Size, 0);
  expected[0x3] = 7;
  expected[0x4] = 8;
  expected[0x5] = 9;
  expected[0x40] = 0x00;
  expected[0x41] = 0x01;
  expected[0x42] = 0xCD;
  expected[0x43] = 0xAB;
  CHECK(image == expected);
}

TEST_CASE("programs that do not fit have no load image", "[pememory]") {
  auto errorOf = [](const pe::ProgramBinary &program) {
    ImageResult result = PEMemory::buildImage(program);
    CHECK(!result.image);
    return result.error.value_or("<no error>");
  };
  pe::ProgramBinary odd;
  odd.codeAddress = 0x101;
  CHECK(errorOf(odd) == "code address 0x0101 is odd");

  pe::ProgramBinary longCode;
  longCode.codeAddress = 0xBFFE;
  longCode.code = {1, 1, 1, 1, 1};
  CHECK(errorOf(longCode) == "code at 0xbffe of 10 bytes ends beyond the "
                             "49152 bytes of PE memory");

  pe::ProgramBinary longData;
  longData.dataAddress = 0xBFF0;
  longData.data.resize(17);
  CHECK(errorOf(longData) == "data at 0xbff0 of 17 bytes ends beyond the "
                             "49152 bytes of PE memory");

  pe::ProgramBinary overlap;
  overlap.codeAddress = 0x10;
  overlap.code = {1, 1};
  overlap.dataAddress = 0x13;
  overlap.data = {1};
  CHECK(errorOf(overlap) == "code and data overlap in PE memory");

  // Touching but not overlapping is fine.
  overlap.dataAddress = 0x14;
  CHECK(PEMemory::buildImage(overlap));
}
