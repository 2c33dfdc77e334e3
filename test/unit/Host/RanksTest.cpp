//===- RanksTest.cpp - host programs and records across thread ranks ------===//
//
// docs/Scaling.md "Ranks" and "Host programs on ranks" without MPI: threads
// play the ranks through a RankLink of shared memory. The loader tests'
// 4x2 sample is split in two: run records and core dumps gathered on rank 0
// equal one process's, an SdkRuntime on rank 0 reads and writes every PE
// while rank 1 serves its row, and a server refuses requests it cannot
// follow with a message rather than waiting forever.
//
//===----------------------------------------------------------------------===//

#include "TestOutput.h"

#include "tessera/Emulator/Bytes.h"
#include "tessera/Emulator/Emulator.h"
#include "tessera/Emulator/RankLink.h"
#include "tessera/Host/Ranks.h"
#include "tessera/Host/SdkRuntime.h"
#include "tessera/Record/CoreDump.h"
#include "tessera/Record/RunRecordBuilder.h"
#include "tessera/Viz/RunRecordJSON.h"

#include <catch2/catch.hpp>

#include <array>
#include <condition_variable>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <mutex>
#include <regex>
#include <sstream>
#include <stdexcept>
#include <thread>

using namespace tessera;
using namespace tessera::emulator;
using namespace loadertest;

namespace {

/// What the thread ranks share: a slot per rank and a barrier.
class ThreadRanks {
public:
  explicit ThreadRanks(unsigned size) : size(size), slots(size) {}

  class Link final : public RankLink {
  public:
    Link(ThreadRanks &ranks, unsigned rank) : ranks(ranks), rank(rank) {}
    unsigned getRank() const override { return rank; }
    unsigned getSize() const override { return ranks.size; }
    void exchange(std::span<const uint8_t> toNorth,
                  std::span<const uint8_t> toSouth,
                  std::vector<uint8_t> &fromNorth,
                  std::vector<uint8_t> &fromSouth) override {
      ranks.slots[rank][0].assign(toNorth.begin(), toNorth.end());
      ranks.slots[rank][1].assign(toSouth.begin(), toSouth.end());
      ranks.meet();
      fromNorth = rank > 0 ? ranks.slots[rank - 1][1] : std::vector<uint8_t>();
      fromSouth = rank + 1 < ranks.size ? ranks.slots[rank + 1][0]
                                        : std::vector<uint8_t>();
      ranks.meet();
    }
    std::vector<std::vector<uint8_t>>
    allGather(std::span<const uint8_t> mine) override {
      ranks.slots[rank][0].assign(mine.begin(), mine.end());
      ranks.meet();
      std::vector<std::vector<uint8_t>> all;
      for (const auto &slot : ranks.slots)
        all.push_back(slot[0]);
      ranks.meet();
      return all;
    }

  private:
    ThreadRanks &ranks;
    unsigned rank;
  };

private:
  /// Every rank waits here until all have come.
  void meet() {
    std::unique_lock<std::mutex> lock(mutex);
    uint64_t mine = generation;
    if (++arrived == size) {
      arrived = 0;
      ++generation;
      woken.notify_all();
      return;
    }
    woken.wait(lock, [&] { return generation != mine; });
  }

  unsigned size;
  std::vector<std::array<std::vector<uint8_t>, 2>> slots;
  std::mutex mutex;
  std::condition_variable woken;
  unsigned arrived = 0;
  uint64_t generation = 0;
};

std::string readText(const std::string &path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

/// Every core-X-Y.json in `directory`, by name.
std::map<std::string, std::string> readCores(const std::string &directory) {
  std::map<std::string, std::string> files;
  for (const auto &entry : std::filesystem::directory_iterator(directory))
    files[entry.path().filename().string()] = readText(entry.path().string());
  return files;
}

/// A rank's record (as JSON) and core dumps of the sample after its run.
struct Written {
  std::string record;
  std::string error;
};

Written runAndWrite(const LoadedOutput &output, RankLink *link,
                    const std::string &cores) {
  EmulatorOptions options;
  options.record = RecordOptions{};
  options.ranks = link;
  Emulator emulator(output, options);
  emulator.run(100);
  viz::RunRecord record = buildRunRecord(emulator, output);
  Written written;
  written.error =
      writeCoreDumps(emulator, output, "requested", cores, std::nullopt, link);
  std::string path = cores + "-run.json";
  if (!link || link->getRank() == 0) {
    (void)viz::writeRunRecord(record, path);
    written.record = readText(path);
  }
  return written;
}

/// Runs `commands` on an SdkRuntime of `out` on rank 0 of two thread
/// ranks while rank 1 serves, then stops the servers and runs `afterStop`
/// (if any) on the runtime. What `commands` returned; `serverError` is
/// what rank 1 threw.
template <typename Result>
Result
onTwoRanks(const std::string &out,
           const std::function<Result(host::SdkRuntime &)> &commands,
           std::string &serverError,
           const std::function<void(host::SdkRuntime &)> &afterStop = nullptr) {
  ThreadRanks ranks(2);
  ThreadRanks::Link first(ranks, 0), second(ranks, 1);
  std::thread server([&] {
    try {
      host::serveRanks(second);
    } catch (const std::exception &error) {
      serverError = error.what();
    }
  });
  Result result;
  {
    auto servers = std::make_shared<host::RankServers>(first);
    host::RuntimeOptions options;
    options.ranks = servers;
    host::SdkRuntime runtime(out, options);
    result = commands(runtime);
    servers->stop();
    if (afterStop)
      afterStop(runtime);
  }
  server.join();
  return result;
}

} // namespace

TEST_CASE("a scatter gives each rank its own part", "[ranks]") {
  // RankLink's own scatter (a broadcast of every part), which the MPI
  // link replaces with MPI_Scatterv; parts of any size, empty ones too.
  constexpr unsigned Size = 3;
  const std::vector<std::vector<uint8_t>> parts = {{1, 2, 3}, {}, {9}};
  for (unsigned root : {0u, 2u}) {
    ThreadRanks ranks(Size);
    std::array<std::vector<uint8_t>, Size> got;
    std::vector<std::thread> threads;
    for (unsigned r = 0; r < Size; ++r)
      threads.emplace_back([&, r] {
        ThreadRanks::Link link(ranks, r);
        // Only the root's parts count.
        got[r] = link.scatter(
            r == root ? parts
                      : std::vector<std::vector<uint8_t>>{{7, 7}, {7}, {7}},
            root);
      });
    for (std::thread &thread : threads)
      thread.join();
    for (unsigned r = 0; r < Size; ++r)
      CHECK(got[r] == parts[r]);
  }
}

TEST_CASE("every rank knows which rank emulates each row", "[ranks]") {
  TempDir dir;
  makeSample().write(dir.path() + "/out");
  LoadResult loaded = loadOutputDirectory(dir.path() + "/out");
  REQUIRE(loaded);
  unsigned height = loaded.value->layout.getHeight();
  REQUIRE(height >= 2);
  {
    Emulator alone(*loaded.value, EmulatorOptions{});
    for (unsigned y = 0; y <= height; ++y)
      CHECK(alone.getRankOfRow(y) == 0);
  }
  ThreadRanks ranks(2);
  std::array<std::vector<unsigned>, 2> seen;
  std::array<std::vector<bool>, 2> owned;
  std::vector<std::thread> threads;
  for (unsigned r = 0; r < 2; ++r)
    threads.emplace_back([&, r] {
      ThreadRanks::Link link(ranks, r);
      EmulatorOptions options;
      options.ranks = &link;
      Emulator emulator(*loaded.value, options);
      for (unsigned y = 0; y <= height; ++y) {
        seen[r].push_back(emulator.getRankOfRow(y));
        owned[r].push_back(emulator.ownsRow(y));
      }
    });
  for (std::thread &thread : threads)
    thread.join();
  // The same answer on both ranks: the one that owns the row (0 past the
  // last row).
  CHECK(seen[0] == seen[1]);
  for (unsigned y = 0; y < height; ++y) {
    INFO("row " << y);
    CHECK(owned[seen[0][y]][y]);
  }
  CHECK(seen[0][height] == 0);
  CHECK(seen[0].front() == 0);
  CHECK(seen[0][height - 1] == 1);
}

TEST_CASE("a streaming H2D that cannot finish names the same PE on two "
          "ranks",
          "[ranks]") {
  TempDir dir;
  std::string out = dir.path() + "/out";
  makeSample().write(out);
  // No PE takes wavelets on color 20 from its queue, which holds two: each
  // PE takes both of its words, but (3, 1), which runs nothing, takes
  // none. Rank 1's streams must be matched back to their PEs to say so.
  auto feed = [&](host::SdkRuntime &runtime) {
    runtime.load();
    runtime.run();
    std::vector<uint32_t> words(8 * 2, 5);
    std::string message;
    try {
      runtime.memcpyH2DStream(20, words, {0, 0, 4, 2}, 2,
                              host::MemcpyOrder::RowMajor);
    } catch (const host::HostError &error) {
      message = error.what();
    }
    runtime.stop();
    return message;
  };
  host::SdkRuntime alone(out);
  std::string expected = feed(alone);
  CHECK(expected.find("cannot finish: PE (3, 1) took 0 of 2 wavelets and "
                      "takes no more; deadlock") != std::string::npos);

  std::string serverError;
  std::string split = onTwoRanks<std::string>(out, feed, serverError);
  CHECK(serverError.empty());
  // Each rank numbers the wavelets it injects itself.
  std::regex number("wavelet [0-9]+");
  CHECK(std::regex_replace(split, number, "wavelet N") ==
        std::regex_replace(expected, number, "wavelet N"));
}

TEST_CASE("records and core dumps gathered from two ranks equal one "
          "process's",
          "[ranks]") {
  TempDir dir;
  makeSample().write(dir.path() + "/out");
  LoadResult loaded = loadOutputDirectory(dir.path() + "/out");
  REQUIRE(loaded);
  Written one = runAndWrite(*loaded.value, nullptr, dir.path() + "/one");

  ThreadRanks ranks(2);
  ThreadRanks::Link first(ranks, 0), second(ranks, 1);
  LoadResult other = loadOutputDirectory(dir.path() + "/out");
  REQUIRE(other);
  Written secondWritten;
  std::thread server([&] {
    secondWritten = runAndWrite(*other.value, &second, dir.path() + "/two");
  });
  Written firstWritten =
      runAndWrite(*loaded.value, &first, dir.path() + "/two");
  server.join();

  CHECK(one.error.empty());
  CHECK(firstWritten.error.empty());
  CHECK(secondWritten.error.empty());
  CHECK(secondWritten.record.empty()); // rank 0 writes
  CHECK(firstWritten.record == one.record);
  std::map<std::string, std::string> cores = readCores(dir.path() + "/one");
  CHECK(cores.size() == 7); // (3, 1) runs nothing
  CHECK(readCores(dir.path() + "/two") == cores);
}

TEST_CASE("an SdkRuntime on rank 0 reaches the PEs of rank 1", "[ranks]") {
  TempDir dir;
  std::string out = dir.path() + "/out";
  makeSample().write(out);
  // The same commands on one process and on two thread ranks.
  auto commands = [&](host::SdkRuntime &runtime) {
    std::vector<std::string> seen;
    runtime.load();
    runtime.run();
    // (3, 1) runs nothing: the copies take the 3x2 PEs to its west.
    std::vector<uint32_t> words(6 * 4);
    uint32_t buf = runtime.getId("buf");
    runtime.memcpyD2H(words, buf, {0, 0, 3, 2}, 4, host::MemcpyDataType::Bits16,
                      host::MemcpyOrder::RowMajor);
    std::ostringstream text;
    for (uint32_t w : words)
      text << w << ' ';
    seen.push_back(text.str());
    for (size_t i = 0; i < words.size(); ++i)
      words[i] = uint32_t(100 + i);
    runtime.memcpyH2D(buf, words, {0, 0, 3, 2}, 4, host::MemcpyDataType::Bits16,
                      host::MemcpyOrder::ColMajor);
    for (unsigned y = 0; y < 2; ++y)
      for (unsigned x = 0; x < 4; ++x) {
        try {
          std::vector<uint8_t> bytes = runtime.readSymbol(x, y, "buf");
          seen.push_back(std::to_string(bytes[0] | bytes[1] << 8) + " " +
                         std::to_string(bytes[6] | bytes[7] << 8));
        } catch (const host::HostError &error) {
          seen.push_back(error.what());
        }
      }
    try {
      runtime.launch("compute", std::vector<uint32_t>{0});
    } catch (const host::HostError &error) {
      seen.push_back(error.what());
    }
    runtime.stop();
    seen.push_back(std::to_string(runtime.getCycle()));
    return seen;
  };
  host::SdkRuntime alone(out);
  std::vector<std::string> expected = commands(alone);
  REQUIRE(expected.size() == 11);
  // The images' and out.json's values: buf of 'left' starts 1, 2, 3, 4,
  // and (1, 0) gets bytes 7, 8 at byte 2.
  CHECK(expected[0] == "1 2 3 4 0 2055 0 0 0 0 0 0 1 2 3 4 0 0 0 0 0 0 0 0 ");
  // Column-major: element e of PE (c, r) is host word (e * 3 + c) * 2 + r.
  CHECK(expected[1] == "100 118");
  CHECK(expected[8] == "read_symbol: PE (3, 1) has no data named 'buf' (an "
                       "exported symbol, or a global variable of a program "
                       "compiled without -g0)");
  CHECK(expected[9] == "launch: PE (0, 0) ('left') does not import "
                       "<memcpy/memcpy>, so it cannot call "
                       "unblock_cmd_stream()");

  std::string serverError;
  std::vector<std::string> split = onTwoRanks<std::vector<std::string>>(
      out, commands, serverError, [](host::SdkRuntime &runtime) {
        // The servers are gone: what needs them is an error, not a wait.
        CHECK_THROWS_WITH(runtime.readSymbol(0, 1, "buf"),
                          "the other MPI ranks have stopped serving the "
                          "fabric (the host program is ending)");
        CHECK(runtime.readSymbol(0, 0, "buf").size() == 8); // rank 0's row
      });
  CHECK(serverError.empty());
  CHECK(split == expected);
}

namespace {

/// Rank 1 of 2, fed requests one by one; the gathers return its own part
/// twice.
class ScriptedLink final : public RankLink {
public:
  std::deque<std::vector<uint8_t>> requests;
  unsigned getRank() const override { return 1; }
  unsigned getSize() const override { return 2; }
  void exchange(std::span<const uint8_t>, std::span<const uint8_t>,
                std::vector<uint8_t> &fromNorth,
                std::vector<uint8_t> &fromSouth) override {
    fromNorth.clear();
    fromSouth.clear();
  }
  std::vector<std::vector<uint8_t>>
  allGather(std::span<const uint8_t> mine) override {
    return {{mine.begin(), mine.end()}, {mine.begin(), mine.end()}};
  }
  void broadcast(std::vector<uint8_t> &bytes, unsigned) override {
    if (requests.empty())
      throw std::logic_error("the script has no more requests");
    bytes = std::move(requests.front());
    requests.pop_front();
  }
};

std::vector<uint8_t>
request(uint8_t op, uint64_t session,
        const std::function<void(ByteWriter &)> &more = nullptr) {
  ByteWriter out;
  out.put(op);
  out.put(session);
  if (more)
    more(out);
  return out.bytes;
}

std::string serveScript(std::deque<std::vector<uint8_t>> requests) {
  ScriptedLink link;
  link.requests = std::move(requests);
  try {
    host::serveRanks(link);
  } catch (const std::runtime_error &error) {
    return error.what();
  }
  return "";
}

// Op numbers of runtime/host/Requests.h.
constexpr uint8_t Exit = 0, Create = 1, Run = 3, Continue = 4, WriteMemory = 5,
                  Scan = 8, Scattered = 14;

} // namespace

TEST_CASE("a server refuses requests it cannot follow", "[ranks]") {
  CHECK(serveScript({{}}) == "rank 1: a request from rank 0 is cut short");
  CHECK(serveScript({request(250, 0)}) ==
        "rank 1: rank 0 sent request 250, which this rank does not know");
  CHECK(serveScript({request(Continue, 0, [](ByteWriter &w) {
          w.put<uint8_t>(1);
        })}) == "rank 1: rank 0 sent a verdict outside a run");
  CHECK(serveScript({request(WriteMemory, 7,
                             [](ByteWriter &w) { w.put<uint64_t>(0); })}) ==
        "rank 1: rank 0 asked for fabric 7, which this rank does "
        "not have");
  CHECK(serveScript({request(Exit, 0)}).empty());

  // A fabric, then a run whose condition rank 0 answers with a request
  // that only comes between runs.
  TempDir dir;
  makeSample().write(dir.path() + "/out");
  auto create = request(Create, 1, [&](ByteWriter &w) {
    w.putString(dir.path() + "/out");
    w.put(NetworkOptions{});
    w.put(PickerPolicy::RoundRobin);
    w.put(std::optional<uint64_t>());
    w.put(1u);
    w.put(0u);
    w.put(std::optional<RecordOptions>());
    w.put<uint8_t>(0);
  });
  auto run = request(Run, 1, [](ByteWriter &w) {
    w.put<uint64_t>(10);
    w.put<uint8_t>(1);
  });
  CHECK(serveScript({create, run, create}) ==
        "rank 1: rank 0 sent request 1 during a run");
  CHECK(serveScript(
            {create, run,
             request(Continue, 1, [](ByteWriter &w) { w.put<uint8_t>(1); }),
             request(Exit, 0)})
            .empty());
  // Only writes and feeds come scattered.
  CHECK(serveScript(
            {create, request(Scattered, 1,
                             [](ByteWriter &w) { w.put<uint8_t>(Scan); })}) ==
        "rank 1: rank 0 sent request " + std::to_string(unsigned(Scan)) +
            " to scatter, which this rank cannot");
}
