//===- RankServer.cpp - the ranks that serve rank 0's host program --------===//
//
// docs/Scaling.md "Host programs on ranks". Every rank but 0 waits for
// rank 0's requests (Requests.h) and does each on its emulator of the
// session named, in the order rank 0 sends them, so that every collective
// inside the emulators meets. During a run with a condition, the condition
// is rank 0's: between cycles a server answers what it asks until rank 0
// sends its verdict.
//
//===----------------------------------------------------------------------===//

#include "Requests.h"

#include "tessera/Host/Ranks.h"
#include "tessera/Record/CoreDump.h"
#include "tessera/Record/RunRecordBuilder.h"

#include <map>
#include <memory>
#include <ostream>
#include <stdexcept>

using namespace tessera;
using namespace tessera::emulator;
using namespace tessera::host;

RankServers::RankServers(RankLink &link) : link(link) {}

RankServers::~RankServers() { stop(); }

void RankServers::stop() {
  if (stopped)
    return;
  stopped = true;
  ByteWriter request;
  request.put(Op::Exit);
  request.put<uint64_t>(0);
  send(std::move(request.bytes));
}

void RankServers::send(std::vector<uint8_t> request) {
  if (link.getSize() > 1)
    link.broadcast(request, 0);
}

namespace {

/// This rank's part of one SdkRuntime's fabric.
struct Session {
  LoadedOutput output;
  std::ostream discard{nullptr};
  std::unique_ptr<Emulator> emulator;
};

class Server {
public:
  explicit Server(RankLink &link) : link(link) {}

  /// Serves until rank 0 stops.
  void serve() {
    bool stop = false;
    while (serveOne(false, stop))
      ;
  }

private:
  /// Does one request; false once the loop it serves is over (Exit, or
  /// Continue inside a run, which sets `stop` to the verdict).
  bool serveOne(bool inRun, bool &stop);
  void create(uint64_t number, ByteReader &in);
  Session &sessionOf(uint64_t number);
  [[noreturn]] void fail(const std::string &what) {
    throw std::runtime_error("rank " + std::to_string(link.getRank()) + ": " +
                             what);
  }

  RankLink &link;
  std::map<uint64_t, std::unique_ptr<Session>> sessions;
};

Session &Server::sessionOf(uint64_t number) {
  auto it = sessions.find(number);
  if (it == sessions.end())
    fail("rank 0 asked for fabric " + std::to_string(number) +
         ", which this rank does not have");
  return *it->second;
}

void Server::create(uint64_t number, ByteReader &in) {
  CreateRequest request = CreateRequest::read(in);
  LoadResult loaded = loadOutputDirectory(request.directory);
  std::string error = loaded ? "" : loaded.error;
  // Every rank learns whether every other could load it.
  bool all = true;
  for (const std::vector<uint8_t> &one :
       link.allGather(std::span<const uint8_t>(
           reinterpret_cast<const uint8_t *>(error.data()), error.size())))
    all = all && one.empty();
  if (!all)
    return;
  auto session = std::make_unique<Session>();
  session->output = std::move(*loaded.value);
  session->emulator = std::make_unique<Emulator>(
      session->output, request.toOptions(&link, &session->discard));
  sessions[number] = std::move(session);
}

bool Server::serveOne(bool inRun, bool &stop) {
  std::vector<uint8_t> request;
  link.broadcast(request, 0);
  ByteReader in(request);
  auto op = in.get<Op>();
  uint64_t number = in.get<uint64_t>();
  if (!in.isOK())
    fail("a request from rank 0 is cut short");
  if (op > Op::CoreDumps)
    fail("rank 0 sent request " + std::to_string(unsigned(op)) +
         ", which this rank does not know");
  bool protocol =
      op == Op::Exit || op == Op::Create || op == Op::Destroy || op == Op::Run;
  if (inRun && protocol)
    fail("rank 0 sent request " + std::to_string(unsigned(op)) +
         " during a run");
  switch (op) {
  case Op::Exit:
    return false;
  case Op::Create:
    create(number, in);
    return true;
  case Op::Destroy:
    sessions.erase(number);
    return true;
  case Op::Continue:
    if (!inRun)
      fail("rank 0 sent a verdict outside a run");
    stop = in.get<uint8_t>() != 0;
    return false;
  default:
    break;
  }
  Session &session = sessionOf(number);
  Emulator &emulator = *session.emulator;
  ByteWriter answer;
  if (op == Op::Scattered) {
    auto inner = in.get<Op>();
    if (inner != Op::WriteMemory && inner != Op::Feed)
      fail("rank 0 sent request " + std::to_string(unsigned(inner)) +
           " to scatter, which this rank cannot");
    std::vector<uint8_t> part = link.scatter({}, 0);
    ByteReader payload(part);
    answerForRows(inner, emulator, &link, payload, answer);
    link.gather(answer.bytes, 0);
    return true;
  }
  if (answerForRows(op, emulator, &link, in, answer)) {
    link.gather(answer.bytes, 0);
    return true;
  }
  switch (op) {
  case Op::Run: {
    uint64_t maxCycles = in.get<uint64_t>();
    bool conditional = in.get<uint8_t>() != 0;
    std::function<bool()> until;
    if (conditional)
      until = [&] {
        bool verdict = true;
        while (serveOne(true, verdict))
          ;
        return verdict;
      };
    emulator.run(maxCycles, until);
    return true;
  }
  case Op::CaptureColor:
    emulator.captureColor(in.get<uint32_t>());
    return true;
  case Op::Deadlock:
    (void)emulator.getDeadlock();
    return true;
  case Op::Counters:
    (void)emulator.getCounters();
    return true;
  case Op::Record:
    (void)buildRunRecord(emulator, session.output);
    return true;
  case Op::CoreDumps: {
    CoreDumpRequest dumps = CoreDumpRequest::read(in);
    (void)writeCoreDumps(emulator, session.output, dumps.why, dumps.directory,
                         dumps.region, &link);
    return true;
  }
  default: // every Op is handled above
    return true;
  }
}

} // namespace

void host::serveRanks(RankLink &link) { Server(link).serve(); }
