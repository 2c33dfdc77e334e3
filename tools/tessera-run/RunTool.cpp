//===- RunTool.cpp - tessera-run's work, on one process or a rank ---------===//
//
// usage: tessera-run OUT_DIR [--max-cycles=N] [--seed=N] [--dump=X,Y,SYMBOL]
//                   [--threads=N] ...
//
// Loads what `cslc -o OUT_DIR` wrote, runs it on the fabric emulator until
// nothing is left to do (programs that need no host: their tasks are
// activated at start-up), prints what PEs printed, the counters and the
// values asked for with --dump. docs/tessera-run.md.
//
//===----------------------------------------------------------------------===//

#include "RunTool.h"
#include "SymbolText.h"

#include "tessera/Emulator/Emulator.h"
#include "tessera/Emulator/RankLink.h"
#include "tessera/Record/CoreDump.h"
#include "tessera/Record/RunRecordBuilder.h"
#include "tessera/Support/Float16.h"
#include "tessera/Support/Format.h"
#include "tessera/Viz/RunRecordJSON.h"

#include <array>
#include <bit>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <optional>

#include <string>
#include <unistd.h>
#include <vector>

using namespace tessera;
using namespace tessera::emulator;

namespace {

constexpr uint64_t DefaultMaxCycles = 100'000'000;
/// More threads than this only wait on each other.
constexpr uint64_t MaxThreads = 256;

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

/// "X0,Y0,X1,Y1" with X0 <= X1 and Y0 <= Y1.
std::optional<std::array<uint64_t, 4>> parseRegion(const std::string &text) {
  std::array<uint64_t, 4> corners{};
  size_t at = 0;
  for (unsigned i = 0; i < 4; ++i) {
    size_t comma = i < 3 ? text.find(',', at) : text.size();
    if (comma == std::string::npos)
      return std::nullopt;
    std::optional<uint64_t> n = parseNumber(text.substr(at, comma - at));
    if (!n || *n > 0xFFFF)
      return std::nullopt;
    corners[i] = *n;
    at = comma + 1;
  }
  if (corners[0] > corners[2] || corners[1] > corners[3])
    return std::nullopt;
  return corners;
}

/// "C,C,..." of colors 0..23 as a mask.
std::optional<uint32_t> parseColors(const std::string &text) {
  uint32_t mask = 0;
  size_t at = 0;
  while (true) {
    size_t comma = text.find(',', at);
    std::string part = text.substr(
        at, comma == std::string::npos ? std::string::npos : comma - at);
    std::optional<uint64_t> color = parseNumber(part);
    if (!color || *color > 23)
      return std::nullopt;
    mask |= uint32_t(1) << *color;
    if (comma == std::string::npos)
      return mask;
    at = comma + 1;
  }
}

/// How a run that is over ended, for a core dump's reason.
const char *describeEnd(RunStatus status) {
  switch (status) {
  case RunStatus::Idle:
    return "the run ended idle";
  case RunStatus::Stalled:
    return "the run deadlocked";
  case RunStatus::Faulted:
    return "another PE faulted";
  case RunStatus::CycleLimit:
  case RunStatus::Reached:
    return "the run stopped at the cycle limit";
  }
  return "";
}

/// What --dump prints for one request: a line for standard output, or an
/// error for standard error.
struct DumpText {
  bool ok = false;
  std::string text;
};

/// `name` of PE (x, y), which this process emulates.
DumpText dump(const Emulator &emulator, const LoadedOutput &output,
              const DumpRequest &request) {
  std::string where = "PE (" + std::to_string(request.x) + ", " +
                      std::to_string(request.y) + ")";
  if (!output.programAt(request.x, request.y))
    return {false, "--dump: " + where + " runs no program"};
  std::optional<pe::Symbol> symbol = findReadableData(
      output.programAt(request.x, request.y)->binary, request.symbol);
  if (!symbol)
    return {false, "--dump: " + where + " ('" +
                       output.programAt(request.x, request.y)->name +
                       "') has no data named '" + request.symbol +
                       "' (an exported symbol, or a global variable of a "
                       "program compiled without -g0)"};
  std::vector<uint8_t> bytes(getSymbolBytes(*symbol));
  if (emulator.readMemory(request.x, request.y, symbol->address, bytes) !=
      MemoryStatus::Ok)
    return {false, "--dump: '" + request.symbol +
                       "' lies outside the memory of " + where};
  return {true, request.symbol + "@(" + std::to_string(request.x) + "," +
                    std::to_string(request.y) +
                    ") =" + formatSymbolValue(*symbol, bytes)};
}

/// Every request's text, from whichever rank emulates its PE.
std::vector<DumpText> dumpAll(const Emulator &emulator,
                              const LoadedOutput &output,
                              const std::vector<DumpRequest> &requests,
                              RankLink *ranks) {
  std::vector<DumpText> texts(requests.size());
  for (size_t i = 0; i < requests.size(); ++i)
    if (emulator.ownsRow(requests[i].y))
      texts[i] = dump(emulator, output, requests[i]);
  if (!ranks)
    return texts;
  // Each text as: index, ok, length, bytes.
  std::vector<uint8_t> mine;
  auto put = [&](uint64_t value) {
    for (unsigned b = 0; b < 8; ++b)
      mine.push_back(static_cast<uint8_t>(value >> (8 * b)));
  };
  for (size_t i = 0; i < requests.size(); ++i) {
    if (!emulator.ownsRow(requests[i].y))
      continue;
    put(i);
    put(texts[i].ok);
    put(texts[i].text.size());
    mine.insert(mine.end(), texts[i].text.begin(), texts[i].text.end());
  }
  for (const std::vector<uint8_t> &part : ranks->allGather(mine)) {
    size_t at = 0;
    auto get = [&]() {
      uint64_t value = 0;
      for (unsigned b = 0; b < 8 && at < part.size(); ++b)
        value |= uint64_t(part[at++]) << (8 * b);
      return value;
    };
    while (at < part.size()) {
      uint64_t index = get();
      bool ok = get() != 0;
      uint64_t length = std::min<uint64_t>(get(), part.size() - at);
      if (index < texts.size())
        texts[index] = {
            ok, std::string(part.begin() + at, part.begin() + at + length)};
      at += length;
    }
  }
  return texts;
}

/// With ranks, every rank's `error` is gathered, and every rank gets the
/// first: rank 0's if it has one (all ranks usually find the same), else
/// another's, named. Without, `error` itself.
std::string agreeOnError(RankLink *ranks, const std::string &error) {
  if (!ranks)
    return error;
  std::vector<uint8_t> mine(error.begin(), error.end());
  std::vector<std::vector<uint8_t>> all = ranks->allGather(mine);
  for (size_t r = 0; r < all.size(); ++r)
    if (!all[r].empty())
      return (r ? "rank " + std::to_string(r) + ": " : "") +
             std::string(all[r].begin(), all[r].end());
  return "";
}

void printCounters(const Emulator &emulator) {
  PECounters c = emulator.getCounters();
  NetworkCounters n = emulator.getNetworkCounters();
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

int tessera::runTool(int argc, char **argv, RankLink *ranks) {
  // Rank 0 speaks for all; the others compute silently (their errors are
  // the same, from the same command line and files).
  std::streambuf *coutBuffer = std::cout.rdbuf();
  std::streambuf *cerrBuffer = std::cerr.rdbuf();
  bool silent = ranks && ranks->getRank() != 0;
  if (silent) {
    std::cout.rdbuf(nullptr);
    std::cerr.rdbuf(nullptr);
  }
  struct Restore {
    std::streambuf *out, *err;
    ~Restore() {
      std::cout.clear();
      std::cerr.clear();
      std::cout.rdbuf(out);
      std::cerr.rdbuf(err);
    }
  } restore{coutBuffer, cerrBuffer};

  std::string directory;
  uint64_t maxCycles = DefaultMaxCycles;
  EmulatorOptions options;
  std::vector<DumpRequest> dumps;
  std::string tracePath;
  std::string recordDir;
  std::string coreDir;
  std::optional<std::array<uint64_t, 4>> coreRegion;
  // Progress on a terminal unless asked otherwise; --progress forces it.
  std::optional<bool> progress;
  RecordOptions record;
  bool recordRegionGiven = false, recordCyclesGiven = false,
       recordColorsGiven = false;
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
                   "[--trace=FILE] [--threads=N] [--bands=N] [--record=DIR "
                   "[--record-region=X0,Y0,X1,Y1] [--record-cycles=A:B] "
                   "[--record-colors=C,...]] "
                   "[--progress|--no-progress] [--progress-interval=SECONDS] "
                   "[--core-dump=DIR [--core-dump-region=X0,Y0,X1,Y1]]\n";
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
    } else if (std::optional<std::string> v = value("--threads")) {
      std::optional<uint64_t> n = parseNumber(*v);
      if (!n || *n == 0 || *n > MaxThreads)
        return usageError("invalid value '" + *v +
                          "' for '--threads': expected 1 to " +
                          std::to_string(MaxThreads));
      options.threads = static_cast<unsigned>(*n);
    } else if (std::optional<std::string> v = value("--bands")) {
      std::optional<uint64_t> n = parseNumber(*v);
      if (!n || *n == 0 || *n > 0xFFFF)
        return usageError("invalid value '" + *v +
                          "' for '--bands': expected 1 to 65535");
      options.bands = static_cast<unsigned>(*n);
    } else if (arg == "--progress" || arg == "--no-progress") {
      progress = arg == "--progress";
    } else if (std::optional<std::string> v = value("--progress-interval")) {
      char *end = nullptr;
      double seconds = v->empty() ? -1 : std::strtod(v->c_str(), &end);
      if (!end || *end != '\0' || !(seconds >= 0) || seconds > 3600)
        return usageError("invalid value '" + *v +
                          "' for '--progress-interval': expected seconds "
                          "from 0 to 3600");
      options.progressSeconds = seconds;
    } else if (std::optional<std::string> v = value("--core-dump")) {
      if (v->empty())
        return usageError("'--core-dump' needs a directory name");
      coreDir = *v;
    } else if (std::optional<std::string> v = value("--core-dump-region")) {
      coreRegion = parseRegion(*v);
      if (!coreRegion)
        return usageError("invalid value '" + *v +
                          "' for '--core-dump-region': expected "
                          "X0,Y0,X1,Y1 with X0 <= X1 and Y0 <= Y1");
    } else if (std::optional<std::string> v = value("--record")) {
      if (v->empty())
        return usageError("'--record' needs a directory name");
      recordDir = *v;
    } else if (std::optional<std::string> v = value("--record-region")) {
      std::optional<std::array<uint64_t, 4>> corners = parseRegion(*v);
      if (!corners)
        return usageError("invalid value '" + *v +
                          "' for '--record-region': expected X0,Y0,X1,Y1 "
                          "with X0 <= X1 and Y0 <= Y1");
      record.x0 = unsigned((*corners)[0]);
      record.y0 = unsigned((*corners)[1]);
      record.x1 = unsigned((*corners)[2]);
      record.y1 = unsigned((*corners)[3]);
      recordRegionGiven = true;
    } else if (std::optional<std::string> v = value("--record-colors")) {
      std::optional<uint32_t> colors = parseColors(*v);
      if (!colors)
        return usageError("invalid value '" + *v +
                          "' for '--record-colors': expected colors 0 to 23 "
                          "separated by commas");
      record.waveletColors = *colors;
      recordColorsGiven = true;
    } else if (std::optional<std::string> v = value("--record-cycles")) {
      size_t colon = v->find(':');
      std::optional<uint64_t> first = colon == std::string::npos
                                          ? std::nullopt
                                          : parseNumber(v->substr(0, colon));
      std::optional<uint64_t> end = colon == std::string::npos
                                        ? std::nullopt
                                        : parseNumber(v->substr(colon + 1));
      if (!first || !end || *first >= *end)
        return usageError("invalid value '" + *v +
                          "' for '--record-cycles': expected FIRST:END with "
                          "FIRST < END");
      record.firstCycle = *first;
      record.endCycle = *end;
      recordCyclesGiven = true;
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
  if (coreDir.empty() && coreRegion)
    return usageError("'--core-dump-region' needs '--core-dump=DIR'");
  if (recordDir.empty() &&
      (recordRegionGiven || recordCyclesGiven || recordColorsGiven))
    return usageError(std::string(recordRegionGiven   ? "'--record-region'"
                                  : recordCyclesGiven ? "'--record-cycles'"
                                                      : "'--record-colors'") +
                      " needs '--record=DIR'");

  // Up to the emulator, a rank may fail where the others do not (a file it
  // cannot read or write): each finds its first problem, and all stop if
  // any has one, rather than wait for it in the emulator's first exchange.
  LoadResult loaded = loadOutputDirectory(directory);
  std::ofstream traceFile;
  // Every rank records trace lines; rank 0 writes them (docs/Scaling.md).
  std::ostream discard(nullptr);
  auto prepare = [&]() -> std::string {
    if (!loaded)
      return loaded.error;
    const FabricLayout &layout = loaded.value->layout;
    for (const DumpRequest &request : dumps)
      if (request.x >= layout.getWidth() || request.y >= layout.getHeight())
        return "--dump: PE (" + std::to_string(request.x) + ", " +
               std::to_string(request.y) + ") is outside the rectangle (" +
               std::to_string(layout.getWidth()) + "x" +
               std::to_string(layout.getHeight()) + ")";
    if (ranks && ranks->getSize() > layout.getHeight())
      return std::to_string(ranks->getSize()) + " ranks for a rectangle of " +
             std::to_string(layout.getHeight()) +
             " rows: at most one rank per row";
    if (silent && !tracePath.empty()) {
      options.trace = &discard;
    } else if (tracePath == "-") {
      options.trace = &std::cout;
    } else if (!tracePath.empty()) {
      traceFile.open(tracePath);
      if (!traceFile)
        return "cannot write the trace to '" + tracePath + "'";
      options.trace = &traceFile;
    }
    return "";
  };
  if (std::string error = agreeOnError(ranks, prepare()); !error.empty())
    return usageError(error);
  const LoadedOutput &output = *loaded.value;
  if (!recordDir.empty())
    options.record = record;
  options.ranks = ranks;
  options.onPrint = [](const PrintedLine &line) {
    std::cout << "[" << line.pe.x << "," << line.pe.y << "] " << line.text
              << "\n";
  };
  // On a terminal a progress line is rewritten in place and erased at the
  // end; elsewhere (--progress into a file) each report is a line.
  bool terminal = isatty(STDERR_FILENO);
  bool showProgress = progress.value_or(terminal) && !silent;
  if (showProgress)
    options.onProgress = [terminal](const Progress &p) {
      std::cerr << (terminal ? "\r" : "") << "tessera-run: cycle "
                << formatThousands(p.cycle) << ", "
                << formatThousands(p.activePEs) << " PEs active, "
                << formatThousands(p.waveletsInFlight) << " wavelets in flight"
                << (terminal ? "\033[K" : "\n") << std::flush;
    };
  // Never destroyed (released below): the process ends when runTool
  // returns, and freeing a wafer's millions of blocks one by one took half
  // a second of its 36 (docs/Performance.md).
  auto owned = std::make_unique<Emulator>(output, options);
  Emulator &emulator = *owned;
  RunOutcome outcome = emulator.run(maxCycles);
  if (showProgress && terminal)
    std::cerr << "\r\033[K" << std::flush;
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
  if (!recordDir.empty()) {
    // Every rank takes part in gathering the record; rank 0 writes it.
    viz::RunRecord run = buildRunRecord(emulator, output);
    std::error_code error;
    if (!silent)
      std::filesystem::create_directories(recordDir, error);
    viz::Status written =
        silent  ? viz::Status()
        : error ? viz::Status(viz::Error("cannot create '" + recordDir +
                                         "': " + error.message()))
                : viz::writeRunRecord(run, recordDir + "/run.json");
    if (!written) {
      std::cerr << "tessera-run: error: --record: " << written.error() << "\n";
      status = status ? status : 1;
    }
  }
  if (!coreDir.empty()) {
    std::string error = writeCoreDumps(emulator, output,
                                       std::string("requested (") +
                                           describeEnd(outcome.status) + ")",
                                       coreDir, coreRegion, ranks);
    if (!error.empty()) {
      std::cerr << "tessera-run: error: --core-dump: " << error << "\n";
      status = status ? status : 1;
    }
  }
  for (const DumpText &text : dumpAll(emulator, output, dumps, ranks)) {
    if (text.ok) {
      std::cout << text.text << "\n";
    } else {
      std::cerr << "tessera-run: error: " << text.text << "\n";
      status = status ? status : 1;
    }
  }
  // Rank 0 alone writes files; its status is every rank's.
  if (ranks) {
    std::vector<uint8_t> bytes{static_cast<uint8_t>(status)};
    ranks->broadcast(bytes, 0);
    status = bytes.empty() ? status : bytes[0];
  }
  (void)owned.release();
  return status;
}
