//===- OutputJson.cpp - out.json into typed fields ------------------------===//
//
// Every key cslc writes is required and checked for its type here; keys this
// loader does not know are ignored, so later compilers may add some. A key
// that is missing gets the same message as one of the wrong type: both say
// what the key must be.
//
//===----------------------------------------------------------------------===//

#include "OutputJson.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <limits>
#include <utility>

namespace tessera::emulator::loader {

using Json = nlohmann::json;

namespace {

constexpr const char *TypeNameList =
    "a type name (i8, u8, i16, u16, i32, u32, i64, u64, f16, bf16, f32, bool)";

/// "none" is no type a host-visible value can have, so it is not accepted.
std::optional<pe::ElemType> parseElemType(const Json &value) {
  if (!value.is_string())
    return std::nullopt;
  std::optional<pe::ElemType> type =
      pe::parseElemTypeName(value.get_ref<const std::string &>());
  if (type == pe::ElemType::None)
    return std::nullopt;
  return type;
}

bool toInt64(const Json &value, int64_t &out) {
  if (!value.is_number_integer())
    return false;
  if (value.is_number_unsigned()) {
    uint64_t u = value.get<uint64_t>();
    if (u > uint64_t(std::numeric_limits<int64_t>::max()))
      return false;
    out = int64_t(u);
    return true;
  }
  out = value.get<int64_t>();
  return true;
}

/// Whether `version` is "MAJOR.MINOR" with this reader's major version.
bool isSupportedVersion(const std::string &version) {
  size_t dot = version.find('.');
  auto digits = [](std::string_view s) {
    return !s.empty() && s.find_first_not_of("0123456789") == s.npos;
  };
  return dot != std::string::npos &&
         digits(std::string_view(version).substr(0, dot)) &&
         digits(std::string_view(version).substr(dot + 1)) &&
         version.substr(0, dot) == std::to_string(pe::FormatMajorVersion);
}

class Parser {
public:
  Parser(const std::string &path, OutputJson &out) : path(path), out(out) {}

  std::string run(const Json &root) {
    if (!root.is_object())
      return path + ": the top level must be an object";
    OutputMetadata &m = out.metadata;
    // The version first: a file of another major version may lay out the
    // other keys differently, and its version is the useful complaint.
    if (!formatVersion(root) || !arch(root) ||
        !integer(root, "channels", out.channels) ||
        !stringMap(root, "colors", m.colors) ||
        !string(root, "compiler", "compiler", m.compiler) || !exports(root) ||
        !pair(root, "fabric_dims", out.dims) ||
        !string(root, "fabric_file", "fabric_file", m.fabricFile) ||
        !pair(root, "fabric_offsets", out.offsets) || !hostStreams(root) ||
        !boolean(root, "memcpy", "memcpy", out.memcpy) ||
        !stringMap(root, "params", m.params) || !programs(root) ||
        !pair(root, "rectangle", out.rectangle))
      return error;
    return {};
  }

private:
  /// Records "PATH: 'key' must be WHAT"; returns false.
  bool mustBe(const std::string &key, std::string_view what) {
    error = path + ": '" + key + "' must be " + std::string(what);
    return false;
  }

  static const Json *member(const Json &object, const char *key) {
    auto it = object.find(key);
    return it == object.end() ? nullptr : &*it;
  }

  bool string(const Json &object, const char *key, const std::string &name,
              std::string &value) {
    const Json *v = member(object, key);
    if (!v || !v->is_string())
      return mustBe(name, "a string");
    value = v->get<std::string>();
    return true;
  }

  bool boolean(const Json &object, const char *key, const std::string &name,
               bool &value) {
    const Json *v = member(object, key);
    if (!v || !v->is_boolean())
      return mustBe(name, "a boolean");
    value = v->get<bool>();
    return true;
  }

  bool integer(const Json &object, const char *key, int64_t &value) {
    const Json *v = member(object, key);
    if (!v || !toInt64(*v, value))
      return mustBe(key, "an integer");
    return true;
  }

  bool count(const Json &object, const char *key, const std::string &prefix,
             uint64_t &value) {
    const Json *v = member(object, key);
    if (!v || !v->is_number_unsigned())
      return mustBe(prefix + key, "a non-negative integer");
    value = v->get<uint64_t>();
    return true;
  }

  bool pair(const Json &object, const char *key,
            std::array<int64_t, 2> &value) {
    const Json *v = member(object, key);
    if (!v || !v->is_array() || v->size() != 2 || !toInt64((*v)[0], value[0]) ||
        !toInt64((*v)[1], value[1]))
      return mustBe(key, "an array of two integers");
    return true;
  }

  bool stringMap(const Json &object, const char *key,
                 std::map<std::string, std::string> &value) {
    const Json *v = member(object, key);
    if (!v || !v->is_object())
      return mustBe(key, "an object of strings");
    for (const auto &[name, item] : v->items()) {
      if (!item.is_string())
        return mustBe(key, "an object of strings");
      value[name] = item.get<std::string>();
    }
    return true;
  }

  bool stringList(const Json &object, const char *key, const std::string &name,
                  std::vector<std::string> &value) {
    const Json *v = member(object, key);
    if (!v || !v->is_array())
      return mustBe(name, "an array of strings");
    for (const Json &item : *v) {
      if (!item.is_string())
        return mustBe(name, "an array of strings");
      value.push_back(item.get<std::string>());
    }
    return true;
  }

  bool formatVersion(const Json &root) {
    std::string &version = out.metadata.formatVersion;
    if (!string(root, "format_version", "format_version", version))
      return false;
    if (isSupportedVersion(version))
      return true;
    error = path + ": 'format_version' \"" + version +
            "\" is not supported (this loader reads " +
            std::to_string(pe::FormatMajorVersion) + ".x)";
    return false;
  }

  bool arch(const Json &root) {
    const Json *v = member(root, "arch");
    std::optional<target::Arch> arch;
    if (v && v->is_string())
      arch = target::parseArch(v->get_ref<const std::string &>());
    if (!arch)
      return mustBe("arch", "\"wse2\" or \"wse3\"");
    out.metadata.arch = *arch;
    return true;
  }

  bool exportEntry(const Json &entry, const std::string &name) {
    if (!entry.is_object())
      return mustBe(name, "an object");
    ExportInfo info;
    std::string kind;
    if (!string(entry, "name", name + ".name", info.name) ||
        !string(entry, "kind", name + ".kind", kind))
      return false;
    if (kind == "data") {
      const Json *type = member(entry, "type");
      std::optional<pe::ElemType> elemType;
      if (type)
        elemType = parseElemType(*type);
      if (!elemType)
        return mustBe(name + ".type", TypeNameList);
      info.type = *elemType;
      if (!boolean(entry, "mutable", name + ".mutable", info.isMutable))
        return false;
    } else if (kind == "function") {
      info.kind = pe::SymbolKind::Function;
      const Json *params = member(entry, "params");
      if (!params || !params->is_array())
        return mustBe(name + ".params", "an array of type names");
      for (const Json &param : *params) {
        std::optional<pe::ElemType> type = parseElemType(param);
        if (!type)
          return mustBe(name + ".params", "an array of type names");
        info.params.push_back(*type);
      }
    } else {
      return mustBe(name + ".kind", "\"data\" or \"function\"");
    }
    out.metadata.exports.push_back(std::move(info));
    return true;
  }

  bool exports(const Json &root) {
    const Json *v = member(root, "exports");
    if (!v || !v->is_array())
      return mustBe("exports", "an array");
    for (size_t i = 0; i < v->size(); ++i)
      if (!exportEntry((*v)[i], "exports[" + std::to_string(i) + "]"))
        return false;
    return true;
  }

  bool programEntry(const Json &entry, const std::string &name) {
    if (!entry.is_object())
      return mustBe(name, "an object");
    ProgramEntry p;
    std::string prefix = name + ".";
    if (!string(entry, "name", prefix + "name", p.name) ||
        !string(entry, "file", prefix + "file", p.file) ||
        !string(entry, "source", prefix + "source", p.source) ||
        !stringList(entry, "instances", prefix + "instances", p.instances) ||
        !count(entry, "pes", prefix, p.pes) ||
        !count(entry, "code_bytes", prefix, p.codeBytes) ||
        !count(entry, "data_bytes", prefix, p.dataBytes) ||
        !count(entry, "bss_bytes", prefix, p.bssBytes) ||
        !count(entry, "stack_bytes", prefix, p.stackBytes) ||
        !count(entry, "memory_bytes", prefix, p.memoryBytes))
      return false;
    out.programs.push_back(std::move(p));
    return true;
  }

  bool programs(const Json &root) {
    const Json *v = member(root, "programs");
    if (!v || !v->is_array())
      return mustBe("programs", "an array");
    for (size_t i = 0; i < v->size(); ++i)
      if (!programEntry((*v)[i], "programs[" + std::to_string(i) + "]"))
        return false;
    return true;
  }

  /// A coordinate or color: kept wide, compared with the rectangle and
  /// the target later.
  bool number(const Json &object, const char *key, const std::string &prefix,
              int64_t &value) {
    uint64_t wide = 0;
    if (!count(object, key, prefix, wide))
      return false;
    value = int64_t(std::min<uint64_t>(
        wide, uint64_t(std::numeric_limits<int64_t>::max())));
    return true;
  }

  bool hostStreamEntry(const Json &entry, const std::string &name) {
    if (!entry.is_object())
      return mustBe(name, "an object");
    HostStreamEntry stream;
    std::string prefix = name + ".";
    std::string direction, port;
    if (!string(entry, "name", prefix + "name", stream.name))
      return false;
    const Json *v = member(entry, "direction");
    if (v && v->is_string())
      direction = v->get<std::string>();
    if (direction != "in" && direction != "out")
      return mustBe(prefix + "direction", "\"in\" or \"out\"");
    stream.output = direction == "out";
    if (!number(entry, "x", prefix, stream.x) ||
        !number(entry, "y", prefix, stream.y))
      return false;
    static constexpr std::pair<const char *, pe::Port> Ports[] = {
        {"west", pe::Port::West},
        {"east", pe::Port::East},
        {"north", pe::Port::North},
        {"south", pe::Port::South}};
    v = member(entry, "port");
    bool known = false;
    for (const auto &[text, value] : Ports)
      if (v && v->is_string() && v->get_ref<const std::string &>() == text) {
        stream.port = value;
        known = true;
      }
    if (!known)
      return mustBe(prefix + "port",
                    "\"west\", \"east\", \"north\" or \"south\"");
    if (!number(entry, "color", prefix, stream.color))
      return false;
    out.hostStreams.push_back(std::move(stream));
    return true;
  }

  /// Optional: programs without host streams need not have the key.
  bool hostStreams(const Json &root) {
    const Json *v = member(root, "host_streams");
    if (!v)
      return true;
    if (!v->is_array())
      return mustBe("host_streams", "an array");
    for (size_t i = 0; i < v->size(); ++i)
      if (!hostStreamEntry((*v)[i], "host_streams[" + std::to_string(i) + "]"))
        return false;
    return true;
  }

  const std::string &path;
  OutputJson &out;
  std::string error;
};

/// nlohmann says "[json.exception.parse_error.101] parse error at line 2,
/// column 5: ..."; the loader says "invalid JSON at line 2, column 5: ...".
std::string describeParseError(const std::string &what) {
  static constexpr std::string_view Lead = "parse error";
  if (size_t at = what.find(Lead); at != std::string::npos)
    return "invalid JSON" + what.substr(at + Lead.size());
  // Other kinds ("number overflow parsing '1e999'") have no position.
  size_t close = what.find("] ");
  return "invalid JSON: " +
         (close == std::string::npos ? what : what.substr(close + 2));
}

} // namespace


std::string parseOutputJson(std::string_view text, const std::string &path,
                            OutputJson &out) {
  Json root;
  try {
    root = Json::parse(text.begin(), text.end());
  } catch (const Json::exception &e) {
    return path + ": " + describeParseError(e.what());
  }
  return Parser(path, out).run(root);
}

} // namespace tessera::emulator::loader
