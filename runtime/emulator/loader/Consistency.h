//===- Consistency.h - out.json, fabric file and binaries agree -*- C++ -*-===//
//
// Internal to TesseraEmulatorLoader. The readers check each file alone; these
// check the files against each other and against the target. Each returns
// "PATH: what is wrong" for the first problem, or an empty string.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_LOADER_CONSISTENCY_H
#define TESSERA_EMULATOR_LOADER_CONSISTENCY_H

#include "OutputJson.h"

#include <string>
#include <vector>

namespace tessera::emulator::loader {

/// The paths of the files being loaded, for messages.
struct LoadPaths {
  std::string json;
  std::string fabric;
};

/// out.json's arch, geometry, memcpy and channels equal the fabric file's;
/// copies them into `json.metadata`.
std::string checkFabricHeader(OutputJson &json, const pe::FabricFile &fabric,
                              const LoadPaths &paths);

/// Every host stream names an edge PE of the rectangle, a port that faces
/// off it there and a routable color, and no two streams of one direction
/// share a port and color; fills `json.metadata.hostStreams`. Needs the
/// geometry checkFabricHeader copied.
std::string checkHostStreams(OutputJson &json, const LoadPaths &paths);

/// Pairs every program of the fabric file with its out.json entry, one to
/// one; `entryOf[i]` is the entry of fabric program i.
std::string matchPrograms(const OutputJson &json, const pe::FabricFile &fabric,
                          const LoadPaths &paths, std::vector<size_t> &entryOf);

/// One loaded binary against the fabric's arch, its out.json entry (sizes,
/// PE count) and the arch's PE memory.
std::string checkProgram(const ProgramEntry &entry, size_t entryIndex,
                         const pe::ProgramBinary &binary,
                         const std::string &binaryPath, target::Arch arch,
                         size_t numPEs, const LoadPaths &paths);

/// Every export names a symbol of that kind and type in some program.
std::string checkExports(const LoadedOutput &output, const LoadPaths &paths);

/// Every per-PE value lands inside a data symbol of the PE's program.
std::string checkValues(const LoadedOutput &output, const LoadPaths &paths);

} // namespace tessera::emulator::loader

#endif // TESSERA_EMULATOR_LOADER_CONSISTENCY_H
