//===- TestSupport.cpp - shared helpers of the Viz tests ------------------===//
//
// The PNG decoder here is independent of the library's encoder: it inflates
// with zlib and undoes every PNG filter, so it would notice an encoder that
// writes something other than what it claims.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include <zlib.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace tessera::viz;

namespace viztest {

RunRecord makeSmallRecord() {
  RunRecord record;
  record.arch = Arch::WSE2;
  record.width = 3;
  record.height = 2;
  record.cycles = 100;
  auto addPE = [&](unsigned x, unsigned y, const char *program, uint64_t busy,
                   uint64_t stall, uint64_t memory) {
    PERecord pe;
    pe.x = x;
    pe.y = y;
    pe.program = program;
    pe.set(PEMetric::Instructions, 10 * busy);
    pe.set(PEMetric::DSDElements, 8);
    pe.set(PEMetric::TasksRun, 1);
    pe.set(PEMetric::BusyCycles, busy);
    pe.set(PEMetric::StallCycles, stall);
    pe.set(PEMetric::WaveletsSent, x == 0 ? 8 : 0);
    pe.set(PEMetric::WaveletsReceived, x == 2 ? 8 : 0);
    pe.set(PEMetric::MemoryBytesUsed, memory);
    record.pes.push_back(pe);
  };
  addPE(0, 0, "send.csl", 30, 2, 2048);
  addPE(1, 0, "relay.csl", 60, 10, 1024);
  addPE(2, 0, "recv.csl", 90, 40, 4096);
  addPE(1, 1, "relay.csl", 45, 0, 1024);
  record.links = {
      {0, 0, Direction::East, 0, 8},  {1, 0, Direction::East, 0, 8},
      {1, 0, Direction::South, 3, 2}, {2, 0, Direction::Ramp, 0, 8},
      {1, 1, Direction::Ramp, 3, 2},  {1, 0, Direction::East, 3, 4}};
  record.tasks = {{0, 0, 10, "main_task", 0, 30},
                  {2, 0, 11, "recv", 5, 60},
                  {2, 0, 12, "done", 70, 95}};
  record.dsdOperations = {{0, 0, std::nullopt, "mov32", 2, 12},
                          {2, 0, 1u, "fadds", 8, 40}};
  record.wavelets = {{3, 0, 0, 0, WaveletEventKind::Send},
                     {4, 1, 0, 3, WaveletEventKind::Send},
                     {9, 2, 0, 0, WaveletEventKind::Receive}};
  record.prints = {{96, 2, 0, "sum = 36 <ok>"}};
  return record;
}

TempDir::TempDir() {
  std::string pattern =
      (std::filesystem::temp_directory_path() / "viz-test-XXXXXX").string();
  std::vector<char> name(pattern.begin(), pattern.end());
  name.push_back('\0');
  if (mkdtemp(name.data()))
    directory = name.data();
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(directory, ignored);
}

std::string readFile(const std::string &path) {
  std::ifstream stream(path, std::ios::binary);
  std::ostringstream contents;
  contents << stream.rdbuf();
  return contents.str();
}

namespace {

uint32_t readBigEndian(const uint8_t *bytes) {
  return uint32_t(bytes[0]) << 24 | uint32_t(bytes[1]) << 16 |
         uint32_t(bytes[2]) << 8 | bytes[3];
}

int paeth(int left, int up, int upLeft) {
  int estimate = left + up - upLeft;
  int toLeft = std::abs(estimate - left), toUp = std::abs(estimate - up),
      toUpLeft = std::abs(estimate - upLeft);
  if (toLeft <= toUp && toLeft <= toUpLeft)
    return left;
  return toUp <= toUpLeft ? up : upLeft;
}

} // namespace

std::optional<Image> decodePNG(const std::vector<uint8_t> &bytes,
                               std::string &error) {
  static const uint8_t Signature[8] = {0x89, 'P',  'N',  'G',
                                       '\r', '\n', 0x1A, '\n'};
  if (bytes.size() < 8 || !std::equal(Signature, Signature + 8, bytes.data())) {
    error = "bad signature";
    return std::nullopt;
  }
  uint32_t width = 0, height = 0;
  std::vector<uint8_t> compressed;
  bool sawEnd = false;
  for (size_t at = 8; at < bytes.size();) {
    if (at + 12 > bytes.size()) {
      error = "truncated chunk";
      return std::nullopt;
    }
    uint32_t length = readBigEndian(&bytes[at]);
    if (at + 12 + length > bytes.size()) {
      error = "chunk longer than the file";
      return std::nullopt;
    }
    std::string type(bytes.begin() + at + 4, bytes.begin() + at + 8);
    const uint8_t *data = &bytes[at + 8];
    uint32_t crc =
        uint32_t(crc32(crc32(0, Z_NULL, 0), &bytes[at + 4], uInt(length + 4)));
    if (crc != readBigEndian(data + length)) {
      error = "bad CRC in " + type;
      return std::nullopt;
    }
    if (type == "IHDR") {
      width = readBigEndian(data);
      height = readBigEndian(data + 4);
      if (length != 13 || data[8] != 8 || data[9] != 2 || data[12] != 0) {
        error = "not 8-bit RGB without interlace";
        return std::nullopt;
      }
    } else if (type == "IDAT") {
      compressed.insert(compressed.end(), data, data + length);
    } else if (type == "IEND") {
      sawEnd = at + 12 == bytes.size();
    }
    at += 12 + length;
  }
  if (!sawEnd || width == 0 || height == 0) {
    error = "missing IHDR or IEND";
    return std::nullopt;
  }
  size_t stride = size_t(width) * 3;
  std::vector<uint8_t> raw(height * (stride + 1));
  uLongf rawSize = uLongf(raw.size());
  if (uncompress(raw.data(), &rawSize, compressed.data(),
                 uLong(compressed.size())) != Z_OK ||
      rawSize != raw.size()) {
    error = "bad zlib stream";
    return std::nullopt;
  }
  std::vector<uint8_t> pixels(height * stride);
  for (uint32_t y = 0; y < height; ++y) {
    uint8_t filter = raw[y * (stride + 1)];
    const uint8_t *in = &raw[y * (stride + 1) + 1];
    uint8_t *out = &pixels[y * stride];
    const uint8_t *above = y ? &pixels[(y - 1) * stride] : nullptr;
    for (size_t i = 0; i < stride; ++i) {
      int left = i >= 3 ? out[i - 3] : 0, up = above ? above[i] : 0,
          upLeft = above && i >= 3 ? above[i - 3] : 0;
      int predicted = filter == 0   ? 0
                      : filter == 1 ? left
                      : filter == 2 ? up
                      : filter == 3 ? (left + up) / 2
                                    : paeth(left, up, upLeft);
      if (filter > 4) {
        error = "bad filter type";
        return std::nullopt;
      }
      out[i] = uint8_t(in[i] + predicted);
    }
  }
  Image image(width, height, RGB{});
  for (uint32_t y = 0; y < height; ++y)
    for (uint32_t x = 0; x < width; ++x) {
      const uint8_t *pixel = &pixels[y * stride + x * 3];
      image.fillRect(int(x), int(y), 1, 1, {pixel[0], pixel[1], pixel[2]});
    }
  return image;
}

} // namespace viztest
