//===- Wire.h - what ranks send each other, as bytes ------------*- C++ -*-===//
//
// The ranks of one run are the same binary on machines of one kind (MPI
// runs them so), so fixed-size values travel as their bytes and strings and
// vectors with their lengths first. A reader that runs out of bytes stops
// and says so instead of reading past the end. Internal.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_MACHINE_WIRE_H
#define TESSERA_EMULATOR_MACHINE_WIRE_H

#include "tessera/Emulator/Emulator.h"

#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace tessera::emulator::machine {

class ByteWriter {
public:
  template <typename T> void put(const T &value) {
    static_assert(std::is_trivially_copyable_v<T>);
    const auto *p = reinterpret_cast<const uint8_t *>(&value);
    bytes.insert(bytes.end(), p, p + sizeof(T));
  }
  void putString(const std::string &text) {
    put<uint64_t>(text.size());
    bytes.insert(bytes.end(), text.begin(), text.end());
  }
  template <typename T> void putVector(const std::vector<T> &items) {
    put<uint64_t>(items.size());
    for (const T &item : items)
      put(item);
  }
  std::vector<uint8_t> bytes;
};

class ByteReader {
public:
  explicit ByteReader(std::span<const uint8_t> bytes) : bytes(bytes) {}
  template <typename T> T get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T value{};
    if (!take(sizeof(T)))
      return value;
    std::memcpy(&value, bytes.data() + position - sizeof(T), sizeof(T));
    return value;
  }
  std::string getString() {
    uint64_t size = get<uint64_t>();
    if (!take(size))
      return {};
    return std::string(
        reinterpret_cast<const char *>(bytes.data() + position - size), size);
  }
  template <typename T> std::vector<T> getVector() {
    uint64_t size = get<uint64_t>();
    std::vector<T> items;
    if (size > bytes.size() - position)
      return ok = false, items;
    for (uint64_t i = 0; i < size && ok; ++i)
      items.push_back(get<T>());
    return items;
  }
  bool atEnd() const { return position == bytes.size(); }
  /// False once a read went past the end.
  bool isOK() const { return ok; }

private:
  bool take(uint64_t size) {
    if (!ok || size > bytes.size() - position)
      return ok = false;
    position += size;
    return true;
  }
  std::span<const uint8_t> bytes;
  size_t position = 0;
  bool ok = true;
};

void writeFault(ByteWriter &out, const std::optional<PEFault> &fault);
std::optional<PEFault> readFault(ByteReader &in);
void writeLine(ByteWriter &out, uint64_t cycle, PECoord pe,
               const std::string &text);
void writeDeadlock(ByteWriter &out, const DeadlockReport &report);
/// Appends what `in` holds to `report`.
void readDeadlock(ByteReader &in, DeadlockReport &report);
void writeView(ByteWriter &out, const BoundaryView &view);
BoundaryView readView(ByteReader &in);

} // namespace tessera::emulator::machine

#endif // TESSERA_EMULATOR_MACHINE_WIRE_H
