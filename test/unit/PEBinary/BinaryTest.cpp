//===- BinaryTest.cpp - program binaries and fabric files -----------------===//

#include "tessera/Target/PEBinary/Binary.h"

#include <catch2/catch.hpp>

#include <random>

using namespace tessera::pe;
using tessera::target::Arch;
using tessera::target::TaskKind;

namespace {

ProgramBinary sampleProgram() {
  ProgramBinary p;
  p.arch = Arch::WSE3;
  p.codeAddress = 0x0100;
  std::vector<Instruction> code = {
      {Opcode::MovI, {Operand::reg(1), Operand::imm(-7)}, {}},
      {Opcode::Activate, {Operand::imm(10)}, {}},
      {Opcode::TaskExit, {}, {}},
      {Opcode::Ret, {}, {}}};
  for (const Instruction &inst : code)
    REQUIRE_FALSE(encode(inst, p.code).has_value());
  p.dataAddress = 0x2000;
  p.data = {1, 2, 3, 4, 0xFF};
  p.bssAddress = 0x3000;
  p.bssSize = 0x100;
  p.symbols = {
      {"y", 0x2000, SymbolKind::Data, ElemType::F32, 1, true, {}},
      {"compute",
       0x0100,
       SymbolKind::Function,
       ElemType::None,
       0,
       false,
       {ElemType::I16, ElemType::F32}},
      {"buf", 0x3000, SymbolKind::Data, ElemType::U16, 128, false, {}}};
  p.tasks = {{TaskKind::Local, 10, 0x0104},
             {TaskKind::Data, 2, 0x0100},
             {TaskKind::Control, 63, 0x0106}};
  p.queues = {{false, 2, 5}, {true, 7, 23}};
  p.startup = {{StartupKind::Block, BlockSpace::InputQueue, 3},
               {StartupKind::Activate, BlockSpace::Task, 10},
               {StartupKind::Call, BlockSpace::Task, 0x0100}};
  p.entryPoints = {1};
  p.files = {"pe.csl", "lib/util.csl"};
  p.lines = {
      {0x0100, 0, 12, 3}, {0x0104, 1, 4000000, 65535}, {0x0104, 0, 13, 1}};
  p.variables = {{"y", 0x2000, ElemType::F32, 1},
                 {"sys.state", 0x3000, ElemType::U16, 128}};
  return p;
}

FabricFile sampleFabric() {
  FabricFile f;
  f.arch = Arch::WSE2;
  f.dimsWidth = 757;
  f.dimsHeight = 996;
  f.offsetX = 4;
  f.offsetY = 1;
  f.rectWidth = 700;
  f.rectHeight = 900;
  f.memcpy = true;
  f.channels = 16;
  f.programs = {"pe_left.tpe", "pe.tpe"};
  for (uint16_t y = 0; y < 900; ++y) {
    f.placement.push_back({0, y, 1, 0});
    f.placement.push_back({1, y, 699, 1});
  }
  RouterConfig plain;
  plain.rx = portBit(Port::West);
  plain.tx = portBit(Port::Ramp) | portBit(Port::East);
  RouterConfig fancy = plain;
  fancy.positions = {SwitchPosition{true, Port::North},
                     SwitchPosition{false, Port::South}, std::nullopt};
  fancy.currentPosition = 2;
  fancy.ringMode = true;
  fancy.popMode = PopMode::PopOnAdvance;
  fancy.teardown = true;
  fancy.colorSwapX = true;
  fancy.filter.kind = Filter::Kind::Counter;
  fancy.filter.initCounter = 1;
  fancy.filter.maxCounter = 2;
  fancy.filter.limit1 = 3;
  fancy.filter.countData = true;
  fancy.filter.fastMode = true;
  RouterConfig ranged = plain;
  ranged.filter.kind = Filter::Kind::Range;
  ranged.filter.min = 0;
  ranged.filter.max = 0xFFFF;
  f.routes = {{3, 0, 0, 700, plain},
              {3, 0, 1, 5, fancy},
              {3, 10, 1, 1, ranged},
              {23, 0, 899, 1, fancy}};
  f.values = {{0, 0, "memcpy_params", 2, {0xAA, 0xBB}},
              {699, 899, "id", 0, {}}};
  return f;
}

uint32_t read32(const std::vector<uint8_t> &b, size_t at) {
  return b[at] | b[at + 1] << 8 | b[at + 2] << 16 | uint32_t(b[at + 3]) << 24;
}
void write16(std::vector<uint8_t> &b, size_t at, uint16_t v) {
  b[at] = uint8_t(v);
  b[at + 1] = uint8_t(v >> 8);
}
void write32(std::vector<uint8_t> &b, size_t at, uint32_t v) {
  write16(b, at, uint16_t(v));
  write16(b, at + 2, uint16_t(v >> 16));
}
void fixChecksum(std::vector<uint8_t> &b) {
  write32(b, ChecksumOffset, crc32(std::span(b).subspan(HeaderSize)));
}
/// Byte offset of the body of directory entry `index`.
size_t sectionOffset(const std::vector<uint8_t> &b, size_t index) {
  return read32(b, HeaderSize + index * DirectoryEntrySize + 4);
}
// Directory order the writer uses.
constexpr size_t HeaderIdx = 0, CodeIdx = 1, SymbolsIdx = 4, TasksIdx = 5,
                 LinesIdx = 10, VariablesIdx = 11;

std::string programError(const std::vector<uint8_t> &b) {
  ReadResult<ProgramBinary> r = readProgram(b);
  return r ? "ok" : r.error->str();
}
std::string fabricError(const std::vector<uint8_t> &b) {
  ReadResult<FabricFile> r = readFabric(b);
  return r ? "ok" : r.error->str();
}

} // namespace

TEST_CASE("crc32 matches the IEEE check value", "[binary]") {
  std::string text = "123456789";
  CHECK(crc32({reinterpret_cast<const uint8_t *>(text.data()), text.size()}) ==
        0xCBF43926u);
}

TEST_CASE("a program binary round-trips", "[binary]") {
  ProgramBinary p = sampleProgram();
  std::vector<uint8_t> bytes = writeProgram(p);
  CHECK(std::equal(ProgramMagic.begin(), ProgramMagic.end(), bytes.begin()));
  ReadResult<ProgramBinary> r = readProgram(bytes);
  INFO((r.error ? r.error->str() : std::string()));
  REQUIRE(r);
  CHECK(*r.value == p);
  CHECK(r.value->getMemoryBytes() == p.code.size() * 2 + 5 + 0x100);
  // Writing is deterministic.
  CHECK(writeProgram(*r.value) == bytes);
}

TEST_CASE("a separate control task table round-trips and is checked",
          "[binary]") {
  ProgramBinary p = sampleProgram();
  p.controlTableInstructions = 8;
  p.controlTableStride = 3;
  p.queues = {{false, 2, 5, 7}, {true, 7, 23, 0}};
  p.startup.push_back({StartupKind::Block, BlockSpace::ControlTask, 63});
  const std::vector<uint8_t> good = writeProgram(p);
  ReadResult<ProgramBinary> r = readProgram(good);
  INFO((r.error ? r.error->str() : std::string()));
  REQUIRE(r);
  CHECK(*r.value == p);
  CHECK(r.value->hasSeparateControlTable());

  size_t header = sectionOffset(good, HeaderIdx);
  CHECK(good[header + 1] == 0x38); // stride 3 in the high nibble, 8 below
  std::vector<uint8_t> b = good;
  b[header + 1] = 0x33;
  fixChecksum(b);
  CHECK(programError(b) == "offset " + std::to_string(header + 1) +
                               ": control task table entries hold 2, 4 or 8 "
                               "instructions, not 3");
  b[header + 1] = 0x88;
  fixChecksum(b);
  CHECK(programError(b) == "offset " + std::to_string(header + 1) +
                               ": control task table stride 8 is out of range "
                               "1..7");
  b[header + 1] = 0x08;
  fixChecksum(b);
  CHECK(programError(b) == "offset " + std::to_string(header + 1) +
                               ": control task table stride 0 is out of range "
                               "1..7");
  b = good;
  b[header] = 0; // wse2
  fixChecksum(b);
  CHECK(programError(b) == "offset " + std::to_string(header + 1) +
                               ": a separate control task table needs wse3");

  // The queues' fourth byte: the first queue's ctrl_table_id.
  constexpr size_t QueuesIdx = 6;
  size_t queues = sectionOffset(good, QueuesIdx) + 4;
  CHECK(good[queues + 3] == 7);
  b = good;
  b[queues + 3] = 9;
  fixChecksum(b);
  CHECK(programError(b) == "offset " + std::to_string(queues + 3) +
                               ": ctrl_table_id 9 is out of range 0..7");
  b = good;
  b[queues + 4 + 3] = 1; // the output queue
  fixChecksum(b);
  CHECK(programError(b) == "offset " + std::to_string(queues + 7) +
                               ": ctrl_table_id 1 needs an input queue of a "
                               "program with a separate control task table");
  b = good;
  b[header + 1] = 0; // no table
  fixChecksum(b);
  CHECK(programError(b) == "offset " + std::to_string(queues + 3) +
                               ": ctrl_table_id 7 needs an input queue of a "
                               "program with a separate control task table");
}

TEST_CASE("an empty program round-trips", "[binary]") {
  ProgramBinary p;
  std::vector<uint8_t> bytes = writeProgram(p);
  ReadResult<ProgramBinary> r = readProgram(bytes);
  REQUIRE(r);
  CHECK(*r.value == p);
}

TEST_CASE("a fabric file round-trips", "[binary]") {
  FabricFile f = sampleFabric();
  std::vector<uint8_t> bytes = writeFabric(f);
  ReadResult<FabricFile> r = readFabric(bytes);
  INFO((r.error ? r.error->str() : std::string()));
  REQUIRE(r);
  CHECK(*r.value == f);
  CHECK(writeFabric(*r.value) == bytes);
}

TEST_CASE("each corruption of a program binary has its error", "[binary]") {
  const std::vector<uint8_t> good = writeProgram(sampleProgram());
  std::vector<uint8_t> b;

  CHECK(programError({}) == "offset 0: truncated header: 0 bytes of 16");
  CHECK(programError(std::vector<uint8_t>(good.begin(), good.begin() + 9)) ==
        "offset 9: truncated header: 9 bytes of 16");

  b = good;
  b[1] = 'X';
  CHECK(programError(b) == "offset 0: bad magic: not a Tessera program binary");
  CHECK(programError(writeFabric(sampleFabric())) ==
        "offset 0: bad magic: not a Tessera program binary");

  b = good;
  write16(b, 4, 2);
  CHECK(programError(b) == "offset 4: unsupported format version 2." +
                               std::to_string(FormatMinorVersion) +
                               " (this "
                               "reader reads 1.x)");

  // A newer minor version is read.
  b = good;
  write16(b, 6, 7);
  CHECK(programError(b) == "ok");

  b = good;
  b[b.size() - 1] ^= 0x01;
  CHECK(
      programError(b) ==
      "offset 12: checksum mismatch: stored " +
          [&] {
            char s[16];
            std::snprintf(s, sizeof s, "0x%x", read32(good, 12));
            return std::string(s);
          }() +
          ", computed " +
          [&] {
            char s[16];
            std::snprintf(s, sizeof s, "0x%x",
                          crc32(std::span(b).subspan(HeaderSize)));
            return std::string(s);
          }());

  // The directory claims more sections than the file holds.
  b = good;
  write16(b, 8, 5000);
  fixChecksum(b);
  CHECK(programError(b) ==
        "offset 16: truncated section directory: 5000 sections need 60016 "
        "bytes, the file has " +
            std::to_string(good.size()));

  // The code section runs past the end of the file.
  b = good;
  size_t codeEntry = HeaderSize + CodeIdx * DirectoryEntrySize;
  write32(b, codeEntry + 8, 100000);
  fixChecksum(b);
  CHECK(programError(b) == "offset " + std::to_string(codeEntry + 4) +
                               ": truncated section: section kind 2 at " +
                               std::to_string(sectionOffset(good, CodeIdx)) +
                               " of 100000 bytes lies outside the file's " +
                               std::to_string(good.size()) + " bytes");

  // The code section is made to cover the data section too.
  b = good;
  write32(b, codeEntry + 8, read32(good, codeEntry + 8) + 2);
  fixChecksum(b);
  CHECK(programError(b) ==
        "offset " + std::to_string(sectionOffset(good, CodeIdx + 1)) +
            ": overlapping sections: kind 2 and kind 3");

  // Two sections of the same kind.
  b = good;
  write16(b, HeaderSize + TasksIdx * DirectoryEntrySize, 5);
  fixChecksum(b);
  CHECK(programError(b) ==
        "offset " + std::to_string(HeaderSize + TasksIdx * DirectoryEntrySize) +
            ": duplicate section kind 5");

  // A required section is missing.
  b = good;
  write16(b, HeaderSize + CodeIdx * DirectoryEntrySize, 99);
  fixChecksum(b);
  CHECK(programError(b) == "offset 16: missing section 'code'");

  // A table count larger than its section can hold.
  b = good;
  size_t symbols = sectionOffset(good, SymbolsIdx);
  write32(b, symbols, 0x10000000);
  fixChecksum(b);
  CHECK(programError(b) ==
        "offset " + std::to_string(symbols) +
            ": count 268435456 in section 'symbols' is out of range: " +
            std::to_string(read32(good, HeaderSize + SymbolsIdx * 12 + 8) - 4) +
            " bytes left for entries of at least 14");

  // A count that the section cannot hold, found before any allocation.
  b = good;
  size_t linesEntry = HeaderSize + LinesIdx * DirectoryEntrySize;
  size_t lines = sectionOffset(good, LinesIdx);
  write32(b, linesEntry + 8, 4 + 2 * 12 + 6);
  fixChecksum(b);
  CHECK(programError(b) == "offset " + std::to_string(lines) +
                               ": count 3 in section 'lines' is out of "
                               "range: 30 bytes left for entries of at least "
                               "12");

  // An entry cut short: the third string loses two of its three bytes.
  b = good;
  size_t stringsEntry = HeaderSize + 3 * DirectoryEntrySize;
  size_t strings = sectionOffset(good, 3);
  write32(b, stringsEntry + 8, 4 + (2 + 1) + (2 + 7) + 2 + 1);
  fixChecksum(b);
  CHECK(programError(b) == "offset " + std::to_string(strings + 18) +
                               ": truncated section 'strings': needs 3 more "
                               "bytes, has 1");

  // Code placed so that it ends beyond 48 KiB.
  b = good;
  size_t header = sectionOffset(good, HeaderIdx);
  write16(b, header + 2, 0xBFFE);
  fixChecksum(b);
  CHECK(programError(b) ==
        "offset " + std::to_string(header + 2) +
            ": code at 0xbffe of 10 bytes ends beyond the 49152 bytes of PE "
            "memory");

  // Data and bss overlap in PE memory.
  b = good;
  write16(b, header + 6, 0x2002);
  fixChecksum(b);
  CHECK(programError(b) == "offset " + std::to_string(header + 6) +
                               ": data and bss overlap in PE memory");

  // A data symbol reaching past the end of memory.
  b = good;
  write16(b, symbols + 4 + 4, 0xBFFE);
  fixChecksum(b);
  CHECK(programError(b) == "offset " + std::to_string(symbols + 4 + 4) +
                               ": symbol 'y' at 0xbffe ends beyond the 49152 "
                               "bytes of PE memory");

  // A task entry outside the code.
  b = good;
  size_t tasks = sectionOffset(good, TasksIdx);
  write16(b, tasks + 4 + 2, 0x4000);
  fixChecksum(b);
  CHECK(programError(b) == "offset " + std::to_string(tasks + 6) +
                               ": task entry address 0x4000 is not an "
                               "instruction address in the code");

  // A task ID beyond the table.
  b = good;
  b[tasks + 5] = 64;
  fixChecksum(b);
  CHECK(programError(b) == "offset " + std::to_string(tasks + 5) +
                               ": task ID 64 is out of range 0..63");

  // A line entry naming a file that does not exist.
  b = good;
  write16(b, lines + 4 + 2, 9);
  fixChecksum(b);
  CHECK(programError(b) == "offset " + std::to_string(lines + 6) +
                               ": file index 9 is out of range (2 files)");

  // Variables: an unknown element type, a nonzero reserved byte, and one
  // that ends beyond PE memory (the second: 128 u16 from 0xBF80).
  size_t variables = sectionOffset(good, VariablesIdx);
  b = good;
  b[variables + 4 + 6] = 0;
  fixChecksum(b);
  CHECK(programError(b) == "offset " + std::to_string(variables + 10) +
                               ": unknown element type 0");
  b = good;
  b[variables + 4 + 7] = 1;
  fixChecksum(b);
  CHECK(programError(b) == "offset " + std::to_string(variables + 11) +
                               ": reserved field in section 'variables' is "
                               "not zero");
  b = good;
  write16(b, variables + 4 + 12 + 4, 0xBF80);
  fixChecksum(b);
  CHECK(programError(b) == "offset " + std::to_string(variables + 20) +
                               ": variable 'sys.state' at 0xbf80 ends beyond "
                               "the 49152 bytes of PE memory");
}

TEST_CASE("each corruption of a fabric file has its error", "[binary]") {
  FabricFile f = sampleFabric();
  auto error = [](const FabricFile &file) {
    return fabricError(writeFabric(file));
  };
  CHECK(fabricError(writeProgram(sampleProgram())) ==
        "offset 0: bad magic: not a Tessera fabric file");

  FabricFile g = f;
  g.rectWidth = 754;
  CHECK(error(g).ends_with(": the rectangle 754x900 at (4,1) does not fit "
                           "the fabric 757x996"));
  g = f;
  g.placement[1].length = 700;
  CHECK(error(g).ends_with(": run of 700 PEs at (1,0) leaves the rectangle"));
  g = f;
  g.placement[1].x = 0;
  CHECK(error(g).ends_with(
      ": placement runs overlap or are not sorted by (y, x)"));
  g = f;
  g.placement[0].program = 2;
  CHECK(error(g).ends_with(": program index 2 is out of range (2 programs)"));
  g = f;
  g.routes[1].y = 0;
  CHECK(error(g).ends_with(
      ": route runs overlap or are not sorted by (color, y, x)"));
  g = f;
  g.routes[3].color = 24;
  CHECK(error(g).ends_with(": color 24 is not routable"));
  g = f;
  g.arch = Arch::WSE3;
  CHECK(error(g).ends_with(": color swap on wse3"));
  g = f;
  g.routes[0].config.currentPosition = 1;
  CHECK(error(g).ends_with(": current switch position 1 is not filled"));
  g = f;
  g.values[0].x = 700;
  CHECK(error(g).ends_with(": PE (700,0) is outside the rectangle"));

  // The exact offset of one of them.
  std::vector<uint8_t> b = writeFabric(f);
  size_t routes = read32(b, HeaderSize + 4 * DirectoryEntrySize + 4);
  b[routes + 4 + 24 + 1] = 0x40;
  fixChecksum(b);
  CHECK(fabricError(b) == "offset " + std::to_string(routes + 4 + 24 + 1) +
                              ": direction set has unknown bits");
}

TEST_CASE("corrupted files never crash the readers", "[binary][fuzz]") {
  std::mt19937 rng(7);
  const std::vector<uint8_t> program = writeProgram(sampleProgram());
  FabricFile small = sampleFabric();
  small.placement.resize(10);
  const std::vector<uint8_t> fabric = writeFabric(small);
  size_t failures = 0;
  for (int i = 0; i < 4000; ++i) {
    const std::vector<uint8_t> &good = i % 2 ? program : fabric;
    std::vector<uint8_t> b = good;
    std::uniform_int_distribution<size_t> at(0, b.size() - 1);
    int edits = 1 + i % 4;
    for (int e = 0; e < edits; ++e)
      b[at(rng)] = uint8_t(rng());
    if (i % 5 == 0)
      b.resize(at(rng));
    // Mostly keep the checksum valid, so the section parsers see the damage.
    if (i % 7 && b.size() >= HeaderSize)
      fixChecksum(b);
    if (i % 2) {
      ReadResult<ProgramBinary> r = readProgram(b);
      if (!r) {
        ++failures;
        REQUIRE_FALSE(r.error->message.empty());
        REQUIRE(r.error->offset <= b.size());
      }
    } else {
      ReadResult<FabricFile> r = readFabric(b);
      if (!r) {
        ++failures;
        REQUIRE_FALSE(r.error->message.empty());
        REQUIRE(r.error->offset <= b.size());
      }
    }
  }
  CHECK(failures > 1000);
}
