//===- Container.h - sections shared by the writer and the reader -*- C++
//-*-===//
//
// Internal to TesseraPEBinary: section kind numbers and the little-endian
// byte writer. docs/BinaryFormat.md is the authority on both.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_LIB_TARGET_PEBINARY_CONTAINER_H
#define TESSERA_LIB_TARGET_PEBINARY_CONTAINER_H

#include <cstdint>
#include <span>
#include <string_view>
#include <utility>
#include <vector>

namespace tessera::pe::container {

/// Section kinds of a program binary.
enum ProgramSection : uint16_t {
  ProgramHeader = 1,
  Code = 2,
  Data = 3,
  Strings = 4,
  Symbols = 5,
  Tasks = 6,
  Queues = 7,
  Startup = 8,
  EntryPoints = 9,
  Files = 10,
  Lines = 11,
  Variables = 12,
};

/// Section kinds of a fabric file (Strings shares the number above).
enum FabricSection : uint16_t {
  FabricHeader = 1,
  Programs = 2,
  Placement = 3,
  Routes = 5,
  Values = 6,
};

/// Fixed sizes of table entries, which also bound counts before allocation.
inline constexpr size_t SymbolEntryMin = 14;
inline constexpr size_t TaskEntrySize = 4;
inline constexpr size_t QueueEntrySize = 4;
inline constexpr size_t StartupEntrySize = 4;
inline constexpr size_t LineEntrySize = 12;
inline constexpr size_t VariableEntrySize = 12;
inline constexpr size_t RunEntrySize = 8;
inline constexpr size_t RouteEntrySize = 24;
inline constexpr size_t ValueEntryMin = 12;

class ByteWriter {
public:
  void u8(uint8_t v) { bytes.push_back(v); }
  void u16(uint16_t v) {
    u8(uint8_t(v));
    u8(uint8_t(v >> 8));
  }
  void u32(uint32_t v) {
    u16(uint16_t(v));
    u16(uint16_t(v >> 16));
  }
  void raw(std::span<const uint8_t> data) {
    bytes.insert(bytes.end(), data.begin(), data.end());
  }
  std::vector<uint8_t> bytes;
};

/// Interns strings for a Strings section; indices are stable.
class StringTable {
public:
  uint32_t add(std::string_view s);
  std::vector<uint8_t> serialize() const;

private:
  std::vector<std::string_view> strings;
};

/// Lays out header, directory and sections and fills in the checksum.
std::vector<uint8_t>
assemble(std::span<const uint8_t, 4> magic,
         std::vector<std::pair<uint16_t, std::vector<uint8_t>>> sections);

} // namespace tessera::pe::container

#endif // TESSERA_LIB_TARGET_PEBINARY_CONTAINER_H
