//===- CoreDump.h - a PE's state and memory in a file -----------*- C++ -*-===//
//
// tessera-run --core-dump writes one file per PE (docs/Debugging.md "Core
// dumps"): registers, threads, task flags, queues, counters and the whole
// memory, as JSON so that any tool can read it; tessera-core prints one
// and the values of data in it by name.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_TOOLS_TESSERA_RUN_COREDUMP_H
#define TESSERA_TOOLS_TESSERA_RUN_COREDUMP_H

#include "tessera/Emulator/Emulator.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace tessera {

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

} // namespace tessera

#endif // TESSERA_TOOLS_TESSERA_RUN_COREDUMP_H
