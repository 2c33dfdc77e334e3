//===- Crc32.h - CRC-32 of binaries and checkpoints -------------*- C++ -*-===//
//
// CRC-32 as zlib and IEEE 802.3 define it (reflected polynomial 0xEDB88320,
// initial value and final XOR 0xFFFFFFFF; "123456789" gives 0xCBF43926),
// eight bytes per step so that checksumming keeps up with the disk (a
// wafer's fabric file is tens of megabytes; PE binaries and MemoryX
// checkpoints both use it).
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_SUPPORT_CRC32_H
#define TESSERA_SUPPORT_CRC32_H

#include <cstddef>
#include <cstdint>

namespace tessera {

/// A running CRC-32 over bytes given in pieces.
class Crc32 {
public:
  void update(const void *data, size_t size);
  uint32_t value() const { return ~state; }

private:
  uint32_t state = ~uint32_t(0);
};

inline uint32_t crc32(const void *data, size_t size) {
  Crc32 crc;
  crc.update(data, size);
  return crc.value();
}

} // namespace tessera

#endif // TESSERA_SUPPORT_CRC32_H
