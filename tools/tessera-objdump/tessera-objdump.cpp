//===- tessera-objdump.cpp - Print PE program binaries and fabric files ---===//
//
// usage: tessera-objdump FILE [--pe=X,Y]
//
// A program binary (magic TPEB) prints its tables and disassembled code with
// source lines; a fabric file (TFAB) prints its geometry and placement, and
// with --pe that PE's program and router configuration.
//
//===----------------------------------------------------------------------===//

#include "tessera/Target/PEBinary/Dump.h"

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

using namespace tessera;

namespace {

int fail(const std::string &message) {
  std::cerr << "tessera-objdump: error: " << message << "\n";
  return 1;
}

/// "X,Y" as two 16-bit numbers.
std::optional<std::pair<uint16_t, uint16_t>> parsePE(const std::string &text) {
  unsigned x = 0, y = 0;
  char tail = 0;
  if (std::sscanf(text.c_str(), "%u,%u%c", &x, &y, &tail) != 2 ||
      x > 0xFFFF || y > 0xFFFF)
    return std::nullopt;
  return std::make_pair(uint16_t(x), uint16_t(y));
}

} // namespace

int main(int argc, char **argv) {
  std::string path;
  std::optional<std::pair<uint16_t, uint16_t>> pe;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg.rfind("--pe=", 0) == 0) {
      if (!(pe = parsePE(arg.substr(5))))
        return fail("invalid value '" + arg.substr(5) +
                    "' for '--pe': expected X,Y");
    } else if (arg == "--help" || arg == "-h") {
      std::cout << "usage: tessera-objdump FILE [--pe=X,Y]\n";
      return 0;
    } else if (!arg.empty() && arg[0] == '-') {
      return fail("unknown option '" + arg + "'");
    } else if (path.empty()) {
      path = arg;
    } else {
      return fail("more than one input file");
    }
  }
  if (path.empty())
    return fail("no input file");
  std::ifstream in(path, std::ios::binary);
  if (!in)
    return fail("cannot read '" + path + "'");
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(in)),
                             std::istreambuf_iterator<char>());
  auto hasMagic = [&](const std::array<uint8_t, 4> &magic) {
    return bytes.size() >= magic.size() &&
           std::equal(magic.begin(), magic.end(), bytes.begin());
  };
  if (hasMagic(pe::ProgramMagic)) {
    if (pe)
      return fail("'--pe' applies to fabric files; '" + path +
                  "' is a program binary");
    pe::ReadResult<pe::ProgramBinary> program = pe::readProgram(bytes);
    if (!program)
      return fail(path + ": " + program.error->str());
    std::cout << pe::dumpProgram(*program.value);
    return 0;
  }
  if (hasMagic(pe::FabricMagic)) {
    pe::ReadResult<pe::FabricFile> fabric = pe::readFabric(bytes);
    if (!fabric)
      return fail(path + ": " + fabric.error->str());
    if (!pe) {
      std::cout << pe::dumpFabric(*fabric.value);
      return 0;
    }
    std::cout << pe::dumpPE(*fabric.value, pe->first, pe->second);
    // The PE's symbols, from its program binary beside the fabric file.
    for (const pe::ProgramRun &run : fabric.value->placement) {
      if (run.y != pe->second || pe->first < run.x ||
          pe->first >= run.x + run.length ||
          run.program >= fabric.value->programs.size())
        continue;
      std::string dir = path.substr(0, path.find_last_of('/') + 1);
      std::string file = dir + fabric.value->programs[run.program];
      std::ifstream programIn(file, std::ios::binary);
      if (!programIn)
        return fail("cannot read '" + file + "', the program of PE (" +
                    std::to_string(pe->first) + ", " +
                    std::to_string(pe->second) + ")");
      std::vector<uint8_t> programBytes(
          (std::istreambuf_iterator<char>(programIn)),
          std::istreambuf_iterator<char>());
      pe::ReadResult<pe::ProgramBinary> program =
          pe::readProgram(programBytes);
      if (!program)
        return fail(file + ": " + program.error->str());
      std::cout << pe::dumpSymbols(*program.value);
    }
    return 0;
  }
  return fail("'" + path + "' is neither a program binary nor a fabric file");
}
