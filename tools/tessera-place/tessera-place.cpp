//===- tessera-place.cpp - the ISPD 2020 wafer-scale placement solver -----===//
//
// usage: tessera-place --kgraph FILE -o SOLUTION [--time-limit=S]
//                      [--max-deltat-ratio=R] [--objective=score|wirelength]
//                      [--verbose]
//        tessera-place --check --kgraph FILE SOLUTION
//
// Places a kgraph's kernels and writes the solution, or checks a solution
// file against its kgraph. docs/Placement.md.
//
//===----------------------------------------------------------------------===//

#include "tessera/Placement/Checker.h"
#include "tessera/Placement/KernelGraphParser.h"
#include "tessera/Placement/Placer.h"
#include "tessera/Placement/Solution.h"

#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <iostream>
#include <optional>
#include <sstream>
#include <string>
#include <vector>

using namespace tessera::placement;

namespace {

constexpr const char *Usage =
    "usage: tessera-place --kgraph FILE -o SOLUTION [--time-limit=S] "
    "[--max-deltat-ratio=R] [--objective=score|wirelength] [--verbose]\n"
    "       tessera-place --check --kgraph FILE SOLUTION\n";

int usageError(const std::string &message) {
  std::cerr << "tessera-place: error: " << message << "\n";
  return 1;
}

std::string formatNumber(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.1f", value);
  std::string text = buffer;
  if (text.size() > 2 && text.substr(text.size() - 2) == ".0")
    text.resize(text.size() - 2);
  return text;
}

std::string formatRatio(double value) {
  char buffer[64];
  std::snprintf(buffer, sizeof(buffer), "%.3f", value);
  return buffer;
}

struct Options {
  std::string kgraph, output, solution;
  bool check = false, verbose = false;
  double timeLimit = 60;
  double maxDeltaTRatio = 1.08;
  PlacerObjective objective = PlacerObjective::Score;
};

/// nullopt after printing the message (or the usage for --help, with
/// `exitCode` 0).
std::optional<Options> parseOptions(int argc, char **argv, int &exitCode) {
  Options options;
  exitCode = 1;
  bool haveOutput = false;
  std::vector<std::string> positional;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    auto takeValue =
        [&](const std::string &flag) -> std::optional<std::string> {
      if (i + 1 >= argc) {
        usageError("'" + flag + "' needs a file name");
        return std::nullopt;
      }
      return std::string(argv[++i]);
    };
    if (arg == "--help" || arg == "-h") {
      std::cout << Usage;
      exitCode = 0;
      return std::nullopt;
    } else if (arg == "--verbose") {
      options.verbose = true;
    } else if (arg == "--check") {
      options.check = true;
    } else if (arg == "--kgraph" || arg.rfind("--kgraph=", 0) == 0) {
      std::optional<std::string> value =
          arg == "--kgraph" ? takeValue(arg) : arg.substr(9);
      if (!value)
        return std::nullopt;
      if (value->empty()) {
        usageError("'--kgraph' needs a file name");
        return std::nullopt;
      }
      options.kgraph = *value;
    } else if (arg == "-o") {
      std::optional<std::string> value = takeValue(arg);
      if (!value)
        return std::nullopt;
      options.output = *value;
      haveOutput = true;
    } else if (arg.rfind("--time-limit=", 0) == 0) {
      std::string value = arg.substr(13);
      char *end = nullptr;
      errno = 0;
      double seconds = value.empty() ? 0 : std::strtod(value.c_str(), &end);
      if (value.empty() || errno != 0 || *end != '\0' || !(seconds > 0) ||
          seconds > 86400) {
        usageError("invalid value '" + value +
                   "' for '--time-limit': expected a positive number of "
                   "seconds");
        return std::nullopt;
      }
      options.timeLimit = seconds;
    } else if (arg.rfind("--max-deltat-ratio=", 0) == 0) {
      std::string value = arg.substr(19);
      char *end = nullptr;
      errno = 0;
      double ratio = value.empty() ? 0 : std::strtod(value.c_str(), &end);
      if (value.empty() || errno != 0 || *end != '\0' || !(ratio >= 1) ||
          ratio > 1000) {
        usageError("invalid value '" + value +
                   "' for '--max-deltat-ratio': expected a number from 1 to "
                   "1000");
        return std::nullopt;
      }
      options.maxDeltaTRatio = ratio;
    } else if (arg.rfind("--objective=", 0) == 0) {
      std::string value = arg.substr(12);
      if (value == "score") {
        options.objective = PlacerObjective::Score;
      } else if (value == "wirelength") {
        options.objective = PlacerObjective::WireLength;
      } else {
        usageError("invalid value '" + value +
                   "' for '--objective': expected 'score' or 'wirelength'");
        return std::nullopt;
      }
    } else if (arg.size() > 1 && arg[0] == '-') {
      usageError("unknown option '" + arg + "'");
      return std::nullopt;
    } else {
      positional.push_back(arg);
    }
  }
  if (options.kgraph.empty()) {
    usageError("no kgraph file (usage: tessera-place --kgraph FILE -o "
               "SOLUTION)");
    return std::nullopt;
  }
  if (options.check) {
    if (haveOutput) {
      usageError("'--check' reads a solution and writes none; drop '-o'");
      return std::nullopt;
    }
    if (positional.size() != 1) {
      usageError(positional.empty()
                     ? "'--check' needs the solution file to check"
                     : "more than one solution file to check");
      return std::nullopt;
    }
    options.solution = positional[0];
    return options;
  }
  if (!positional.empty()) {
    usageError("unexpected argument '" + positional[0] + "'");
    return std::nullopt;
  }
  if (!haveOutput || options.output.empty()) {
    usageError("no solution file (usage: tessera-place --kgraph FILE -o "
               "SOLUTION)");
    return std::nullopt;
  }
  return options;
}

int runCheck(const KernelGraph &graph, const Options &options) {
  std::ifstream stream(options.solution, std::ios::binary);
  if (!stream)
    return usageError("cannot read '" + options.solution +
                      "': " + std::strerror(errno));
  std::stringstream text;
  text << stream.rdbuf();
  CheckReport report = checkSolution(graph, text.str(), options.solution);
  for (const std::string &error : report.errors)
    std::cerr << error << "\n";
  if (!report.isLegal()) {
    std::cerr << "tessera-place: error: '" << options.solution
              << "' is not a legal solution (" << report.errors.size()
              << (report.errors.size() == 1 ? " error" : " errors") << ")\n";
    return 1;
  }
  std::cout << "legal: " << report.kernels << " kernels\n"
            << "deltaT: " << report.deltaT << "\n"
            << "wire length: " << formatNumber(report.wireLength) << "\n"
            << "score: " << formatNumber(report.score) << "\n"
            << "utilisation: " << formatRatio(report.utilisation) << "\n";
  return 0;
}

int runPlace(const KernelGraph &graph, const Options &options) {
  auto start = std::chrono::steady_clock::now();
  PlacerOptions placerOptions;
  placerOptions.timeLimit = options.timeLimit;
  placerOptions.maxDeltaTRatio = options.maxDeltaTRatio;
  placerOptions.objective = options.objective;
  if (options.verbose)
    placerOptions.log = &std::cerr;
  PlacerResult result = placeKernelGraph(graph, placerOptions);
  if (!result.solution)
    return usageError("cannot place '" + options.kgraph + "': " + result.error);
  std::ofstream stream(options.output, std::ios::binary);
  if (stream)
    writeSolution(stream, graph, *result.solution);
  stream.close();
  if (!stream)
    return usageError("cannot write '" + options.output + "'");
  double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start)
          .count();
  std::cout << "kernels: " << result.solution->kernels.size() << "\n"
            << "deltaT: " << result.deltaT << "\n"
            << "wire length: "
            << formatNumber(double(result.doubledWireLength) / 2) << "\n"
            << "score: " << formatNumber(result.score) << "\n"
            << "utilisation: " << formatRatio(result.utilisation) << "\n"
            << "deltaT lower bound: " << result.deltaTBound << " (deltaT/bound "
            << formatRatio(double(result.deltaT) / double(result.deltaTBound))
            << ")\n"
            << "seconds: " << formatRatio(seconds) << "\n";
  return 0;
}

} // namespace

int main(int argc, char **argv) {
  int exitCode = 1;
  std::optional<Options> options = parseOptions(argc, argv, exitCode);
  if (!options)
    return exitCode;
  std::ifstream stream(options->kgraph, std::ios::binary);
  if (!stream)
    return usageError("cannot read '" + options->kgraph +
                      "': " + std::strerror(errno));
  std::stringstream text;
  text << stream.rdbuf();
  GraphOrError graph = parseKernelGraph(text.str(), options->kgraph);
  if (!graph.graph) {
    std::cerr << graph.error << "\n";
    return 1;
  }
  return options->check ? runCheck(*graph.graph, *options)
                        : runPlace(*graph.graph, *options);
}
