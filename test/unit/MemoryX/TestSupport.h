//===- TestSupport.h - shared helpers of the MemoryX tests ------*- C++ -*-===//
#ifndef TESSERA_TEST_MEMORYX_TESTSUPPORT_H
#define TESSERA_TEST_MEMORYX_TESTSUPPORT_H

#include "tessera/MemoryX/Mask.h"
#include "tessera/MemoryX/WeightStore.h"

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <span>
#include <string>
#include <vector>

namespace memoryxtest {

/// A fresh directory under the system's temporary directory, removed with
/// everything in it at the end of the test.
class TempDir {
public:
  TempDir() {
    std::string pattern =
        (std::filesystem::temp_directory_path() / "memoryx-test-XXXXXX")
            .string();
    std::vector<char> name(pattern.begin(), pattern.end());
    name.push_back('\0');
    if (mkdtemp(name.data()))
      directory = name.data();
  }
  ~TempDir() {
    std::error_code ignored;
    std::filesystem::remove_all(directory, ignored);
  }
  const std::string &path() const { return directory; }
  std::string file(const std::string &name) const {
    return directory + "/" + name;
  }

private:
  std::string directory;
};

/// Each bit set with probability `density`.
inline tessera::memoryx::Mask randomMask(uint32_t rows, uint32_t cols,
                                         double density,
                                         std::mt19937_64 &random) {
  tessera::memoryx::Mask mask(rows, cols);
  std::bernoulli_distribution keep(density);
  for (uint32_t r = 0; r < rows; ++r)
    for (uint32_t c = 0; c < cols; ++c)
      if (keep(random))
        mask.set(r, c);
  return mask;
}

inline std::vector<float> randomValues(size_t count, std::mt19937_64 &random,
                                       float scale = 1.0f) {
  std::normal_distribution<float> value(0.0f, scale);
  std::vector<float> values(count);
  for (float &v : values)
    v = value(random);
  return values;
}

inline std::vector<uint8_t> readBytes(const std::string &path) {
  std::ifstream in(path, std::ios::binary);
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

inline void writeBytes(const std::string &path,
                       const std::vector<uint8_t> &bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char *>(bytes.data()),
            static_cast<std::streamsize>(bytes.size()));
}

template <typename T>
bool sameBits(std::span<const T> a, std::span<const T> b) {
  return a.size() == b.size() &&
         (a.empty() || std::memcmp(a.data(), b.data(), a.size_bytes()) == 0);
}

/// Whether two layers hold the same checkpointed state, bit for bit.
inline bool sameLayer(const tessera::memoryx::LayerStore &a,
                      const tessera::memoryx::LayerStore &b) {
  using namespace tessera::memoryx;
  if (a.name() != b.name() || a.rows() != b.rows() || a.cols() != b.cols() ||
      a.optimizer() != b.optimizer() || a.steps() != b.steps() ||
      !(a.weightMask() == b.weightMask()) ||
      !(a.gradientMask() == b.gradientMask()) ||
      !sameBits(a.master(), b.master()))
    return false;
  for (unsigned i = 0; i < 2; ++i)
    if (!sameBits(a.optimizerState(i), b.optimizerState(i)))
      return false;
  return true;
}

inline bool sameStore(const tessera::memoryx::WeightStore &a,
                      const tessera::memoryx::WeightStore &b) {
  if (a.layerCount() != b.layerCount())
    return false;
  for (size_t i = 0; i < a.layerCount(); ++i)
    if (!sameLayer(a.layer(i), b.layer(i)))
      return false;
  return true;
}

} // namespace memoryxtest

#endif // TESSERA_TEST_MEMORYX_TESTSUPPORT_H
