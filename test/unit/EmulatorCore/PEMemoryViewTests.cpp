//===- PEMemoryViewTests.cpp - contiguous views of sparse PE memory -------===//
//
// viewSpans hands out ranges of memory as contiguous bytes, gathering pages
// into the window when they are not contiguous already. Contents, owned
// pages and the shared image must behave exactly as with loads and stores;
// a random test checks that against a flat array.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include <cstring>
#include <random>
#include <set>

using namespace emutest;

namespace {

MemoryImage patternImage() {
  auto bytes = std::make_shared<std::vector<uint8_t>>(PEMemory::Size);
  for (size_t i = 0; i < bytes->size(); ++i)
    (*bytes)[i] = static_cast<uint8_t>(i * 7 + 3);
  return bytes;
}

std::vector<uint8_t> contents(const PEMemory &memory) {
  std::vector<uint8_t> bytes(PEMemory::Size);
  REQUIRE(memory.read(0, bytes) == MemoryStatus::Ok);
  return bytes;
}

MemorySpan readSpan(uint32_t address, uint32_t size) {
  return {address, size, false};
}
MemorySpan writeSpan(uint32_t address, uint32_t size) {
  return {address, size, true};
}

} // namespace

TEST_CASE("spans that leave memory or are empty change nothing",
          "[pememory][view]") {
  PEMemory memory(patternImage());
  std::vector<MemorySpan> spans = {writeSpan(0x100, 0x400),
                                   readSpan(0xBF00, 0x101)};
  CHECK(memory.viewSpans(spans) == MemoryStatus::OutOfRange);
  spans = {writeSpan(0x100, 0x400), readSpan(0x200, 0)};
  CHECK(memory.viewSpans(spans) == MemoryStatus::OutOfRange);
  spans = {writeSpan(0xFFFFFF00, 0x200)};
  CHECK(memory.viewSpans(spans) == MemoryStatus::OutOfRange);
  CHECK(spans[0].bytes == nullptr);
  CHECK(memory.getTouchedPages() == 0);
  CHECK(memory.getWindowBytes() == 0);
  // The last byte is fine.
  spans = {readSpan(0xBFFF, 1)};
  CHECK(memory.viewSpans(spans) == MemoryStatus::Ok);
  CHECK(*spans[0].bytes == static_cast<uint8_t>(0xBFFF * 7 + 3));
}

TEST_CASE("unwritten pages are read in place from the shared image",
          "[pememory][view]") {
  MemoryImage image = patternImage();
  PEMemory memory(image);
  std::vector<MemorySpan> spans = {readSpan(0x1F0, 0x2000)};
  REQUIRE(memory.viewSpans(spans) == MemoryStatus::Ok);
  CHECK(spans[0].bytes == image->data() + 0x1F0);
  CHECK(spans[0].writable == nullptr);
  CHECK(memory.getTouchedPages() == 0);
  CHECK(memory.getWindowBytes() == 0);
}

TEST_CASE("a range to write over several pages moves into the window",
          "[pememory][view]") {
  MemoryImage image = patternImage();
  PEMemory memory(image);
  REQUIRE(memory.store32(0x1200, 0xDEADBEEF) == MemoryStatus::Ok);
  std::vector<uint8_t> before = contents(memory);

  // 0x1180 .. 0x1480: pages 0x11 to 0x14, one of them owned already.
  std::vector<MemorySpan> spans = {writeSpan(0x1180, 0x300)};
  REQUIRE(memory.viewSpans(spans) == MemoryStatus::Ok);
  CHECK(memory.getTouchedPages() == 4);
  // Pages 0x10 .. 0x14 rounded out to 1 KiB: 0x1000 .. 0x1800.
  CHECK(memory.getWindowBytes() == 0x800);
  CHECK(contents(memory) == before);
  REQUIRE(spans[0].writable != nullptr);
  CHECK(spans[0].bytes == spans[0].writable);
  // The page written before kept its value in the window.
  uint32_t word;
  std::memcpy(&word, spans[0].writable + 0x80, 4);
  CHECK(word == 0xDEADBEEF);

  for (uint32_t i = 0; i < 0x300; ++i)
    spans[0].writable[i] = static_cast<uint8_t>(i);
  uint8_t byte;
  CHECK(
      (memory.load8(0x1180 + 0x123, byte) == MemoryStatus::Ok && byte == 0x23));
  // Unwritten pages of the window still read as the image, which is
  // unchanged.
  CHECK((memory.load8(0x1000, byte) == MemoryStatus::Ok &&
         byte == static_cast<uint8_t>(0x1000 * 7 + 3)));
  CHECK((*image)[0x1200] == static_cast<uint8_t>(0x1200 * 7 + 3));

  // A later store to a window page that was not owned owns it, in place.
  REQUIRE(memory.store8(0x1700, 0x42) == MemoryStatus::Ok);
  CHECK(memory.getTouchedPages() == 5);
  spans = {readSpan(0x1000, 0x800)};
  REQUIRE(memory.viewSpans(spans) == MemoryStatus::Ok);
  CHECK(spans[0].bytes[0x700] == 0x42);
  CHECK(spans[0].bytes[0x123 + 0x180] == 0x23);

  memory.reset();
  CHECK(memory.getTouchedPages() == 0);
  CHECK(memory.getWindowBytes() == 0);
  CHECK(contents(memory) == *image);
}

TEST_CASE("a range to read over owned and shared pages is gathered without "
          "owning them",
          "[pememory][view]") {
  PEMemory memory(patternImage());
  REQUIRE(memory.store16(0x2100, 0x1234) == MemoryStatus::Ok);
  std::vector<uint8_t> before = contents(memory);
  std::vector<MemorySpan> spans = {readSpan(0x2000, 0x300)};
  REQUIRE(memory.viewSpans(spans) == MemoryStatus::Ok);
  CHECK(memory.getTouchedPages() == 1);
  CHECK(memory.getWindowBytes() == 0x400);
  CHECK(std::equal(spans[0].bytes, spans[0].bytes + 0x300,
                   before.begin() + 0x2000));
  CHECK(contents(memory) == before);
}

TEST_CASE("one-page ranges need no window", "[pememory][view]") {
  PEMemory memory(patternImage());
  std::vector<MemorySpan> spans = {writeSpan(0x310, 0x20),
                                   readSpan(0x300, 0x100)};
  REQUIRE(memory.viewSpans(spans) == MemoryStatus::Ok);
  CHECK(memory.getWindowBytes() == 0);
  CHECK(memory.getTouchedPages() == 1);
  // Both show the one owned page.
  CHECK(spans[1].bytes + 0x10 == spans[0].bytes);
  spans[0].writable[0] = 0x99;
  uint8_t byte;
  CHECK((memory.load8(0x310, byte) == MemoryStatus::Ok && byte == 0x99));
}

TEST_CASE("overlapping ranges share their bytes", "[pememory][view]") {
  PEMemory memory(patternImage());
  // A one-page range to write inside a multi-page range to read: the page
  // becomes owned, so the range to read is gathered with it.
  std::vector<MemorySpan> spans = {writeSpan(0x4180, 0x40),
                                   readSpan(0x4000, 0x400)};
  REQUIRE(memory.viewSpans(spans) == MemoryStatus::Ok);
  CHECK(memory.getTouchedPages() == 1);
  CHECK(spans[1].bytes + 0x180 == spans[0].bytes);
  spans[0].writable[4] = 0x77;
  CHECK(spans[1].bytes[0x184] == 0x77);

  // Two ranges to write that overlap, and one to read across both.
  spans = {writeSpan(0x6000, 0x300), writeSpan(0x6200, 0x300),
           readSpan(0x6100, 0x300)};
  REQUIRE(memory.viewSpans(spans) == MemoryStatus::Ok);
  CHECK(spans[0].writable + 0x200 == spans[1].writable);
  CHECK(spans[0].bytes + 0x100 == spans[2].bytes);
  spans[1].writable[0x10] = 0x5A;
  CHECK(spans[2].bytes[0x110] == 0x5A);
  // The window grew to cover both places; nothing moved in value.
  uint8_t byte;
  CHECK((memory.load8(0x4184, byte) == MemoryStatus::Ok && byte == 0x77));
  CHECK((memory.load8(0x6210, byte) == MemoryStatus::Ok && byte == 0x5A));
  CHECK(memory.getWindowBytes() == 0x6800 - 0x4000);
}

TEST_CASE("ranges the window holds are viewed there again",
          "[pememory][view]") {
  MemoryImage image = patternImage();
  PEMemory memory(image);
  // The first view gathers pages 0x20 .. 0x24 and owns 0x21 and 0x22.
  std::vector<MemorySpan> spans = {writeSpan(0x2100, 0x200),
                                   readSpan(0x2080, 0x300)};
  REQUIRE(memory.viewSpans(spans) == MemoryStatus::Ok);
  CHECK(memory.getTouchedPages() == 2);
  CHECK(memory.getWindowBytes() == 0x400);
  const uint8_t *written = spans[0].writable;
  const uint8_t *read = spans[1].bytes;
  spans[0].writable[0] = 0x61;

  // The same ranges again: the same bytes, nothing newly owned.
  spans = {writeSpan(0x2100, 0x200), readSpan(0x2080, 0x300)};
  REQUIRE(memory.viewSpans(spans) == MemoryStatus::Ok);
  CHECK(spans[0].writable == written);
  CHECK(spans[1].bytes == read);
  CHECK(spans[1].bytes[0x80] == 0x61);
  CHECK(memory.getTouchedPages() == 2);

  // A one-page range to read on an unowned page of the window shows the
  // image's bytes.
  spans = {writeSpan(0x2180, 0x10), readSpan(0x2310, 0x20)};
  REQUIRE(memory.viewSpans(spans) == MemoryStatus::Ok);
  CHECK(std::equal(spans[1].bytes, spans[1].bytes + 0x20,
                   image->data() + 0x2310));
  CHECK(memory.getTouchedPages() == 2);

  // A range to write over an unowned page of the window owns it first.
  spans = {writeSpan(0x2200, 0x180)};
  REQUIRE(memory.viewSpans(spans) == MemoryStatus::Ok);
  CHECK(memory.getTouchedPages() == 3);
  spans[0].writable[0x150] = 0x62;
  uint8_t byte;
  CHECK((memory.load8(0x2350, byte) == MemoryStatus::Ok && byte == 0x62));
  CHECK((*image)[0x2350] == static_cast<uint8_t>(0x2350 * 7 + 3));

  // Wholly past the window's end: read in place from the image.
  spans = {readSpan(0x2500, 0x20)};
  REQUIRE(memory.viewSpans(spans) == MemoryStatus::Ok);
  CHECK(spans[0].bytes == image->data() + 0x2500);

  // Partly past it: gathered again, the bytes kept.
  spans = {readSpan(0x2300, 0x200)};
  REQUIRE(memory.viewSpans(spans) == MemoryStatus::Ok);
  CHECK(memory.getWindowBytes() == 0x800);
  CHECK(spans[0].bytes[0x50] == 0x62);
  CHECK(spans[0].bytes[0x150] == static_cast<uint8_t>(0x2450 * 7 + 3));
}

TEST_CASE("views agree with a flat copy of memory under random use",
          "[pememory][view]") {
  MemoryImage image = patternImage();
  std::mt19937 random(20261122);
  for (int trial = 0; trial < 40; ++trial) {
    bool withImage = trial % 2 == 0;
    PEMemory memory = withImage ? PEMemory(image) : PEMemory();
    std::vector<uint8_t> flat =
        withImage ? *image : std::vector<uint8_t>(PEMemory::Size, 0);
    std::set<unsigned> written;
    // Addresses cluster in 8 KiB so that ranges meet and overlap.
    uint32_t region = (random() % 5) * 0x2000;
    auto address = [&](uint32_t size) {
      return region + random() % (0x2000 - size + 1);
    };
    auto own = [&](uint32_t at, uint32_t size) {
      for (uint32_t p = at / 256; p <= (at + size - 1) / 256; ++p)
        written.insert(p);
    };
    for (int step = 0; step < 200; ++step) {
      unsigned what = random() % 10;
      if (what < 3) {
        uint32_t at = address(4) & ~1u;
        uint32_t value = random();
        REQUIRE(memory.store32(at, value) == MemoryStatus::Ok);
        std::memcpy(&flat[at], &value, 4);
        own(at, 4);
      } else if (what < 4) {
        uint32_t size = 1 + random() % 700;
        uint32_t at = address(size);
        std::vector<uint8_t> bytes(size);
        for (uint8_t &b : bytes)
          b = static_cast<uint8_t>(random());
        REQUIRE(memory.write(at, bytes) == MemoryStatus::Ok);
        std::copy(bytes.begin(), bytes.end(), flat.begin() + at);
        own(at, size);
      } else if (what < 9) {
        std::vector<MemorySpan> spans(1 + random() % 4);
        for (MemorySpan &span : spans) {
          span.size = 1 + random() % 1500;
          span.address = address(span.size);
          span.write = random() % 2;
        }
        REQUIRE(memory.viewSpans(spans) == MemoryStatus::Ok);
        for (const MemorySpan &span : spans) {
          INFO("span at " << span.address << " of " << span.size);
          REQUIRE(std::equal(span.bytes, span.bytes + span.size,
                             flat.begin() + span.address));
          CHECK((span.writable == nullptr) == !span.write);
          if (span.write)
            own(span.address, span.size);
        }
        // Writes through one span show in every span and in memory.
        for (const MemorySpan &span : spans) {
          if (!span.write)
            continue;
          uint32_t offset = random() % span.size;
          uint8_t value = static_cast<uint8_t>(random());
          span.writable[offset] = value;
          flat[span.address + offset] = value;
        }
        for (const MemorySpan &span : spans)
          REQUIRE(std::equal(span.bytes, span.bytes + span.size,
                             flat.begin() + span.address));
      } else {
        memory.reset();
        flat = withImage ? *image : std::vector<uint8_t>(PEMemory::Size, 0);
        written.clear();
      }
      REQUIRE(contents(memory) == flat);
      REQUIRE(memory.getTouchedPages() == written.size());
      REQUIRE(memory.getWindowBytes() <= PEMemory::Size);
    }
    // Moving a memory keeps its window.
    PEMemory moved = std::move(memory);
    CHECK(contents(moved) == flat);
  }
  // Nothing ever wrote into the shared image.
  for (size_t i = 0; i < image->size(); ++i)
    REQUIRE((*image)[i] == static_cast<uint8_t>(i * 7 + 3));
}
