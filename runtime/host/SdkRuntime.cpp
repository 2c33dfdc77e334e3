//===- SdkRuntime.cpp - lifecycle, symbol IDs, running the device ---------===//

#include "Runtime.h"

#include "tessera/Support/Format.h"
#include "tessera/Viz/RunRecordJSON.h"

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <iostream>

using namespace tessera;
using namespace tessera::host;

namespace {

const char *phaseName(Phase phase) {
  switch (phase) {
  case Phase::Created:
    return "created";
  case Phase::Loaded:
    return "loaded";
  case Phase::Running:
    return "running";
  case Phase::Stopped:
    return "stopped";
  }
  return "?";
}

} // namespace

void SdkRuntime::State::requireRunning(const char *what) const {
  if (phase == Phase::Running)
    return;
  throw HostError(std::string(what) + ": the runtime is " + phaseName(phase) +
                  "; commands are issued between run() and stop()");
}

const emulator::ExportInfo &SdkRuntime::State::exportOf(const char *what,
                                                        uint32_t id) const {
  if (id >= output.metadata.exports.size())
    throw HostError(std::string(what) + ": no symbol has ID " +
                    std::to_string(id) + " (there are " +
                    std::to_string(output.metadata.exports.size()) +
                    " exported symbols, IDs from 0)");
  return output.metadata.exports[id];
}

std::string SdkRuntime::State::describePE(unsigned x, unsigned y) const {
  std::string text =
      "PE (" + std::to_string(x) + ", " + std::to_string(y) + ")";
  if (const emulator::LoadedProgram *program = output.programAt(x, y))
    text += " ('" + program->name + "')";
  return text;
}

void SdkRuntime::State::runUntil(const std::string &why,
                                 const std::function<bool()> &until,
                                 const std::function<std::string()> &pending) {
  emulator::RunOutcome outcome = runDevice(options.maxCyclesPerCommand, until);
  if (progressShown) {
    std::cerr << "\r\033[K" << std::flush;
    progressShown = false;
  }
  switch (outcome.status) {
  case emulator::RunStatus::Reached:
    return;
  case emulator::RunStatus::Faulted:
    throw HostError(why + ": the device faulted: " +
                    emulator::formatFault(*device->getFault()) +
                    dumpCores(why + " faulted"));
  case emulator::RunStatus::Idle:
  case emulator::RunStatus::Stalled: {
    emulator::DeadlockReport report = device->getDeadlock();
    std::string text = why + " cannot finish: ";
    if (pending)
      text += pending() + "; ";
    if (report.waits.empty() && report.wavelets.empty())
      text += "the device has nothing left to do";
    else
      text += emulator::formatDeadlock(report);
    throw HostError(text + dumpCores(why + " cannot finish"));
  }
  case emulator::RunStatus::CycleLimit:
    throw HostError(why + " did not finish within " +
                    formatThousands(options.maxCyclesPerCommand) + " cycles");
  }
}

void SdkRuntime::State::runFor(const std::string &why, uint64_t cycles) {
  emulator::RunOutcome outcome = runDevice(cycles);
  if (outcome.status == emulator::RunStatus::Faulted)
    throw HostError(why + ": the device faulted: " +
                    emulator::formatFault(*device->getFault()) +
                    dumpCores(why + " faulted"));
}

std::string SdkRuntime::State::dumpCores(const std::string &what) {
  if (options.coreDumpDirectory.empty())
    return "";
  std::string error = device->writeCoreDumps({"requested (" + what + ")",
                                              options.coreDumpDirectory,
                                              options.coreDumpRegion});
  if (!error.empty())
    return "\n(no core dumps: " + error + ")";
  return "\n(core dumps in '" + options.coreDumpDirectory + "')";
}

void SdkRuntime::State::print(const emulator::PrintedLine &line) {
  // Rectangle coordinates, as the SDK's sim.log shows them.
  std::string text = "@" + std::to_string(line.cycle) + " PE(" +
                     std::to_string(line.pe.x) + "," +
                     std::to_string(line.pe.y) + "): " + line.text + "\n";
  if (options.simprintToTerminal) {
    std::fwrite(text.data(), 1, text.size(), stdout);
    std::fflush(stdout);
  }
  if (options.simLogPath.empty())
    return;
  if (!simLog.is_open()) {
    simLog.open(options.simLogPath);
    if (!simLog) // reported once; the run goes on without its log
      std::fprintf(stderr, "warning: cannot write simprint output to '%s'\n",
                   options.simLogPath.c_str());
  }
  if (simLog)
    simLog << text << std::flush;
}

SdkRuntime::SdkRuntime(const std::string &directory, RuntimeOptions options)
    : state(std::make_unique<State>()) {
  state->options = std::move(options);
  emulator::LoadResult loaded = emulator::loadOutputDirectory(directory);
  if (!loaded)
    throw HostError(loaded.error);
  state->output = std::move(*loaded.value);
  const RankServers *ranks = state->options.ranks.get();
  unsigned rows = state->output.layout.getHeight();
  if (ranks && ranks->getSize() > rows)
    throw HostError("SdkRuntime: " + std::to_string(ranks->getSize()) +
                    " MPI ranks for a rectangle of " + std::to_string(rows) +
                    " rows: at most one rank per row");
}

SdkRuntime::~SdkRuntime() = default;

uint32_t SdkRuntime::getId(const std::string &name) const {
  const auto &exports = state->output.metadata.exports;
  for (size_t i = 0; i < exports.size(); ++i)
    if (exports[i].name == name)
      return static_cast<uint32_t>(i);
  std::string known;
  for (const emulator::ExportInfo &e : exports)
    known += (known.empty() ? "" : ", ") + ("'" + e.name + "'");
  throw HostError("get_id: no exported symbol is named '" + name + "'" +
                  (known.empty() ? " (the program exports none)"
                                 : " (exported: " + known + ")"));
}

void SdkRuntime::load() {
  if (state->phase != Phase::Created)
    throw HostError(std::string("load: the runtime is already ") +
                    phaseName(state->phase));
  emulator::EmulatorOptions emulatorOptions = state->options.emulator;
  if (!state->options.recordDirectory.empty() && !emulatorOptions.record)
    emulatorOptions.record = emulator::RecordOptions{};
  if (!state->options.tracePath.empty()) {
    state->traceLog.open(state->options.tracePath);
    if (!state->traceLog)
      throw HostError("load: cannot write the trace to '" +
                      state->options.tracePath + "'");
    emulatorOptions.trace = &state->traceLog;
  }
  State *s = state.get();
  emulatorOptions.onPrint = [s](const emulator::PrintedLine &line) {
    s->print(line);
  };
  if (state->options.progress)
    emulatorOptions.onProgress = [s](const emulator::Progress &p) {
      std::cerr << "\rtessera: cycle " << formatThousands(p.cycle) << ", "
                << formatThousands(p.activePEs) << " PEs active, "
                << formatThousands(p.waveletsInFlight)
                << " wavelets in flight\033[K" << std::flush;
      s->progressShown = true;
    };
  state->device = std::make_unique<Device>(state->output, emulatorOptions,
                                           state->options.ranks);
  // memcpy routes its D2H colors to the host before any command: what a PE
  // sends on a color the layout routes nowhere goes to the host, to wait
  // for the D2H that reads it (a color the layout routes elsewhere but not
  // at that PE stays a routing error).
  if (state->output.metadata.memcpy) {
    std::vector<uint8_t> routed = state->output.layout.getRoutedColors();
    unsigned colors = target::TargetModel::get(state->output.metadata.arch)
                          .getNumRoutableColors();
    for (unsigned c = 0; c < colors; ++c)
      if (std::find(routed.begin(), routed.end(), c) == routed.end())
        state->device->captureColor(c);
  }
  for (const emulator::HostStream &info : state->output.metadata.hostStreams) {
    StreamState &stream = state->streams.emplace_back();
    stream.info = &info;
    stream.id = uint32_t(state->streams.size() - 1);
  }
  state->phase = Phase::Loaded;
}

void SdkRuntime::run() {
  if (state->phase != Phase::Loaded)
    throw HostError(std::string("run: the runtime is ") +
                    phaseName(state->phase) + "; call load() once first");
  state->phase = Phase::Running;
  // Start-up code and tasks activated at start-up run now, as on the
  // device, until they are done or wait for the host.
  emulator::RunOutcome outcome =
      state->runDevice(state->options.maxCyclesPerCommand);
  if (outcome.status == emulator::RunStatus::Faulted)
    throw HostError("run: the device faulted: " +
                    emulator::formatFault(*state->device->getFault()));
}

void SdkRuntime::stop() {
  if (state->phase != Phase::Running)
    throw HostError(std::string("stop: the runtime is ") +
                    phaseName(state->phase) + "; call run() first");
  try {
    state->finishStreams();
  } catch (const HostError &) {
    state->phase = Phase::Stopped; // stopped all the same
    throw;
  }
  state->phase = Phase::Stopped;
  if (!state->options.statsPath.empty())
    state->writeStats();
  if (!state->options.recordDirectory.empty())
    state->writeRecord();
}

void SdkRuntime::State::writeRecord() {
  // With ranks, every rank takes part in gathering the record first.
  viz::RunRecord record = device->buildRecord();
  const std::string &directory = options.recordDirectory;
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error)
    throw HostError("stop: cannot write the run record: cannot create '" +
                    directory + "': " + error.message());
  viz::Status written = viz::writeRunRecord(record, directory + "/run.json");
  if (!written)
    throw HostError("stop: cannot write the run record: " + written.error());
}

void SdkRuntime::State::writeStats() {
  emulator::PECounters c = device->getCounters();
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - created)
          .count();
  char secondsText[32];
  std::snprintf(secondsText, sizeof secondsText, "%.3f", seconds);
  std::string dir;
  for (char ch : output.directory) { // a JSON string
    if (ch == '"' || ch == '\\')
      dir += '\\';
    dir += ch;
  }
  std::ofstream out(options.statsPath, std::ios::app);
  out << "{\"dir\": \"" << dir << "\", \"cycles\": " << device->getCycle()
      << ", \"instructions\": " << c.instructions
      << ", \"dsd_elements\": " << c.dsdElements
      << ", \"tasks\": " << c.tasksRun << ", \"wavelets\": " << c.waveletsSent
      << ", \"host_seconds\": " << secondsText << "}\n";
  if (!out) // the run itself went well; say so rather than fail it
    std::fprintf(stderr, "warning: cannot append run figures to '%s'\n",
                 options.statsPath.c_str());
}

bool SdkRuntime::isTaskDone(TaskHandle handle) const {
  if (handle.id == 0 || handle.id >= state->nextHandle)
    throw HostError("is_task_done: no command has handle " +
                    std::to_string(handle.id));
  // Only nonblocking sends and receives outlive their call.
  return !state->isPending(handle.id);
}

void SdkRuntime::taskWait(TaskHandle handle) {
  if (handle.id == 0 || handle.id >= state->nextHandle)
    throw HostError("task_wait: no command has handle " +
                    std::to_string(handle.id));
  if (state->isPending(handle.id))
    state->waitFor("task_wait", handle.id);
}

const emulator::LoadedOutput &SdkRuntime::getOutput() const {
  return state->output;
}

const emulator::Emulator &SdkRuntime::getEmulator() const {
  if (!state->device)
    throw HostError("the runtime is not loaded");
  return state->device->getEmulator();
}

uint64_t SdkRuntime::getCycle() const {
  return state->device ? state->device->getCycle() : 0;
}

void SdkRuntime::writeSymbol(unsigned x, unsigned y, const std::string &name,
                             std::span<const uint8_t> bytes) {
  if (!state->device)
    throw HostError("write_symbol: the runtime is not loaded");
  // readSymbol checks the PE and the name and gives the size.
  std::vector<uint8_t> current = readSymbol(x, y, name);
  if (current.size() != bytes.size())
    throw HostError("write_symbol: '" + name + "' of " +
                    state->describePE(x, y) + " has " +
                    std::to_string(current.size()) + " bytes, not " +
                    std::to_string(bytes.size()));
  const emulator::LoadedProgram *program = state->output.programAt(x, y);
  std::optional<pe::Symbol> symbol =
      emulator::findReadableData(program->binary, name);
  MemoryPiece piece{x, y, symbol->address, {bytes.begin(), bytes.end()}};
  if (state->device->writeMemory({&piece, 1}) == 0) // the one piece failed
    throw HostError("write_symbol: '" + name + "' lies outside " +
                    state->describePE(x, y) + "'s memory");
}

std::vector<uint8_t> SdkRuntime::readSymbol(unsigned x, unsigned y,
                                            const std::string &name,
                                            pe::ElemType *type) const {
  if (!state->device)
    throw HostError("read_symbol: the runtime is not loaded");
  const emulator::OutputMetadata &m = state->output.metadata;
  if (x >= m.rectWidth || y >= m.rectHeight)
    throw HostError("read_symbol: PE (" + std::to_string(x) + ", " +
                    std::to_string(y) + ") is outside the " +
                    std::to_string(m.rectWidth) + "x" +
                    std::to_string(m.rectHeight) + " rectangle");
  const emulator::LoadedProgram *program = state->output.programAt(x, y);
  std::optional<pe::Symbol> symbol =
      program ? emulator::findReadableData(program->binary, name)
              : std::nullopt;
  if (!symbol)
    throw HostError("read_symbol: " + state->describePE(x, y) +
                    " has no data named '" + name +
                    "' (an exported symbol, or a global variable of a "
                    "program compiled without -g0)");
  MemoryPiece piece{x, y, symbol->address,
                    std::vector<uint8_t>(emulator::getSymbolBytes(*symbol))};
  if (state->device->readMemory({&piece, 1}) == 0) // the one piece failed
    throw HostError("read_symbol: '" + name + "' lies outside " +
                    state->describePE(x, y) + "'s memory");
  if (type)
    *type = symbol->elemType;
  return std::move(piece.bytes);
}
