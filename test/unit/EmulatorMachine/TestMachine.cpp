//===- TestMachine.cpp - hand-built programs and fabrics for PE tests -----===//

#include "TestMachine.h"

#include <algorithm>

namespace machinetest {

//===----------------------------------------------------------------------===//
// Program
//===----------------------------------------------------------------------===//

Program::Program(std::string name, Arch arch)
    : name(std::move(name)), arch(arch) {}

Program &Program::label(const std::string &label) {
  if (!labels.emplace(label, lines.size()).second)
    FAIL("label '" << label << "' defined twice in '" << name << "'");
  return *this;
}

Program &Program::line(uint32_t line, uint16_t column) {
  sourceLines.push_back({lines.size(), {0, 0, line, column}});
  return *this;
}

Program &Program::emit(Opcode opcode, std::vector<Arg> operands,
                       pe::DSDOptions options) {
  Line entry;
  entry.inst.opcode = opcode;
  entry.inst.options = options;
  for (Arg &arg : operands) {
    if (!arg.label.empty())
      entry.labels.push_back({entry.inst.operands.size(), arg.label});
    entry.inst.operands.push_back(arg.operand);
  }
  lines.push_back(std::move(entry));
  return *this;
}

Program &Program::movi(unsigned rd, int64_t value) {
  if (value >= -0x8000 && value <= 0x7FFF)
    return emit(Opcode::MovI, {R(rd), Imm(value)});
  return emit(Opcode::MovI32, {R(rd), Imm(static_cast<uint32_t>(value))});
}

Program &Program::log(unsigned rs) {
  // count = log[0]; log[1 + count] = rs; log[0] = count + 1
  emit(Opcode::Ld32, {R(LogScratch1), R(Zero), Imm(LogCount)});
  emit(Opcode::ShlI, {R(LogScratch2), R(LogScratch1), Imm(2)});
  emit(Opcode::St32, {R(rs), R(LogScratch2), Imm(LogBase)});
  emit(Opcode::AddI, {R(LogScratch1), R(LogScratch1), Imm(1)});
  return emit(Opcode::St32, {R(LogScratch1), R(Zero), Imm(LogCount)});
}

Program &Program::logValue(uint32_t value) {
  movi(9, value);
  return log(9);
}

Program &Program::mem1d(Operand dsr, unsigned width, uint16_t base,
                        uint16_t extent) {
  return emit(Opcode::DsrMem1d, {dsr, Imm(width), Imm(base), Imm(extent),
                                 Imm(0), Imm(1), Imm(0)});
}

Program &Program::fabin(Operand dsr, uint16_t extent, unsigned color,
                        unsigned queue) {
  return emit(Opcode::DsrFabin,
              {dsr, Imm(extent), Imm(color), Imm(queue), Imm(0), Imm(0)});
}

Program &Program::fabout(Operand dsr, uint16_t extent, unsigned color,
                         unsigned queue, bool control) {
  return emit(Opcode::DsrFabout,
              {dsr, Imm(extent), Imm(color), Imm(queue), Imm(control), Imm(0),
               Imm(0), Imm(0), Imm(0)});
}

Program &Program::task(TaskKind kind, unsigned id, const std::string &label) {
  tasks.push_back({{kind, static_cast<uint8_t>(id), 0}, label});
  return *this;
}

Program &Program::activateAtStart(unsigned task) {
  startup.push_back({{pe::StartupKind::Activate, BlockSpace::Task,
                      static_cast<uint16_t>(task)},
                     ""});
  return *this;
}

Program &Program::blockAtStart(BlockSpace space, unsigned id) {
  startup.push_back(
      {{pe::StartupKind::Block, space, static_cast<uint16_t>(id)}, ""});
  return *this;
}

Program &Program::unblockAtStart(BlockSpace space, unsigned id) {
  startup.push_back(
      {{pe::StartupKind::Unblock, space, static_cast<uint16_t>(id)}, ""});
  return *this;
}

Program &Program::callAtStart(const std::string &label) {
  startup.push_back({{pe::StartupKind::Call, BlockSpace::Task, 0}, label});
  return *this;
}

Program &Program::inputQueue(unsigned queue, unsigned color) {
  queues.push_back(
      {false, static_cast<uint8_t>(queue), static_cast<uint8_t>(color)});
  return *this;
}

Program &Program::function(const std::string &symbol,
                           const std::string &label) {
  functions.push_back({symbol, label});
  return *this;
}

Program &Program::dataSymbol(const std::string &symbol, uint16_t address) {
  pe::Symbol data;
  data.name = symbol;
  data.address = address;
  data.elemType = pe::ElemType::U32;
  data.count = 1;
  dataSymbols.push_back(data);
  return *this;
}

Program &Program::data(uint16_t address, const std::vector<uint32_t> &words) {
  dataAddress = address;
  initialData.clear();
  for (uint32_t word : words)
    for (unsigned byte = 0; byte < 4; ++byte)
      initialData.push_back(static_cast<uint8_t>(word >> (8 * byte)));
  return *this;
}

/// Every label's address: instruction sizes do not depend on the value of
/// a code address, so one pass over the sizes places them all.
std::map<std::string, uint16_t> Program::layout() const {
  std::vector<uint16_t> addressOf(lines.size() + 1);
  uint32_t address = CodeBase;
  for (size_t i = 0; i < lines.size(); ++i) {
    addressOf[i] = static_cast<uint16_t>(address);
    size_t words = pe::encodedSize(lines[i].inst);
    if (!words)
      FAIL("cannot encode " << pe::format(lines[i].inst));
    address += 2 * static_cast<uint32_t>(words);
  }
  addressOf[lines.size()] = static_cast<uint16_t>(address);
  std::map<std::string, uint16_t> resolved;
  for (const auto &[label, index] : labels)
    resolved[label] = addressOf[index];
  for (const auto &[index, entry] : sourceLines)
    resolved["#line" + std::to_string(index)] = addressOf[index];
  return resolved;
}

uint16_t Program::address(const std::string &label) const {
  std::map<std::string, uint16_t> resolved = layout();
  auto it = resolved.find(label);
  if (it == resolved.end())
    FAIL("no label '" << label << "' in '" << name << "'");
  return it->second;
}

pe::ProgramBinary Program::build() const {
  pe::ProgramBinary binary;
  binary.arch = arch;
  binary.codeAddress = CodeBase;
  binary.dataAddress = dataAddress;
  binary.data = initialData;
  for (const Line &line : lines) {
    pe::Instruction inst = line.inst;
    for (const auto &[operand, label] : line.labels)
      inst.operands[operand] = Imm(address(label));
    if (std::optional<pe::ISAError> error = pe::encode(inst, binary.code))
      FAIL("cannot encode " << pe::format(inst) << ": " << error->message);
  }
  for (const auto &[entry, label] : tasks) {
    pe::TaskEntry task = entry;
    task.entry = address(label);
    binary.tasks.push_back(task);
  }
  for (const auto &[entry, label] : startup) {
    pe::StartupAction action = entry;
    if (!label.empty())
      action.value = address(label);
    binary.startup.push_back(action);
  }
  binary.queues = queues;
  for (const auto &[symbol, label] : functions) {
    pe::Symbol function;
    function.name = symbol;
    function.address = address(label);
    function.kind = pe::SymbolKind::Function;
    binary.symbols.push_back(function);
  }
  binary.symbols.insert(binary.symbols.end(), dataSymbols.begin(),
                        dataSymbols.end());
  if (!sourceLines.empty()) {
    binary.files = {name + ".csl"};
    for (const auto &[index, entry] : sourceLines) {
      pe::LineEntry line = entry;
      line.address = address("#line" + std::to_string(index));
      binary.lines.push_back(line);
    }
  }
  return binary;
}

//===----------------------------------------------------------------------===//
// Fabric
//===----------------------------------------------------------------------===//

Fabric::Fabric(uint16_t width, uint16_t height, Arch arch) {
  file.arch = arch;
  file.dimsWidth = file.rectWidth = width;
  file.dimsHeight = file.rectHeight = height;
}

Fabric Fabric::single(const Program &program) {
  Fabric fabric(1, 1, program.getArch());
  fabric.place(0, 0, program);
  return fabric;
}

Fabric Fabric::eastPair(const Program &west, const Program &east,
                        unsigned color) {
  Fabric fabric(2, 1, west.getArch());
  fabric.place(0, 0, west).place(1, 0, east);
  fabric.route(0, 0, color, Ramp, E).route(1, 0, color, W, Ramp);
  return fabric;
}

Fabric &Fabric::place(uint16_t x, uint16_t y, const Program &program,
                      uint16_t length) {
  if (program.getArch() != file.arch)
    FAIL("program '" << program.getName() << "' is for another arch");
  auto same = [&](const LoadedProgram &p) {
    return p.name == program.getName();
  };
  auto it = std::find_if(programs.begin(), programs.end(), same);
  uint16_t index = static_cast<uint16_t>(it - programs.begin());
  if (it != programs.end() && it->binary != program.build())
    FAIL("two different programs are named '" << program.getName() << "'");
  if (it == programs.end()) {
    LoadedProgram loaded;
    loaded.file = "bin/" + program.getName() + ".tpeb";
    loaded.name = program.getName();
    loaded.source = program.getName() + ".csl";
    loaded.binary = program.build();
    programs.push_back(std::move(loaded));
    file.programs.push_back(programs.back().file);
  }
  file.placement.push_back({x, y, length, index});
  return *this;
}

Fabric &Fabric::route(uint16_t x, uint16_t y, unsigned color, uint8_t rx,
                      uint8_t tx) {
  pe::RouterConfig config;
  config.rx = rx;
  config.tx = tx;
  return route(x, y, color, config);
}

Fabric &Fabric::route(uint16_t x, uint16_t y, unsigned color,
                      const pe::RouterConfig &config) {
  pe::RouteRun run;
  run.color = static_cast<uint8_t>(color);
  run.x = x;
  run.y = y;
  run.config = config;
  file.routes.push_back(run);
  return *this;
}

LoadedOutput Fabric::build() const {
  // The file format keeps runs sorted; the layout does not need it, but the
  // fabric should be one the reader accepts.
  pe::FabricFile sorted = file;
  std::sort(sorted.placement.begin(), sorted.placement.end(),
            [](const pe::ProgramRun &a, const pe::ProgramRun &b) {
              return std::pair(a.y, a.x) < std::pair(b.y, b.x);
            });
  std::sort(sorted.routes.begin(), sorted.routes.end(),
            [](const pe::RouteRun &a, const pe::RouteRun &b) {
              return std::tuple(a.color, a.y, a.x) <
                     std::tuple(b.color, b.y, b.x);
            });
  LoadedOutput output;
  output.directory = "test";
  OutputMetadata &m = output.metadata;
  m.compiler = "EmulatorMachineTests";
  m.formatVersion = "1.1";
  m.arch = file.arch;
  m.dimsWidth = m.rectWidth = file.rectWidth;
  m.dimsHeight = m.rectHeight = file.rectHeight;
  m.fabricFile = "fabric.tfab";
  output.programs = programs;
  output.layout = FabricLayout(sorted);
  return output;
}

//===----------------------------------------------------------------------===//
// Machine
//===----------------------------------------------------------------------===//

Machine::Machine(const Fabric &fabric, EmulatorOptions options)
    : output(fabric.build()), emu(output, std::move(options)) {}

uint32_t Machine::read32(unsigned x, unsigned y, uint32_t address) const {
  return read32s(x, y, address, 1).front();
}

std::vector<uint32_t> Machine::read32s(unsigned x, unsigned y, uint32_t address,
                                       unsigned count) const {
  std::vector<uint8_t> bytes(4 * count);
  REQUIRE(emu.readMemory(x, y, address, bytes) == MemoryStatus::Ok);
  std::vector<uint32_t> words(count);
  for (unsigned i = 0; i < count; ++i)
    for (unsigned byte = 0; byte < 4; ++byte)
      words[i] |= uint32_t(bytes[4 * i + byte]) << (8 * byte);
  return words;
}

std::vector<uint32_t> Machine::log(unsigned x, unsigned y) const {
  uint32_t count = read32(x, y, LogCount);
  REQUIRE(count < 1000);
  return read32s(x, y, LogBase, count);
}

std::vector<uint8_t> Machine::memory(unsigned x, unsigned y) const {
  std::vector<uint8_t> bytes(pe::MemoryBytes);
  REQUIRE(emu.readMemory(x, y, 0, bytes) == MemoryStatus::Ok);
  return bytes;
}

bool Machine::inject(unsigned x, unsigned y, unsigned color, uint32_t payload,
                     bool control) {
  return emu.getNetworkForRow(y).inject(
      x, y, Wavelet{payload, static_cast<uint8_t>(color), control, 0});
}

void Machine::call(unsigned x, unsigned y, uint32_t address,
                   std::vector<uint32_t> args) {
  std::string error;
  if (!emu.call(x, y, address, args, error))
    FAIL("call refused: " << error);
}

std::string Machine::fault() const {
  const std::optional<PEFault> &fault = emu.getFault();
  return fault ? formatFault(*fault) : std::string();
}

RowView viewRow(const Machine &m, RunStatus status, unsigned width) {
  RowView view;
  view.status = status;
  view.cycle = m.emu.getCycle();
  for (unsigned x = 0; x < width; ++x) {
    view.counters.push_back(m.emu.getCounters(x, 0));
    view.memories.push_back(m.memory(x, 0));
  }
  view.fault = m.fault();
  if (status == RunStatus::Stalled)
    view.deadlock = m.deadlock();
  return view;
}

Program dataAroundControl(uint16_t data) {
  Program p("left");
  std::vector<uint32_t> words;
  for (uint32_t word = 1; word <= 8; ++word)
    words.push_back(word);
  words.push_back(controlPayload(31, 0)); // at data + 32
  p.data(data, words);
  p.label("t10")
      .mem1d(Src0(0), 32, data, 4)
      .fabout(Dest(0), 4, 1, 1)
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)})
      .mem1d(Src0(1), 32, data + 32, 1)
      .fabout(Dest(1), 1, 1, 1, /*control=*/true)
      .emit(Opcode::Mov32V, {Dest(1), Src0(1)})
      .mem1d(Src0(0), 32, data + 16, 4)
      .emit(Opcode::Mov32V, {Dest(0), Src0(0)})
      .texit();
  return p.task(TaskKind::Local, 10, "t10").activateAtStart(10);
}

CarriedRun runCarrying(const Fabric &fabric, unsigned width, bool carry,
                       unsigned steps, uint64_t maxCycles) {
  EmulatorOptions options;
  options.carryTransfers = carry;
  Machine m(fabric, options);
  for (unsigned i = 0; i < steps; ++i)
    REQUIRE(m.emu.step());
  CarriedRun run;
  static_cast<RowView &>(run) = viewRow(m, m.run(maxCycles).status, width);
  run.carried = m.emu.getCarriedElements();
  return run;
}

CarriedRun runCarriedAndNot(const Fabric &fabric, unsigned width,
                            uint64_t maxCycles) {
  CarriedRun turns = runCarrying(fabric, width, false, 0, maxCycles);
  CarriedRun carried = runCarrying(fabric, width, true, 0, maxCycles);
  CHECK(turns.carried == 0);
  CHECK(carried.status == turns.status);
  CHECK(carried.cycle == turns.cycle);
  CHECK(carried.counters == turns.counters);
  CHECK(carried.memories == turns.memories);
  CHECK(carried.fault == turns.fault);
  CHECK(carried.deadlock == turns.deadlock);
  return carried;
}

ChainedRun runChainedAndNot(const Fabric &fabric, unsigned width) {
  EmulatorOptions options;
  options.chainOperations = false;
  Machine plain(fabric, options);
  RowView turns = viewRow(plain, plain.run().status, width);
  CHECK(plain.emu.getChainedOperations() == 0);
  Machine m(fabric);
  ChainedRun run;
  run.view = viewRow(m, m.run().status, width);
  CHECK(run.view == turns);
  run.chained = m.emu.getChainedOperations();
  run.turnsWithout = plain.emu.getTurns();
  run.turnsWith = m.emu.getTurns();
  return run;
}

uint64_t runChainedAndNotToEveryStop(const Fabric &fabric, unsigned width) {
  EmulatorOptions without;
  without.chainOperations = false;
  Machine whole(fabric, without);
  REQUIRE(whole.run().status == RunStatus::Idle);
  uint64_t end = whole.emu.getCycle();
  uint64_t chained = 0;
  for (uint64_t limit = 1; limit < end; ++limit) {
    INFO("limit " << limit);
    Machine plain(fabric, without);
    Machine m(fabric);
    RowView turns = viewRow(plain, plain.run(limit).status, width);
    RowView ahead = viewRow(m, m.run(limit).status, width);
    REQUIRE(turns.status == RunStatus::CycleLimit);
    CHECK(ahead == turns);
    CHECK(viewRow(m, m.run().status, width) ==
          viewRow(plain, plain.run().status, width));
    chained += m.emu.getChainedOperations();
  }
  return chained;
}

} // namespace machinetest

std::string Catch::StringMaker<tessera::emulator::PECounters>::convert(
    const tessera::emulator::PECounters &c) {
  return "{instructions " + std::to_string(c.instructions) + ", dsdElements " +
         std::to_string(c.dsdElements) + ", tasksRun " +
         std::to_string(c.tasksRun) + ", busyCycles " +
         std::to_string(c.busyCycles) + ", stallCycles " +
         std::to_string(c.stallCycles) + ", waveletsSent " +
         std::to_string(c.waveletsSent) + ", waveletsReceived " +
         std::to_string(c.waveletsReceived) + "}";
}

std::string Catch::StringMaker<tessera::emulator::RunStatus>::convert(
    tessera::emulator::RunStatus status) {
  switch (status) {
  case tessera::emulator::RunStatus::Idle:
    return "Idle";
  case tessera::emulator::RunStatus::Stalled:
    return "Stalled";
  case tessera::emulator::RunStatus::Faulted:
    return "Faulted";
  case tessera::emulator::RunStatus::CycleLimit:
    return "CycleLimit";
  case tessera::emulator::RunStatus::Reached:
    return "Reached";
  }
  return "?";
}

std::string Catch::StringMaker<tessera::emulator::PrintedLine>::convert(
    const tessera::emulator::PrintedLine &line) {
  return "{cycle " + std::to_string(line.cycle) + ", PE (" +
         std::to_string(line.pe.x) + ", " + std::to_string(line.pe.y) +
         "), \"" + line.text + "\"}";
}
