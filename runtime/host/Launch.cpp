//===- Launch.cpp - RPC into an exported function on every PE -------------===//
//
// docs/HostRuntime.md "Launch": the host blocks memcpy's command-stream task
// (ID 30) on every PE, calls the function there, and runs the device until
// every PE has unblocked it again with `unblock_cmd_stream()`.
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include <algorithm>

using namespace tessera;
using namespace tessera::host;

namespace {
/// memcpy's command-stream task (lib/csl/memcpy/memcpy.csl).
constexpr unsigned CommandStreamTask = 30;
} // namespace

TaskHandle SdkRuntime::launch(const std::string &name,
                              std::span<const uint32_t> args) {
  State &s = *state;
  s.requireRunning("launch");
  std::string what = "launch of '" + name + "'";
  const emulator::ExportInfo *info = nullptr;
  for (const emulator::ExportInfo &e : s.output.metadata.exports)
    if (e.name == name)
      info = &e;
  if (!info || info->kind != pe::SymbolKind::Function)
    throw HostError("launch: '" + name + "' is not an exported function" +
                    (info ? " (it is data)" : ""));
  if (args.size() != info->params.size())
    throw HostError("launch: '" + name + "' takes " +
                    std::to_string(info->params.size()) + " argument" +
                    (info->params.size() == 1 ? "" : "s") + ", not " +
                    std::to_string(args.size()));

  // Every PE that runs a program must export the function and take part in
  // the command stream.
  std::vector<CallTarget> targets;
  const emulator::FabricLayout &layout = s.output.layout;
  for (unsigned y = 0; y < layout.getHeight(); ++y) {
    for (unsigned x = 0; x < layout.getWidth(); ++x) {
      const emulator::LoadedProgram *program = s.output.programAt(x, y);
      if (!program)
        continue;
      const pe::Symbol *symbol = emulator::findEntryPoint(program->binary, name);
      if (!symbol)
        throw HostError("launch: " + s.describePE(x, y) +
                        " does not export '" + name + "'");
      bool streams = std::any_of(
          program->binary.tasks.begin(), program->binary.tasks.end(),
          [](const pe::TaskEntry &t) { return t.id == CommandStreamTask; });
      if (!streams)
        throw HostError("launch: " + s.describePE(x, y) +
                        " does not import <memcpy/memcpy>, so it cannot "
                        "call unblock_cmd_stream()");
      targets.push_back({x, y, symbol->address});
    }
  }

  if (std::optional<std::pair<size_t, std::string>> error =
          s.device->callAll(targets, CommandStreamTask, args))
    throw HostError("launch: " + error->second);
  // PEs without a program never block the stream, so the whole rectangle
  // is scanned: PE `done` is the first not seen to unblock it yet.
  Scan unblocked{Region{0, 0, layout.getWidth(), layout.getHeight()},
                 PETest::TaskUnblocked, CommandStreamTask};
  uint64_t count = uint64_t(layout.getWidth()) * layout.getHeight(), done = 0;
  s.runUntil(
      what,
      [&] {
        done = s.device->findFirstFailing(unblocked, done);
        return done == count;
      },
      [&] {
        uint64_t left = s.device->countFailing(unblocked);
        return std::to_string(left) + " of " + std::to_string(targets.size()) +
               " PEs have not called unblock_cmd_stream(), the first " +
               s.describePE(unsigned(done % layout.getWidth()),
                            unsigned(done / layout.getWidth()));
      });
  return {s.nextHandle++};
}
