//===- OutputJson.h - out.json into typed fields ----------------*- C++ -*-===//
//
// Internal to TesseraEmulatorLoader: checks every key's type and keeps the
// numbers out.json claims, which Consistency.cpp compares with the binaries.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_LOADER_OUTPUTJSON_H
#define TESSERA_EMULATOR_LOADER_OUTPUTJSON_H

#include "tessera/Emulator/OutputDirectory.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::emulator::loader {

/// One entry of out.json's `programs`.
struct ProgramEntry {
  std::string name, file, source;
  std::vector<std::string> instances;
  uint64_t pes = 0, codeBytes = 0, dataBytes = 0, bssBytes = 0, stackBytes = 0,
           memoryBytes = 0;
};

/// out.json as written, before it is compared with the fabric file. The
/// geometry is kept wide so that a value the fabric file cannot hold is
/// reported as a disagreement rather than truncated.
struct OutputJson {
  OutputMetadata metadata; ///< geometry, memcpy and channels not yet set
  std::array<int64_t, 2> dims{}, offsets{}, rectangle{};
  bool memcpy = false;
  int64_t channels = 0;
  std::vector<ProgramEntry> programs;
};

/// Parses out.json's text; on failure returns "PATH: what is wrong".
std::string parseOutputJson(std::string_view text, const std::string &path,
                            OutputJson &out);


} // namespace tessera::emulator::loader

#endif // TESSERA_EMULATOR_LOADER_OUTPUTJSON_H
