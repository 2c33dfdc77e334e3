//===- FileReading.cpp - whole files into memory, with errno text ---------===//

#include "FileReading.h"

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <system_error>

namespace tessera::emulator::loader {

namespace {

std::string cannotRead(const std::string &path, int error) {
  return "cannot read '" + path +
         "': " + std::error_code(error, std::generic_category()).message();
}

} // namespace

std::string readWholeFile(const std::string &path,
                          std::vector<uint8_t> &bytes) {
  bytes.clear();
  std::FILE *file = std::fopen(path.c_str(), "rb");
  if (!file)
    return cannotRead(path, errno);
  // Chunked reads instead of asking for the size first, because a directory
  // or a pipe opens fine and only fails (or has no size) when read.
  uint8_t chunk[1 << 16];
  size_t got;
  while ((got = std::fread(chunk, 1, sizeof(chunk), file)) > 0)
    bytes.insert(bytes.end(), chunk, chunk + got);
  int error = std::ferror(file) ? (errno ? errno : EIO) : 0;
  std::fclose(file);
  if (error)
    return cannotRead(path, error);
  return {};
}

std::string joinPath(const std::string &base, const std::string &relative) {
  if (base.empty())
    return relative;
  return (std::filesystem::path(base) / relative).string();
}

std::string parentPath(const std::string &path) {
  return std::filesystem::path(path).parent_path().string();
}

} // namespace tessera::emulator::loader
