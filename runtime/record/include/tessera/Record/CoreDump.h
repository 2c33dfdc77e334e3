//===- CoreDump.h - a PE's state and memory in a file -----------*- C++ -*-===//
//
// tessera-run --core-dump and SdkRuntime's core_dump option write one file
// per PE (docs/Debugging.md "Core dumps"): registers, threads, task flags,
// queues, counters and the whole memory, as JSON so that any tool can read
// it; tessera-core prints one and the values of data in it by name.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_RECORD_COREDUMP_H
#define TESSERA_RECORD_COREDUMP_H

#include "tessera/Emulator/Emulator.h"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera {
namespace emulator {
class RankLink;
} // namespace emulator

inline constexpr unsigned CoreDumpVersion = 1;

struct CoreDump {
  emulator::PECoreState state;
  uint64_t cycle = 0;
  /// Why it was written: "fault: MESSAGE", or "requested (HOW THE RUN
  /// ENDED)".
  std::string reason;
  std::vector<uint8_t> memory; ///< the whole memory, pe::MemoryBytes
};

std::string printCoreDump(const CoreDump &dump);
/// Reads what printCoreDump wrote; on a bad file, nullopt and `error`
/// names `fileName` and the field.
std::optional<CoreDump> parseCoreDump(const std::string &text,
                                      const std::string &fileName,
                                      std::string &error);

/// DIR/core-X-Y.json of every PE in `region` (x0, y0, x1, y1; all PEs
/// without one) and of the PE that faulted, if one did; `why` is the
/// reason of the PEs that did not fault ("requested (...)"). The first
/// problem's message, or "". With `ranks` (the emulator's), every rank
/// must call it: each formats its PEs' dumps and rank 0 writes them all.
std::string writeCoreDumps(const emulator::Emulator &emulator,
                           const emulator::LoadedOutput &output,
                           const std::string &why, const std::string &directory,
                           const std::optional<std::array<uint64_t, 4>> &region,
                           emulator::RankLink *ranks = nullptr);

} // namespace tessera

#endif // TESSERA_RECORD_COREDUMP_H
