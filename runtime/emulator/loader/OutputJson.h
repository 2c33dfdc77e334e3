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

/// One entry of out.json's `host_streams`, with its numbers as written:
/// checkHostStreams compares them with the rectangle and the target.
struct HostStreamEntry {
  std::string name;
  bool output = false;
  int64_t x = 0, y = 0, color = 0;
  pe::Port port = pe::Port::West;
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
  std::vector<HostStreamEntry> hostStreams;
};

/// Parses out.json's text; on failure returns "PATH: what is wrong".
std::string parseOutputJson(std::string_view text, const std::string &path,
                            OutputJson &out);


} // namespace tessera::emulator::loader

#endif // TESSERA_EMULATOR_LOADER_OUTPUTJSON_H
