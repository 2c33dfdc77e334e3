//===- AtomicFile.h - replacing a file all at once --------------*- C++ -*-===//
//
// Library-internal. Writes go to a new file beside the target; commit()
// syncs it, renames it over the target and syncs the directory. rename()
// within a directory is atomic, so the target is always either the old file
// or the complete new one; a writer dropped without commit() (or a process
// killed before it) leaves the target untouched.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_MEMORYX_LIB_ATOMICFILE_H
#define TESSERA_MEMORYX_LIB_ATOMICFILE_H

#include "tessera/MemoryX/CheckpointFormat.h"
#include "tessera/MemoryX/Expected.h"

#include <string>

namespace tessera::memoryx {

/// Calls the hook of checkpoint::setSaveHookForTesting, if any.
void reachSaveStage(checkpoint::SaveStage stage);

class AtomicFileWriter {
public:
  /// Creates the temporary file "<path>.tmp.<pid>.<n>".
  static Expected<AtomicFileWriter> create(const std::string &path);

  AtomicFileWriter(AtomicFileWriter &&other) noexcept;
  AtomicFileWriter &operator=(AtomicFileWriter &&) = delete;
  /// Without commit(), closes and removes the temporary file.
  ~AtomicFileWriter();

  Status write(const void *data, size_t size);
  /// fsync, close, rename over the target, fsync the directory.
  Status commit();

  const std::string &temporaryPath() const { return temporary; }

private:
  AtomicFileWriter(std::string target, std::string temporary, int fd)
      : target(std::move(target)), temporary(std::move(temporary)), fd(fd) {}

  std::string target;
  std::string temporary;
  int fd = -1;
  bool renamed = false;
};

} // namespace tessera::memoryx

#endif // TESSERA_MEMORYX_LIB_ATOMICFILE_H
