//===- Checksum.cpp - CRC-32 of a file's payload --------------------------===//
//
// The shared eight-bytes-a-step CRC-32 (Support/Crc32.h): a wafer's fabric
// file is 78 MB, and a byte at a time took some 8 % of its load.
//
//===----------------------------------------------------------------------===//

#include "tessera/Target/PEBinary/Binary.h"

#include "tessera/Support/Crc32.h"

namespace tessera::pe {

uint32_t crc32(std::span<const uint8_t> bytes) {
  return tessera::crc32(bytes.data(), bytes.size());
}

std::string FormatError::str() const {
  return "offset " + std::to_string(offset) + ": " + message;
}

} // namespace tessera::pe
