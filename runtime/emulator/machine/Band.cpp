//===- Band.cpp - a band's PEs: loading, waking and faults ----------------===//

#include "Machine.h"

#include <algorithm>
#include <cstdio>
#include <string_view>
#include <tuple>

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
  for (uint32_t pc = info.code.getCodeBegin(); pc < info.code.getCodeEnd();
       pc += 2) {
    const DecodedInst *decoded = info.code.lookup(pc);
    const pe::Instruction *inst = info.code.getInstruction(*decoded);
    if (!inst)
      continue;
    std::optional<PrebuiltDSR> built = prebuildDSRInstruction(*inst);
    if (!built)
      continue;
    if (info.prebuiltOf.size() <= decoded->aux)
      info.prebuiltOf.resize(decoded->aux + 1, -1);
    info.prebuiltOf[decoded->aux] = static_cast<int32_t>(info.prebuilt.size());
    info.prebuilt.push_back(*built);
  }
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

SharedState::SharedState(const LoadedOutput &output, EmulatorOptions options)
    : output(output), model(target::TargetModel::get(output.metadata.arch)),
      options(std::move(options)) {
  for (const LoadedProgram &program : output.programs) {
    std::string error;
    programs.push_back(buildProgramInfo(program, model, error));
    if (!error.empty() && loadError.empty())
      loadError = error;
  }
}

Band::Band(const SharedState &shared, unsigned firstRow, unsigned endRow)
    : shared(shared), output(shared.output), model(shared.model),
      options(shared.options), programs(shared.programs),
      hostColors(shared.hostColors), firstRow(firstRow), endRow(endRow),
      network(shared.output.layout, shared.model, shared.options.network,
              NetworkBand{firstRow, endRow}),
      streamsEnabled(shared.options.carryTransfers && !shared.options.trace &&
                     !shared.options.record),
      chainEnabled(shared.options.chainOperations && !shared.options.trace &&
                   !shared.options.record) {
  // What an output host stream's PE sends through its port goes to the
  // host, not into a routing error.
  for (const HostStream &stream : output.metadata.hostStreams)
    if (stream.output && contains(stream.y))
      network.declareEdgeExit(stream.x, stream.y, stream.port, stream.color);

  const FabricLayout &layout = output.layout;
  auto programOfPE = [&](unsigned x, unsigned y) -> std::optional<uint16_t> {
    std::optional<uint16_t> program = layout.programAt(x, y);
    if (!program || *program >= programs.size())
      return std::nullopt;
    return program;
  };
  // Counted first: growing the records by doubling would copy them at
  // each step (512 MB at the last one on a whole wafer).
  size_t running = 0;
  for (unsigned y = firstRow; y < endRow; ++y)
    for (unsigned x = 0; x < layout.getWidth(); ++x)
      running += programOfPE(x, y).has_value();
  pes.reserve(running);
  peIndex.assign(size_t(layout.getWidth()) * (endRow - firstRow), -1);
  for (unsigned y = firstRow; y < endRow; ++y) {
    for (unsigned x = 0; x < layout.getWidth(); ++x) {
      std::optional<uint16_t> program = programOfPE(x, y);
      if (!program)
        continue;
      peIndex[size_t(y - firstRow) * layout.getWidth() + x] =
          static_cast<int32_t>(pes.size());
      PE &pe = pes.emplace_back();
      pe.coord = {static_cast<uint16_t>(x), static_cast<uint16_t>(y)};
      pe.program = *program;
    }
  }
  // The PE records share the caches with the routers' state.
  network.setCompanionBytes(pes.size() * sizeof(PE));
}

void Band::load() {
  for (PE &pe : pes) {
    const ProgramInfo &info = programs[pe.program];
    pe.memory = PEMemory(info.image);
    pe.ce.seedPRNG(pe.coord.x, pe.coord.y);
    pe.blocked = info.initiallyBlocked;
    uint64_t seed = options.shuffleSeed.value_or(0);
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
      continue; // the loader checked both, and other bands have the rest
    (void)pe->memory.write(symbol->address + value.offset, value.bytes);
  }
}

PE *Band::findPE(unsigned x, unsigned y) {
  const FabricLayout &layout = output.layout;
  if (x >= layout.getWidth() || !contains(y))
    return nullptr;
  int32_t index = peIndex[size_t(y - firstRow) * layout.getWidth() + x];
  return index < 0 ? nullptr : &pes[index];
}

const PE *Band::findPE(unsigned x, unsigned y) const {
  return const_cast<Band *>(this)->findPE(x, y);
}

bool Band::hasWork(const PE &pe) const {
  if (pe.state == MainState::Faulted)
    return false;
  return pe.state != MainState::Idle || !pe.calls.empty() ||
         pe.hasBusyMicrothread() || pe.flushQueues || hasReadyTask(pe);
}

void Band::fail(PE &pe, uint32_t pc, std::string message,
                std::optional<uint64_t> at) {
  pe.state = MainState::Faulted;
  uint64_t when = at.value_or(cycle);
  auto key = [](uint64_t c, PECoord p) { return std::tuple(c, p.y, p.x); };
  if (fault && key(fault->cycle, fault->pe) <= key(when, pe.coord))
    return; // the earliest fault is the one reported
  const ProgramInfo &info = programs[pe.program];
  fault = PEFault{when,
                  pe.coord,
                  info.loaded->name,
                  pc,
                  info.code.getLocation(pc),
                  std::move(message)};
}

bool Band::hasLeftovers() const {
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

bool Band::isQuiet() const {
  return awake.empty() && !hasStreamWork() && network.isIdle() &&
         !hasTimer();
}
