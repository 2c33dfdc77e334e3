//===- Requests.cpp - each rank's answers for the PEs of its rows ---------===//
//
// A request names PEs in a list; a rank answers for those of its rows with
// their indices in the list, so that rank 0 can put every rank's answers
// in place. Formats (after the Op and session):
//
//   WriteMemory     n x {x, y, address, bytes}     -> {i, status}
//   ReadMemory      n x {x, y, address, size}      -> {i, status, bytes}
//   CallAll         task, args, n x {x, y, address} -> first error
//   Scan            test, value, count, region, from, all
//                                                  -> first failing, count
//   Deliver         n x {x, y, wavelet}            -> {i, taken}
//   CapturedCounts  color, n x {x, y}              -> {i, count}
//   TakeCaptured    color, max, n x {x, y}         -> {i, words}
//   Edges           injections n x {x, y, port, wavelet},
//                   polls n x {x, y, port, color}  -> {i, taken}, {i, wavelets}
//   Feed            color, max cycles, elements, n x {x, y, words}
//                                                  -> end, {i, delivered}
//
//===----------------------------------------------------------------------===//

#include "Requests.h"

#include "tessera/Emulator/RankLink.h"
#include "tessera/Host/SdkRuntime.h"

#include <algorithm>
#include <cstring>

using namespace tessera;
using namespace tessera::emulator;
using namespace tessera::host;

namespace {

/// Entries of an answer: the count goes first, once they are all written.
class Entries {
public:
  explicit Entries(ByteWriter &out) : out(out), at(out.bytes.size()) {
    out.put<uint64_t>(0);
  }
  ByteWriter &add(uint64_t index) {
    ++count;
    out.put(index);
    return out;
  }
  ~Entries() { std::memcpy(out.bytes.data() + at, &count, sizeof count); }

private:
  ByteWriter &out;
  size_t at;
  uint64_t count = 0;
};

void answerWrites(Emulator &emulator, ByteReader &in, ByteWriter &out) {
  Entries entries(out);
  for (uint64_t i = 0, n = in.get<uint64_t>(); i < n && in.isOK(); ++i) {
    uint32_t x = in.get<uint32_t>(), y = in.get<uint32_t>();
    uint32_t address = in.get<uint32_t>();
    std::vector<uint8_t> bytes = in.getVector<uint8_t>();
    if (emulator.ownsRow(y))
      entries.add(i).put(emulator.writeMemory(x, y, address, bytes));
  }
}

void answerReads(Emulator &emulator, ByteReader &in, ByteWriter &out) {
  Entries entries(out);
  std::vector<uint8_t> bytes;
  for (uint64_t i = 0, n = in.get<uint64_t>(); i < n && in.isOK(); ++i) {
    uint32_t x = in.get<uint32_t>(), y = in.get<uint32_t>();
    uint32_t address = in.get<uint32_t>();
    uint64_t size = in.get<uint64_t>();
    if (!emulator.ownsRow(y) || !in.isOK())
      continue;
    bytes.assign(std::min<uint64_t>(size, pe::MemoryBytes), 0);
    MemoryStatus status = emulator.readMemory(x, y, address, bytes);
    if (size > pe::MemoryBytes)
      status = MemoryStatus::OutOfRange;
    entries.add(i).put(status);
    out.putVector(bytes);
  }
}

/// Each rank's targets in order, up to its first error, as one process
/// goes through all of them.
void answerCalls(Emulator &emulator, ByteReader &in, ByteWriter &out) {
  uint32_t task = in.get<uint32_t>();
  std::vector<uint32_t> args = in.getVector<uint32_t>();
  for (uint64_t i = 0, n = in.get<uint64_t>(); i < n && in.isOK(); ++i) {
    uint32_t x = in.get<uint32_t>(), y = in.get<uint32_t>();
    uint32_t address = in.get<uint32_t>();
    if (!emulator.ownsRow(y))
      continue;
    emulator.setTaskBlocked(x, y, task, true);
    std::string error;
    if (!emulator.call(x, y, address, args, error)) {
      out.put<uint8_t>(1);
      out.put(i);
      out.putString(error);
      return;
    }
  }
  out.put<uint8_t>(0);
}

bool passes(Emulator &emulator, PETest test, uint32_t value, uint64_t count,
            unsigned x, unsigned y) {
  switch (test) {
  case PETest::MainThreadIdle:
    return emulator.isMainThreadIdle(x, y);
  case PETest::TaskUnblocked:
    return !emulator.isTaskBlocked(x, y, value);
  case PETest::CapturedAtLeast:
    return emulator.getCapturedCount(x, y, value) >= count;
  }
  return false;
}

/// The first PE of the region, in row order from index `from`, of this
/// rank's rows that fails the test (the region's size if none), and, if
/// asked, how many of them fail.
void answerScan(Emulator &emulator, ByteReader &in, ByteWriter &out) {
  auto test = in.get<PETest>();
  uint32_t value = in.get<uint32_t>();
  uint64_t count = in.get<uint64_t>();
  int64_t x0 = in.get<int64_t>(), y0 = in.get<int64_t>();
  int64_t w = in.get<int64_t>(), h = in.get<int64_t>();
  uint64_t from = in.get<uint64_t>();
  bool all = in.get<uint8_t>();
  uint64_t size = in.isOK() && w > 0 && h > 0 ? uint64_t(w) * uint64_t(h) : 0;
  uint64_t first = size, failing = 0;
  for (uint64_t r = from / std::max<int64_t>(w, 1); r < uint64_t(h); ++r) {
    unsigned y = unsigned(y0 + int64_t(r));
    if (!emulator.ownsRow(y))
      continue;
    for (uint64_t c = 0; c < uint64_t(w); ++c) {
      uint64_t index = r * uint64_t(w) + c;
      if (index < from ||
          passes(emulator, test, value, count, unsigned(x0 + int64_t(c)), y))
        continue;
      first = std::min(first, index);
      ++failing;
      if (!all)
        break;
    }
    if (!all && first < size)
      break;
  }
  out.put(first);
  out.put(failing);
}

void answerDeliveries(Emulator &emulator, ByteReader &in, ByteWriter &out) {
  Entries entries(out);
  for (uint64_t i = 0, n = in.get<uint64_t>(); i < n && in.isOK(); ++i) {
    uint32_t x = in.get<uint32_t>(), y = in.get<uint32_t>();
    Wavelet wavelet = in.get<Wavelet>();
    if (emulator.ownsRow(y))
      entries.add(i).put<uint8_t>(emulator.deliver(x, y, wavelet));
  }
}

void answerCapturedCounts(Emulator &emulator, ByteReader &in, ByteWriter &out) {
  Entries entries(out);
  uint32_t color = in.get<uint32_t>();
  for (uint64_t i = 0, n = in.get<uint64_t>(); i < n && in.isOK(); ++i) {
    uint32_t x = in.get<uint32_t>(), y = in.get<uint32_t>();
    if (emulator.ownsRow(y))
      entries.add(i).put<uint64_t>(emulator.getCapturedCount(x, y, color));
  }
}

void answerTakeCaptured(Emulator &emulator, ByteReader &in, ByteWriter &out) {
  Entries entries(out);
  uint32_t color = in.get<uint32_t>();
  uint64_t max = in.get<uint64_t>();
  for (uint64_t i = 0, n = in.get<uint64_t>(); i < n && in.isOK(); ++i) {
    uint32_t x = in.get<uint32_t>(), y = in.get<uint32_t>();
    if (emulator.ownsRow(y))
      entries.add(i).putVector(emulator.takeCaptured(x, y, color, max));
  }
}

void answerEdges(Emulator &emulator, ByteReader &in, ByteWriter &out) {
  {
    Entries entries(out);
    for (uint64_t i = 0, n = in.get<uint64_t>(); i < n && in.isOK(); ++i) {
      uint32_t x = in.get<uint32_t>(), y = in.get<uint32_t>();
      auto port = in.get<pe::Port>();
      Wavelet wavelet = in.get<Wavelet>();
      if (emulator.ownsRow(y))
        entries.add(i).put<uint8_t>(
            emulator.getNetworkForRow(y).injectAtEdge(x, y, port, wavelet));
    }
  }
  Entries entries(out);
  for (uint64_t i = 0, n = in.get<uint64_t>(); i < n && in.isOK(); ++i) {
    uint32_t x = in.get<uint32_t>(), y = in.get<uint32_t>();
    auto port = in.get<pe::Port>();
    uint8_t color = in.get<uint8_t>();
    if (!emulator.ownsRow(y))
      continue;
    std::vector<Wavelet> polled;
    Network &network = emulator.getNetworkForRow(y);
    while (std::optional<Wavelet> w = network.pollEdgeExit(x, y, port, color))
      polled.push_back(*w);
    entries.add(i).putVector(polled);
  }
}

/// Streaming H2D (docs/HostRuntime.md "Streaming mode"): every cycle each
/// PE of the request not yet done is offered its next word, and the device
/// runs a cycle. Each rank feeds its own PEs and the ranks only agree,
/// once a cycle, whether any word went in and whether any is left, which
/// is what ends the feed: done, or stuck when a cycle took no word and the
/// device did not run its full cycle, or ran out of cycles.
void answerFeed(Emulator &emulator, RankLink *ranks, ByteReader &in,
                ByteWriter &out) {
  uint8_t color = uint8_t(in.get<uint32_t>());
  uint64_t maxCycles = in.get<uint64_t>();
  uint64_t elements = in.get<uint64_t>();
  struct Feed {
    uint64_t index;
    unsigned x, y;
    std::vector<uint32_t> words;
    uint64_t next = 0;
  };
  std::vector<Feed> feeds;
  for (uint64_t i = 0, n = in.get<uint64_t>(); i < n && in.isOK(); ++i) {
    uint32_t x = in.get<uint32_t>(), y = in.get<uint32_t>();
    std::vector<uint32_t> words = in.getVector<uint32_t>();
    if (emulator.ownsRow(y) && words.size() == elements)
      feeds.push_back({i, x, y, std::move(words)});
  }
  FeedEnd end = FeedEnd::Done;
  for (uint64_t cycles = 0;;) {
    uint8_t mine[2] = {0, 0}; // a word went in, words are left
    for (Feed &feed : feeds) {
      if (feed.next == elements)
        continue;
      Wavelet wavelet{feed.words[feed.next], color, false, 0};
      if (emulator.deliver(feed.x, feed.y, wavelet)) {
        ++feed.next;
        mine[0] = 1;
      }
      mine[1] |= feed.next < elements;
    }
    uint8_t delivered = mine[0], pending = mine[1];
    if (ranks)
      for (const std::vector<uint8_t> &one : ranks->allGather(mine)) {
        delivered |= one.size() == 2 && one[0];
        pending |= one.size() == 2 && one[1];
      }
    if (!pending)
      break;
    RunOutcome outcome = emulator.run(1);
    ++cycles;
    if (outcome.status == RunStatus::Faulted) {
      end = FeedEnd::Faulted;
      break;
    }
    bool stuck = !delivered && outcome.status != RunStatus::CycleLimit;
    if (stuck || cycles > maxCycles) {
      end = FeedEnd::Stuck;
      break;
    }
  }
  out.put(end);
  Entries entries(out);
  for (const Feed &feed : feeds)
    entries.add(feed.index).put(feed.next);
}

} // namespace

void CreateRequest::write(ByteWriter &out) const {
  out.putString(directory);
  out.put(network);
  out.put(picker);
  out.put(shuffleSeed);
  out.put(threads);
  out.put(bands);
  out.put(record);
  out.put<uint8_t>(traced);
}

CreateRequest CreateRequest::read(ByteReader &in) {
  CreateRequest request;
  request.directory = in.getString();
  request.network = in.get<NetworkOptions>();
  request.picker = in.get<PickerPolicy>();
  request.shuffleSeed = in.get<std::optional<uint64_t>>();
  request.threads = in.get<unsigned>();
  request.bands = in.get<unsigned>();
  request.record = in.get<std::optional<RecordOptions>>();
  request.traced = in.get<uint8_t>();
  return request;
}

EmulatorOptions CreateRequest::toOptions(RankLink *ranks,
                                         std::ostream *discard) const {
  EmulatorOptions options;
  options.network = network;
  options.picker = picker;
  options.shuffleSeed = shuffleSeed;
  options.threads = threads;
  options.bands = bands;
  options.record = record;
  // Trace lines are gathered on every rank and written by rank 0.
  options.trace = traced ? discard : nullptr;
  options.ranks = ranks;
  return options;
}

void CoreDumpRequest::write(ByteWriter &out) const {
  out.putString(why);
  out.putString(directory);
  out.put(region);
}

CoreDumpRequest CoreDumpRequest::read(ByteReader &in) {
  CoreDumpRequest request;
  request.why = in.getString();
  request.directory = in.getString();
  request.region = in.get<std::optional<std::array<uint64_t, 4>>>();
  return request;
}

bool host::answerForRows(Op op, Emulator &emulator, RankLink *ranks,
                         ByteReader &in, ByteWriter &out) {
  switch (op) {
  case Op::Feed:
    answerFeed(emulator, ranks, in, out);
    return true;
  case Op::WriteMemory:
    answerWrites(emulator, in, out);
    return true;
  case Op::ReadMemory:
    answerReads(emulator, in, out);
    return true;
  case Op::CallAll:
    answerCalls(emulator, in, out);
    return true;
  case Op::Scan:
    answerScan(emulator, in, out);
    return true;
  case Op::Deliver:
    answerDeliveries(emulator, in, out);
    return true;
  case Op::CapturedCounts:
    answerCapturedCounts(emulator, in, out);
    return true;
  case Op::TakeCaptured:
    answerTakeCaptured(emulator, in, out);
    return true;
  case Op::Edges:
    answerEdges(emulator, in, out);
    return true;
  default:
    return false;
  }
}
