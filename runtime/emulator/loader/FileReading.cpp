//===- FileReading.cpp - whole files into memory, with errno text ---------===//

#include "FileReading.h"

#include <cerrno>
#include <cstdio>
#include <filesystem>
#include <system_error>

#include <sys/stat.h>

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
  // Chunked reads instead of trusting the size, because a directory or a
  // pipe opens fine and only fails (or has no size) when read. A regular
  // file's size is room made once: growing a wafer's 77 MB fabric file by
  // doubling touched twice its pages, and fresh pages are slow to come by.
  struct stat info;
  if (fstat(fileno(file), &info) == 0 && S_ISREG(info.st_mode))
    bytes.reserve(static_cast<size_t>(info.st_size));
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
