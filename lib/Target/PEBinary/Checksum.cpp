//===- Checksum.cpp - CRC-32 of a file's payload --------------------------===//

#include "tessera/Target/PEBinary/Binary.h"

#include <array>

namespace tessera::pe {

namespace {
constexpr std::array<uint32_t, 256> makeTable() {
  std::array<uint32_t, 256> table{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int k = 0; k < 8; ++k)
      c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    table[i] = c;
  }
  return table;
}
constexpr std::array<uint32_t, 256> Table = makeTable();
} // namespace

uint32_t crc32(std::span<const uint8_t> bytes) {
  uint32_t c = 0xFFFFFFFFu;
  for (uint8_t b : bytes)
    c = Table[(c ^ b) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

std::string FormatError::str() const {
  return "offset " + std::to_string(offset) + ": " + message;
}


} // namespace tessera::pe
