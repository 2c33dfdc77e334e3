//===- IndexStreamTest.cpp - 16-bit delta-coded positions -----------------===//

#include "TestSupport.h"

#include "tessera/MemoryX/IndexStream.h"

#include <catch2/catch.hpp>

#include <utility>

using namespace tessera::memoryx;
using namespace memoryxtest;

namespace {

std::vector<uint16_t> wordsOf(const IndexStream &stream) {
  return {stream.deltas().begin(), stream.deltas().end()};
}

std::vector<std::pair<uint32_t, uint32_t>> entriesOf(const IndexStream &s) {
  std::vector<std::pair<uint32_t, uint32_t>> entries;
  s.forEach([&](uint32_t line, uint32_t position) {
    entries.emplace_back(line, position);
  });
  return entries;
}

constexpr uint16_t Esc = EscapeWord;

} // namespace

TEST_CASE("gaps of 65535 columns or more take escape words") {
  SECTION("a 200,000-column row with entries at 0, 70000 and 199999") {
    Mask mask(1, 200000);
    mask.set(0, 0);
    mask.set(0, 70000);
    mask.set(0, 199999);
    Expected<IndexStream> stream = IndexStream::encodeRows(mask);
    REQUIRE(stream);
    // 70000 = 65535 + 4465; 199999 - 70000 = 129999 = 65535 + 64464.
    CHECK(wordsOf(*stream) == std::vector<uint16_t>{0, Esc, 4465, Esc, 64464});
    CHECK(stream->offsets()[0] == 0);
    CHECK(stream->offsets()[1] == 5);
    CHECK(stream->nonzeroCount() == 3);
    CHECK(stream->streamLength() == 5);
    CHECK(stream->hasEscapes());
    CHECK(entriesOf(*stream) == std::vector<std::pair<uint32_t, uint32_t>>{
                                    {0, 0}, {0, 70000}, {0, 199999}});
  }
  SECTION("gaps at the edge of the escape") {
    Mask mask(3, 140000);
    mask.set(0, 65534);  // gap 65534: one word
    mask.set(0, 131069); // gap 65535: an escape, then 0
    mask.set(0, 131070); // gap 1
    mask.set(1, 65535);  // the first entry 65535 in: escape, 0
    mask.set(2, 131070); // two escapes, then 0
    mask.set(2, 131071);
    Expected<IndexStream> stream = IndexStream::encodeRows(mask);
    REQUIRE(stream);
    CHECK(wordsOf(*stream) ==
          std::vector<uint16_t>{65534, Esc, 0, 1, Esc, 0, Esc, Esc, 0, 1});
    CHECK(std::vector<uint32_t>(stream->offsets().begin(),
                                stream->offsets().end()) ==
          std::vector<uint32_t>{0, 4, 6, 10});
    CHECK(entriesOf(*stream) ==
          std::vector<std::pair<uint32_t, uint32_t>>{{0, 65534},
                                                     {0, 131069},
                                                     {0, 131070},
                                                     {1, 65535},
                                                     {2, 131070},
                                                     {2, 131071}});
  }
  SECTION("rows of at most 65535 columns never escape") {
    Mask mask(2, 65535);
    mask.set(0, 0);
    mask.set(0, 65534);
    mask.set(1, 65534);
    Expected<IndexStream> stream = IndexStream::encodeRows(mask);
    REQUIRE(stream);
    CHECK(wordsOf(*stream) == std::vector<uint16_t>{0, 65534, 65534});
    CHECK_FALSE(stream->hasEscapes());
  }
}

TEST_CASE("full words, empty rows and first entries encode as deltas") {
  Mask mask(4, 130);
  for (uint32_t c = 0; c < 64; ++c)
    mask.set(0, c); // a full word
  mask.set(0, 64);
  mask.set(0, 129);
  mask.set(2, 5); // row 1 and row 3 are empty
  Expected<IndexStream> stream = IndexStream::encodeRows(mask);
  REQUIRE(stream);
  std::vector<uint16_t> expected{0};
  expected.insert(expected.end(), 63, 1);
  expected.insert(expected.end(), {1, 65, 5});
  CHECK(wordsOf(*stream) == expected);
  CHECK(std::vector<uint32_t>(stream->offsets().begin(),
                              stream->offsets().end()) ==
        std::vector<uint32_t>{0, 66, 66, 67, 67});
}

TEST_CASE("random masks decode to their set bits") {
  std::mt19937_64 random(3);
  const uint32_t shapes[][2] = {{1, 1}, {17, 100}, {64, 64}, {5, 300000}};
  for (const auto &shape : shapes) {
    for (double density : {0.0, 0.001, 0.3, 1.0}) {
      Mask mask = randomMask(shape[0], shape[1], density, random);
      Expected<IndexStream> stream = IndexStream::encodeRows(mask);
      REQUIRE(stream);
      std::vector<std::pair<uint32_t, uint32_t>> expected;
      for (uint32_t r = 0; r < shape[0]; ++r)
        for (uint32_t c = 0; c < shape[1]; ++c)
          if (mask.test(r, c))
            expected.emplace_back(r, c);
      CHECK(entriesOf(*stream) == expected);
      CHECK(stream->nonzeroCount() == expected.size());
    }
  }
}

TEST_CASE("mask words are encoded by bit, by byte or whole") {
  // Word 0 has eleven bits (encoded a byte at a time), word 1 two (a bit
  // at a time), word 2 all (whole), and the last, partial word eight.
  Mask mask(2, 200);
  for (uint32_t c :
       {3u, 5u, 6u, 7u, 8u, 9u, 10u, 11u, 12u, 13u, 40u, 64u, 127u})
    mask.set(0, c);
  for (uint32_t c = 128; c < 200; ++c)
    mask.set(0, c);
  mask.set(1, 9); // The cursor starts again at 0.
  Expected<IndexStream> stream = IndexStream::encodeRows(mask);
  REQUIRE(stream);
  std::vector<uint16_t> expected{3, 2, 1, 1, 1, 1, 1, 1, 1, 1, 27, 24, 63, 1};
  expected.insert(expected.end(), 63, 1); // 129 to 191
  expected.push_back(1);                  // 192
  expected.insert(expected.end(), 7, 1);  // 193 to 199
  expected.push_back(9);
  CHECK(wordsOf(*stream) == expected);
  CHECK(stream->offsets()[1] == expected.size() - 1);
  CHECK(stream->streamLength() == expected.size());
  CHECK(stream->nonzeroCount() == expected.size());
}

TEST_CASE("gathering a dense matrix follows the stream order") {
  Mask mask(2, 3);
  mask.set(0, 2);
  mask.set(1, 0);
  mask.set(1, 1);
  Expected<IndexStream> stream = IndexStream::encodeRows(mask);
  REQUIRE(stream);
  Expected<std::vector<float>> gathered =
      stream->gather(std::vector<float>{0, 1, 2, 3, 4, 5});
  REQUIRE(gathered);
  CHECK(*gathered == std::vector<float>{2, 3, 4});
  CHECK(stream->gather(std::vector<float>(5)).error() ==
        "cannot gather 5 values through a 2x3 index stream: expected 6");
}

TEST_CASE("a mask too large for 32-bit offsets is refused") {
  // 2 x (2^30 + 1) weights: 2^31 + 2.
  Mask mask(2, (1u << 30) + 1);
  CHECK(IndexStream::encodeRows(mask).error() ==
        "a 2x1073741825 mask has 2147483650 weights, more than 2147483648");
}
