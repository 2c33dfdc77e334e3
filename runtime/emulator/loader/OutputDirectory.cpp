//===- OutputDirectory.cpp - load what `cslc -o DIR` wrote ----------------===//
//
// The order of the steps is the order of the dependencies: out.json names
// the fabric file, the fabric file names the binaries, and the checks that
// relate them run once all three are read.
//
//===----------------------------------------------------------------------===//

#include "tessera/Emulator/OutputDirectory.h"

#include "Consistency.h"
#include "FileReading.h"
#include "OutputJson.h"

namespace tessera::emulator {

using namespace loader;

namespace {

LoadResult failure(std::string error) {
  return {std::nullopt, std::move(error)};
}

/// "PATH: offset N: message" for a file the PEBinary readers refused.
template <typename T>
std::optional<T> readBinary(const std::string &path,
                            pe::ReadResult<T> (*read)(std::span<const uint8_t>),
                            std::string &error) {
  std::vector<uint8_t> bytes;
  if (error = readWholeFile(path, bytes); !error.empty())
    return std::nullopt;
  pe::ReadResult<T> result = read(bytes);
  if (!result)
    error = path + ": " + result.error->str();
  return std::move(result.value);
}

} // namespace

LoadResult loadOutputDirectory(const std::string &directory) {
  return loadOutputDirectory(directory, joinPath(directory, "out.json"));
}

LoadResult loadOutputDirectory(const std::string &directory,
                               const std::string &jsonPath) {
  std::string error;
  OutputJson json;
  {
    std::vector<uint8_t> text;
    if (error = readWholeFile(jsonPath, text); !error.empty())
      return failure(error);
    std::string_view view(reinterpret_cast<const char *>(text.data()),
                          text.size());
    if (error = parseOutputJson(view, jsonPath, json); !error.empty())
      return failure(error);
  }

  LoadPaths paths{jsonPath, joinPath(directory, json.metadata.fabricFile)};
  std::optional<pe::FabricFile> fabric =
      readBinary(paths.fabric, pe::readFabric, error);
  if (!fabric)
    return failure(error);
  std::vector<size_t> entryOf;
  if (error = checkFabricHeader(json, *fabric, paths); !error.empty())
    return failure(error);
  if (error = checkHostStreams(json, paths); !error.empty())
    return failure(error);
  if (error = matchPrograms(json, *fabric, paths, entryOf); !error.empty())
    return failure(error);

  LoadedOutput out;
  out.directory = directory;
  std::string base = parentPath(paths.fabric);
  std::vector<std::string> binaryPaths;
  for (size_t i = 0; i < fabric->programs.size(); ++i) {
    binaryPaths.push_back(joinPath(base, fabric->programs[i]));
    std::optional<pe::ProgramBinary> binary =
        readBinary(binaryPaths.back(), pe::readProgram, error);
    if (!binary)
      return failure(error);
    ProgramEntry &entry = json.programs[entryOf[i]];
    out.programs.push_back({fabric->programs[i], std::move(entry.name),
                            std::move(entry.source), std::move(entry.instances),
                            entry.stackBytes, std::move(*binary)});
  }

  out.layout = FabricLayout(*fabric);
  for (size_t i = 0; i < out.programs.size(); ++i)
    if (error = checkProgram(
            json.programs[entryOf[i]], entryOf[i], out.programs[i].binary,
            binaryPaths[i], fabric->arch, out.layout.getPEsOf(i).size(), paths);
        !error.empty())
      return failure(error);
  out.metadata = std::move(json.metadata);
  out.values = std::move(fabric->values);
  if (error = checkExports(out, paths); !error.empty())
    return failure(error);
  if (error = checkValues(out, paths); !error.empty())
    return failure(error);
  return {std::move(out), {}};
}

const LoadedProgram *LoadedOutput::programAt(unsigned x, unsigned y) const {
  std::optional<uint16_t> program = layout.programAt(x, y);
  return program ? &programs[*program] : nullptr;
}

} // namespace tessera::emulator
