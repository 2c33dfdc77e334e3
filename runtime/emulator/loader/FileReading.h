//===- FileReading.h - whole files into memory, with errno text -*- C++ -*-===//
//
// Internal to TesseraEmulatorLoader.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_LOADER_FILEREADING_H
#define TESSERA_EMULATOR_LOADER_FILEREADING_H

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::emulator::loader {

/// Reads the file at `path` into `bytes`. On failure returns
/// "cannot read 'PATH': <system message>", else an empty string.
std::string readWholeFile(const std::string &path, std::vector<uint8_t> &bytes);

/// `relative` resolved against the directory `base` ("" is the current one).
std::string joinPath(const std::string &base, const std::string &relative);
/// The directory part of `path` ("" if it has none).
std::string parentPath(const std::string &path);

} // namespace tessera::emulator::loader

#endif // TESSERA_EMULATOR_LOADER_FILEREADING_H
