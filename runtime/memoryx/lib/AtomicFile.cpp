//===- AtomicFile.cpp - replacing a file all at once ----------------------===//

#include "AtomicFile.h"

#include <atomic>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <filesystem>
#include <unistd.h>

using namespace tessera::memoryx;

namespace {

std::string systemReason(int error) { return std::strerror(error); }

std::string directoryOf(const std::string &path) {
  std::string parent = std::filesystem::path(path).parent_path().string();
  return parent.empty() ? "." : parent;
}

/// Distinguishes the temporary files of saves in one process.
std::atomic<unsigned> nextTemporary{0};

checkpoint::SaveHook saveHook = nullptr;

} // namespace

void checkpoint::setSaveHookForTesting(SaveHook hook) { saveHook = hook; }

void tessera::memoryx::reachSaveStage(checkpoint::SaveStage stage) {
  if (saveHook)
    saveHook(stage);
}

Expected<AtomicFileWriter> AtomicFileWriter::create(const std::string &path) {
  // O_EXCL: never reuse a name another save (or a crashed one) left.
  for (int attempt = 0;; ++attempt) {
    std::string temporary = path + ".tmp." + std::to_string(getpid()) + "." +
                            std::to_string(nextTemporary++);
    int fd =
        open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (fd >= 0)
      return AtomicFileWriter(path, temporary, fd);
    if (errno != EEXIST || attempt == 100)
      return Error("cannot create a temporary file beside '" + path +
                   "': " + systemReason(errno));
  }
}

AtomicFileWriter::AtomicFileWriter(AtomicFileWriter &&other) noexcept
    : target(std::move(other.target)), temporary(std::move(other.temporary)),
      fd(other.fd), renamed(other.renamed) {
  other.fd = -1;
  other.renamed = true;
}

AtomicFileWriter::~AtomicFileWriter() {
  if (fd >= 0)
    close(fd);
  if (!renamed)
    unlink(temporary.c_str());
}

Status AtomicFileWriter::write(const void *data, size_t size) {
  const char *bytes = static_cast<const char *>(data);
  while (size > 0) {
    // Large writes go in pieces: Linux caps one write at about 2 GiB.
    size_t piece = size < (size_t(1) << 30) ? size : size_t(1) << 30;
    ssize_t written = ::write(fd, bytes, piece);
    if (written < 0) {
      if (errno == EINTR)
        continue;
      return Error("cannot write '" + temporary + "': " + systemReason(errno));
    }
    bytes += written;
    size -= static_cast<size_t>(written);
  }
  return Status();
}

Status AtomicFileWriter::commit() {
  // The data must be durable before the name points at it, or a power cut
  // after the rename could leave a complete-looking file of zeros.
  if (fsync(fd) != 0)
    return Error("cannot write '" + temporary + "': " + systemReason(errno));
  int closing = fd;
  fd = -1;
  if (close(closing) != 0)
    return Error("cannot write '" + temporary + "': " + systemReason(errno));
  reachSaveStage(checkpoint::SaveStage::BeforeRename);
  if (rename(temporary.c_str(), target.c_str()) != 0)
    return Error("cannot rename '" + temporary + "' to '" + target +
                 "': " + systemReason(errno));
  renamed = true;
  reachSaveStage(checkpoint::SaveStage::AfterRename);
  // The rename itself is durable only once the directory is.
  std::string directory = directoryOf(target);
  int dirFd = open(directory.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dirFd < 0)
    return Error("cannot sync directory '" + directory +
                 "': " + systemReason(errno));
  int synced = fsync(dirFd);
  int reason = errno;
  close(dirFd);
  if (synced != 0)
    return Error("cannot sync directory '" + directory +
                 "': " + systemReason(reason));
  return Status();
}
