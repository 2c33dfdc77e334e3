//===- tessera-core.cpp - print a PE's core dump --------------------------===//
//
// usage: tessera-core OUT_DIR CORE_FILE [SYMBOL]...
//
// Prints what `tessera-run --core-dump` wrote of a PE (docs/Debugging.md
// "Core dumps"): why and when, pc with its source line, the main thread,
// registers, task flags, operations in flight and queued wavelets; then
// each SYMBOL of the PE's program (exported, or any global variable of a
// program compiled without -g0) as `--dump` prints it.
//
//===----------------------------------------------------------------------===//

#include "SymbolText.h"

#include "tessera/Emulator/DecodedProgram.h"
#include "tessera/Emulator/OutputDirectory.h"
#include "tessera/Record/CoreDump.h"
#include "tessera/Support/Format.h"

#include <cstdio>
#include <fstream>
#include <iostream>
#include <sstream>

using namespace tessera;
using namespace tessera::emulator;

namespace {

int fail(const std::string &message) {
  std::cerr << "tessera-core: error: " << message << "\n";
  return 1;
}

std::string hex(uint64_t value, int digits) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%0*llx", digits,
                static_cast<unsigned long long>(value));
  return text;
}

void printState(const CoreDump &dump, const LoadedProgram &program) {
  const PECoreState &s = dump.state;
  std::cout << "PE (" << s.pe.x << ", " << s.pe.y << ") '" << s.program
            << "' at cycle " << formatThousands(dump.cycle) << ": "
            << dump.reason << "\n";
  DecodedProgram code(program.binary);
  std::string where = formatLocation(code.getLocation(s.pc));
  std::cout << "pc " << hex(s.pc, 4)
            << (where.empty() ? "" : " (" + where + ")") << ", main thread "
            << s.mainThread << (s.activity.empty() ? "" : " in " + s.activity)
            << "\n";
  for (unsigned r = 0; r < s.registers.size(); ++r)
    std::cout << (r % 4 ? " " : "") << "r" << r << (r < 10 ? " " : "") << " "
              << hex(s.registers[r], 8) << (r % 4 == 3 ? "\n" : "");
  std::cout << "tasks activated " << hex(s.activated, 16) << ", blocked "
            << hex(s.blocked, 16) << "\n";
  for (const PECoreState::Operation &op : s.operations) {
    std::cout << (op.microthread < 0
                      ? std::string("main thread")
                      : "microthread " + std::to_string(op.microthread))
              << ": " << op.mnemonic << ", " << op.done << " of "
              << (op.length == UINT64_MAX ? std::string("unbounded")
                                          : std::to_string(op.length))
              << " elements done\n";
  }
  for (const auto &[color, count] : s.queues)
    std::cout << "color " << unsigned(color) << ": " << count << " wavelet"
              << (count == 1 ? "" : "s") << " delivered, not taken\n";
}

} // namespace

int main(int argc, char **argv) {
  if (argc >= 2 &&
      (std::string(argv[1]) == "--help" || std::string(argv[1]) == "-h")) {
    std::cout << "usage: tessera-core OUT_DIR CORE_FILE [SYMBOL]...\n";
    return 0;
  }
  if (argc < 3)
    return fail("expected an output directory and a core file (usage: "
                "tessera-core OUT_DIR CORE_FILE [SYMBOL]...)");
  std::string directory = argv[1], path = argv[2];
  std::ifstream file(path);
  if (!file)
    return fail("cannot read '" + path + "'");
  std::stringstream text;
  text << file.rdbuf();
  std::string error;
  std::optional<CoreDump> dump = parseCoreDump(text.str(), path, error);
  if (!dump)
    return fail(error);
  LoadResult loaded = loadOutputDirectory(directory);
  if (!loaded)
    return fail(loaded.error);
  const PECoreState &s = dump->state;
  const LoadedProgram *program = loaded.value->programAt(s.pe.x, s.pe.y);
  if (!program || program->name != s.program)
    return fail("'" + path + "' is a dump of program '" + s.program +
                "' on PE (" + std::to_string(s.pe.x) + ", " +
                std::to_string(s.pe.y) + "), which '" + directory +
                "' does not run there");
  printState(*dump, *program);
  int status = 0;
  for (int i = 3; i < argc; ++i) {
    std::string name = argv[i];
    std::optional<pe::Symbol> symbol = findReadableData(program->binary, name);
    if (!symbol) {
      std::cerr << "tessera-core: error: '" << s.program
                << "' has no data named '" << name
                << "' (an exported symbol, or a global variable of a "
                   "program compiled without -g0)\n";
      status = 1;
      continue;
    }
    uint64_t size = getSymbolBytes(*symbol);
    if (symbol->address + size > dump->memory.size()) {
      std::cerr << "tessera-core: error: '" << name
                << "' lies outside the memory\n";
      status = 1;
      continue;
    }
    std::cout << name << "@(" << s.pe.x << "," << s.pe.y << ") ="
              << formatSymbolValue(
                     *symbol, std::span<const uint8_t>(
                                  dump->memory.data() + symbol->address, size))
              << "\n";
  }
  return status;
}
