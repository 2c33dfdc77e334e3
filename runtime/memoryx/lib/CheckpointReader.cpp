//===- CheckpointReader.cpp - loading a checkpoint file, verified ---------===//
//
// Reads section by section straight into the layers' arrays. Every size is
// checked against the shape and against what is left of the file before
// anything is allocated or read, every checksum before the bytes are used,
// so a damaged or hostile file gets a message, never a crash or a huge
// allocation.
//
//===----------------------------------------------------------------------===//

#include "Checkpoint.h"
#include "LayerStoreAccess.h"

#include "tessera/MemoryX/CheckpointFormat.h"
#include "tessera/Support/Crc32.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <set>
#include <sys/stat.h>
#include <unistd.h>

using namespace tessera::memoryx;
using namespace tessera::memoryx::checkpoint;

namespace {

std::string hex(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof(text), "0x%08x", value);
  return text;
}

uint32_t getU32(const unsigned char *at) {
  uint32_t value;
  std::memcpy(&value, at, 4);
  return value;
}
uint64_t getU64(const unsigned char *at) {
  uint64_t value;
  std::memcpy(&value, at, 8);
  return value;
}

Error cannotRead(const std::string &path, const std::string &reason) {
  return Error("cannot read '" + path + "': " + reason);
}

/// An open checkpoint and its size when opened.
class InputFile {
public:
  explicit InputFile(const std::string &path) : path(path) {}
  ~InputFile() {
    if (fd >= 0)
      close(fd);
  }

  Status open() {
    fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    struct stat info;
    if (fd < 0 || fstat(fd, &info) != 0)
      return cannotRead(path, std::strerror(errno));
    if (S_ISDIR(info.st_mode))
      return cannotRead(path, std::strerror(EISDIR));
    size = static_cast<uint64_t>(info.st_size);
    return Status();
  }

  /// Exactly `count` bytes at `offset`, which the caller checked are within
  /// the size; a file that shrinks meanwhile is an error too.
  Status readAt(uint64_t offset, void *into, size_t count) {
    char *bytes = static_cast<char *>(into);
    while (count > 0) {
      size_t piece = count < (size_t(1) << 30) ? count : size_t(1) << 30;
      ssize_t got = pread(fd, bytes, piece, static_cast<off_t>(offset));
      if (got < 0 && errno == EINTR)
        continue;
      if (got < 0)
        return cannotRead(path, std::strerror(errno));
      if (got == 0)
        return cannotRead(path, "the file ended at offset " +
                                    std::to_string(offset) +
                                    " while it was read");
      bytes += got;
      offset += static_cast<uint64_t>(got);
      count -= static_cast<size_t>(got);
    }
    return Status();
  }

  const std::string &path;
  uint64_t size = 0;

private:
  int fd = -1;
};

/// The expected payload size of a section, as a range and as the words
/// that end a "bad size" message.
struct SizeRule {
  uint64_t least;
  uint64_t most;
  std::string expectation;
};

class Reader {
public:
  explicit Reader(InputFile &file) : file(file) {}

  Expected<CheckpointContents> read();

private:
  Error fail(uint64_t at, const std::string &what) {
    return checkpointError(file.path, at, what);
  }

  /// Checks the next section's header against what should come, sizes the
  /// payload with `allocate(size)`, which returns where to read it, and
  /// checks the payload's checksum.
  template <typename Allocate>
  Status readSection(SectionKind kind, uint32_t layer, const std::string &what,
                     const SizeRule &rule, Allocate &&allocate);

  Status readLayer(uint32_t index, CheckpointContents &contents);
  Status readArray(SectionKind kind, uint32_t index, const std::string &label,
                   LargeArray<float> &array, uint32_t rows, uint32_t cols);
  Status readMask(SectionKind kind, uint32_t index, const std::string &label,
                  Mask &mask, uint32_t rows, uint32_t cols);

  InputFile &file;
  uint64_t offset = 0;
  std::set<std::string> names;
};

template <typename Allocate>
Status Reader::readSection(SectionKind kind, uint32_t layer,
                           const std::string &what, const SizeRule &rule,
                           Allocate &&allocate) {
  uint64_t left = file.size - offset;
  if (left < SectionHeaderSize)
    return fail(file.size, "truncated section header of the " + what + ": " +
                               std::to_string(left) + " bytes of " +
                               std::to_string(SectionHeaderSize));
  unsigned char header[SectionHeaderSize];
  if (Status ok = file.readAt(offset, header, sizeof(header)); !ok)
    return ok;
  uint32_t storedHeaderCrc = getU32(header + 20);
  uint32_t headerCrc = tessera::crc32(header, 20);
  if (storedHeaderCrc != headerCrc)
    return fail(offset + 20, "checksum mismatch in the section header of the " +
                                 what + ": stored " + hex(storedHeaderCrc) +
                                 ", computed " + hex(headerCrc));
  uint32_t foundKind = getU32(header), foundLayer = getU32(header + 4);
  if (foundKind != static_cast<uint32_t>(kind) || foundLayer != layer)
    return fail(offset, "expected the " + what + ", found section kind " +
                            std::to_string(foundKind) + " of layer " +
                            std::to_string(foundLayer));
  uint64_t size = getU64(header + 8);
  if (size < rule.least || size > rule.most)
    return fail(offset + 8, "bad size of the " + what + ": " +
                                std::to_string(size) + " bytes, " +
                                rule.expectation);
  uint64_t payloadOffset = offset + SectionHeaderSize;
  left = file.size - payloadOffset;
  if (left < size)
    return fail(file.size, "truncated " + what + ": " + std::to_string(left) +
                               " bytes of " + std::to_string(size));
  void *payload = allocate(size);
  if (Status ok = file.readAt(payloadOffset, payload, size); !ok)
    return ok;
  uint32_t storedCrc = getU32(header + 16);
  uint32_t payloadCrc = tessera::crc32(payload, size);
  if (storedCrc != payloadCrc)
    return fail(offset + 16, "checksum mismatch in the " + what + ": stored " +
                                 hex(storedCrc) + ", computed " +
                                 hex(payloadCrc));
  offset = payloadOffset + size;
  return Status();
}

Status Reader::readArray(SectionKind kind, uint32_t index,
                         const std::string &label, LargeArray<float> &array,
                         uint32_t rows, uint32_t cols) {
  uint64_t bytes = uint64_t(rows) * cols * sizeof(float);
  SizeRule rule{bytes, bytes,
                "expected " + std::to_string(bytes) + " for " +
                    std::to_string(rows) + "x" + std::to_string(cols)};
  return readSection(kind, index,
                     std::string(sectionName(kind)) + " of " + label, rule,
                     [&](uint64_t size) {
                       array.resize(size / sizeof(float));
                       return static_cast<void *>(array.data());
                     });
}

Status Reader::readMask(SectionKind kind, uint32_t index,
                        const std::string &label, Mask &mask, uint32_t rows,
                        uint32_t cols) {
  size_t perRow = Mask::wordsForRow(cols);
  uint64_t bytes = uint64_t(rows) * perRow * sizeof(uint64_t);
  SizeRule rule{bytes, bytes,
                "expected " + std::to_string(bytes) + " for " +
                    std::to_string(rows) + "x" + std::to_string(cols)};
  std::string what = std::string(sectionName(kind)) + " of " + label;
  std::vector<uint64_t> words;
  uint64_t payloadOffset = offset + SectionHeaderSize;
  Status read = readSection(kind, index, what, rule, [&](uint64_t size) {
    words.resize(size / sizeof(uint64_t));
    return static_cast<void *>(words.data());
  });
  if (!read)
    return read;
  if (cols % 64 != 0) {
    uint64_t padding = ~uint64_t(0) << (cols % 64);
    for (uint32_t row = 0; row < rows; ++row) {
      size_t last = (size_t(row) + 1) * perRow - 1;
      if (words[last] & padding)
        return fail(payloadOffset + last * sizeof(uint64_t),
                    "the " + what + " has bits set beyond column " +
                        std::to_string(cols - 1) + " in row " +
                        std::to_string(row));
    }
  }
  Expected<Mask> built = Mask::fromWords(rows, cols, std::move(words));
  if (!built)
    return fail(payloadOffset, built.error());
  mask = std::move(*built);
  return Status();
}

Status Reader::readLayer(uint32_t index, CheckpointContents &contents) {
  std::string headerWhat = "layer header of layer " + std::to_string(index);
  size_t most = LayerHeaderFixedSize + MaxLayerNameLength;
  SizeRule rule{LayerHeaderFixedSize, most,
                "expected " + std::to_string(LayerHeaderFixedSize) + " to " +
                    std::to_string(most)};
  std::vector<unsigned char> header;
  uint64_t at = offset + SectionHeaderSize;
  Status read = readSection(SectionKind::Layer, index, headerWhat, rule,
                            [&](uint64_t size) {
                              header.resize(size);
                              return static_cast<void *>(header.data());
                            });
  if (!read)
    return read;

  uint32_t rows = getU32(header.data()), cols = getU32(header.data() + 4);
  uint32_t kind = getU32(header.data() + 8);
  uint32_t nameLength = getU32(header.data() + 12);
  uint64_t steps = getU64(header.data() + 16);
  std::string layer = "layer " + std::to_string(index);
  if (LayerHeaderFixedSize + nameLength != header.size())
    return fail(at + 12, "name length " + std::to_string(nameLength) +
                             " does not match the " +
                             std::to_string(header.size()) +
                             "-byte layer header of " + layer);
  std::string shape = std::to_string(rows) + "x" + std::to_string(cols);
  if (rows == 0 || cols == 0)
    return fail(at, layer + " has an empty shape " + shape);
  if (uint64_t(rows) * cols > MaxWeights)
    return fail(at, layer + " is " + shape + ", more than " +
                        std::to_string(MaxWeights) + " weights");
  auto optimizer = static_cast<OptimizerKind>(kind);
  if (optimizerName(optimizer) == "unknown")
    return fail(at + 8,
                layer + " has unknown optimizer kind " + std::to_string(kind));
  if (nameLength == 0)
    return fail(at + 12, layer + " has an empty name");
  std::string name(reinterpret_cast<const char *>(header.data()) +
                       LayerHeaderFixedSize,
                   nameLength);
  if (!names.insert(name).second)
    return fail(at + LayerHeaderFixedSize,
                layer + " repeats the name '" + name + "'");

  std::string label = layer + " '" + name + "'";
  LayerStore store =
      LayerStoreAccess::blank({name, rows, cols, optimizer}, steps);
  Status ok = readArray(SectionKind::Master, index, label,
                        LayerStoreAccess::master(store), rows, cols);
  if (ok)
    ok = readMask(SectionKind::WeightMask, index, label,
                  LayerStoreAccess::weightMask(store), rows, cols);
  if (ok)
    ok = readMask(SectionKind::GradientMask, index, label,
                  LayerStoreAccess::gradientMask(store), rows, cols);
  unsigned states = optimizerStateCount(optimizer);
  if (ok && states > 0)
    ok = readArray(SectionKind::FirstMoment, index, label,
                   LayerStoreAccess::state(store, 0), rows, cols);
  if (ok && states > 1)
    ok = readArray(SectionKind::SecondMoment, index, label,
                   LayerStoreAccess::state(store, 1), rows, cols);
  if (!ok)
    return ok;
  if (Status built = LayerStoreAccess::finish(store); !built)
    return Error(file.path + ": " + built.error());
  contents.layers.push_back(std::make_unique<LayerStore>(std::move(store)));
  contents.layerOffsets.push_back(at);
  return Status();
}

Expected<CheckpointContents> Reader::read() {
  std::string truncatedHeader =
      "truncated header: " + std::to_string(file.size) + " bytes of " +
      std::to_string(HeaderSize);
  if (file.size < sizeof(Magic))
    return fail(file.size, truncatedHeader);
  unsigned char header[HeaderSize];
  size_t headerBytes = file.size < HeaderSize ? size_t(file.size) : HeaderSize;
  if (Status ok = file.readAt(0, header, headerBytes); !ok)
    return ok.takeError();
  if (std::memcmp(header, Magic, sizeof(Magic)) != 0)
    return fail(0, "bad magic: not a Tessera MemoryX checkpoint");
  if (file.size < HeaderSize)
    return fail(file.size, truncatedHeader);
  // The version comes before the checksum: another version's header need
  // not have its checksum in the same place.
  uint32_t version = getU32(header + 8);
  if (version != Version)
    return fail(8, "unsupported version " + std::to_string(version) +
                       " (this build reads version " + std::to_string(Version) +
                       ")");
  uint32_t storedCrc = getU32(header + 16),
           computedCrc = tessera::crc32(header, 16);
  if (storedCrc != computedCrc)
    return fail(16, "header checksum mismatch: stored " + hex(storedCrc) +
                        ", computed " + hex(computedCrc));

  CheckpointContents contents;
  uint32_t layerCount = getU32(header + 12);
  offset = HeaderSize;
  for (uint32_t index = 0; index < layerCount; ++index)
    if (Status ok = readLayer(index, contents); !ok)
      return ok.takeError();
  if (offset != file.size)
    return fail(offset, std::to_string(file.size - offset) +
                            " trailing bytes after the last section");
  return contents;
}

} // namespace

Error tessera::memoryx::checkpointError(const std::string &path,
                                        uint64_t offset,
                                        const std::string &what) {
  return Error(path + ": offset " + std::to_string(offset) + ": " + what);
}

std::string_view checkpoint::sectionName(SectionKind kind) {
  switch (kind) {
  case SectionKind::Layer:
    return "layer header";
  case SectionKind::Master:
    return "master weights";
  case SectionKind::WeightMask:
    return "weight mask";
  case SectionKind::GradientMask:
    return "gradient-request mask";
  case SectionKind::FirstMoment:
    return "first moment";
  case SectionKind::SecondMoment:
    return "second moment";
  }
  return "unknown section";
}

Expected<CheckpointContents>
tessera::memoryx::readCheckpointFile(const std::string &path) {
  try {
    InputFile file(path);
    if (Status opened = file.open(); !opened)
      return opened.takeError();
    return Reader(file).read();
  } catch (const std::bad_alloc &) {
    return cannotRead(path, "out of memory");
  }
}
