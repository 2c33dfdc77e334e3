//===- FileErrorTest.cpp - unreadable and malformed files -----------------===//
//
// Files that cannot be read, and the PEBinary readers' refusals, which the
// loader passes on prefixed with the file's path.
//
//===----------------------------------------------------------------------===//

#include "TestOutput.h"

#include "tessera/Emulator/OutputDirectory.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>

using namespace tessera;
using namespace tessera::emulator;
using namespace loadertest;

namespace {

/// Writes the sample and returns the loader's error.
std::string loadError(const Sample &sample, const TempDir &dir) {
  sample.write(dir.path());
  LoadResult result = loadOutputDirectory(dir.path());
  CHECK_FALSE(result);
  return result.error;
}

std::string hex(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof(text), "0x%x", value);
  return text;
}

} // namespace

TEST_CASE("a file that cannot be read is named with the system's reason") {
  TempDir dir;
  const std::string &d = dir.path();
  Sample sample = makeSample();
  sample.write(d);

  SECTION("no out.json") {
    std::filesystem::remove(d + "/out.json");
    CHECK(loadOutputDirectory(d).error ==
          "cannot read '" + d + "/out.json': No such file or directory");
  }
  SECTION("no output directory") {
    CHECK(loadOutputDirectory(d + "/nowhere").error ==
          "cannot read '" + d +
              "/nowhere/out.json': No such file or directory");
  }
  SECTION("no out.json at the given path") {
    CHECK(loadOutputDirectory(d, d + "/other.json").error ==
          "cannot read '" + d + "/other.json': No such file or directory");
  }
  SECTION("no fabric file") {
    std::filesystem::remove(d + "/fabric.tfab");
    CHECK(loadOutputDirectory(d).error ==
          "cannot read '" + d + "/fabric.tfab': No such file or directory");
  }
  SECTION("no program binary") {
    std::filesystem::remove(d + "/bin/right.tpeb");
    CHECK(loadOutputDirectory(d).error ==
          "cannot read '" + d + "/bin/right.tpeb': No such file or directory");
  }
  SECTION("a directory where the fabric file should be") {
    sample.json["fabric_file"] = "bin";
    CHECK(loadError(sample, dir) ==
          "cannot read '" + d + "/bin': Is a directory");
  }
}

TEST_CASE("the readers' format errors are prefixed with the file") {
  TempDir dir;
  const std::string &d = dir.path();
  Sample sample = makeSample();
  sample.write(d);

  SECTION("a truncated fabric file") {
    std::vector<uint8_t> bytes = pe::writeFabric(sample.fabric);
    bytes.resize(9);
    writeFile(d + "/fabric.tfab", bytes);
    CHECK(loadOutputDirectory(d).error ==
          d + "/fabric.tfab: offset 9: truncated header: 9 bytes of 16");
  }
  SECTION("a fabric file where a program binary should be") {
    writeFile(d + "/bin/left.tpeb", pe::writeFabric(sample.fabric));
    CHECK(loadOutputDirectory(d).error ==
          d + "/bin/left.tpeb: offset 0: bad magic: not a Tessera program "
              "binary");
  }
  SECTION("a damaged program binary") {
    std::vector<uint8_t> bytes = pe::writeProgram(sample.binaries[1]);
    uint32_t stored = pe::crc32(std::span(bytes).subspan(16));
    bytes.back() ^= 1;
    uint32_t computed = pe::crc32(std::span(bytes).subspan(16));
    writeFile(d + "/bin/right.tpeb", bytes);
    CHECK(loadOutputDirectory(d).error ==
          d + "/bin/right.tpeb: offset 12: checksum mismatch: stored " +
              hex(stored) + ", computed " + hex(computed));
  }
}

// The sample's fabric file: 16 header bytes, 6 directory entries, then the
// sections from offset 88: header (16), strings (40), programs (12),
// placement at 156 (runs from 160, 8 bytes each), routes at 192 (runs from
// 196, 24 bytes each), values at 316 (first value at 320).
TEST_CASE("runs and values the fabric reader refuses are reported") {
  TempDir dir;
  const std::string fabric = dir.path() + "/fabric.tfab";
  Sample sample = makeSample();

  SECTION("a placement run that leaves the rectangle") {
    sample.fabric.placement[1].length = 4;
    CHECK(loadError(sample, dir) ==
          fabric + ": offset 168: run of 4 PEs at (1,0) leaves the rectangle");
  }
  SECTION("a placement run naming a program that does not exist") {
    sample.fabric.placement[3].program = 2;
    CHECK(loadError(sample, dir) ==
          fabric +
              ": offset 190: program index 2 is out of range (2 programs)");
  }
  SECTION("a route run that leaves the rectangle") {
    sample.fabric.routes[4].length = 2;
    CHECK(loadError(sample, dir) ==
          fabric + ": offset 302: run of 2 PEs at (3,1) leaves the rectangle");
  }
  SECTION("a value for a PE outside the rectangle") {
    sample.fabric.values[0].x = 4;
    CHECK(loadError(sample, dir) ==
          fabric + ": offset 320: PE (4,0) is outside the rectangle");
  }
}

TEST_CASE("a program the reader finds beyond PE memory is reported") {
  TempDir dir;
  Sample sample = makeSample();
  sample.binaries[1].bssAddress = 0xbffc;
  // 11 directory entries put the program header's body at 148; its bss
  // address field is at 154.
  CHECK(loadError(sample, dir) ==
        dir.path() + "/bin/right.tpeb: offset 154: bss at 0xbffc of 8 bytes "
                     "ends beyond the 49152 bytes of PE memory");
}
