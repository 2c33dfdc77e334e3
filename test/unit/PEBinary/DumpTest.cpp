//===- DumpTest.cpp - listings of program binaries and fabric files -------===//

#include "tessera/Target/PEBinary/Dump.h"

#include <catch2/catch.hpp>

using namespace tessera::pe;
using tessera::target::Arch;
using tessera::target::TaskKind;

namespace {

ProgramBinary smallProgram() {
  ProgramBinary p;
  p.arch = Arch::WSE2;
  p.codeAddress = 0x0100;
  std::vector<Instruction> code = {
      {Opcode::MovI, {Operand::reg(1), Operand::imm(-7)}, {}},
      {Opcode::Activate, {Operand::imm(10)}, {}},
      {Opcode::TaskExit, {}, {}}};
  for (const Instruction &inst : code)
    REQUIRE_FALSE(encode(inst, p.code).has_value());
  p.dataAddress = 0x2000;
  p.data = {0, 0, 0x80, 0x3F};
  p.bssAddress = 0x3000;
  p.bssSize = 8;
  p.symbols = {
      {"y", 0x2000, SymbolKind::Data, ElemType::F32, 1, true, {}},
      {"run", 0x0100, SymbolKind::Function, ElemType::None, 0, false,
       {ElemType::I16}}};
  p.tasks = {{TaskKind::Local, 10, 0x0104}};
  p.queues = {{true, 1, 5}};
  p.startup = {{StartupKind::Block, BlockSpace::InputQueue, 3}};
  p.entryPoints = {1};
  p.files = {"pe.csl"};
  p.lines = {{0x0100, 0, 12, 3}, {0x0104, 0, 13, 5}};
  return p;
}

} // namespace

TEST_CASE("a program listing shows tables and code with source lines",
          "[pebinary][dump]") {
  ProgramBinary p = smallProgram();
  CHECK(dumpProgram(p) == "arch wse2, code 8 bytes at 0x0100, data 4 bytes at "
                          "0x2000, bss 8 bytes at 0x3000\n"
                          "\nsymbols:\n"
                          "  0x2000 y [1]f32 mutable\n"
                          "  0x0100 run fn(i16)\n"
                          "\ntasks:\n"
                          "  local 10 at 0x0104\n"
                          "\nqueues:\n"
                          "  output 1 color 5\n"
                          "\nstart-up:\n"
                          "  block iq 3\n"
                          "\ndata:\n"
                          "  0x2000: 00 00 80 3f\n"
                          "\ncode:\n"
                          "  0x0100: movi r1, -7 ; pe.csl:12:3\n"
                          "  0x0104: activate 10 ; pe.csl:13:5\n"
                          "  0x0106: texit\n");
}

TEST_CASE("undecodable code words still print", "[pebinary][dump]") {
  ProgramBinary p = smallProgram();
  p.code.push_back(0x0000); // opcode 0 is invalid
  p.lines.clear();
  std::string text = dumpProgram(p);
  CHECK(text.find(".word 0x0000 ; cannot decode: ") != std::string::npos);
}

TEST_CASE("a fabric listing and one PE's routes", "[pebinary][dump]") {
  FabricFile f;
  f.arch = Arch::WSE3;
  f.dimsWidth = 11;
  f.dimsHeight = 3;
  f.offsetX = 4;
  f.offsetY = 1;
  f.rectWidth = 4;
  f.rectHeight = 1;
  f.memcpy = true;
  f.channels = 1;
  f.programs = {"pe.bin", "edge.bin"};
  f.placement = {{0, 0, 3, 0}, {3, 0, 1, 1}};
  RouterConfig east;
  east.rx = portBit(Port::West);
  east.tx = portBit(Port::Ramp) | portBit(Port::East);
  east.positions[0] = SwitchPosition{false, Port::North};
  east.popMode = PopMode::AlwaysPop;
  f.routes = {{3, 0, 0, 4, east}};
  f.values = {{2, 0, "px", 0, {2, 0}}};
  CHECK(dumpFabric(f) == "arch wse3, fabric 11x3 at offsets 4,1, rectangle "
                         "4x1, memcpy with 1 channels\n"
                         "\nprograms:\n"
                         "  0 pe.bin\n"
                         "  1 edge.bin\n"
                         "\nplacement:\n"
                         "  (0, 0) +3: program 0\n"
                         "  (3, 0) +1: program 1\n"
                         "\nroutes: 1 runs, values: 1\n");
  CHECK(dumpPE(f, 2, 0) == "PE (2, 0): program 0 pe.bin\n"
                           "  color 3: rx [west] tx [east, ramp] pos1 tx "
                           "north always_pop\n"
                           "  value px+0: 2 bytes\n");
  CHECK(dumpPE(f, 4, 0) ==
        "error: PE (4, 0) is outside the 4x1 rectangle\n");
}

TEST_CASE("every routing PE's table, by row and column", "[pebinary][dump]") {
  FabricFile f;
  f.rectWidth = 4;
  f.rectHeight = 2;
  f.programs = {"a.tpeb", "b.tpeb"};
  f.placement = {{0, 0, 4, 0}, {0, 1, 2, 1}};
  RouterConfig toEast, fromWest;
  toEast.rx = portBit(Port::Ramp);
  toEast.tx = portBit(Port::East);
  fromWest.rx = portBit(Port::West);
  fromWest.tx = portBit(Port::Ramp);
  // Sorted by (color, y, x) as the format requires; printed by PE.
  f.routes = {{1, 0, 0, 1, toEast},
              {1, 1, 0, 1, fromWest},
              {2, 1, 0, 1, toEast},
              {2, 3, 1, 1, fromWest}};
  CHECK(dumpRoutes(f) == "PE (0, 0): program 0 a.tpeb\n"
                         "  color 1: rx [ramp] tx [east]\n"
                         "PE (1, 0): program 0 a.tpeb\n"
                         "  color 1: rx [west] tx [ramp]\n"
                         "  color 2: rx [ramp] tx [east]\n"
                         "PE (3, 1): no program\n"
                         "  color 2: rx [west] tx [ramp]\n");
  CHECK(dumpRoutes(FabricFile{}).empty());
}

TEST_CASE("a symbol table on its own", "[pebinary][dump]") {
  ProgramBinary p = smallProgram();
  CHECK(dumpSymbols(p) == "symbols:\n"
                          "  0x2000 y [1]f32 mutable\n"
                          "  0x0100 run fn(i16)\n");
}
