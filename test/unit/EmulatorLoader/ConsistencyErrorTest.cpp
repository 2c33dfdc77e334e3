//===- ConsistencyErrorTest.cpp - files that disagree with each other -----===//

#include "TestOutput.h"

#include "tessera/Emulator/OutputDirectory.h"

#include <catch2/catch.hpp>

using namespace tessera;
using namespace tessera::emulator;
using namespace loadertest;
using Json = nlohmann::json;

namespace {

/// Writes the sample into a fresh directory and returns the loader's error
/// with the directory's path replaced by "D".
std::string loadError(const Sample &sample) {
  TempDir dir;
  sample.write(dir.path());
  LoadResult result = loadOutputDirectory(dir.path());
  CHECK_FALSE(result);
  std::string error = result.error;
  for (size_t at; (at = error.find(dir.path())) != std::string::npos;)
    error.replace(at, dir.path().size(), "D");
  return error;
}

} // namespace

TEST_CASE("out.json must describe the fabric file's header") {
  Sample sample = makeSample();
  SECTION("arch") {
    sample.json["arch"] = "wse3";
    CHECK(loadError(sample) ==
          "D/out.json: 'arch' is \"wse3\" but 'D/fabric.tfab' has \"wse2\"");
  }
  SECTION("fabric_dims") {
    sample.json["fabric_dims"] = {12, 4};
    CHECK(loadError(sample) == "D/out.json: 'fabric_dims' is [12, 4] but "
                               "'D/fabric.tfab' has [11, 4]");
  }
  SECTION("fabric_dims beyond what the fabric file can hold") {
    sample.json["fabric_dims"] = {65547, -4};
    CHECK(loadError(sample) == "D/out.json: 'fabric_dims' is [65547, -4] but "
                               "'D/fabric.tfab' has [11, 4]");
  }
  SECTION("fabric_offsets") {
    sample.json["fabric_offsets"] = {4, 2};
    CHECK(loadError(sample) == "D/out.json: 'fabric_offsets' is [4, 2] but "
                               "'D/fabric.tfab' has [4, 1]");
  }
  SECTION("rectangle") {
    sample.json["rectangle"] = {2, 4};
    CHECK(loadError(sample) == "D/out.json: 'rectangle' is [2, 4] but "
                               "'D/fabric.tfab' has [4, 2]");
  }
  SECTION("memcpy") {
    sample.fabric.memcpy = false;
    CHECK(loadError(sample) ==
          "D/out.json: 'memcpy' is true but 'D/fabric.tfab' has false");
  }
  SECTION("channels") {
    sample.json["channels"] = 2;
    CHECK(loadError(sample) ==
          "D/out.json: 'channels' is 2 but 'D/fabric.tfab' has 1");
  }
}

TEST_CASE("out.json and the fabric file list the same programs") {
  Sample sample = makeSample();
  SECTION("more programs than the layout can number") {
    sample.fabric.placement.clear();
    sample.fabric.values.clear();
    for (size_t i = 2; i < 65536; ++i)
      sample.fabric.programs.push_back("p" + std::to_string(i));
    CHECK(loadError(sample) == "D/fabric.tfab: lists 65,536 programs, more "
                               "than the 65,535 the emulator supports");
  }
  SECTION("a program file listed twice by the fabric") {
    sample.fabric.programs.push_back("bin/left.tpeb");
    CHECK(loadError(sample) == "D/fabric.tfab: program 'bin/left.tpeb' is "
                               "listed twice (programs 0 and 2)");
  }
  SECTION("an out.json program the fabric does not list") {
    sample.json["programs"][1]["file"] = "bin/other.tpeb";
    CHECK(loadError(sample) ==
          "D/out.json: 'programs[1].file' 'bin/other.tpeb' is not a program "
          "of 'D/fabric.tfab'");
  }
  SECTION("two out.json entries for one program") {
    sample.json["programs"].push_back(sample.json["programs"][0]);
    CHECK(loadError(sample) == "D/out.json: 'programs[0]' and 'programs[2]' "
                               "both describe 'bin/left.tpeb'");
  }
  SECTION("a fabric program out.json does not describe") {
    sample.json["programs"].erase(1);
    CHECK(loadError(sample) ==
          "D/out.json: no entry of 'programs' describes 'bin/right.tpeb', "
          "program 1 of 'D/fabric.tfab'");
  }
}

TEST_CASE("each program agrees with the fabric and its out.json entry") {
  Sample sample = makeSample();
  SECTION("a binary for another architecture") {
    sample.binaries[1].arch = target::Arch::WSE3;
    CHECK(loadError(sample) == "D/bin/right.tpeb: the program is for wse3 "
                               "but 'D/fabric.tfab' is for wse2");
  }
  SECTION("code_bytes") {
    sample.json["programs"][0]["code_bytes"] = 14;
    CHECK(loadError(sample) == "D/out.json: 'programs[0].code_bytes' is 14 "
                               "but 'D/bin/left.tpeb' has 12");
  }
  SECTION("data_bytes") {
    sample.json["programs"][0]["data_bytes"] = 0;
    CHECK(loadError(sample) == "D/out.json: 'programs[0].data_bytes' is 0 "
                               "but 'D/bin/left.tpeb' has 8");
  }
  SECTION("bss_bytes") {
    sample.json["programs"][1]["bss_bytes"] = 9;
    CHECK(loadError(sample) == "D/out.json: 'programs[1].bss_bytes' is 9 "
                               "but 'D/bin/right.tpeb' has 8");
  }
  SECTION("memory_bytes") {
    sample.json["programs"][0]["memory_bytes"] = 52;
    CHECK(loadError(sample) == "D/out.json: 'programs[0].memory_bytes' is 52 "
                               "but code, data, bss and stack add up to 116");
  }
  SECTION("code, data, bss and stack beyond the arch's PE memory") {
    // The binary alone fits (the reader checks that); its stack does not.
    sample.json["programs"][1]["stack_bytes"] = 49137;
    describeSizes(sample, 1);
    CHECK(loadError(sample) ==
          "D/bin/right.tpeb: the program needs 49,153 bytes of the 49,152 "
          "bytes of PE memory (code 8, data 0, bss 8, stack 49,137)");
  }
  SECTION("a stack size near 2^64 saturates instead of wrapping") {
    sample.json["programs"][1]["stack_bytes"] = UINT64_MAX - 8;
    sample.json["programs"][1]["memory_bytes"] = 0;
    CHECK(loadError(sample) ==
          "D/out.json: 'programs[1].memory_bytes' is 0 but code, data, bss "
          "and stack add up to 18446744073709551615");
  }
  SECTION("pes") {
    sample.json["programs"][1]["pes"] = 6;
    CHECK(loadError(sample) == "D/out.json: 'programs[1].pes' is 6 but "
                               "'D/fabric.tfab' places the program on 5 PEs");
  }
}

TEST_CASE("a program that fills PE memory exactly loads") {
  Sample sample = makeSample();
  sample.json["programs"][1]["stack_bytes"] = 49136;
  describeSizes(sample, 1);
  TempDir dir;
  sample.write(dir.path());
  CHECK(loadOutputDirectory(dir.path()).error == "");
}

TEST_CASE("an export may be stricter than its symbol, or differ in sign") {
  Sample sample = makeSample();
  sample.json["exports"][0]["mutable"] = false; // the layout forbids writes
  sample.json["exports"][0]["type"] = "i16";    // u16 storage
  TempDir dir;
  sample.write(dir.path());
  CHECK(loadOutputDirectory(dir.path()).error == "");
}

TEST_CASE("every export is a symbol of some program") {
  Sample sample = makeSample();
  SECTION("an unknown name") {
    sample.json["exports"][2]["name"] = "shift";
    CHECK(loadError(sample) == "D/out.json: 'exports[2]' 'shift' matches no "
                               "symbol of any program");
  }
  SECTION("another element size") {
    sample.json["exports"][0]["type"] = "i32";
    CHECK(loadError(sample) == "D/out.json: 'exports[0]' 'buf' matches no "
                               "symbol of any program");
  }
  SECTION("writable by the host where no program lets it") {
    for (auto &binary : sample.binaries)
      for (auto &symbol : binary.symbols)
        if (symbol.name == "buf")
          symbol.isMutable = false;
    CHECK(loadError(sample) == "D/out.json: 'exports[0]' 'buf' matches no "
                               "symbol of any program");
  }
  SECTION("a float type of the same size") {
    sample.json["exports"][0]["type"] = "f16";
    CHECK(loadError(sample) == "D/out.json: 'exports[0]' 'buf' matches no "
                               "symbol of any program");
  }
  SECTION("another kind") {
    sample.json["exports"][2] = {{"name", "scale"},
                                 {"kind", "data"},
                                 {"type", "u16"},
                                 {"mutable", true}};
    CHECK(loadError(sample) == "D/out.json: 'exports[2]' 'scale' matches no "
                               "symbol of any program");
  }
  SECTION("other parameters") {
    sample.json["exports"][1]["params"] = Json::array({"f32", "i32"});
    CHECK(loadError(sample) == "D/out.json: 'exports[1]' 'compute' matches "
                               "no symbol of any program");
  }
}

TEST_CASE("every per-PE value lands in a data symbol of the PE's program") {
  Sample sample = makeSample();
  SECTION("a PE that runs no program") {
    sample.fabric.values[1].x = 3;
    CHECK(loadError(sample) == "D/fabric.tfab: value for 'buf' on PE (3,1): "
                               "the PE runs no program");
  }
  SECTION("a symbol the program does not have") {
    sample.fabric.values[0].symbol = "scale_factor";
    CHECK(loadError(sample) ==
          "D/fabric.tfab: value for 'scale_factor' on PE (1,0): "
          "'D/bin/right.tpeb' has no data symbol 'scale_factor'");
  }
  SECTION("a function rather than data") {
    sample.fabric.values[0].symbol = "compute";
    CHECK(loadError(sample) ==
          "D/fabric.tfab: value for 'compute' on PE (1,0): "
          "'D/bin/right.tpeb' has no data symbol 'compute'");
  }
  SECTION("bytes beyond the symbol") {
    sample.fabric.values[0].offset = 7;
    CHECK(loadError(sample) == "D/fabric.tfab: value for 'buf' on PE (1,0): "
                               "2 bytes at offset 7 end beyond the symbol's "
                               "8 bytes");
  }
}
