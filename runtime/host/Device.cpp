//===- Device.cpp - requests to the fabric, from rank 0 or alone ----------===//
//
// Rank 0's side of docs/Scaling.md "Host programs on ranks", and the whole
// of it without ranks: a request is answered here by answerForRows and,
// with ranks, by every other rank too, and the answers are put together in
// the order of the request. A request whose PEs all lie in rank 0's rows
// is answered here alone, without a message.
//
//===----------------------------------------------------------------------===//

#include "Device.h"

#include "tessera/Record/CoreDump.h"
#include "tessera/Record/RunRecordBuilder.h"

#include <algorithm>
#include <filesystem>

using namespace tessera;
using namespace tessera::emulator;
using namespace tessera::host;

namespace {

/// Calls `each(index, reader)` for every entry of every rank's answer.
template <typename Each>
void forEntries(const std::vector<std::vector<uint8_t>> &parts, Each each) {
  for (const std::vector<uint8_t> &part : parts) {
    ByteReader in(part);
    for (uint64_t n = in.get<uint64_t>(); n > 0 && in.isOK(); --n)
      each(in.get<uint64_t>(), in);
  }
}

/// The item that entry `entry` of rank `rank`'s answer is about: the entry
/// number itself for a request sent whole (no `itemsOfRank`), else as
/// Device::askItems numbered it; UINT64_MAX for no item.
uint64_t itemOf(const std::vector<std::vector<uint64_t>> &itemsOfRank,
                size_t rank, uint64_t entry) {
  if (itemsOfRank.empty())
    return entry;
  if (rank >= itemsOfRank.size() || entry >= itemsOfRank[rank].size())
    return UINT64_MAX;
  return itemsOfRank[rank][entry];
}

void putPE(ByteWriter &out, unsigned x, unsigned y) {
  out.put<uint32_t>(x);
  out.put<uint32_t>(y);
}

} // namespace

Device::Device(const LoadedOutput &output, EmulatorOptions options,
               std::shared_ptr<RankServers> ranks)
    : output(output) {
  if (ranks && ranks->getSize() > 1)
    servers = std::move(ranks);
  if (servers) {
    session = servers->newSession();
    CreateRequest request;
    std::error_code ignored;
    request.directory =
        std::filesystem::absolute(output.directory, ignored).string();
    request.network = options.network;
    request.picker = options.picker;
    request.shuffleSeed = options.shuffleSeed;
    request.threads = options.threads;
    request.bands = options.bands;
    request.record = options.record;
    request.traced = options.trace != nullptr;
    ByteWriter payload;
    request.write(payload);
    tell(Op::Create, payload);
    // Each server loads the directory itself; if one cannot, all drop the
    // session before the emulators, whose first exchange needs every rank.
    RankLink &link = servers->getLink();
    std::vector<std::vector<uint8_t>> errors = link.allGather({});
    for (size_t r = 1; r < errors.size(); ++r)
      if (!errors[r].empty())
        throw HostError("load: rank " + std::to_string(r) +
                        " cannot load the output directory: " +
                        std::string(errors[r].begin(), errors[r].end()));
    options.ranks = &link;
  } else {
    options.ranks = nullptr;
  }
  emulator = std::make_unique<Emulator>(output, std::move(options));
}

Device::~Device() {
  if (servers && !servers->isStopped())
    tell(Op::Destroy, ByteWriter());
}

void Device::tell(Op op, const ByteWriter &payload) {
  if (!servers)
    return;
  if (servers->isStopped())
    throw HostError("the other MPI ranks have stopped serving the fabric "
                    "(the host program is ending)");
  ByteWriter request;
  request.put(op);
  request.put(session);
  request.bytes.insert(request.bytes.end(), payload.bytes.begin(),
                       payload.bytes.end());
  servers->send(std::move(request.bytes));
}

std::vector<std::vector<uint8_t>> Device::ask(Op op, const ByteWriter &payload,
                                              bool local) {
  bool alone = !servers || local;
  if (!alone)
    tell(op, payload);
  ByteReader in(payload.bytes);
  ByteWriter mine;
  answerForRows(op, *emulator, servers ? &servers->getLink() : nullptr, in,
                mine);
  if (alone)
    return {std::move(mine.bytes)};
  return servers->getLink().gather(mine.bytes, 0);
}

std::vector<std::vector<uint8_t>>
Device::askItems(Op op, const ByteWriter &header, size_t items, bool local,
                 const std::function<unsigned(size_t)> &rowOf,
                 const std::function<void(ByteWriter &, size_t)> &put,
                 std::vector<std::vector<uint64_t>> &itemsOfRank) {
  itemsOfRank.clear();
  if (!servers || local) {
    ByteWriter payload = header;
    payload.put<uint64_t>(items);
    for (size_t i = 0; i < items; ++i)
      put(payload, i);
    return ask(op, payload, local);
  }
  RankLink &link = servers->getLink();
  // A PE outside the rectangle goes to rank 0, which finds no PE there.
  itemsOfRank.assign(link.getSize(), {});
  for (size_t i = 0; i < items; ++i)
    itemsOfRank[std::min(emulator->getRankOfRow(rowOf(i)), link.getSize() - 1)]
        .push_back(i);
  std::vector<std::vector<uint8_t>> parts;
  for (const std::vector<uint64_t> &mine : itemsOfRank) {
    ByteWriter part;
    part.bytes = header.bytes;
    part.put<uint64_t>(mine.size());
    for (uint64_t i : mine)
      put(part, i);
    parts.push_back(std::move(part.bytes));
  }
  ByteWriter inner;
  inner.put(op);
  tell(Op::Scattered, inner);
  std::vector<uint8_t> own = link.scatter(parts, 0);
  ByteReader in(own);
  ByteWriter answer;
  answerForRows(op, *emulator, &link, in, answer);
  return link.gather(answer.bytes, 0);
}

bool Device::isMine(unsigned y) const {
  return !servers || emulator->ownsRow(y);
}

RunOutcome Device::run(uint64_t maxCycles, const std::function<bool()> &until) {
  if (!servers)
    return emulator->run(maxCycles, until);
  ByteWriter payload;
  payload.put(maxCycles);
  payload.put<uint8_t>(until != nullptr);
  tell(Op::Run, payload);
  // The other ranks wait between cycles for what the condition asks and
  // then for its verdict, which every rank's run() takes.
  std::exception_ptr failure;
  std::function<bool()> check;
  if (until)
    check = [&] {
      bool stop = true;
      if (!failure) {
        try {
          stop = until();
        } catch (...) {
          failure = std::current_exception();
        }
      }
      ByteWriter verdict;
      verdict.put<uint8_t>(stop);
      tell(Op::Continue, verdict);
      return stop;
    };
  RunOutcome outcome = emulator->run(maxCycles, check);
  if (failure)
    std::rethrow_exception(failure);
  return outcome;
}

DeadlockReport Device::getDeadlock() {
  tell(Op::Deadlock, ByteWriter());
  return emulator->getDeadlock();
}

PECounters Device::getCounters() {
  tell(Op::Counters, ByteWriter());
  return emulator->getCounters();
}

viz::RunRecord Device::buildRecord() {
  tell(Op::Record, ByteWriter());
  return buildRunRecord(*emulator, output);
}

std::string Device::writeCoreDumps(const CoreDumpRequest &request) {
  ByteWriter payload;
  request.write(payload);
  tell(Op::CoreDumps, payload);
  return tessera::writeCoreDumps(*emulator, output, request.why,
                                 request.directory, request.region,
                                 servers ? &servers->getLink() : nullptr);
}

void Device::captureColor(unsigned color) {
  ByteWriter payload;
  payload.put<uint32_t>(color);
  tell(Op::CaptureColor, payload);
  emulator->captureColor(color);
}

size_t Device::writeMemory(std::span<const MemoryPiece> pieces) {
  bool local = true;
  for (const MemoryPiece &piece : pieces)
    local = local && isMine(piece.y);
  std::vector<MemoryStatus> status(pieces.size(), MemoryStatus::OutOfRange);
  auto put = [&](ByteWriter &out, size_t i) {
    putPE(out, pieces[i].x, pieces[i].y);
    out.put(pieces[i].address);
    out.putVector(pieces[i].bytes);
  };
  std::vector<std::vector<uint64_t>> itemsOfRank;
  std::vector<std::vector<uint8_t>> answers = askItems(
      Op::WriteMemory, ByteWriter(), pieces.size(), local,
      [&](size_t i) { return pieces[i].y; }, put, itemsOfRank);
  for (size_t r = 0; r < answers.size(); ++r)
    forEntries({answers[r]}, [&](uint64_t entry, ByteReader &in) {
      MemoryStatus s = in.get<MemoryStatus>();
      uint64_t i = itemOf(itemsOfRank, r, entry);
      if (i < status.size())
        status[i] = s;
    });
  return std::find_if(status.begin(), status.end(),
                      [](MemoryStatus s) { return s != MemoryStatus::Ok; }) -
         status.begin();
}

size_t Device::readMemory(std::span<MemoryPiece> pieces) {
  ByteWriter payload;
  payload.put<uint64_t>(pieces.size());
  bool local = true;
  for (const MemoryPiece &piece : pieces) {
    putPE(payload, piece.x, piece.y);
    payload.put(piece.address);
    payload.put<uint64_t>(piece.bytes.size());
    local = local && isMine(piece.y);
  }
  std::vector<MemoryStatus> status(pieces.size(), MemoryStatus::OutOfRange);
  forEntries(ask(Op::ReadMemory, payload, local),
             [&](uint64_t i, ByteReader &in) {
               MemoryStatus s = in.get<MemoryStatus>();
               std::vector<uint8_t> bytes = in.getVector<uint8_t>();
               if (i >= status.size() || bytes.size() != pieces[i].bytes.size())
                 return;
               status[i] = s;
               pieces[i].bytes = std::move(bytes);
             });
  return std::find_if(status.begin(), status.end(),
                      [](MemoryStatus s) { return s != MemoryStatus::Ok; }) -
         status.begin();
}

std::optional<std::pair<size_t, std::string>>
Device::callAll(std::span<const CallTarget> targets, unsigned task,
                std::span<const uint32_t> args) {
  ByteWriter payload;
  payload.put<uint32_t>(task);
  payload.putVector(args);
  payload.put<uint64_t>(targets.size());
  bool local = true;
  for (const CallTarget &target : targets) {
    putPE(payload, target.x, target.y);
    payload.put(target.address);
    local = local && isMine(target.y);
  }
  std::optional<std::pair<size_t, std::string>> first;
  for (const std::vector<uint8_t> &part : ask(Op::CallAll, payload, local)) {
    ByteReader in(part);
    if (!in.get<uint8_t>())
      continue;
    uint64_t index = in.get<uint64_t>();
    std::string error = in.getString();
    if (!first || index < first->first)
      first = {index, std::move(error)};
  }
  return first;
}

namespace {

ByteWriter scanPayload(const Scan &scan, uint64_t from, bool all) {
  ByteWriter payload;
  payload.put(scan.test);
  payload.put(scan.value);
  payload.put(scan.count);
  payload.put(scan.region.x);
  payload.put(scan.region.y);
  payload.put(scan.region.width);
  payload.put(scan.region.height);
  payload.put(from);
  payload.put<uint8_t>(all);
  return payload;
}

} // namespace

bool Device::isMine(const Region &region) const {
  for (int64_t r = 0; r < region.height; ++r)
    if (!isMine(unsigned(region.y + r)))
      return false;
  return true;
}

uint64_t Device::findFirstFailing(const Scan &scan, uint64_t from) {
  uint64_t first = UINT64_MAX;
  for (const std::vector<uint8_t> &part :
       ask(Op::Scan, scanPayload(scan, from, false), isMine(scan.region))) {
    ByteReader in(part);
    first = std::min(first, in.get<uint64_t>());
  }
  return first;
}

uint64_t Device::countFailing(const Scan &scan) {
  uint64_t failing = 0;
  for (const std::vector<uint8_t> &part :
       ask(Op::Scan, scanPayload(scan, 0, true), isMine(scan.region))) {
    ByteReader in(part);
    in.get<uint64_t>();
    failing += in.get<uint64_t>();
  }
  return failing;
}

FeedEnd Device::feed(unsigned color, std::span<const Feed> feeds,
                     uint64_t elements, uint64_t maxCycles,
                     std::vector<uint64_t> &delivered) {
  ByteWriter header;
  header.put<uint32_t>(color);
  header.put(maxCycles);
  header.put(elements);
  auto put = [&](ByteWriter &out, size_t i) {
    putPE(out, feeds[i].x, feeds[i].y);
    out.putVector(feeds[i].words);
  };
  // Never alone: every rank runs the device. With ranks each receives
  // only the words of its rows.
  std::vector<std::vector<uint64_t>> itemsOfRank;
  std::vector<std::vector<uint8_t>> answers = askItems(
      Op::Feed, header, feeds.size(), false,
      [&](size_t i) { return feeds[i].y; }, put, itemsOfRank);
  delivered.assign(feeds.size(), 0);
  FeedEnd end = FeedEnd::Done;
  for (size_t r = 0; r < answers.size(); ++r) {
    ByteReader in(answers[r]);
    end = in.get<FeedEnd>(); // the same on every rank
    for (uint64_t n = in.get<uint64_t>(); n > 0 && in.isOK(); --n) {
      uint64_t i = itemOf(itemsOfRank, r, in.get<uint64_t>());
      uint64_t next = in.get<uint64_t>();
      if (i < delivered.size())
        delivered[i] = next;
    }
  }
  return end;
}

std::vector<uint8_t> Device::deliver(std::span<const Delivery> deliveries) {
  ByteWriter payload;
  payload.put<uint64_t>(deliveries.size());
  bool local = true;
  for (const Delivery &d : deliveries) {
    putPE(payload, d.x, d.y);
    payload.put(d.wavelet);
    local = local && isMine(d.y);
  }
  std::vector<uint8_t> taken(deliveries.size(), 0);
  forEntries(ask(Op::Deliver, payload, local), [&](uint64_t i, ByteReader &in) {
    uint8_t ok = in.get<uint8_t>();
    if (i < taken.size())
      taken[i] = ok;
  });
  return taken;
}

std::vector<uint64_t> Device::getCapturedCounts(std::span<const PECoord> pes,
                                                unsigned color) {
  ByteWriter payload;
  payload.put<uint32_t>(color);
  payload.put<uint64_t>(pes.size());
  bool local = true;
  for (PECoord pe : pes) {
    putPE(payload, pe.x, pe.y);
    local = local && isMine(pe.y);
  }
  std::vector<uint64_t> counts(pes.size(), 0);
  forEntries(ask(Op::CapturedCounts, payload, local),
             [&](uint64_t i, ByteReader &in) {
               uint64_t count = in.get<uint64_t>();
               if (i < counts.size())
                 counts[i] = count;
             });
  return counts;
}

std::vector<std::vector<uint32_t>>
Device::takeCaptured(std::span<const PECoord> pes, unsigned color, size_t max) {
  ByteWriter payload;
  payload.put<uint32_t>(color);
  payload.put<uint64_t>(max);
  payload.put<uint64_t>(pes.size());
  bool local = true;
  for (PECoord pe : pes) {
    putPE(payload, pe.x, pe.y);
    local = local && isMine(pe.y);
  }
  std::vector<std::vector<uint32_t>> words(pes.size());
  forEntries(ask(Op::TakeCaptured, payload, local),
             [&](uint64_t i, ByteReader &in) {
               std::vector<uint32_t> taken = in.getVector<uint32_t>();
               if (i < words.size())
                 words[i] = std::move(taken);
             });
  return words;
}

void Device::serviceEdges(std::span<const EdgeInjection> injections,
                          std::span<const EdgePoll> polls,
                          std::vector<uint8_t> &injected,
                          std::vector<std::vector<Wavelet>> &polled) {
  ByteWriter payload;
  bool local = true;
  payload.put<uint64_t>(injections.size());
  for (const EdgeInjection &e : injections) {
    putPE(payload, e.x, e.y);
    payload.put(e.port);
    payload.put(e.wavelet);
    local = local && isMine(e.y);
  }
  payload.put<uint64_t>(polls.size());
  for (const EdgePoll &p : polls) {
    putPE(payload, p.x, p.y);
    payload.put(p.port);
    payload.put(p.color);
    local = local && isMine(p.y);
  }
  injected.assign(injections.size(), 0);
  polled.assign(polls.size(), {});
  for (const std::vector<uint8_t> &part : ask(Op::Edges, payload, local)) {
    ByteReader in(part);
    for (uint64_t n = in.get<uint64_t>(); n > 0 && in.isOK(); --n) {
      uint64_t i = in.get<uint64_t>();
      uint8_t ok = in.get<uint8_t>();
      if (i < injected.size())
        injected[i] = ok;
    }
    for (uint64_t n = in.get<uint64_t>(); n > 0 && in.isOK(); --n) {
      uint64_t i = in.get<uint64_t>();
      std::vector<Wavelet> wavelets = in.getVector<Wavelet>();
      if (i < polled.size())
        polled[i] = std::move(wavelets);
    }
  }
}
