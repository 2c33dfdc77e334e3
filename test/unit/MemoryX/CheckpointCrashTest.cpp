//===- CheckpointCrashTest.cpp - killed saves never tear a checkpoint -----===//
//
// A child process saves version after version of a store and is killed
// with SIGKILL, either at a random moment or at a chosen stage of a save
// (through the test hook). The checkpoint left behind must load, and be bit
// for bit the last version whose save completed (or the one being saved,
// if the kill came after its rename).
//
//===----------------------------------------------------------------------===//

#include "TestSupport.h"

#include "tessera/MemoryX/CheckpointFormat.h"
#include "tessera/MemoryX/WeightStore.h"

#include <catch2/catch.hpp>

#include <chrono>
#include <csignal>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

using namespace tessera::memoryx;
using namespace memoryxtest;
using Clock = std::chrono::steady_clock;

namespace {

/// Two layers, about 7 MiB of checkpoint.
WeightStore makeStore() {
  WeightStore store;
  REQUIRE(store.addLayer({"big", 512, 1024, OptimizerKind::Adam}));
  REQUIRE(store.addLayer({"small", 256, 512, OptimizerKind::Momentum}));
  std::mt19937_64 random(99);
  for (size_t i = 0; i < store.layerCount(); ++i) {
    LayerStore &layer = store.layer(i);
    REQUIRE(layer.setWeightMask(
        randomMask(layer.rows(), layer.cols(), 0.5, random)));
  }
  return store;
}

/// Makes every saved value of `store` a function of `version`.
void setVersion(WeightStore &store, uint64_t version) {
  for (size_t i = 0; i < store.layerCount(); ++i) {
    LayerStore &layer = store.layer(i);
    layer.setSteps(version);
    float base = static_cast<float>(version % 100000);
    std::span<float> master = layer.mutableMaster();
    for (size_t j = 0; j < master.size(); ++j)
      master[j] = base + static_cast<float>(j % 4096) * 0.25f;
    for (unsigned s = 0; s < optimizerStateCount(layer.optimizer()); ++s) {
      std::span<float> state = layer.mutableOptimizerState(s);
      for (size_t j = 0; j < state.size(); ++j)
        state[j] = base * float(s + 2) - static_cast<float>(j % 1000);
    }
  }
}

WeightStore makeVersion(uint64_t version) {
  WeightStore store = makeStore();
  setVersion(store, version);
  return store;
}

/// Loads `path` and checks it is exactly one of the `allowed` versions.
void checkIntact(const std::string &path,
                 std::initializer_list<uint64_t> allowed) {
  Expected<WeightStore> read = WeightStore::readCheckpoint(path);
  REQUIRE(read);
  uint64_t version = read->layer(0).steps();
  INFO("loaded version " << version);
  CHECK(std::find(allowed.begin(), allowed.end(), version) != allowed.end());
  CHECK(sameStore(*read, makeVersion(version)));
}

size_t temporaryFiles(const std::string &directory) {
  size_t count = 0;
  for (const auto &entry : std::filesystem::directory_iterator(directory))
    count +=
        entry.path().filename().string().find(".tmp.") != std::string::npos;
  return count;
}

/// Reads 8-byte version reports until the writer is gone.
std::vector<uint64_t> readReports(int fd) {
  std::vector<uint64_t> reports;
  uint64_t version;
  while (read(fd, &version, sizeof(version)) == sizeof(version))
    reports.push_back(version);
  return reports;
}

void report(int fd, uint64_t version) {
  if (write(fd, &version, sizeof(version)) != sizeof(version))
    _exit(2);
}

// The hook's target in the child: kill at the `killAt`-th call for `stage`.
checkpoint::SaveStage killStage;
int killAt = 0;
int stageCalls = 0;
void killAtStage(checkpoint::SaveStage stage) {
  if (stage == killStage && ++stageCalls == killAt)
    raise(SIGKILL);
}

} // namespace

TEST_CASE("a save killed at a random moment leaves a whole checkpoint") {
  TempDir dir;
  std::string path = dir.file("store.ckpt");
  // How long one version takes, to spread the kills over a few saves.
  WeightStore timing = makeStore();
  Clock::time_point start = Clock::now();
  setVersion(timing, 1);
  REQUIRE(timing.saveCheckpoint(dir.file("timing.ckpt")));
  auto cycle = Clock::now() - start;
  std::filesystem::remove(dir.file("timing.ckpt"));

  std::mt19937_64 random(1234);
  int killedMidSave = 0;
  const int rounds = 6;
  for (int round = 0; round < rounds; ++round) {
    int channel[2];
    REQUIRE(pipe(channel) == 0);
    uint64_t first = uint64_t(round + 1) * 1000;
    pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      // The child must never return into Catch, even on a failed REQUIRE.
      try {
        close(channel[0]);
        WeightStore store = makeStore();
        // Odd reports announce a save, even ones its completion.
        for (uint64_t version = first;; ++version) {
          setVersion(store, version);
          report(channel[1], 2 * version + 1);
          if (!store.saveCheckpoint(path))
            _exit(3);
          report(channel[1], 2 * version);
        }
      } catch (...) {
        _exit(5);
      }
    }
    close(channel[1]);
    // Wait for one complete save, then kill within the next few.
    uint64_t firstReport = 0;
    while (read(channel[0], &firstReport, 8) == 8 && firstReport % 2 != 0) {
    }
    std::uniform_int_distribution<int64_t> delay(
        0, std::chrono::duration_cast<std::chrono::microseconds>(cycle * 3)
               .count());
    std::this_thread::sleep_for(std::chrono::microseconds(delay(random)));
    kill(child, SIGKILL);
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    REQUIRE(WIFSIGNALED(status));
    std::vector<uint64_t> reports = readReports(channel[0]);
    close(channel[0]);
    reports.insert(reports.begin(), firstReport);

    uint64_t lastDone = 0, lastStarted = 0;
    for (uint64_t r : reports)
      (r % 2 ? lastStarted : lastDone) = r / 2;
    killedMidSave += lastStarted > lastDone;
    INFO("round " << round << ": last complete version " << lastDone
                  << ", last started " << lastStarted);
    // The version being saved counts only if its rename happened.
    checkIntact(path, {lastDone, lastStarted});
  }
  // Saving is nearly all of the child's loop, so kills land inside saves;
  // the directory keeps their temporary files, never a torn target.
  INFO(killedMidSave << " of " << rounds << " kills came during a save");
  CHECK(killedMidSave > 0);
  CHECK(temporaryFiles(dir.path()) <= size_t(rounds));
}

TEST_CASE("a save killed at each stage leaves the old or the new version") {
  struct Case {
    checkpoint::SaveStage stage;
    int call;
    uint64_t expected;
    size_t leftovers;
  };
  using checkpoint::SaveStage;
  const Case cases[] = {
      {SaveStage::SectionWritten, 1, 1, 1},  // after the first section
      {SaveStage::SectionWritten, 6, 1, 1},  // in the middle
      {SaveStage::SectionWritten, 11, 1, 1}, // after the last section
      {SaveStage::BeforeRename, 1, 1, 1},    // written and synced
      {SaveStage::AfterRename, 1, 2, 0},     // renamed, directory unsynced
  };
  for (const Case &c : cases) {
    TempDir dir;
    std::string path = dir.file("store.ckpt");
    pid_t child = fork();
    REQUIRE(child >= 0);
    if (child == 0) {
      try {
        WeightStore store = makeVersion(1);
        if (!store.saveCheckpoint(path))
          _exit(3);
        setVersion(store, 2);
        killStage = c.stage;
        killAt = c.call;
        checkpoint::setSaveHookForTesting(killAtStage);
        (void)store.saveCheckpoint(path);
      } catch (...) {
        _exit(5);
      }
      _exit(4); // the hook should have killed us
    }
    int status = 0;
    REQUIRE(waitpid(child, &status, 0) == child);
    INFO("stage " << int(c.stage) << ", call " << c.call);
    REQUIRE(WIFSIGNALED(status));
    CHECK(WTERMSIG(status) == SIGKILL);
    checkIntact(path, {c.expected});
    CHECK(temporaryFiles(dir.path()) == c.leftovers);
  }
}
