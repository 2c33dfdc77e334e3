//===- tessera-run.cpp - run a compiled program on the emulator -----------===//
//
// usage: tessera-run OUT_DIR [--max-cycles=N] [--seed=N] [--dump=X,Y,SYMBOL]
//
// Loads what `cslc -o OUT_DIR` wrote, runs it on the fabric emulator until
// nothing is left to do (programs that need no host: their tasks are
// activated at start-up), prints what PEs printed, the counters and the
// values asked for with --dump. docs/tessera-run.md.
//
//===----------------------------------------------------------------------===//

#include "tessera/Emulator/Emulator.h"
#include "tessera/Support/Float16.h"
#include "tessera/Support/Format.h"

#include <bit>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

using namespace tessera;
using namespace tessera::emulator;

namespace {

constexpr uint64_t DefaultMaxCycles = 100'000'000;

int usageError(const std::string &message) {
  std::cerr << "tessera-run: error: " << message << "\n";
  return 1;
}

std::optional<uint64_t> parseNumber(const std::string &text) {
  if (text.empty() || text.size() > 19 ||
      text.find_first_not_of("0123456789") != std::string::npos)
    return std::nullopt;
  return std::stoull(text);
}

struct DumpRequest {
  unsigned x = 0, y = 0;
  std::string symbol;
};

/// "X,Y,SYMBOL".
std::optional<DumpRequest> parseDump(const std::string &text) {
  size_t first = text.find(',');
  size_t second =
      first == std::string::npos ? first : text.find(',', first + 1);
  if (second == std::string::npos)
    return std::nullopt;
  std::optional<uint64_t> x = parseNumber(text.substr(0, first));
  std::optional<uint64_t> y =
      parseNumber(text.substr(first + 1, second - first - 1));
  std::string symbol = text.substr(second + 1);
  if (!x || !y || *x > 0xFFFF || *y > 0xFFFF || symbol.empty())
    return std::nullopt;
  return DumpRequest{unsigned(*x), unsigned(*y), symbol};
}

/// One element as text: integers in decimal, floats with enough digits to
/// tell them apart.
std::string formatElement(pe::ElemType type, const uint8_t *bytes) {
  uint64_t raw = 0;
  unsigned size = pe::getElemTypeBytes(type);
  for (unsigned i = 0; i < size; ++i)
    raw |= uint64_t(bytes[i]) << (8 * i);
  char buffer[64];
  switch (type) {
  case pe::ElemType::I8:
    return std::to_string(int8_t(raw));
  case pe::ElemType::I16:
    return std::to_string(int16_t(raw));
  case pe::ElemType::I32:
    return std::to_string(int32_t(raw));
  case pe::ElemType::I64:
    return std::to_string(int64_t(raw));
  case pe::ElemType::Bool:
    return raw ? "true" : "false";
  case pe::ElemType::F16:
    std::snprintf(buffer, sizeof buffer, "%.5g",
                  double(halfBitsToFloat(uint16_t(raw))));
    return buffer;
  case pe::ElemType::BF16:
    std::snprintf(buffer, sizeof buffer, "%.4g",
                  double(bfloat16BitsToFloat(uint16_t(raw))));
    return buffer;
  case pe::ElemType::F32:
    std::snprintf(buffer, sizeof buffer, "%.9g",
                  double(std::bit_cast<float>(uint32_t(raw))));
    return buffer;
  default:
    return std::to_string(raw);
  }
}

/// Prints `name` of PE (x, y); false with a message if it cannot.
bool dump(const Emulator &emulator, const LoadedOutput &output,
          const DumpRequest &request) {
  std::string where = "PE (" + std::to_string(request.x) + ", " +
                      std::to_string(request.y) + ")";
  if (!output.programAt(request.x, request.y)) {
    std::cerr << "tessera-run: error: --dump: " << where
              << " runs no program\n";
    return false;
  }
  std::optional<pe::Symbol> symbol = findReadableData(
      output.programAt(request.x, request.y)->binary, request.symbol);
  if (!symbol) {
    std::cerr << "tessera-run: error: --dump: " << where << " ('"
              << output.programAt(request.x, request.y)->name
              << "') has no data named '" << request.symbol
              << "' (an exported symbol, or a global variable of a program "
                 "compiled without -g0)\n";
    return false;
  }
  unsigned size = pe::getElemTypeBytes(symbol->elemType);
  std::vector<uint8_t> bytes(getSymbolBytes(*symbol));
  if (emulator.readMemory(request.x, request.y, symbol->address, bytes) !=
      MemoryStatus::Ok) {
    std::cerr << "tessera-run: error: --dump: '" << request.symbol
              << "' lies outside the memory of " << where << "\n";
    return false;
  }
  std::cout << request.symbol << "@(" << request.x << "," << request.y << ") =";
  bool array = symbol->count != 1;
  if (array)
    std::cout << " [";
  for (uint32_t i = 0; i < symbol->count; ++i)
    std::cout << (i       ? ", "
                  : array ? ""
                          : " ")
              << formatElement(symbol->elemType, bytes.data() + i * size);
  std::cout << (array ? "]\n" : "\n");
  return true;
}

void printCounters(const Emulator &emulator) {
  PECounters c = emulator.getCounters();
  const NetworkCounters &n = emulator.getNetwork().getCounters();
  std::cout << "cycles: " << formatThousands(emulator.getCycle()) << "\n"
            << "instructions: " << formatThousands(c.instructions) << "\n"
            << "dsd elements: " << formatThousands(c.dsdElements) << "\n"
            << "tasks run: " << formatThousands(c.tasksRun) << "\n"
            << "main thread busy cycles: " << formatThousands(c.busyCycles)
            << ", stalled: " << formatThousands(c.stallCycles) << "\n"
            << "wavelets sent: " << formatThousands(c.waveletsSent)
            << ", received: " << formatThousands(c.waveletsReceived)
            << ", link hops: " << formatThousands(n.hops) << "\n";
}

} // namespace

int main(int argc, char **argv) {
  std::string directory;
  uint64_t maxCycles = DefaultMaxCycles;
  EmulatorOptions options;
  std::vector<DumpRequest> dumps;
  std::string tracePath;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto value = [&](std::string_view flag) -> std::optional<std::string> {
      if (arg.rfind(std::string(flag) + "=", 0) == 0)
        return arg.substr(flag.size() + 1);
      return std::nullopt;
    };
    if (arg == "--help" || arg == "-h") {
      std::cout << "usage: tessera-run OUT_DIR [--max-cycles=N] [--seed=N] "
                   "[--picker=round-robin|lowest-id] [--dump=X,Y,SYMBOL]... "
                   "[--trace=FILE]\n";
      return 0;
    }
    if (std::optional<std::string> v = value("--max-cycles")) {
      std::optional<uint64_t> n = parseNumber(*v);
      if (!n || *n == 0)
        return usageError("invalid value '" + *v +
                          "' for '--max-cycles': expected a positive number");
      maxCycles = *n;
    } else if (std::optional<std::string> v = value("--seed")) {
      std::optional<uint64_t> n = parseNumber(*v);
      if (!n)
        return usageError("invalid value '" + *v +
                          "' for '--seed': expected a number");
      options.shuffleSeed = *n;
    } else if (std::optional<std::string> v = value("--dump")) {
      std::optional<DumpRequest> request = parseDump(*v);
      if (!request)
        return usageError("invalid value '" + *v +
                          "' for '--dump': expected X,Y,SYMBOL");
      dumps.push_back(*request);
    } else if (std::optional<std::string> v = value("--picker")) {
      if (*v == "round-robin")
        options.picker = PickerPolicy::RoundRobin;
      else if (*v == "lowest-id")
        options.picker = PickerPolicy::LowestID;
      else
        return usageError("invalid value '" + *v +
                          "' for '--picker': expected round-robin or "
                          "lowest-id");
    } else if (std::optional<std::string> v = value("--trace")) {
      if (v->empty())
        return usageError("'--trace' needs a file name ('-' for standard "
                          "output)");
      tracePath = *v;
    } else if (!arg.empty() && arg[0] == '-') {
      return usageError("unknown option '" + arg + "'");
    } else if (directory.empty()) {
      directory = arg;
    } else {
      return usageError("more than one output directory");
    }
  }
  if (directory.empty())
    return usageError("no output directory (usage: tessera-run OUT_DIR)");

  LoadResult loaded = loadOutputDirectory(directory);
  if (!loaded)
    return usageError(loaded.error);
  const LoadedOutput &output = *loaded.value;
  for (const DumpRequest &request : dumps)
    if (request.x >= output.layout.getWidth() ||
        request.y >= output.layout.getHeight())
      return usageError("--dump: PE (" + std::to_string(request.x) + ", " +
                        std::to_string(request.y) +
                        ") is outside the rectangle (" +
                        std::to_string(output.layout.getWidth()) + "x" +
                        std::to_string(output.layout.getHeight()) + ")");

  std::ofstream traceFile;
  if (tracePath == "-") {
    options.trace = &std::cout;
  } else if (!tracePath.empty()) {
    traceFile.open(tracePath);
    if (!traceFile)
      return usageError("cannot write the trace to '" + tracePath + "'");
    options.trace = &traceFile;
  }
  options.onPrint = [](const PrintedLine &line) {
    std::cout << "[" << line.pe.x << "," << line.pe.y << "] " << line.text
              << "\n";
  };
  Emulator emulator(output, options);
  RunOutcome outcome = emulator.run(maxCycles);
  int status = 0;
  std::cout.flush(); // PEs' lines first, then the outcome
  switch (outcome.status) {
  case RunStatus::Idle:
    std::cout << "finished: idle after " << formatThousands(emulator.getCycle())
              << " cycles\n";
    break;
  case RunStatus::Faulted:
    std::cerr << "tessera-run: error: " << formatFault(*emulator.getFault())
              << "\n";
    status = 2;
    break;
  case RunStatus::Stalled:
    std::cerr << "tessera-run: error: "
              << formatDeadlock(emulator.getDeadlock());
    status = 2;
    break;
  case RunStatus::Reached: // run() is given no condition
  case RunStatus::CycleLimit:
    std::cerr << "tessera-run: error: stopped at the cycle limit ("
              << formatThousands(maxCycles)
              << " cycles) with work still pending; raise --max-cycles\n";
    status = 2;
    break;
  }
  printCounters(emulator);
  for (const DumpRequest &request : dumps)
    if (!dump(emulator, output, request))
      status = status ? status : 1;
  return status;
}
