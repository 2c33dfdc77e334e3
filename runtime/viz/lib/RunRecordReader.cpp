//===- RunRecordReader.cpp - run records from JSON, checked ---------------===//
//
// Every value is checked against docs/RunRecord.md before it is used, and the
// first problem found becomes the Error, so no input can crash the reader.
//
//===----------------------------------------------------------------------===//

#include "tessera/Support/Format.h"
#include "tessera/Viz/RunRecordJSON.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <initializer_list>
#include <map>
#include <sstream>
#include <tuple>

using namespace tessera;
using namespace tessera::viz;
using json = nlohmann::json;

namespace {

/// The largest width or height accepted; the wafer is well below it.
constexpr uint64_t MaxFabricDimension = 10'000;

/// How a value reads in a message: "a string", "-3", "an object".
std::string describe(const json &value) {
  switch (value.type()) {
  case json::value_t::null:
    return "null";
  case json::value_t::object:
    return "an object";
  case json::value_t::array:
    return "an array";
  case json::value_t::string:
    return "a string";
  case json::value_t::boolean:
    return value.get<bool>() ? "true" : "false";
  case json::value_t::number_integer:
  case json::value_t::number_unsigned:
  case json::value_t::number_float:
    return value.dump();
  default:
    return "an unsupported value";
  }
}

std::string describePE(unsigned x, unsigned y) {
  return "PE (" + std::to_string(x) + ", " + std::to_string(y) + ")";
}

/// Walks the document, keeping the first error. Each `read...` returns false
/// once an error is recorded; callers stop at the first false.
class Reader {
public:
  explicit Reader(std::string fileName) : fileName(std::move(fileName)) {}

  bool fail(const std::string &pointer, const std::string &message) {
    error =
        fileName + ": " + (pointer.empty() ? "/" : pointer) + ": " + message;
    return false;
  }

  const std::string &getError() const { return error; }

  bool readRecord(const json &root, RunRecord &record);

private:
  bool expectObject(const json &value, const std::string &pointer,
                    std::initializer_list<std::string_view> required,
                    std::initializer_list<std::string_view> optional);
  bool readUnsigned(const json &object, const std::string &pointer,
                    std::string_view key, uint64_t max, uint64_t &result);
  bool readString(const json &object, const std::string &pointer,
                  std::string_view key, std::string &result);
  bool readArray(const json &root, std::string_view key, const json *&result);
  bool readPosition(const json &object, const std::string &pointer,
                    const RunRecord &record, unsigned &x, unsigned &y);
  bool readCycle(const json &object, const std::string &pointer,
                 std::string_view key, const RunRecord &record,
                 uint64_t &cycle);
  bool readSpan(const json &object, const std::string &pointer,
                const RunRecord &record, uint64_t &start, uint64_t &end);
  bool readColor(const json &object, const std::string &pointer,
                 unsigned &color);

  bool readPEs(const json &array, RunRecord &record);
  bool readLinks(const json &array, RunRecord &record);
  bool readTasks(const json &array, RunRecord &record);
  bool readDSDOperations(const json &array, RunRecord &record);
  bool readWavelets(const json &array, RunRecord &record);
  bool readPrints(const json &array, RunRecord &record);

  std::string fileName;
  std::string error;
};

bool Reader::expectObject(const json &value, const std::string &pointer,
                          std::initializer_list<std::string_view> required,
                          std::initializer_list<std::string_view> optional) {
  if (!value.is_object())
    return fail(pointer, "expected an object, found " + describe(value));
  for (std::string_view key : required)
    if (!value.contains(key))
      return fail(pointer, "missing key '" + std::string(key) + "'");
  for (const auto &[key, member] : value.items()) {
    bool known = false;
    for (std::string_view name : required)
      known |= name == key;
    for (std::string_view name : optional)
      known |= name == key;
    if (!known)
      return fail(pointer, "unknown key '" + key + "'");
  }
  return true;
}

bool Reader::readUnsigned(const json &object, const std::string &pointer,
                          std::string_view key, uint64_t max,
                          uint64_t &result) {
  std::string where = pointer + "/" + std::string(key);
  const json &value = object.at(key);
  if (!value.is_number_unsigned() &&
      !(value.is_number_integer() && value.get<int64_t>() >= 0))
    return fail(where,
                "expected a non-negative integer, found " + describe(value));
  result = value.get<uint64_t>();
  if (result > max)
    return fail(where, std::to_string(result) + " is more than the largest " +
                           "allowed, " + formatThousands(max));
  return true;
}

bool Reader::readString(const json &object, const std::string &pointer,
                        std::string_view key, std::string &result) {
  const json &value = object.at(key);
  if (!value.is_string())
    return fail(pointer + "/" + std::string(key),
                "expected a string, found " + describe(value));
  result = value.get<std::string>();
  return true;
}

bool Reader::readArray(const json &root, std::string_view key,
                       const json *&result) {
  static const json Empty = json::array();
  result = &Empty;
  if (!root.contains(key))
    return true;
  const json &value = root.at(key);
  if (!value.is_array())
    return fail("/" + std::string(key),
                "expected an array, found " + describe(value));
  result = &value;
  return true;
}

bool Reader::readPosition(const json &object, const std::string &pointer,
                          const RunRecord &record, unsigned &x, unsigned &y) {
  uint64_t column, row;
  if (!readUnsigned(object, pointer, "x", UINT32_MAX, column) ||
      !readUnsigned(object, pointer, "y", UINT32_MAX, row))
    return false;
  if (column >= record.width)
    return fail(pointer + "/x", std::to_string(column) +
                                    " is outside the fabric (width " +
                                    std::to_string(record.width) + ")");
  if (row >= record.height)
    return fail(pointer + "/y", std::to_string(row) +
                                    " is outside the fabric (height " +
                                    std::to_string(record.height) + ")");
  x = unsigned(column);
  y = unsigned(row);
  return true;
}

bool Reader::readCycle(const json &object, const std::string &pointer,
                       std::string_view key, const RunRecord &record,
                       uint64_t &cycle) {
  if (!readUnsigned(object, pointer, key, UINT64_MAX, cycle))
    return false;
  if (cycle > record.cycles)
    return fail(pointer + "/" + std::string(key),
                "cycle " + std::to_string(cycle) +
                    " is after the end of the run (cycles " +
                    std::to_string(record.cycles) + ")");
  return true;
}

bool Reader::readSpan(const json &object, const std::string &pointer,
                      const RunRecord &record, uint64_t &start, uint64_t &end) {
  if (!readCycle(object, pointer, "start", record, start) ||
      !readCycle(object, pointer, "end", record, end))
    return false;
  if (end < start)
    return fail(pointer + "/end", "end " + std::to_string(end) +
                                      " is before start " +
                                      std::to_string(start));
  return true;
}

bool Reader::readColor(const json &object, const std::string &pointer,
                       unsigned &color) {
  uint64_t value;
  if (!readUnsigned(object, pointer, "color", UINT32_MAX, value))
    return false;
  if (value >= NumColors)
    return fail(pointer + "/color", "color " + std::to_string(value) +
                                        " is outside 0.." +
                                        std::to_string(NumColors - 1));
  color = unsigned(value);
  return true;
}

bool Reader::readRecord(const json &root, RunRecord &record) {
  if (!expectObject(
          root, "", {"version", "arch", "width", "height", "cycles"},
          {"pes", "links", "tasks", "dsdOperations", "wavelets", "prints"}))
    return false;
  uint64_t version;
  if (!readUnsigned(root, "", "version", UINT32_MAX, version))
    return false;
  if (version != RunRecordVersion)
    return fail("/version", "version " + std::to_string(version) +
                                " is not supported (expected " +
                                std::to_string(RunRecordVersion) + ")");
  std::string archName;
  if (!readString(root, "", "arch", archName))
    return false;
  std::optional<Arch> arch = parseArch(archName);
  if (!arch)
    return fail("/arch",
                "unknown arch '" + archName + "' (expected wse2 or wse3)");
  record.arch = *arch;
  uint64_t width, height;
  if (!readUnsigned(root, "", "width", MaxFabricDimension, width) ||
      !readUnsigned(root, "", "height", MaxFabricDimension, height) ||
      !readUnsigned(root, "", "cycles", UINT64_MAX, record.cycles))
    return false;
  if (width == 0)
    return fail("/width", "the fabric must be at least 1 PE wide");
  if (height == 0)
    return fail("/height", "the fabric must be at least 1 PE high");
  record.width = unsigned(width);
  record.height = unsigned(height);

  const json *pes, *links, *tasks, *dsdOperations, *wavelets, *prints;
  return readArray(root, "pes", pes) && readArray(root, "links", links) &&
         readArray(root, "tasks", tasks) &&
         readArray(root, "dsdOperations", dsdOperations) &&
         readArray(root, "wavelets", wavelets) &&
         readArray(root, "prints", prints) && readPEs(*pes, record) &&
         readLinks(*links, record) && readTasks(*tasks, record) &&
         readDSDOperations(*dsdOperations, record) &&
         readWavelets(*wavelets, record) && readPrints(*prints, record);
}

bool Reader::readPEs(const json &array, RunRecord &record) {
  std::map<std::pair<unsigned, unsigned>, size_t> seen;
  for (size_t i = 0; i < array.size(); ++i) {
    std::string pointer = "/pes/" + std::to_string(i);
    const json &object = array[i];
    if (!expectObject(object, pointer, {"x", "y"},
                      {"program", "counters", "memoryBytesUsed"}))
      return false;
    PERecord pe;
    if (!readPosition(object, pointer, record, pe.x, pe.y))
      return false;
    auto [previous, inserted] = seen.try_emplace({pe.x, pe.y}, i);
    if (!inserted)
      return fail(pointer, describePE(pe.x, pe.y) +
                               " already has a record (/pes/" +
                               std::to_string(previous->second) + ")");
    if (object.contains("program") &&
        !readString(object, pointer, "program", pe.program))
      return false;
    if (object.contains("counters")) {
      const json &counters = object.at("counters");
      std::string countersPointer = pointer + "/counters";
      if (!expectObject(counters, countersPointer, {},
                        {"instructions", "dsdElements", "tasksRun",
                         "busyCycles", "stallCycles", "waveletsSent",
                         "waveletsReceived"}))
        return false;
      for (unsigned m = 0; m < unsigned(PEMetric::MemoryBytesUsed); ++m) {
        std::string_view key = getMetricKey(PEMetric(m));
        if (counters.contains(key) &&
            !readUnsigned(counters, countersPointer, key, UINT64_MAX,
                          pe.metrics[m]))
          return false;
      }
    }
    uint64_t memory = 0;
    if (object.contains("memoryBytesUsed") &&
        !readUnsigned(object, pointer, "memoryBytesUsed", UINT64_MAX, memory))
      return false;
    pe.set(PEMetric::MemoryBytesUsed, memory);
    record.pes.push_back(std::move(pe));
  }
  return true;
}

bool Reader::readLinks(const json &array, RunRecord &record) {
  std::map<std::tuple<unsigned, unsigned, unsigned, unsigned>, size_t> seen;
  for (size_t i = 0; i < array.size(); ++i) {
    std::string pointer = "/links/" + std::to_string(i);
    const json &object = array[i];
    if (!expectObject(object, pointer,
                      {"x", "y", "direction", "color", "wavelets"}, {}))
      return false;
    LinkRecord link;
    std::string directionName;
    if (!readPosition(object, pointer, record, link.x, link.y) ||
        !readString(object, pointer, "direction", directionName))
      return false;
    std::optional<Direction> direction = parseDirection(directionName);
    if (!direction)
      return fail(pointer + "/direction",
                  "unknown direction '" + directionName +
                      "' (expected north, south, east, west or ramp)");
    link.direction = *direction;
    if (!readColor(object, pointer, link.color) ||
        !readUnsigned(object, pointer, "wavelets", UINT64_MAX, link.wavelets))
      return false;
    auto [previous, inserted] = seen.try_emplace(
        {link.x, link.y, unsigned(link.direction), link.color}, i);
    if (!inserted)
      return fail(pointer, "the " + std::string(directionName) + " link of " +
                               describePE(link.x, link.y) + " on color " +
                               std::to_string(link.color) +
                               " already has a record (/links/" +
                               std::to_string(previous->second) + ")");
    record.links.push_back(link);
  }
  return true;
}

bool Reader::readTasks(const json &array, RunRecord &record) {
  for (size_t i = 0; i < array.size(); ++i) {
    std::string pointer = "/tasks/" + std::to_string(i);
    const json &object = array[i];
    if (!expectObject(object, pointer, {"x", "y", "id", "start", "end"},
                      {"name"}))
      return false;
    TaskSpan task;
    uint64_t id;
    if (!readPosition(object, pointer, record, task.x, task.y) ||
        !readUnsigned(object, pointer, "id", UINT32_MAX, id) ||
        (object.contains("name") &&
         !readString(object, pointer, "name", task.taskName)) ||
        !readSpan(object, pointer, record, task.start, task.end))
      return false;
    task.taskId = unsigned(id);
    record.tasks.push_back(std::move(task));
  }
  return true;
}

bool Reader::readDSDOperations(const json &array, RunRecord &record) {
  for (size_t i = 0; i < array.size(); ++i) {
    std::string pointer = "/dsdOperations/" + std::to_string(i);
    const json &object = array[i];
    if (!expectObject(object, pointer,
                      {"x", "y", "thread", "operation", "start", "end"}, {}))
      return false;
    DSDSpan span;
    if (!readPosition(object, pointer, record, span.x, span.y))
      return false;
    const json &thread = object.at("thread");
    if (thread.is_string() && thread.get<std::string>() == "main") {
      span.microthread = std::nullopt;
    } else if (thread.is_number_unsigned() && thread.get<uint64_t>() < 256) {
      span.microthread = unsigned(thread.get<uint64_t>());
    } else {
      return fail(pointer + "/thread",
                  "expected \"main\" or a microthread index (0..255), found " +
                      (thread.is_string()
                           ? "\"" + thread.get<std::string>() + "\""
                           : describe(thread)));
    }
    if (!readString(object, pointer, "operation", span.operation) ||
        !readSpan(object, pointer, record, span.start, span.end))
      return false;
    record.dsdOperations.push_back(std::move(span));
  }
  return true;
}

bool Reader::readWavelets(const json &array, RunRecord &record) {
  for (size_t i = 0; i < array.size(); ++i) {
    std::string pointer = "/wavelets/" + std::to_string(i);
    const json &object = array[i];
    if (!expectObject(object, pointer, {"cycle", "x", "y", "color", "event"},
                      {}))
      return false;
    WaveletEvent event;
    std::string kind;
    if (!readCycle(object, pointer, "cycle", record, event.cycle) ||
        !readPosition(object, pointer, record, event.x, event.y) ||
        !readColor(object, pointer, event.color) ||
        !readString(object, pointer, "event", kind))
      return false;
    if (kind == "send")
      event.kind = WaveletEventKind::Send;
    else if (kind == "receive")
      event.kind = WaveletEventKind::Receive;
    else
      return fail(pointer + "/event",
                  "unknown event '" + kind + "' (expected send or receive)");
    record.wavelets.push_back(event);
  }
  return true;
}

bool Reader::readPrints(const json &array, RunRecord &record) {
  for (size_t i = 0; i < array.size(); ++i) {
    std::string pointer = "/prints/" + std::to_string(i);
    const json &object = array[i];
    if (!expectObject(object, pointer, {"cycle", "x", "y", "text"}, {}))
      return false;
    PrintEvent print;
    if (!readCycle(object, pointer, "cycle", record, print.cycle) ||
        !readPosition(object, pointer, record, print.x, print.y) ||
        !readString(object, pointer, "text", print.text))
      return false;
    record.prints.push_back(std::move(print));
  }
  return true;
}

/// "syntax error while parsing value - ..." out of nlohmann's
/// "[json.exception.parse_error.101] parse error at line 1, column 2: ...".
std::string describeSyntaxError(const std::string &what) {
  size_t column = what.find("column ");
  size_t colon = column == std::string::npos ? column : what.find(": ", column);
  return colon == std::string::npos ? what : what.substr(colon + 2);
}

/// Line and column (from 1) of the byte before `offset`, where nlohmann
/// stopped.
std::pair<size_t, size_t> locate(std::string_view text, size_t offset) {
  size_t line = 1, column = 0;
  for (size_t i = 0; i < offset && i < text.size(); ++i) {
    if (text[i] == '\n') {
      ++line;
      column = 0;
    } else {
      ++column;
    }
  }
  return {line, column == 0 ? 1 : column};
}

} // namespace

Expected<RunRecord> tessera::viz::parseRunRecord(std::string_view text,
                                                 const std::string &fileName) {
  json root = json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (root.is_discarded()) {
    // Parse again to learn where and why; only this path throws.
    try {
      (void)json::parse(text);
    } catch (const json::parse_error &failure) {
      auto [line, column] = locate(text, failure.byte);
      return Error(fileName + ":" + std::to_string(line) + ":" +
                   std::to_string(column) +
                   ": invalid JSON: " + describeSyntaxError(failure.what()));
    }
    return Error(fileName + ": invalid JSON");
  }
  Reader reader(fileName);
  RunRecord record;
  if (!reader.readRecord(root, record))
    return Error(reader.getError());
  return record;
}

Expected<RunRecord> tessera::viz::readRunRecord(const std::string &path) {
  std::error_code ignored;
  std::string file = path;
  if (std::filesystem::is_directory(path, ignored)) {
    file = (std::filesystem::path(path) / "run.json").string();
    if (!std::filesystem::exists(file, ignored))
      return Error("directory '" + path + "' has no run.json");
  }
  std::ifstream stream(file, std::ios::binary);
  if (!stream)
    return Error("cannot open '" + file + "': " + std::strerror(errno));
  std::ostringstream contents;
  contents << stream.rdbuf();
  if (stream.bad())
    return Error("cannot read '" + file + "': " + std::strerror(errno));
  return parseRunRecord(contents.str(), file);
}
