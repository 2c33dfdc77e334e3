//===- CslcOptions.cpp - cslc's command line ------------------------------===//
//
// A table of options drives both parsing and --help, so the two cannot drift.
//
//===----------------------------------------------------------------------===//

#include "tessera/Driver/CslcOptions.h"

#include "llvm/ADT/STLExtras.h"
#include "llvm/ADT/SmallVector.h"
#include "llvm/ADT/StringExtras.h"
#include "llvm/Support/FormatVariadic.h"

#include <functional>

using namespace tessera;
using namespace tessera::driver;
using llvm::StringRef;

namespace {

enum class ValueKind {
  None,     // a switch: --memcpy
  Required, // --arch=wse2 or --arch wse2
  Optional, // --output-json or --output-json=PATH (never a separate word)
};

using Setter = std::function<llvm::Error(CslcOptions &, StringRef flag,
                                         StringRef value)>;

struct OptionSpec {
  StringRef name; // with its dashes
  ValueKind kind;
  StringRef metavar;
  StringRef help;
  Setter set;
};

llvm::Error makeError(const llvm::Twine &message) {
  return llvm::createStringError(llvm::inconvertibleErrorCode(), message);
}

llvm::Error invalidValue(StringRef flag, StringRef value,
                         const llvm::Twine &expected) {
  return makeError("invalid value '" + value + "' for '" + flag +
                   "': expected " + expected);
}

/// Decimal or 0x-prefixed hexadecimal, no sign, no trailing junk.
std::optional<uint64_t> parseUnsigned(StringRef text) {
  uint64_t value;
  if (text.empty() || text.front() == '-' || text.front() == '+')
    return std::nullopt;
  if (text.getAsInteger(0, value))
    return std::nullopt;
  // getAsInteger(0, ...) reads a leading 0 as octal; the SDK's values are
  // decimal, so reject "010" rather than silently reading 8.
  if (text.size() > 1 && text.front() == '0' && !text.starts_with_insensitive("0x"))
    return std::nullopt;
  return value;
}

std::optional<unsigned> parseUnsigned32(StringRef text) {
  auto value = parseUnsigned(text);
  if (!value || *value > std::numeric_limits<unsigned>::max())
    return std::nullopt;
  return static_cast<unsigned>(*value);
}

bool isIdentifier(StringRef name) {
  if (name.empty() || !(llvm::isAlpha(name.front()) || name.front() == '_'))
    return false;
  return llvm::all_of(name,
                      [](char c) { return llvm::isAlnum(c) || c == '_'; });
}

Setter setUnsigned(unsigned CslcOptions::*field, unsigned min = 0) {
  return [=](CslcOptions &options, StringRef flag, StringRef value) -> llvm::Error {
    auto number = parseUnsigned32(value);
    if (!number || *number < min)
      return invalidValue(flag, value,
                          min == 0 ? "a non-negative integer"
                                   : "a positive integer");
    options.*field = *number;
    return llvm::Error::success();
  };
}

Setter setOptionalUnsigned(std::optional<unsigned> CslcOptions::*field) {
  return [=](CslcOptions &options, StringRef flag, StringRef value) -> llvm::Error {
    auto number = parseUnsigned32(value);
    if (!number || *number == 0)
      return invalidValue(flag, value, "a positive integer");
    options.*field = *number;
    return llvm::Error::success();
  };
}

Setter setFlag(bool CslcOptions::*field, bool to = true) {
  return [=](CslcOptions &options, StringRef, StringRef) -> llvm::Error {
    options.*field = to;
    return llvm::Error::success();
  };
}

/// W,H for --fabric-dims (both positive) or X,Y for --fabric-offsets.
Setter setExtent(std::optional<Extent> CslcOptions::*field, bool positive,
                 StringRef what) {
  return [=](CslcOptions &options, StringRef flag, StringRef value) -> llvm::Error {
    auto [first, second] = value.split(',');
    auto x = parseUnsigned32(first.trim());
    auto y = parseUnsigned32(second.trim());
    bool hasComma = value.contains(',');
    if (!hasComma || !x || !y || second.contains(','))
      return invalidValue(flag, value, "two integers " + what);
    if (positive && (*x == 0 || *y == 0))
      return invalidValue(flag, value, "two positive integers " + what);
    options.*field = Extent{*x, *y};
    return llvm::Error::success();
  };
}

/// NAME:VALUE[,NAME:VALUE...]; repeated flags append. A name given twice is
/// an error: silently keeping one of two values hides typos in build scripts.
Setter appendNamedValues(std::vector<NamedValue> CslcOptions::*field) {
  return [=](CslcOptions &options, StringRef flag, StringRef value) -> llvm::Error {
    llvm::SmallVector<StringRef> entries;
    value.split(entries, ',');
    for (StringRef entry : entries) {
      auto [name, number] = entry.trim().split(':');
      if (!entry.contains(':') || !isIdentifier(name))
        return makeError("invalid entry '" + entry + "' in '" + flag +
                         "': expected NAME:VALUE with NAME an identifier");
      auto parsed = parseUnsigned(number);
      if (!parsed)
        return makeError("invalid value '" + number + "' for '" + name +
                         "' in '" + flag +
                         "': expected an unsigned integer");
      auto &list = options.*field;
      auto previous = llvm::find_if(
          list, [&](const NamedValue &nv) { return nv.name == name; });
      if (previous != list.end())
        return makeError(llvm::formatv("'{0}' is given twice in '{1}' ({2} "
                                       "and {3})",
                                       name, flag, previous->value, *parsed)
                             .str());
      list.push_back({name.str(), *parsed});
    }
    return llvm::Error::success();
  };
}

template <typename Enum>
Setter setChoice(Enum CslcOptions::*field,
                 std::vector<std::pair<StringRef, Enum>> choices) {
  return [=](CslcOptions &options, StringRef flag, StringRef value) -> llvm::Error {
    for (const auto &[name, choice] : choices) {
      if (value == name) {
        options.*field = choice;
        return llvm::Error::success();
      }
    }
    std::string names = llvm::join(
        llvm::map_range(choices, [](const auto &c) { return c.first; }), ", ");
    return invalidValue(flag, value, "one of " + names);
  };
}

const std::vector<OptionSpec> &getOptionTable() {
  using target::Arch;
  static const std::vector<OptionSpec> table = {
      {"-o", ValueKind::Required, "DIR",
       "Write the compiled program to DIR (default: out)",
       [](CslcOptions &o, StringRef flag, StringRef value) -> llvm::Error {
         if (value.empty())
           return invalidValue(flag, value, "a directory name");
         o.outputDir = value.str();
         return llvm::Error::success();
       }},
      {"--arch", ValueKind::Required, "wse2|wse3",
       "Target architecture (default: wse2)",
       setChoice<Arch>(&CslcOptions::arch,
                       {{"wse2", Arch::WSE2}, {"wse3", Arch::WSE3}})},
      {"--fabric-dims", ValueKind::Required, "W,H",
       "Width and height of the fabric to compile for",
       setExtent(&CslcOptions::fabricDims, true, "W,H (e.g. 8,3)")},
      {"--fabric-offsets", ValueKind::Required, "X,Y",
       "Position of the program rectangle's north-west corner",
       setExtent(&CslcOptions::fabricOffsets, false, "X,Y (e.g. 4,1)")},
      {"--params", ValueKind::Required, "NAME:VALUE,...",
       "Values of the top-level file's params; may repeat",
       appendNamedValues(&CslcOptions::params)},
      {"--colors", ValueKind::Required, "NAME:VALUE,...",
       "Values of the top-level file's color params; may repeat",
       appendNamedValues(&CslcOptions::colors)},
      {"--memcpy", ValueKind::None, "",
       "Add the memcpy infrastructure for host data transfers",
       setFlag(&CslcOptions::memcpy)},
      {"--channels", ValueKind::Required, "N",
       "Number of memcpy I/O channels (default: 1)",
       setUnsigned(&CslcOptions::channels, 1)},
      {"--fp16-format", ValueKind::Required, "f16|cb16|bf16",
       "The 16-bit float format f16 denotes (default: f16)",
       setChoice<Fp16Format>(&CslcOptions::fp16Format,
                             {{"f16", Fp16Format::IEEE},
                              {"cb16", Fp16Format::CB16},
                              {"bf16", Fp16Format::BF16}})},
      {"--import-path", ValueKind::Required, "DIR",
       "Also search DIR for imported modules; may repeat",
       [](CslcOptions &o, StringRef flag, StringRef value) -> llvm::Error {
         if (value.empty())
           return invalidValue(flag, value, "a directory name");
         o.importPaths.push_back(value.str());
         return llvm::Error::success();
       }},
      {"--width-west-buf", ValueKind::Required, "N",
       "Columns of memcpy buffer PEs west of the program (default: 0)",
       setUnsigned(&CslcOptions::widthWestBuf)},
      {"--width-east-buf", ValueKind::Required, "N",
       "Columns of memcpy buffer PEs east of the program (default: 0)",
       setUnsigned(&CslcOptions::widthEastBuf)},
      {"--output-json", ValueKind::Optional, "PATH",
       "Write the compile metadata to PATH (default: DIR/out.json)",
       [](CslcOptions &o, StringRef, StringRef value) -> llvm::Error {
         o.outputJson = value.str();
         return llvm::Error::success();
       }},
      {"--out-routes", ValueKind::None, "",
       "Print each PE's color and route table", setFlag(&CslcOptions::outRoutes)},
      {"--max-inlined-iterations", ValueKind::Required, "N",
       "Limit on comptime loop iterations",
       setOptionalUnsigned(&CslcOptions::maxInlinedIterations)},
      {"--comptime-func-depth-limit", ValueKind::Required, "N",
       "Limit on comptime call depth",
       setOptionalUnsigned(&CslcOptions::comptimeFuncDepthLimit)},
      {"--max-parallelism", ValueKind::Required, "N",
       "Compile at most N programs at once",
       setOptionalUnsigned(&CslcOptions::maxParallelism)},
      {"-g0", ValueKind::None, "", "Omit debug information",
       setFlag(&CslcOptions::debugInfo, false)},
      {"--warnings-as-errors", ValueKind::None, "", "Treat warnings as errors",
       setFlag(&CslcOptions::warningsAsErrors)},
      {"--verbose", ValueKind::None, "", "Say what each compile stage does",
       setFlag(&CslcOptions::verbose)},
      {"--emit", ValueKind::Required, "ast|csl|mlir|fabric|pe",
       "Stop after a stage and print its result (Tessera extension)",
       setChoice<EmitKind>(&CslcOptions::emit, {{"ast", EmitKind::AST},
                                                {"csl", EmitKind::CSL},
                                                {"mlir", EmitKind::MLIR},
                                                {"fabric", EmitKind::Fabric},
                                                {"pe", EmitKind::PE}})},
      {"--help", ValueKind::None, "", "Print this help and exit",
       setFlag(&CslcOptions::showHelp)},
      {"--version", ValueKind::None, "", "Print the version and exit",
       setFlag(&CslcOptions::showVersion)},
  };
  return table;
}

const OptionSpec *findOption(StringRef name) {
  for (const OptionSpec &spec : getOptionTable())
    if (spec.name == name)
      return &spec;
  return nullptr;
}

llvm::Error unknownOption(StringRef name) {
  const OptionSpec *best = nullptr;
  // Suggest only close matches: a typo, not a different short flag.
  unsigned bestDistance = name.size() / 4 + 1;
  for (const OptionSpec &spec : getOptionTable()) {
    unsigned distance = name.edit_distance(spec.name);
    if (distance < bestDistance) {
      best = &spec;
      bestDistance = distance;
    }
  }
  std::string message = ("unknown option '" + name + "'").str();
  if (best)
    message += ("; did you mean '" + best->name + "'?").str();
  return makeError(message);
}

} // namespace

llvm::Expected<CslcOptions>
driver::parseCslcArguments(llvm::ArrayRef<std::string> args) {
  CslcOptions options;
  std::vector<StringRef> inputs;
  bool onlyInputs = false;
  for (size_t i = 0; i < args.size(); ++i) {
    StringRef arg = args[i];
    if (onlyInputs || arg == "-" || !arg.starts_with("-")) {
      inputs.push_back(arg);
      continue;
    }
    if (arg == "--") {
      onlyInputs = true;
      continue;
    }
    if (arg == "-h")
      arg = "--help";

    auto [name, attached] = arg.split('=');
    bool hasAttached = arg.contains('=');
    const OptionSpec *spec = findOption(name);
    if (!spec)
      return unknownOption(name);

    StringRef value = attached;
    switch (spec->kind) {
    case ValueKind::None:
      if (hasAttached)
        return makeError("option '" + name + "' does not take a value");
      break;
    case ValueKind::Optional:
      break;
    case ValueKind::Required:
      if (!hasAttached) {
        // The next word is the value, unless there is none or it is a flag.
        if (i + 1 == args.size() ||
            (StringRef(args[i + 1]).starts_with("-") && args[i + 1] != "-"))
          return makeError("missing value for '" + name + "' (expected " +
                           spec->metavar + ")");
        value = args[++i];
      }
      break;
    }
    if (llvm::Error err = spec->set(options, name, value))
      return std::move(err);
  }

  if (options.showHelp || options.showVersion)
    return options;

  if (inputs.empty())
    return makeError("no input file");
  if (inputs.size() > 1)
    return makeError("more than one input file: '" +
                     llvm::join(inputs, "', '") + "'");
  options.inputFile = inputs.front().str();

  const auto &model = target::TargetModel::get(options.arch);
  for (const NamedValue &color : options.colors)
    if (color.value >= model.getNumRoutableColors())
      return makeError(llvm::formatv("color '{0}' = {1} in '--colors' is not "
                                     "routable: {2} has colors 0..{3}",
                                     color.name, color.value, model.getName(),
                                     model.getNumRoutableColors() - 1)
                           .str());
  if (options.channels > model.getMaxMemcpyChannels())
    return makeError(llvm::formatv("'--channels' is {0}, but {1} has at most "
                                   "{2} memcpy channels",
                                   options.channels, model.getName(),
                                   model.getMaxMemcpyChannels())
                         .str());
  return options;
}

void driver::printCslcHelp(llvm::raw_ostream &os) {
  os << "OVERVIEW: Tessera CSL compiler\n\n"
        "USAGE: cslc [options] <top-level .csl file>\n\n"
        "OPTIONS:\n";
  for (const OptionSpec &spec : getOptionTable()) {
    std::string usage = spec.name.str();
    if (spec.kind == ValueKind::Required)
      usage += (spec.name == "-o" ? " " : "=") + spec.metavar.str();
    else if (spec.kind == ValueKind::Optional)
      usage += "[=" + spec.metavar.str() + "]";
    os << "  " << llvm::left_justify(usage, 36) << " " << spec.help << "\n";
  }
  os << "\nOptions that take a value accept both --flag=value and --flag "
        "value.\n";
}

StringRef driver::getEmitKindName(EmitKind kind) {
  switch (kind) {
  case EmitKind::Binary:
    return "binary";
  case EmitKind::AST:
    return "ast";
  case EmitKind::CSL:
    return "csl";
  case EmitKind::MLIR:
    return "mlir";
  case EmitKind::Fabric:
    return "fabric";
  case EmitKind::PE:
    return "pe";
  }
  llvm_unreachable("unknown emit kind");
}
