//===- Emulator.cpp - loading, the cycle loop and host access ------------===//

#include "Machine.h"

#include <algorithm>
#include <cstdio>
#include <string_view>

using namespace tessera;
using namespace tessera::emulator;
using namespace tessera::emulator::machine;

namespace {

constexpr std::string_view TeardownHandlerPrefix = "__teardown_handler.";

/// Per-program facts every PE of it shares.
ProgramInfo buildProgramInfo(const LoadedProgram &loaded,
                             const target::TargetModel &model,
                             std::string &error) {
  ProgramInfo info;
  info.loaded = &loaded;
  const pe::ProgramBinary &binary = loaded.binary;
  info.code = DecodedProgram(binary);
  ImageResult image = PEMemory::buildImage(binary);
  if (!image)
    error = "program '" + loaded.name + "' cannot be loaded: " + *image.error;
  info.image = image.image;

  for (const pe::TaskEntry &task : binary.tasks) {
    if (task.id >= NumTaskIDs)
      continue; // the reader refuses these
    info.kind[task.id] = task.kind;
    info.entry[task.id] = task.entry;
    if (task.kind == target::TaskKind::Data)
      info.dataTasks |= uint64_t(1) << task.id;
  }
  if (binary.hasSeparateControlTable()) {
    info.separateControlTable = true;
    info.controlTableStride = binary.controlTableStride;
    for (const pe::TaskEntry &task : binary.tasks) {
      if (task.kind != target::TaskKind::Control || task.id >= NumTaskIDs)
        continue;
      info.kind[task.id].reset();
      info.controlEntry[task.id] = task.entry;
    }
    // Control tasks leave the shared table: its entries are the others'.
    for (const pe::TaskEntry &task : binary.tasks)
      if (task.kind != target::TaskKind::Control && task.id < NumTaskIDs) {
        info.kind[task.id] = task.kind;
        info.entry[task.id] = task.entry;
      }
  }
  std::array<std::optional<uint8_t>, 8> outputQueueColor{};
  for (const pe::QueueInit &queue : binary.queues) {
    if (queue.queue >= 8)
      continue;
    (queue.output ? outputQueueColor : info.inputQueueColor)[queue.queue] =
        queue.color;
    if (!queue.output && queue.color < 32)
      info.ctrlTableIDOfColor[queue.color] = queue.ctrlTableID;
  }
  info.outputQueueColor = outputQueueColor;

  info.dataTaskOfColor.fill(NoTask);
  info.gateOfColor.fill(NoTask);
  bool byColor = model.getDataTaskSource() == target::DataTaskSource::Color;
  if (byColor) {
    for (unsigned c = 0; c < model.getNumRoutableColors(); ++c) {
      info.gateOfColor[c] = c;
      if (info.kind[c] == target::TaskKind::Data)
        info.dataTaskOfColor[c] = c;
    }
  } else {
    for (unsigned q = 0; q < 8; ++q) {
      if (!info.inputQueueColor[q] || *info.inputQueueColor[q] >= 32)
        continue;
      unsigned c = *info.inputQueueColor[q];
      info.gateOfColor[c] = q;
      if (info.kind[q] == target::TaskKind::Data)
        info.dataTaskOfColor[c] = q;
    }
  }
  // A color or queue with no task bound starts blocked, so that control
  // wavelets reach the CE only once the program unblocks it
  // (csl-reference 7.3).
  for (uint8_t gate : info.gateOfColor)
    if (gate != NoTask && !info.kind[gate])
      info.initiallyBlocked |= uint64_t(1) << gate;

  for (const pe::Symbol &symbol : binary.symbols) {
    std::string_view name = symbol.name;
    if (symbol.kind != pe::SymbolKind::Function ||
        !name.starts_with(TeardownHandlerPrefix))
      continue;
    unsigned color = 0;
    std::string_view digits = name.substr(TeardownHandlerPrefix.size());
    if (digits.empty() || digits.size() > 2)
      continue;
    for (char ch : digits)
      color = color * 10 + unsigned(ch - '0');
    if (color < 32)
      info.teardownHandler[color] = symbol.address;
  }
  return info;
}

} // namespace

PECounters &PECounters::operator+=(const PECounters &other) {
  instructions += other.instructions;
  dsdElements += other.dsdElements;
  tasksRun += other.tasksRun;
  busyCycles += other.busyCycles;
  stallCycles += other.stallCycles;
  waveletsSent += other.waveletsSent;
  waveletsReceived += other.waveletsReceived;
  return *this;
}

Emulator::State::State(const LoadedOutput &output, EmulatorOptions options)
    : output(output), model(target::TargetModel::get(output.metadata.arch)),
      options(std::move(options)),
      network(output.layout, model, this->options.network) {
  // What an output host stream's PE sends through its port goes to the
  // host, not into a routing error.
  for (const HostStream &stream : output.metadata.hostStreams)
    if (stream.output)
      network.declareEdgeExit(stream.x, stream.y, stream.port, stream.color);
  std::string loadError;
  for (const LoadedProgram &program : output.programs) {
    std::string error;
    programs.push_back(buildProgramInfo(program, model, error));
    if (!error.empty() && loadError.empty())
      loadError = error;
  }

  const FabricLayout &layout = output.layout;
  peIndex.assign(size_t(layout.getWidth()) * layout.getHeight(), -1);
  for (unsigned y = 0; y < layout.getHeight(); ++y) {
    for (unsigned x = 0; x < layout.getWidth(); ++x) {
      std::optional<uint16_t> program = layout.programAt(x, y);
      if (!program || *program >= programs.size())
        continue;
      peIndex[size_t(y) * layout.getWidth() + x] =
          static_cast<int32_t>(pes.size());
      PE &pe = pes.emplace_back();
      pe.coord = {static_cast<uint16_t>(x), static_cast<uint16_t>(y)};
      pe.program = *program;
    }
  }

  for (PE &pe : pes) {
    const ProgramInfo &info = programs[pe.program];
    pe.memory = PEMemory(info.image);
    pe.ce.seedPRNG(pe.coord.x, pe.coord.y);
    pe.blocked = info.initiallyBlocked;
    uint64_t seed = this->options.shuffleSeed.value_or(0);
    pe.pickerState = (seed ^ (uint64_t(pe.coord.x) << 32 | pe.coord.y)) *
                         0x9E3779B97F4A7C15ull |
                     1;
    for (unsigned q = 0; q < 8; ++q)
      if (info.inputQueueColor[q])
        network.setDeliveryQueueDepth(pe.coord.x, pe.coord.y,
                                      *info.inputQueueColor[q],
                                      model.getInputQueueDepth(q));
    for (const pe::StartupAction &action : info.loaded->binary.startup) {
      switch (action.kind) {
      case pe::StartupKind::Activate:
        activate(pe, action.value);
        break;
      case pe::StartupKind::Block:
      case pe::StartupKind::Unblock:
        setBlocked(pe, action.space, action.value,
                   action.kind == pe::StartupKind::Block);
        break;
      case pe::StartupKind::Call:
        pe.calls.push_back({action.value, {}, 0});
        break;
      }
    }
    if (hasWork(pe))
      wake(pe);
  }

  // Per-PE values (params the host gave each PE) overwrite the image.
  for (const pe::PEValue &value : output.values) {
    PE *pe = findPE(value.x, value.y);
    const pe::Symbol *symbol =
        output.findSymbolAt(value.x, value.y, value.symbol);
    if (!pe || !symbol)
      continue; // the loader checked both
    (void)pe->memory.write(symbol->address + value.offset, value.bytes);
  }

  if (!loadError.empty() && !pes.empty())
    fail(pes.front(), 0, loadError);
}

PE *Emulator::State::findPE(unsigned x, unsigned y) {
  const FabricLayout &layout = output.layout;
  if (x >= layout.getWidth() || y >= layout.getHeight())
    return nullptr;
  int32_t index = peIndex[size_t(y) * layout.getWidth() + x];
  return index < 0 ? nullptr : &pes[index];
}

const PE *Emulator::State::findPE(unsigned x, unsigned y) const {
  return const_cast<State *>(this)->findPE(x, y);
}

void Emulator::State::wake(PE &pe) {
  if (pe.awake || pe.state == MainState::Faulted)
    return;
  pe.awake = true;
  awake.push_back(static_cast<uint32_t>(&pe - pes.data()));
}

bool Emulator::State::hasWork(const PE &pe) const {
  if (pe.state == MainState::Faulted)
    return false;
  return pe.state != MainState::Idle || !pe.calls.empty() ||
         pe.hasBusyMicrothread() || pe.flushQueues || hasReadyTask(pe);
}

void Emulator::State::fail(PE &pe, uint32_t pc, std::string message) {
  pe.state = MainState::Faulted;
  if (fault)
    return; // the first fault is the one reported
  const ProgramInfo &info = programs[pe.program];
  fault = PEFault{cycle,
                  pe.coord,
                  info.loaded->name,
                  pc,
                  info.code.getLocation(pc),
                  std::move(message)};
}

//===----------------------------------------------------------------------===//
// Emulator
//===----------------------------------------------------------------------===//

Emulator::Emulator(const LoadedOutput &output, EmulatorOptions options)
    : state(std::make_unique<State>(output, std::move(options))) {}

Emulator::~Emulator() = default;

bool Emulator::State::hasLeftovers() const {
  if (network.getWaveletsAwaitingCE() != 0 || !network.isIdle())
    return true;
  for (const PE &pe : pes) {
    if (hasWork(pe))
      return true; // asleep waiting for a wavelet that cannot come
    // Activated but blocked, with an entry or not (an unbound ID that a
    // program activates is as much a bug as one it never unblocks).
    if ((pe.activated | pe.controlPending) & pe.blocked ||
        pe.tablePending & pe.tableBlocked)
      return true;
  }
  return false;
}

RunOutcome Emulator::run(uint64_t maxCycles,
                         const std::function<bool()> &until) {
  State &s = *state;
  RunOutcome result;
  while (true) {
    if (s.fault) {
      result.status = RunStatus::Faulted;
      return result;
    }
    if (until && until()) {
      result.status = RunStatus::Reached;
      return result;
    }
    if (s.awake.empty() && s.network.isIdle() && s.timers.empty()) {
      result.status = s.hasLeftovers() ? RunStatus::Stalled : RunStatus::Idle;
      return result;
    }
    if (result.cycles == maxCycles) {
      result.status = RunStatus::CycleLimit;
      return result;
    }
    // A condition is checked every cycle, so no cycle is skipped past.
    if (!until)
      result.cycles += s.skipToNextTimer(maxCycles - result.cycles);
    if (result.cycles == maxCycles)
      continue;
    s.stepCycle();
    ++result.cycles;
    if (s.fault) {
      result.status = RunStatus::Faulted;
      return result;
    }
    if (!s.progressed &&
        !(s.awake.empty() && s.network.isIdle() && s.timers.empty())) {
      result.status = RunStatus::Stalled;
      return result;
    }
  }
}

bool Emulator::step() {
  if (state->fault)
    return false;
  state->stepCycle();
  return !state->fault;
}

uint64_t Emulator::getCycle() const { return state->cycle; }

bool Emulator::isIdle() const {
  return state->awake.empty() && state->network.isIdle() &&
         state->timers.empty() && !state->hasLeftovers();
}

const std::optional<PEFault> &Emulator::getFault() const {
  return state->fault;
}

DeadlockReport Emulator::getDeadlock() const { return state->describeWaits(); }

PECounters Emulator::getCounters() const {
  PECounters total;
  for (const PE &pe : state->pes)
    total += pe.counters;
  return total;
}

PECounters Emulator::getCounters(unsigned x, unsigned y) const {
  const PE *pe = state->findPE(x, y);
  return pe ? pe->counters : PECounters{};
}

const Network &Emulator::getNetwork() const { return state->network; }
Network &Emulator::getNetwork() { return state->network; }

const std::vector<PrintedLine> &Emulator::getPrintedLines() const {
  return state->printed;
}

MemoryStatus Emulator::readMemory(unsigned x, unsigned y, uint32_t address,
                                  std::span<uint8_t> out) const {
  const PE *pe = state->findPE(x, y);
  if (!pe)
    return MemoryStatus::OutOfRange;
  return pe->memory.read(address, out);
}

MemoryStatus Emulator::writeMemory(unsigned x, unsigned y, uint32_t address,
                                   std::span<const uint8_t> bytes) {
  PE *pe = state->findPE(x, y);
  if (!pe)
    return MemoryStatus::OutOfRange;
  return pe->memory.write(address, bytes);
}

bool Emulator::call(unsigned x, unsigned y, uint32_t address,
                    std::span<const uint32_t> args, std::string &error) {
  PE *pe = state->findPE(x, y);
  if (!pe) {
    error = "PE (" + std::to_string(x) + ", " + std::to_string(y) +
            ") runs no program";
    return false;
  }
  const DecodedProgram &code = state->programs[pe->program].code;
  if (!code.lookup(address)) {
    char hex[16];
    std::snprintf(hex, sizeof hex, "0x%04x", address);
    error = "address " + std::string(hex) + " is not in the code of '" +
            state->programs[pe->program].loaded->name + "'";
    return false;
  }
  if (args.size() > 8) {
    error =
        "a call takes at most 8 arguments, not " + std::to_string(args.size());
    return false;
  }
  PendingCall call;
  call.address = address;
  call.numArgs = static_cast<uint8_t>(args.size());
  std::copy(args.begin(), args.end(), call.args.begin());
  pe->calls.push_back(call);
  state->wake(*pe);
  return true;
}

bool Emulator::isTaskBlocked(unsigned x, unsigned y, unsigned task) const {
  const PE *pe = state->findPE(x, y);
  return pe && task < NumTaskIDs && (pe->blocked >> task & 1);
}

void Emulator::setTaskBlocked(unsigned x, unsigned y, unsigned task,
                              bool blocked) {
  PE *pe = state->findPE(x, y);
  if (!pe || task >= NumTaskIDs)
    return;
  state->setBlocked(*pe, pe::BlockSpace::Task, task, blocked);
  state->wake(*pe); // a task may have become ready
}

bool Emulator::isMainThreadIdle(unsigned x, unsigned y) const {
  const PE *pe = state->findPE(x, y);
  return !pe || (pe->state == MainState::Idle && pe->calls.empty() &&
                 !state->hasReadyTask(*pe));
}

bool Emulator::deliver(unsigned x, unsigned y, Wavelet wavelet) {
  PE *pe = state->findPE(x, y);
  if (!pe || wavelet.color >= 32 ||
      !state->network.deliverFromHost(x, y, wavelet))
    return false;
  pe->deliveredColors |= uint32_t(1) << wavelet.color;
  state->wake(*pe);
  return true;
}

void Emulator::captureColor(unsigned color) {
  if (color >= 32 || (state->hostColors >> color & 1))
    return;
  state->hostColors |= uint32_t(1) << color;
  // What PEs sent on the color before the host took it waits in their
  // routers (which do not route it): it goes to the host first.
  for (PE &pe : state->pes)
    for (const Wavelet &w :
         state->network.takeInjected(pe.coord.x, pe.coord.y, color)) {
      pe.toHost.emplace_back(static_cast<uint8_t>(color), w.payload);
      state->wake(pe); // its blocked fabout can go on
    }
}

std::vector<uint32_t> Emulator::takeCaptured(unsigned x, unsigned y,
                                             unsigned color, size_t max) {
  std::vector<uint32_t> taken;
  PE *pe = state->findPE(x, y);
  if (!pe)
    return taken;
  auto kept = pe->toHost.begin();
  for (auto it = pe->toHost.begin(); it != pe->toHost.end(); ++it) {
    if (it->first == color && taken.size() < max)
      taken.push_back(it->second);
    else
      *kept++ = *it;
  }
  pe->toHost.erase(kept, pe->toHost.end());
  return taken;
}

size_t Emulator::getCapturedCount(unsigned x, unsigned y,
                                  unsigned color) const {
  const PE *pe = state->findPE(x, y);
  if (!pe)
    return 0;
  size_t count = 0;
  for (const auto &[c, payload] : pe->toHost)
    count += c == color;
  return count;
}
