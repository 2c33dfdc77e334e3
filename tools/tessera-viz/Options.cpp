//===- Options.cpp - tessera-viz's command line ---------------------------===//

#include "Options.h"

#include <string_view>

using namespace tessera::viz;

const char *const tessera::viz::UsageText =
    R"(usage: tessera-viz RUN_RECORD [options]

RUN_RECORD is a run record (JSON) or a directory holding run.json.
With no --metric, --links, --trace or --html, writes the busy-cycles map.

  -o PREFIX            heat maps go to PREFIX-NAME.FORMAT (default: the
                       record's path without .json, or DIR/run)
  --metric=NAME        heat map of a PE counter: busy, stall, memory,
                       instructions, dsd-elements, tasks, sent, received
  --links[=COLOR]      heat map of wavelets per link, of all colors or one
  --format=png|svg     heat map format (default png)
  --trace=FILE         Chrome trace-event JSON (Perfetto, chrome://tracing)
    --region=X0,Y0,X1,Y1   only these PEs (corners included)
    --colors=C,...         only wavelet events of these colors
    --cycles=A:B           only cycles A to B-1 (A: and :B leave one open)
  --html=FILE          self-contained HTML report
  --help               this text
)";

namespace {

std::optional<uint64_t> parseNumber(std::string_view text) {
  if (text.empty() || text.size() > 19 ||
      text.find_first_not_of("0123456789") != std::string_view::npos)
    return std::nullopt;
  return std::stoull(std::string(text));
}

std::vector<std::string_view> split(std::string_view text, char separator) {
  std::vector<std::string_view> parts;
  size_t start = 0;
  while (true) {
    size_t end = text.find(separator, start);
    parts.push_back(text.substr(start, end - start));
    if (end == std::string_view::npos)
      return parts;
    start = end + 1;
  }
}

/// The value of `--name=VALUE`, or nullopt when `argument` is another flag.
std::optional<std::string_view> valueOf(std::string_view argument,
                                        std::string_view name) {
  if (argument.size() <= name.size() ||
      argument.substr(0, name.size()) != name || argument[name.size()] != '=')
    return std::nullopt;
  return argument.substr(name.size() + 1);
}

/// The flags that take a value, as the usage spells them.
constexpr std::string_view FlagsWithValues[] = {
    "--metric=NAME",        "--format=png|svg", "--trace=FILE", "--html=FILE",
    "--region=X0,Y0,X1,Y1", "--colors=C,...",   "--cycles=A:B"};

/// Rejects `--trace`, `--trace=` and the like.
Status checkHasValue(std::string_view argument) {
  for (std::string_view flag : FlagsWithValues) {
    std::string_view name = flag.substr(0, flag.find('='));
    if (argument == name || argument == std::string(name) + "=")
      return Error(std::string(name) + " needs a value (" + std::string(flag) +
                   ")");
  }
  return {};
}

Expected<PERegion> parseRegion(std::string_view value) {
  std::vector<std::string_view> parts = split(value, ',');
  std::optional<uint64_t> numbers[4];
  if (parts.size() == 4)
    for (int i = 0; i < 4; ++i)
      numbers[i] = parseNumber(parts[i]);
  for (const auto &number : numbers)
    if (!number || *number > UINT32_MAX)
      return Error("--region=" + std::string(value) +
                   ": expected X0,Y0,X1,Y1 (four PE coordinates)");
  if (*numbers[0] > *numbers[2] || *numbers[1] > *numbers[3])
    return Error("--region=" + std::string(value) +
                 ": X0,Y0 must be the top-left corner (X0 <= X1, Y0 <= Y1)");
  return PERegion{unsigned(*numbers[0]), unsigned(*numbers[1]),
                  unsigned(*numbers[2]), unsigned(*numbers[3])};
}

Expected<std::bitset<NumColors>> parseColors(std::string_view value) {
  std::bitset<NumColors> colors;
  for (std::string_view part : split(value, ',')) {
    std::optional<uint64_t> color = parseNumber(part);
    if (!color || *color >= NumColors)
      return Error("--colors=" + std::string(value) +
                   ": expected colors from 0 to 23, separated by commas");
    colors.set(*color);
  }
  return colors;
}

/// "A:B", "A:" or ":B" into the filter's window.
Status parseCycles(std::string_view value, TraceFilter &filter) {
  std::vector<std::string_view> parts = split(value, ':');
  bool valid = parts.size() == 2 && !(parts[0].empty() && parts[1].empty());
  std::optional<uint64_t> first, end;
  if (valid) {
    first =
        parts[0].empty() ? std::optional<uint64_t>(0) : parseNumber(parts[0]);
    if (!parts[1].empty())
      end = parseNumber(parts[1]);
    valid = first && (parts[1].empty() || end);
  }
  if (!valid)
    return Error("--cycles=" + std::string(value) +
                 ": expected A:B, A: or :B (cycle numbers)");
  if (end && *end <= *first)
    return Error("--cycles=" + std::string(value) +
                 ": the window is empty (B must be more than A)");
  filter.firstCycle = *first;
  filter.endCycle = end;
  return {};
}

std::string listMetricNames() {
  std::string names;
  for (unsigned m = 0; m < NumPEMetrics; ++m) {
    names += m == 0 ? "" : m + 1 == NumPEMetrics ? " or " : ", ";
    names += getMetricFlagName(PEMetric(m));
  }
  return names;
}

/// Parses one argument other than -o into `options`; `inputs` collects the
/// arguments that are not flags.
Status parseArgument(std::string_view argument, Options &options,
                     std::vector<std::string> &inputs) {
  if (Status hasValue = checkHasValue(argument); !hasValue)
    return hasValue;
  if (auto value = valueOf(argument, "--metric")) {
    std::optional<PEMetric> metric = parseMetricFlagName(*value);
    if (!metric)
      return Error("unknown metric '" + std::string(*value) +
                   "' for --metric (expected " + listMetricNames() + ")");
    options.heatMaps.push_back({metric, std::nullopt});
  } else if (argument == "--links") {
    options.heatMaps.push_back({std::nullopt, std::nullopt});
  } else if (auto value = valueOf(argument, "--links")) {
    std::optional<uint64_t> color = parseNumber(*value);
    if (!color || *color >= NumColors)
      return Error("--links=" + std::string(*value) +
                   ": expected a color from 0 to 23");
    options.heatMaps.push_back({std::nullopt, unsigned(*color)});
  } else if (auto value = valueOf(argument, "--format")) {
    if (*value != "png" && *value != "svg")
      return Error("unknown format '" + std::string(*value) +
                   "' for --format (expected png or svg)");
    options.svg = *value == "svg";
  } else if (auto value = valueOf(argument, "--trace")) {
    options.tracePath = std::string(*value);
  } else if (auto value = valueOf(argument, "--html")) {
    options.htmlPath = std::string(*value);
  } else if (auto value = valueOf(argument, "--region")) {
    Expected<PERegion> region = parseRegion(*value);
    if (!region)
      return Error(region.error());
    options.filter.region = *region;
    options.regionFlag = std::string(argument);
  } else if (auto value = valueOf(argument, "--colors")) {
    Expected<std::bitset<NumColors>> colors = parseColors(*value);
    if (!colors)
      return Error(colors.error());
    options.filter.colors = *colors;
  } else if (auto value = valueOf(argument, "--cycles")) {
    return parseCycles(*value, options.filter);
  } else if (argument.size() > 1 && argument[0] == '-') {
    return Error("unknown option '" + std::string(argument) +
                 "' (--help lists the options)");
  } else {
    inputs.emplace_back(argument);
  }
  return {};
}

/// Filter flags without --trace would silently do nothing.
Status checkFiltersHaveTrace(const Options &options, int argc, char **argv) {
  if (options.tracePath)
    return {};
  for (int i = 1; i < argc; ++i)
    for (std::string_view name : {"--region", "--colors", "--cycles"})
      if (valueOf(argv[i], name))
        return Error(std::string(name) +
                     " filters the trace; it needs --trace=FILE");
  return {};
}

} // namespace

Expected<Options> tessera::viz::parseOptions(int argc, char **argv) {
  Options options;
  for (int i = 1; i < argc; ++i)
    if (std::string_view(argv[i]) == "--help") {
      options.showHelp = true;
      return options;
    }
  std::vector<std::string> inputs;
  for (int i = 1; i < argc; ++i) {
    std::string_view argument = argv[i];
    if (argument == "-o") {
      if (i + 1 == argc || std::string_view(argv[i + 1]).empty())
        return Error("-o needs an output prefix");
      options.outputPrefix = argv[++i];
      continue;
    }
    if (Status parsed = parseArgument(argument, options, inputs); !parsed)
      return Error(parsed.error());
  }
  if (inputs.empty())
    return Error("no run record given (usage: tessera-viz RUN_RECORD "
                 "[options]; --help lists the options)");
  if (inputs.size() > 1)
    return Error("more than one run record given ('" + inputs[0] + "' and '" +
                 inputs[1] + "')");
  options.input = inputs[0];
  if (Status traced = checkFiltersHaveTrace(options, argc, argv); !traced)
    return Error(traced.error());
  if (options.heatMaps.empty() && !options.tracePath && !options.htmlPath)
    options.heatMaps.push_back({PEMetric::BusyCycles, std::nullopt});
  return options;
}
