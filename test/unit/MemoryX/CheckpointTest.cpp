//===- CheckpointTest.cpp - saving, loading and refusing checkpoints ------===//
//
// The sample store has three layers: fc1 (5x70, SGD), fc2 (4x3, momentum)
// and fc3 (3x130, Adam); its checkpoint's sections are listed by walking
// the documented format, and every damaged variant is checked for its
// exact message.
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "tessera/MemoryX/CheckpointFormat.h"
#include "tessera/MemoryX/WeightStore.h"
#include "tessera/Support/Crc32.h"

#include <catch2/catch.hpp>

#include <csignal>
#include <cstdio>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace tessera::memoryx;
using namespace tessera::memoryx::checkpoint;
using namespace memoryxtest;

namespace {

struct Section {
  size_t offset;
  uint32_t kind, layer;
  uint64_t size;
  size_t payload() const { return offset + SectionHeaderSize; }
  size_t end() const { return payload() + size; }
};

uint32_t getU32(const std::vector<uint8_t> &bytes, size_t at) {
  uint32_t value;
  std::memcpy(&value, bytes.data() + at, 4);
  return value;
}
uint64_t getU64(const std::vector<uint8_t> &bytes, size_t at) {
  uint64_t value;
  std::memcpy(&value, bytes.data() + at, 8);
  return value;
}
void putU32(std::vector<uint8_t> &bytes, size_t at, uint32_t value) {
  std::memcpy(bytes.data() + at, &value, 4);
}
void putU64(std::vector<uint8_t> &bytes, size_t at, uint64_t value) {
  std::memcpy(bytes.data() + at, &value, 8);
}

std::vector<Section> sectionsOf(const std::vector<uint8_t> &bytes) {
  std::vector<Section> sections;
  for (size_t at = HeaderSize; at + SectionHeaderSize <= bytes.size();) {
    Section s{at, getU32(bytes, at), getU32(bytes, at + 4),
              getU64(bytes, at + 8)};
    sections.push_back(s);
    at = s.end();
  }
  return sections;
}

/// Recomputes a section's checksums after an edit (from its size field).
void reseal(std::vector<uint8_t> &bytes, size_t sectionOffset) {
  uint64_t size = getU64(bytes, sectionOffset + 8);
  size_t payload = sectionOffset + SectionHeaderSize;
  putU32(bytes, sectionOffset + 16,
         tessera::crc32(bytes.data() + payload, size));
  putU32(bytes, sectionOffset + 20,
         tessera::crc32(bytes.data() + sectionOffset, 20));
}

std::string hex(uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof(text), "0x%08x", value);
  return text;
}

void fill(std::span<float> values, std::mt19937_64 &random) {
  std::vector<float> drawn = randomValues(values.size(), random);
  std::copy(drawn.begin(), drawn.end(), values.begin());
}

WeightStore makeSample(uint64_t seed = 1) {
  std::mt19937_64 random(seed);
  WeightStore store;
  const LayerSpec specs[] = {{"fc1", 5, 70, OptimizerKind::SGD},
                             {"fc2", 4, 3, OptimizerKind::Momentum},
                             {"fc3", 3, 130, OptimizerKind::Adam}};
  for (const LayerSpec &spec : specs) {
    Expected<LayerStore *> added = store.addLayer(spec);
    REQUIRE(added);
    LayerStore &layer = **added;
    fill(layer.mutableMaster(), random);
    for (unsigned i = 0; i < optimizerStateCount(spec.optimizer); ++i)
      fill(layer.mutableOptimizerState(i), random);
    layer.setSteps(random() % 1000);
    REQUIRE(layer.setWeightMask(randomMask(spec.rows, spec.cols, 0.5, random)));
    REQUIRE(
        layer.setGradientMask(randomMask(spec.rows, spec.cols, 0.7, random)));
  }
  return store;
}

/// A store with the sample's layers, all zero.
WeightStore makeEmptySample() {
  WeightStore store;
  REQUIRE(store.addLayer({"fc1", 5, 70, OptimizerKind::SGD}));
  REQUIRE(store.addLayer({"fc2", 4, 3, OptimizerKind::Momentum}));
  REQUIRE(store.addLayer({"fc3", 3, 130, OptimizerKind::Adam}));
  return store;
}

/// How the reader names each section of the sample, in file order.
const char *const SampleSectionNames[] = {
    "layer header of layer 0",
    "master weights of layer 0 'fc1'",
    "weight mask of layer 0 'fc1'",
    "gradient-request mask of layer 0 'fc1'",
    "layer header of layer 1",
    "master weights of layer 1 'fc2'",
    "weight mask of layer 1 'fc2'",
    "gradient-request mask of layer 1 'fc2'",
    "first moment of layer 1 'fc2'",
    "layer header of layer 2",
    "master weights of layer 2 'fc3'",
    "weight mask of layer 2 'fc3'",
    "gradient-request mask of layer 2 'fc3'",
    "first moment of layer 2 'fc3'",
    "second moment of layer 2 'fc3'",
};

/// Saves the sample and returns its bytes.
std::vector<uint8_t> sampleBytes(const TempDir &dir) {
  std::string path = dir.file("sample.ckpt");
  REQUIRE(makeSample().saveCheckpoint(path));
  return readBytes(path);
}

/// Writes `bytes` and returns what reading them says.
std::string readError(const TempDir &dir, const std::vector<uint8_t> &bytes) {
  std::string path = dir.file("damaged.ckpt");
  writeBytes(path, bytes);
  Expected<WeightStore> read = WeightStore::readCheckpoint(path);
  CHECK_FALSE(read);
  return read.error();
}

std::vector<std::string> filesIn(const std::string &directory) {
  std::vector<std::string> names;
  for (const auto &entry : std::filesystem::directory_iterator(directory))
    names.push_back(entry.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

} // namespace

TEST_CASE("a checkpoint reads back bit for bit") {
  TempDir dir;
  std::string path = dir.file("store.ckpt");
  WeightStore saved = makeSample();
  REQUIRE(saved.saveCheckpoint(path));
  CHECK(filesIn(dir.path()) == std::vector<std::string>{"store.ckpt"});

  Expected<WeightStore> read = WeightStore::readCheckpoint(path);
  REQUIRE(read);
  CHECK(sameStore(*read, saved));

  WeightStore loaded = makeEmptySample();
  LayerStore *fc3 = loaded.findLayer("fc3");
  REQUIRE(loaded.loadCheckpoint(path));
  CHECK(sameStore(loaded, saved));
  CHECK(loaded.findLayer("fc3") == fc3);
  // The derived data is rebuilt: the same stream comes out.
  for (size_t i = 0; i < saved.layerCount(); ++i) {
    std::vector<std::tuple<uint32_t, uint32_t, uint16_t>> a, b;
    saved.layer(i).sparse().forEachForward(
        [&](uint32_t r, uint32_t c, uint16_t h) { a.emplace_back(r, c, h); });
    loaded.layer(i).sparse().forEachForward(
        [&](uint32_t r, uint32_t c, uint16_t h) { b.emplace_back(r, c, h); });
    CHECK(a == b);
    CHECK(loaded.layer(i).gradientStream().nonzeroCount() ==
          saved.layer(i).gradientMask().count());
  }

  // Saving again replaces the file and leaves no temporary behind.
  REQUIRE(makeEmptySample().saveCheckpoint(path));
  Expected<WeightStore> empty = WeightStore::readCheckpoint(path);
  REQUIRE(empty);
  CHECK(sameStore(*empty, makeEmptySample()));
  CHECK(filesIn(dir.path()) == std::vector<std::string>{"store.ckpt"});

  // A store without layers is a 20-byte file.
  REQUIRE(WeightStore().saveCheckpoint(path));
  CHECK(readBytes(path).size() == HeaderSize);
  Expected<WeightStore> none = WeightStore::readCheckpoint(path);
  REQUIRE(none);
  CHECK(none->layerCount() == 0);
}

TEST_CASE("the checkpoint's bytes follow the documented layout") {
  TempDir dir;
  std::vector<uint8_t> bytes = sampleBytes(dir);
  CHECK(std::memcmp(bytes.data(), "TSMXCKPT", 8) == 0);
  CHECK(getU32(bytes, 8) == 1);
  CHECK(getU32(bytes, 12) == 3);
  CHECK(getU32(bytes, 16) == tessera::crc32(bytes.data(), 16));

  std::vector<Section> sections = sectionsOf(bytes);
  REQUIRE(sections.size() == 15);
  CHECK(sections.back().end() == bytes.size());
  const uint32_t kinds[] = {1, 2, 3, 4, 1, 2, 3, 4, 5, 1, 2, 3, 4, 5, 6};
  const uint32_t layers[] = {0, 0, 0, 0, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2};
  // Layer headers are 24 bytes plus the name; masks are whole 64-bit
  // words per row.
  const uint64_t sizes[] = {27,        5 * 70 * 4,  5 * 2 * 8,   5 * 2 * 8,
                            27,        4 * 3 * 4,   4 * 8,       4 * 8,
                            48,        27,          3 * 130 * 4, 3 * 3 * 8,
                            3 * 3 * 8, 3 * 130 * 4, 3 * 130 * 4};
  for (size_t i = 0; i < sections.size(); ++i) {
    INFO("section " << i);
    const Section &s = sections[i];
    CHECK(s.kind == kinds[i]);
    CHECK(s.layer == layers[i]);
    CHECK(s.size == sizes[i]);
    CHECK(getU32(bytes, s.offset + 16) ==
          tessera::crc32(bytes.data() + s.payload(), s.size));
    CHECK(getU32(bytes, s.offset + 20) ==
          tessera::crc32(bytes.data() + s.offset, 20));
  }
  // Layer 2's header: 3 rows, 130 columns, Adam, a 3-byte name.
  size_t header = sections[9].payload();
  CHECK(getU32(bytes, header) == 3);
  CHECK(getU32(bytes, header + 4) == 130);
  CHECK(getU32(bytes, header + 8) == 2);
  CHECK(getU32(bytes, header + 12) == 3);
  CHECK(getU64(bytes, header + 16) == makeSample().layer(2).steps());
  CHECK(std::string(bytes.begin() + header + 24, bytes.begin() + header + 27) ==
        "fc3");
}

TEST_CASE("a flipped byte in any section is a checksum mismatch") {
  TempDir dir;
  std::string path = dir.file("damaged.ckpt");
  std::vector<uint8_t> bytes = sampleBytes(dir);
  std::vector<Section> sections = sectionsOf(bytes);
  for (size_t i = 0; i < sections.size(); ++i) {
    const Section &s = sections[i];
    std::string what = SampleSectionNames[i];
    INFO(what);

    std::vector<uint8_t> payloadFlipped = bytes;
    payloadFlipped[s.payload() + s.size / 2] ^= 0x10;
    CHECK(readError(dir, payloadFlipped) ==
          path + ": offset " + std::to_string(s.offset + 16) +
              ": checksum mismatch in the " + what + ": stored " +
              hex(getU32(bytes, s.offset + 16)) + ", computed " +
              hex(tessera::crc32(payloadFlipped.data() + s.payload(), s.size)));

    for (size_t field : {0, 4, 8, 16}) {
      std::vector<uint8_t> headerFlipped = bytes;
      headerFlipped[s.offset + field] ^= 0x01;
      CHECK(readError(dir, headerFlipped) ==
            path + ": offset " + std::to_string(s.offset + 20) +
                ": checksum mismatch in the section header of the " + what +
                ": stored " + hex(getU32(bytes, s.offset + 20)) +
                ", computed " +
                hex(tessera::crc32(headerFlipped.data() + s.offset, 20)));
    }
  }
}

TEST_CASE("damage to the file header is named") {
  TempDir dir;
  std::string path = dir.file("damaged.ckpt");
  std::vector<uint8_t> bytes = sampleBytes(dir);

  SECTION("wrong magic") {
    bytes[3] = 'Z';
    CHECK(readError(dir, bytes) ==
          path + ": offset 0: bad magic: not a Tessera MemoryX checkpoint");
  }
  SECTION("another format entirely") {
    std::vector<uint8_t> text(100, 'a');
    CHECK(readError(dir, text) ==
          path + ": offset 0: bad magic: not a Tessera MemoryX checkpoint");
  }
  SECTION("a future version") {
    putU32(bytes, 8, 2);
    putU32(bytes, 16, tessera::crc32(bytes.data(), 16));
    CHECK(readError(dir, bytes) ==
          path + ": offset 8: unsupported version 2 (this build reads "
                 "version 1)");
  }
  SECTION("a flipped layer count") {
    bytes[12] ^= 0x04;
    CHECK(readError(dir, bytes) ==
          path + ": offset 16: header checksum mismatch: stored " +
              hex(getU32(bytes, 16)) + ", computed " +
              hex(tessera::crc32(bytes.data(), 16)));
  }
  SECTION("trailing bytes") {
    size_t size = bytes.size();
    bytes.insert(bytes.end(), 7, 0);
    CHECK(readError(dir, bytes) == path + ": offset " + std::to_string(size) +
                                       ": 7 trailing bytes after the last "
                                       "section");
  }
}

TEST_CASE("a truncated checkpoint says where it ends") {
  TempDir dir;
  std::string path = dir.file("damaged.ckpt");
  std::vector<uint8_t> bytes = sampleBytes(dir);
  std::vector<Section> sections = sectionsOf(bytes);
  auto cut = [&](size_t size) {
    return readError(dir,
                     std::vector<uint8_t>(bytes.begin(), bytes.begin() + size));
  };
  auto at = [&](size_t offset) {
    return path + ": offset " + std::to_string(offset) + ": ";
  };
  CHECK(cut(0) == at(0) + "truncated header: 0 bytes of 20");
  CHECK(cut(5) == at(5) + "truncated header: 5 bytes of 20");
  CHECK(cut(19) == at(19) + "truncated header: 19 bytes of 20");
  CHECK(cut(20) == at(20) + "truncated section header of the layer header "
                            "of layer 0: 0 bytes of 24");
  CHECK(cut(30) == at(30) + "truncated section header of the layer header "
                            "of layer 0: 10 bytes of 24");
  size_t master = sections[1].payload();
  CHECK(cut(master + 100) == at(master + 100) +
                                 "truncated master weights of layer 0 "
                                 "'fc1': 100 bytes of 1400");
  size_t layer1 = sections[4].offset;
  CHECK(cut(layer1) == at(layer1) + "truncated section header of the layer "
                                    "header of layer 1: 0 bytes of 24");
  CHECK(cut(bytes.size() - 1) == at(bytes.size() - 1) +
                                     "truncated second moment of layer 2 "
                                     "'fc3': 1559 bytes of 1560");
}

TEST_CASE("sealed sections with impossible contents are refused") {
  TempDir dir;
  std::string path = dir.file("damaged.ckpt");
  std::vector<uint8_t> bytes = sampleBytes(dir);
  std::vector<Section> sections = sectionsOf(bytes);
  auto at = [&](size_t offset) {
    return path + ": offset " + std::to_string(offset) + ": ";
  };
  const Section &layer0 = sections[0], &master0 = sections[1];
  size_t header0 = layer0.payload();

  SECTION("a section out of order") {
    putU32(bytes, master0.offset, 5);
    reseal(bytes, master0.offset);
    CHECK(readError(dir, bytes) ==
          at(master0.offset) + "expected the master weights of layer 0 "
                               "'fc1', found section kind 5 of layer 0");
  }
  SECTION("a section of another layer") {
    putU32(bytes, master0.offset + 4, 1);
    reseal(bytes, master0.offset);
    CHECK(readError(dir, bytes) ==
          at(master0.offset) + "expected the master weights of layer 0 "
                               "'fc1', found section kind 2 of layer 1");
  }
  SECTION("a master of the wrong size") {
    putU64(bytes, master0.offset + 8, 1396);
    reseal(bytes, master0.offset);
    CHECK(readError(dir, bytes) ==
          at(master0.offset + 8) + "bad size of the master weights of layer "
                                   "0 'fc1': 1396 bytes, expected 1400 for "
                                   "5x70");
  }
  SECTION("a layer header too short") {
    putU64(bytes, layer0.offset + 8, 10);
    reseal(bytes, layer0.offset);
    CHECK(readError(dir, bytes) ==
          at(layer0.offset + 8) + "bad size of the layer header of layer 0: "
                                  "10 bytes, expected 24 to 1048");
  }
  SECTION("a name length that does not fit") {
    putU32(bytes, header0 + 12, 4);
    reseal(bytes, layer0.offset);
    CHECK(readError(dir, bytes) ==
          at(header0 + 12) + "name length 4 does not match the 27-byte "
                             "layer header of layer 0");
  }
  SECTION("an empty shape") {
    putU32(bytes, header0, 0);
    reseal(bytes, layer0.offset);
    CHECK(readError(dir, bytes) ==
          at(header0) + "layer 0 has an empty shape 0x70");
  }
  SECTION("a shape too large") {
    putU32(bytes, header0, 65536);
    putU32(bytes, header0 + 4, 32769);
    reseal(bytes, layer0.offset);
    CHECK(readError(dir, bytes) ==
          at(header0) + "layer 0 is 65536x32769, more than 2147483648 "
                        "weights");
  }
  SECTION("an unknown optimizer") {
    putU32(bytes, header0 + 8, 9);
    reseal(bytes, layer0.offset);
    CHECK(readError(dir, bytes) ==
          at(header0 + 8) + "layer 0 has unknown optimizer kind 9");
  }
  SECTION("an empty name") {
    bytes.erase(bytes.begin() + header0 + 24, bytes.begin() + header0 + 27);
    putU32(bytes, header0 + 12, 0);
    putU64(bytes, layer0.offset + 8, 24);
    reseal(bytes, layer0.offset);
    CHECK(readError(dir, bytes) ==
          at(header0 + 12) + "layer 0 has an empty name");
  }
  SECTION("a repeated name") {
    size_t header1 = sections[4].payload();
    bytes[header1 + 26] = '1';
    reseal(bytes, sections[4].offset);
    CHECK(readError(dir, bytes) ==
          at(header1 + 24) + "layer 1 repeats the name 'fc1'");
  }
  SECTION("mask bits past the last column") {
    // fc1 has 70 columns: the second word of each row uses 6 bits.
    const Section &mask0 = sections[2];
    size_t word = mask0.payload() + (2 * 2 + 1) * 8;
    bytes[word] |= 0x80;
    reseal(bytes, mask0.offset);
    CHECK(readError(dir, bytes) ==
          at(word) + "the weight mask of layer 0 'fc1' has bits set beyond "
                     "column 69 in row 2");
  }
}

TEST_CASE("loading into a store checks that its layers match") {
  TempDir dir;
  std::string path = dir.file("store.ckpt");
  REQUIRE(makeSample().saveCheckpoint(path));
  std::vector<Section> sections = sectionsOf(readBytes(path));
  auto at = [&](size_t offset) {
    return path + ": offset " + std::to_string(offset) + ": ";
  };
  auto unchanged = [](const WeightStore &store) {
    for (size_t i = 0; i < store.layerCount(); ++i)
      for (float w : store.layer(i).master())
        if (w != 0.0f)
          return false;
    return true;
  };

  SECTION("fewer layers") {
    WeightStore store;
    REQUIRE(store.addLayer({"fc1", 5, 70}));
    REQUIRE(store.addLayer({"fc2", 4, 3, OptimizerKind::Momentum}));
    CHECK(store.loadCheckpoint(path).error() ==
          at(12) + "the checkpoint has 3 layers, the store has 2");
    CHECK(unchanged(store));
  }
  SECTION("another name") {
    WeightStore store;
    REQUIRE(store.addLayer({"fc1", 5, 70}));
    REQUIRE(store.addLayer({"fc2", 4, 3, OptimizerKind::Momentum}));
    REQUIRE(store.addLayer({"out", 3, 130, OptimizerKind::Adam}));
    CHECK(store.loadCheckpoint(path).error() ==
          at(sections[9].payload() + 24) +
              "layer 2 is 'fc3' in the checkpoint, 'out' in the store");
    CHECK(unchanged(store));
  }
  SECTION("another shape") {
    WeightStore store;
    REQUIRE(store.addLayer({"fc1", 5, 70}));
    REQUIRE(store.addLayer({"fc2", 3, 4, OptimizerKind::Momentum}));
    REQUIRE(store.addLayer({"fc3", 3, 130, OptimizerKind::Adam}));
    CHECK(store.loadCheckpoint(path).error() ==
          at(sections[4].payload()) +
              "layer 1 'fc2' is 4x3 in the checkpoint, 3x4 in the store");
    CHECK(unchanged(store));
  }
  SECTION("another optimizer") {
    WeightStore store;
    REQUIRE(store.addLayer({"fc1", 5, 70}));
    REQUIRE(store.addLayer({"fc2", 4, 3, OptimizerKind::Momentum}));
    REQUIRE(store.addLayer({"fc3", 3, 130, OptimizerKind::SGD}));
    CHECK(store.loadCheckpoint(path).error() ==
          at(sections[9].payload() + 8) +
              "layer 2 'fc3' keeps adam state in the checkpoint, sgd in the "
              "store");
    CHECK(unchanged(store));
  }
}

TEST_CASE("files that cannot be read or written are named with the reason") {
  TempDir dir;
  std::string missing = dir.file("missing.ckpt");
  CHECK(WeightStore::readCheckpoint(missing).error() ==
        "cannot read '" + missing + "': No such file or directory");
  CHECK(WeightStore::readCheckpoint(dir.path()).error() ==
        "cannot read '" + dir.path() + "': Is a directory");

  std::string nowhere = dir.file("nowhere/store.ckpt");
  CHECK(makeSample().saveCheckpoint(nowhere).error() ==
        "cannot create a temporary file beside '" + nowhere +
            "': No such file or directory");

  // A directory in the way of the rename: the temporary file goes away.
  std::string blocked = dir.file("blocked");
  std::filesystem::create_directory(blocked);
  std::filesystem::create_directory(blocked + "/inside");
  std::string error = makeSample().saveCheckpoint(blocked).error();
  std::string prefix =
      "cannot rename '" + blocked + ".tmp." + std::to_string(getpid()) + ".";
  std::string suffix = "' to '" + blocked + "': Is a directory";
  CHECK(error.substr(0, prefix.size()) == prefix);
  CHECK(error.size() > prefix.size() + suffix.size());
  CHECK(error.substr(error.size() - suffix.size()) == suffix);
  CHECK(filesIn(dir.path()) == std::vector<std::string>{"blocked"});
}

TEST_CASE("a failed write leaves the previous checkpoint and no temporary") {
  TempDir dir;
  std::string path = dir.file("store.ckpt");
  WeightStore previous = makeSample(1);
  REQUIRE(previous.saveCheckpoint(path));
  std::vector<uint8_t> before = readBytes(path);

  // In a child limited to 4 KiB files: the write fails with EFBIG.
  int channel[2];
  REQUIRE(pipe(channel) == 0);
  pid_t child = fork();
  REQUIRE(child >= 0);
  if (child == 0) {
    // The child must never return into Catch, even on a failed REQUIRE.
    try {
      close(channel[0]);
      std::signal(SIGXFSZ, SIG_IGN);
      rlimit limit{4096, 4096};
      setrlimit(RLIMIT_FSIZE, &limit);
      Status saved = makeSample(2).saveCheckpoint(path);
      std::string message = saved ? "no error" : saved.error();
      ssize_t written = write(channel[1], message.data(), message.size());
      _exit(written == ssize_t(message.size()) ? 0 : 1);
    } catch (...) {
      _exit(5);
    }
  }
  close(channel[1]);
  std::string message;
  char buffer[512];
  for (ssize_t got; (got = read(channel[0], buffer, sizeof(buffer))) > 0;)
    message.append(buffer, size_t(got));
  close(channel[0]);
  int status = 0;
  REQUIRE(waitpid(child, &status, 0) == child);
  CHECK(WIFEXITED(status));

  std::string prefix =
      "cannot write '" + path + ".tmp." + std::to_string(child) + ".";
  std::string suffix = "': File too large";
  CHECK(message.substr(0, prefix.size()) == prefix);
  CHECK(message.size() > prefix.size() + suffix.size());
  CHECK(message.substr(message.size() - suffix.size()) == suffix);
  CHECK(filesIn(dir.path()) == std::vector<std::string>{"store.ckpt"});
  CHECK(readBytes(path) == before);
}
