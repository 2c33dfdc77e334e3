//===- Bytes.h - values as bytes, for ranks to send each other --*- C++ -*-===//
//
// The ranks of one run are the same binary on machines of one kind (MPI
// runs them so), so fixed-size values travel as their bytes and strings and
// vectors with their lengths first. A reader that runs out of bytes stops
// and says so instead of reading past the end. The emulator's exchanges
// (docs/Scaling.md "Ranks") and the host runtime's requests to other ranks
// both use them.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_BYTES_H
#define TESSERA_EMULATOR_BYTES_H

#include <cstdint>
#include <cstring>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

namespace tessera::emulator {

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
  template <typename T> void putVector(std::span<const T> items) {
    static_assert(std::is_trivially_copyable_v<T>);
    put<uint64_t>(items.size());
    const auto *p = reinterpret_cast<const uint8_t *>(items.data());
    bytes.insert(bytes.end(), p, p + items.size_bytes());
  }
  template <typename T> void putVector(const std::vector<T> &items) {
    putVector(std::span<const T>(items));
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
    static_assert(std::is_trivially_copyable_v<T>);
    uint64_t size = get<uint64_t>();
    std::vector<T> items;
    if (size > (bytes.size() - position) / sizeof(T) || !take(size * sizeof(T)))
      return ok = false, items;
    items.resize(size);
    std::memcpy(items.data(), bytes.data() + position - size * sizeof(T),
                size * sizeof(T));
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

} // namespace tessera::emulator

#endif // TESSERA_EMULATOR_BYTES_H
