//===- Device.h - the fabric the host drives, here or on ranks --*- C++ -*-===//
//
// SdkRuntime asks the fabric for what its commands need through a Device
// (docs/HostRuntime.md): one emulator in this process or, with ranks
// (docs/Scaling.md "Host programs on ranks"), rank 0's rows here and every
// other rank's on that rank. Each call is a request in bytes (Requests.h):
// with ranks rank 0 broadcasts it, every rank answers for the PEs of its
// rows and rank 0 gathers the answers; alone, this process answers it. So
// one code path serves both. Calls name PEs in lists, so that a command
// costs a few messages rather than one per PE. Internal.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_HOST_DEVICE_H
#define TESSERA_HOST_DEVICE_H

#include "Requests.h"

#include "tessera/Emulator/Emulator.h"
#include "tessera/Host/Ranks.h"
#include "tessera/Host/SdkRuntime.h"
#include "tessera/Viz/RunRecord.h"

#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace tessera::host {

/// Bytes of a PE's memory to write, or to read into.
struct MemoryPiece {
  unsigned x = 0, y = 0;
  uint32_t address = 0;
  std::vector<uint8_t> bytes;
};

struct CallTarget {
  unsigned x = 0, y = 0;
  uint32_t address = 0;
};

/// The PEs of `region` (row order) that a scan tests.
struct Scan {
  Region region;
  PETest test = PETest::MainThreadIdle;
  uint32_t value = 0; ///< the task, or the color
  uint64_t count = 0; ///< wavelets, for CapturedAtLeast
};

struct Delivery {
  unsigned x = 0, y = 0;
  emulator::Wavelet wavelet;
};

/// A PE's words for a streaming H2D.
struct Feed {
  unsigned x = 0, y = 0;
  std::vector<uint32_t> words;
};

struct EdgeInjection {
  unsigned x = 0, y = 0;
  pe::Port port = pe::Port::West;
  emulator::Wavelet wavelet;
};

struct EdgePoll {
  unsigned x = 0, y = 0;
  pe::Port port = pe::Port::West;
  uint8_t color = 0;
};

class Device {
public:
  /// Builds the emulator of `output` (which must outlive the device). With
  /// `servers`, every rank builds its rows' (HostError if a rank cannot
  /// load the output directory).
  Device(const emulator::LoadedOutput &output,
         emulator::EmulatorOptions options,
         std::shared_ptr<RankServers> servers);
  ~Device();
  Device(const Device &) = delete;
  Device &operator=(const Device &) = delete;

  /// Emulator::run. With ranks, `until` runs on rank 0 between cycles while
  /// the other ranks answer what it asks.
  emulator::RunOutcome run(uint64_t maxCycles,
                           const std::function<bool()> &until = nullptr);
  /// What every rank agrees on, known here.
  uint64_t getCycle() const { return emulator->getCycle(); }
  const std::optional<emulator::PEFault> &getFault() const {
    return emulator->getFault();
  }
  const std::vector<emulator::PrintedLine> &getPrintedLines() const {
    return emulator->getPrintedLines();
  }
  /// This process's emulator (with ranks, rank 0's rows).
  const emulator::Emulator &getEmulator() const { return *emulator; }

  emulator::DeadlockReport getDeadlock();
  emulator::PECounters getCounters();
  /// The run record of the whole fabric (docs/RunRecord.md).
  viz::RunRecord buildRecord();
  /// writeCoreDumps over the whole fabric: the first problem, or "".
  std::string writeCoreDumps(const CoreDumpRequest &request);
  void captureColor(unsigned color);

  /// The index of the first piece that could not be written or read, or
  /// the number of pieces.
  size_t writeMemory(std::span<const MemoryPiece> pieces);
  size_t readMemory(std::span<MemoryPiece> pieces);
  /// Blocks task `task` on every target and queues a call of its address
  /// with `args`; the first target that refused, and why.
  std::optional<std::pair<size_t, std::string>>
  callAll(std::span<const CallTarget> targets, unsigned task,
          std::span<const uint32_t> args);
  /// The index (row order) of the first PE from `from` that fails the
  /// scan's test, or the region's size.
  uint64_t findFirstFailing(const Scan &scan, uint64_t from);
  uint64_t countFailing(const Scan &scan);
  /// Streaming H2D: each cycle offers every PE its next word and runs the
  /// device a cycle, until all are in, the device faults, or a cycle takes
  /// no word while the device has nothing to run (or after `maxCycles`).
  /// `delivered` receives each PE's words taken. Every rank feeds its own
  /// PEs.
  FeedEnd feed(unsigned color, std::span<const Feed> feeds, uint64_t elements,
               uint64_t maxCycles, std::vector<uint64_t> &delivered);
  /// Emulator::deliver of each; whether each was taken.
  std::vector<uint8_t> deliver(std::span<const Delivery> deliveries);
  std::vector<uint64_t>
  getCapturedCounts(std::span<const emulator::PECoord> pes, unsigned color);
  std::vector<std::vector<uint32_t>>
  takeCaptured(std::span<const emulator::PECoord> pes, unsigned color,
               size_t max);
  /// Network::injectAtEdge of each injection (whether each was taken) and
  /// every wavelet waiting at each poll's edge exit.
  void serviceEdges(std::span<const EdgeInjection> injections,
                    std::span<const EdgePoll> polls,
                    std::vector<uint8_t> &injected,
                    std::vector<std::vector<emulator::Wavelet>> &polled);

private:
  /// Every rank's answer to request `op` with `payload` (rank 0's alone
  /// when `local`, or without ranks).
  std::vector<std::vector<uint8_t>>
  ask(Op op, const emulator::ByteWriter &payload, bool local);
  /// ask() for a request of `items` entries: `header`, the count, then
  /// each entry (`put`). Without ranks, or when `local`, sent whole (entry
  /// i of an answer is item i, and itemsOfRank is left empty); else each
  /// rank receives only the items in its rows (`rowOf`; RankLink::scatter),
  /// and entry i of rank r's answer is item itemsOfRank[r][i].
  std::vector<std::vector<uint8_t>>
  askItems(Op op, const emulator::ByteWriter &header, size_t items, bool local,
           const std::function<unsigned(size_t)> &rowOf,
           const std::function<void(emulator::ByteWriter &, size_t)> &put,
           std::vector<std::vector<uint64_t>> &itemsOfRank);
  /// Tells the other ranks (if any) to do `op` too.
  void tell(Op op, const emulator::ByteWriter &payload);
  /// Rank 0 emulates row `y` (or every row of `region`); always alone.
  bool isMine(unsigned y) const;
  bool isMine(const Region &region) const;

  const emulator::LoadedOutput &output;
  std::shared_ptr<RankServers> servers;
  uint64_t session = 0;
  std::unique_ptr<emulator::Emulator> emulator;
};

} // namespace tessera::host

#endif // TESSERA_HOST_DEVICE_H
