//===- SdkRuntime.h - the host side of a compiled program -------*- C++ -*-===//
//
// The SdkRuntime surface of csl-reference.md section 5 over the emulator
// (docs/HostRuntime.md): load a `cslc -o` directory, then copy data in and
// out of exported symbols and launch exported functions, in issue order.
// Every misuse and every device failure throws HostError with a message
// that says what is wrong; nothing hangs (the device's cycles are bounded).
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_HOST_SDKRUNTIME_H
#define TESSERA_HOST_SDKRUNTIME_H

#include "tessera/Emulator/Emulator.h"

#include <array>
#include <cstdint>
#include <optional>
#include <memory>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace tessera::host {

class RankServers;

/// Every error the host API reports.
class HostError : public std::runtime_error {
public:
  using std::runtime_error::runtime_error;
};

enum class MemcpyDataType : uint8_t { Bits16, Bits32 };
enum class MemcpyOrder : uint8_t { RowMajor, ColMajor };

/// A rectangle of PEs, relative to the program rectangle.
struct Region {
  int64_t x = 0, y = 0, width = 0, height = 0;
};

struct RuntimeOptions {
  emulator::EmulatorOptions emulator;
  /// Cycles one command may run the device before it is an error.
  uint64_t maxCyclesPerCommand = 1'000'000'000;
  /// Where simprint lines go, as the SDK's simulator writes them
  /// ("@CYCLE PE(x,y): text"); created at the first line, empty for none.
  std::string simLogPath = "sim.log";
  /// Also print simprint lines on standard output.
  bool simprintToTerminal = false;
  /// Write the emulator's task trace here (EmulatorOptions::trace); empty
  /// for none.
  std::string tracePath;
  /// At stop(), write the run record (docs/RunRecord.md) to
  /// `recordDirectory`/run.json for tessera-viz; empty for none. Events are
  /// recorded as `emulator.record` says (all when it is unset).
  std::string recordDirectory;
  /// When a command ends in a fault or a deadlock, write core dumps
  /// (docs/Debugging.md "Core dumps") of the PEs in `coreDumpRegion`
  /// (x0, y0, x1, y1; every PE without one) and the faulting PE to this
  /// directory before the HostError; empty for none.
  std::string coreDumpDirectory;
  std::optional<std::array<uint64_t, 4>> coreDumpRegion;
  /// Show the run's progress on standard error while a command runs the
  /// device: one line rewritten in place (for a terminal), erased when the
  /// command returns.
  bool progress = false;
  /// At stop(), append one JSON line of the run's figures here (output
  /// directory, cycles, instructions, DSD elements, tasks, wavelets, host
  /// seconds since the constructor); empty for none.
  std::string statsPath;
  /// On rank 0 of several (tessera/Host/Ranks.h): the fabric's rows are
  /// split among the ranks, which serve this runtime's requests; results
  /// and cycle counts are those of one process. Null for one process.
  std::shared_ptr<RankServers> ranks;
};

/// What a command returns. Every command has completed when its call
/// returns except a nonblocking send or receive, which completes while
/// later commands, taskWait or stop() run the device.
struct TaskHandle {
  uint64_t id = 0;
};

class SdkRuntime {
public:
  /// Reads the output directory (HostError if it does not load).
  SdkRuntime(const std::string &directory, RuntimeOptions options = {});
  ~SdkRuntime();
  SdkRuntime(const SdkRuntime &) = delete;
  SdkRuntime &operator=(const SdkRuntime &) = delete;

  /// The ID of exported symbol `name` (data or function), usable before
  /// load(): its index in out.json's exports.
  uint32_t getId(const std::string &name) const;

  void load();
  void run();
  /// First runs the device until every nonblocking send and receive is
  /// done; if some cannot finish, the runtime stops anyway (they are
  /// dropped) and the error names each stream and its outstanding words.
  void stop();

  /// Copy mode: writes `elementsPerPE` elements to symbol `symbolId` on
  /// every PE of `region`; `data` holds 32-bit words in `order` (for 16-bit
  /// data the low half of each word is the element).
  TaskHandle memcpyH2D(uint32_t symbolId, std::span<const uint32_t> data,
                       Region region, uint64_t elementsPerPE,
                       MemcpyDataType type, MemcpyOrder order);
  /// Copy mode, the other way: 16-bit elements come back zero-extended.
  TaskHandle memcpyD2H(std::span<uint32_t> data, uint32_t symbolId,
                       Region region, uint64_t elementsPerPE,
                       MemcpyDataType type, MemcpyOrder order);
  /// Streaming mode: delivers each PE's `elementsPerPE` words, in order, as
  /// wavelets of `color` to its CE (its data task or fabin takes them);
  /// done when all are in the PEs' queues.
  TaskHandle memcpyH2DStream(unsigned color, std::span<const uint32_t> data,
                             Region region, uint64_t elementsPerPE,
                             MemcpyOrder order);
  /// Streaming mode: collects `elementsPerPE` wavelets each PE of the
  /// region sends on `color` (which memcpy takes to the host).
  TaskHandle memcpyD2HStream(std::span<uint32_t> data, unsigned color,
                             Region region, uint64_t elementsPerPE,
                             MemcpyOrder order);
  /// Calls exported function `name` on every PE of the rectangle with
  /// `args` (one 32-bit word each) and runs the device until every PE has
  /// called `unblock_cmd_stream()`.
  TaskHandle launch(const std::string &name, std::span<const uint32_t> args);

  /// The bytes of data `name` on PE (x, y) of the rectangle, as the device
  /// has them now (also after stop(), for debugging tools): an exported
  /// data symbol, else a global variable of the program's debug
  /// information. Throws if there is neither. `type`, if given, receives
  /// the element type.
  std::vector<uint8_t> readSymbol(unsigned x, unsigned y,
                                  const std::string &name,
                                  pe::ElemType *type = nullptr) const;
  /// Overwrites data `name` of PE (x, y) with `bytes`, which must be
  /// exactly its size: SdkLayout's set_symbol_all values, written after
  /// load() and before run(). Throws on anything else.
  void writeSymbol(unsigned x, unsigned y, const std::string &name,
                   std::span<const uint8_t> bytes);

  /// Host streams (out.json's `host_streams`, by index; docs/HostRuntime.md
  /// "Host streams"). Sends `words` on input stream `stream`: the host puts
  /// them into the fabric at the stream's edge port, at most one per cycle,
  /// as the port's buffer has room, after the words of earlier sends on the
  /// stream. Blocking: runs the device until all were taken. Nonblocking:
  /// the words are copied and the call returns at once.
  TaskHandle send(uint32_t stream, std::span<const uint32_t> words,
                  bool nonblock);
  /// Receives `out.size()` words from output stream `stream`, after those
  /// of earlier receives on it. Blocking: runs the device until all have
  /// arrived. Nonblocking: `out` is filled as they arrive and must stay
  /// valid until the receive is done (isTaskDone, taskWait or stop()).
  TaskHandle receive(uint32_t stream, std::span<uint32_t> out, bool nonblock);
  /// As above into 16-bit elements: the low half of each word.
  TaskHandle receive(uint32_t stream, std::span<uint16_t> out, bool nonblock);
  size_t getNumStreams() const;

  /// False only for a nonblocking send or receive still in progress.
  bool isTaskDone(TaskHandle handle) const;
  /// Runs the device until the command is done.
  void taskWait(TaskHandle handle);

  /// Values of the parameters and colors cslc recorded in out.json.
  const emulator::LoadedOutput &getOutput() const;
  /// This process's emulator: with ranks, rank 0's rows only.
  const emulator::Emulator &getEmulator() const;
  uint64_t getCycle() const;

  /// The runtime's state, defined in the library's own files.
  struct State;

private:
  std::unique_ptr<State> state;
};

} // namespace tessera::host

#endif // TESSERA_HOST_SDKRUNTIME_H
