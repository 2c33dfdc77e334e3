//===- Crc32.cpp - CRC-32 of binaries and checkpoints ---------------------===//

#include "tessera/Support/Crc32.h"

#include <array>
#include <cstring>

using namespace tessera;

namespace {

using Tables = std::array<std::array<uint32_t, 256>, 8>;

/// tables[0] is the classic byte table; tables[k][b] is the CRC of byte b
/// followed by k zero bytes, so eight lookups advance eight bytes.
constexpr Tables makeTables() {
  Tables tables{};
  for (uint32_t byte = 0; byte < 256; ++byte) {
    uint32_t crc = byte;
    for (int bit = 0; bit < 8; ++bit)
      crc = (crc & 1) ? (crc >> 1) ^ 0xEDB88320u : crc >> 1;
    tables[0][byte] = crc;
  }
  for (size_t k = 1; k < 8; ++k)
    for (uint32_t byte = 0; byte < 256; ++byte) {
      uint32_t previous = tables[k - 1][byte];
      tables[k][byte] = (previous >> 8) ^ tables[0][previous & 0xFF];
    }
  return tables;
}

constexpr Tables CrcTables = makeTables();

} // namespace

void Crc32::update(const void *data, size_t size) {
  const auto *bytes = static_cast<const unsigned char *>(data);
  uint32_t crc = state;
  const auto &t = CrcTables;
  for (; size >= 8; size -= 8, bytes += 8) {
    uint32_t low, high;
    std::memcpy(&low, bytes, 4);
    std::memcpy(&high, bytes + 4, 4);
    // Little-endian loads: byte 0 is the low byte of `low`.
    low ^= crc;
    crc = t[7][low & 0xFF] ^ t[6][(low >> 8) & 0xFF] ^
          t[5][(low >> 16) & 0xFF] ^ t[4][low >> 24] ^ t[3][high & 0xFF] ^
          t[2][(high >> 8) & 0xFF] ^ t[1][(high >> 16) & 0xFF] ^
          t[0][high >> 24];
  }
  for (; size > 0; --size, ++bytes)
    crc = (crc >> 8) ^ t[0][(crc ^ *bytes) & 0xFF];
  state = crc;
}
