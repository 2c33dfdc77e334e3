//===- Crc32Test.cpp - CRC-32 of binaries and checkpoints -----------------===//

#include "tessera/Support/Crc32.h"

#include <catch2/catch.hpp>

#include <random>
#include <string>
#include <vector>

using namespace tessera;

namespace {
/// The definition, one bit at a time.
uint32_t bitwiseCrc32(const std::vector<uint8_t> &bytes) {
  uint32_t crc = 0xFFFFFFFFu;
  for (uint8_t byte : bytes) {
    crc ^= byte;
    for (int bit = 0; bit < 8; ++bit)
      crc = (crc & 1) ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
  }
  return ~crc;
}
} // namespace

TEST_CASE("CRC-32 has the standard check values") {
  std::string check = "123456789";
  CHECK(crc32(check.data(), check.size()) == 0xCBF43926u);
  CHECK(crc32(nullptr, 0) == 0);
  std::string fox = "The quick brown fox jumps over the lazy dog";
  CHECK(crc32(fox.data(), fox.size()) == 0x414FA339u);
}

TEST_CASE("CRC-32 in pieces equals the bitwise definition") {
  std::mt19937_64 random(7);
  for (size_t size : {1, 7, 8, 9, 63, 64, 1000, 4099}) {
    std::vector<uint8_t> bytes(size);
    for (uint8_t &b : bytes)
      b = static_cast<uint8_t>(random());
    uint32_t expected = bitwiseCrc32(bytes);
    CHECK(crc32(bytes.data(), bytes.size()) == expected);
    size_t split = random() % (size + 1);
    Crc32 pieces;
    pieces.update(bytes.data(), split);
    pieces.update(bytes.data() + split, size - split);
    CHECK(pieces.value() == expected);
  }
}
