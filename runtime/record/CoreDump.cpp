//===- CoreDump.cpp - a PE's state and memory in a file -------------------===//

#include "tessera/Record/CoreDump.h"

#include "tessera/Emulator/Bytes.h"
#include "tessera/Emulator/RankLink.h"

#include "tessera/Target/PEBinary/ISA.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>

using namespace tessera;
using namespace tessera::emulator;
using json = nlohmann::ordered_json;

namespace {

std::string hexMask(uint64_t mask) {
  char text[24];
  std::snprintf(text, sizeof text, "0x%016llx",
                static_cast<unsigned long long>(mask));
  return text;
}

/// Memory as two lowercase hex digits per byte: 96 KB of text, but
/// readable by anything and diffable.
std::string hexBytes(const std::vector<uint8_t> &bytes) {
  static const char Digits[] = "0123456789abcdef";
  std::string text;
  text.reserve(bytes.size() * 2);
  for (uint8_t byte : bytes) {
    text.push_back(Digits[byte >> 4]);
    text.push_back(Digits[byte & 15]);
  }
  return text;
}

std::optional<std::vector<uint8_t>> parseHexBytes(const std::string &text) {
  if (text.size() % 2)
    return std::nullopt;
  auto digit = [](char c) -> int {
    if (c >= '0' && c <= '9')
      return c - '0';
    if (c >= 'a' && c <= 'f')
      return c - 'a' + 10;
    return -1;
  };
  std::vector<uint8_t> bytes;
  bytes.reserve(text.size() / 2);
  for (size_t i = 0; i < text.size(); i += 2) {
    int high = digit(text[i]), low = digit(text[i + 1]);
    if (high < 0 || low < 0)
      return std::nullopt;
    bytes.push_back(static_cast<uint8_t>(high << 4 | low));
  }
  return bytes;
}

/// Reads the fields of a core dump, remembering the first problem.
class Reader {
public:
  explicit Reader(std::string fileName) : fileName(std::move(fileName)) {}

  template <typename T>
  T get(const json &object, const char *key, const char *what) {
    if (!error.empty())
      return T{};
    auto it = object.find(key);
    if (it == object.end()) {
      fail(std::string("missing '") + key + "'");
      return T{};
    }
    try {
      return it->get<T>();
    } catch (const json::exception &) {
      fail(std::string("'") + key + "' is not " + what);
      return T{};
    }
  }
  void fail(const std::string &message) {
    if (error.empty())
      error = fileName + ": " + message;
  }
  std::string error;

private:
  std::string fileName;
};

} // namespace

std::string tessera::printCoreDump(const CoreDump &dump) {
  const PECoreState &s = dump.state;
  json out;
  out["version"] = CoreDumpVersion;
  out["pe"] = {s.pe.x, s.pe.y};
  out["program"] = s.program;
  out["cycle"] = dump.cycle;
  out["reason"] = dump.reason;
  out["pc"] = s.pc;
  out["registers"] = s.registers;
  out["mainThread"] = s.mainThread;
  out["activity"] = s.activity;
  out["activated"] = hexMask(s.activated);
  out["blocked"] = hexMask(s.blocked);
  json operations = json::array();
  for (const PECoreState::Operation &op : s.operations)
    operations.push_back(
        {{"microthread", op.microthread},
         {"operation", op.mnemonic},
         {"done", op.done},
         {"length", op.length == UINT64_MAX ? json() : json(op.length)}});
  out["operations"] = operations;
  json queues = json::array();
  for (const auto &[color, count] : s.queues)
    queues.push_back({{"color", color}, {"wavelets", count}});
  out["queues"] = queues;
  const PECounters &c = s.counters;
  out["counters"] = {{"instructions", c.instructions},
                     {"dsdElements", c.dsdElements},
                     {"tasksRun", c.tasksRun},
                     {"busyCycles", c.busyCycles},
                     {"stallCycles", c.stallCycles},
                     {"waveletsSent", c.waveletsSent},
                     {"waveletsReceived", c.waveletsReceived}};
  out["memory"] = hexBytes(dump.memory);
  return out.dump(1) + "\n";
}

std::optional<CoreDump> tessera::parseCoreDump(const std::string &text,
                                               const std::string &fileName,
                                               std::string &error) {
  json in = json::parse(text, nullptr, /*allow_exceptions=*/false);
  Reader r(fileName);
  if (in.is_discarded() || !in.is_object()) {
    error = fileName + ": not a core dump (not a JSON object)";
    return std::nullopt;
  }
  CoreDump dump;
  PECoreState &s = dump.state;
  unsigned version = r.get<unsigned>(in, "version", "a number");
  if (r.error.empty() && version != CoreDumpVersion)
    r.fail("version " + std::to_string(version) + " is not " +
           std::to_string(CoreDumpVersion));
  std::vector<unsigned> pe =
      r.get<std::vector<unsigned>>(in, "pe", "a list of two numbers");
  if (r.error.empty() && (pe.size() != 2 || pe[0] > 0xFFFF || pe[1] > 0xFFFF))
    r.fail("'pe' is not a list of two coordinates");
  if (pe.size() == 2)
    s.pe = {static_cast<uint16_t>(pe[0]), static_cast<uint16_t>(pe[1])};
  s.program = r.get<std::string>(in, "program", "a string");
  dump.cycle = r.get<uint64_t>(in, "cycle", "a number");
  dump.reason = r.get<std::string>(in, "reason", "a string");
  s.pc = r.get<uint32_t>(in, "pc", "a number");
  std::vector<uint32_t> registers =
      r.get<std::vector<uint32_t>>(in, "registers", "a list of numbers");
  if (r.error.empty() && registers.size() != s.registers.size())
    r.fail("'registers' does not hold 16 values");
  for (size_t i = 0; i < registers.size() && i < s.registers.size(); ++i)
    s.registers[i] = registers[i];
  s.mainThread = r.get<std::string>(in, "mainThread", "a string");
  s.activity = r.get<std::string>(in, "activity", "a string");
  for (auto [key, mask] : {std::pair{"activated", &s.activated},
                           std::pair{"blocked", &s.blocked}}) {
    std::string hex = r.get<std::string>(in, key, "a string");
    char *end = nullptr;
    *mask = std::strtoull(hex.c_str(), &end, 16);
    if (r.error.empty() && (hex.rfind("0x", 0) != 0 || *end))
      r.fail(std::string("'") + key + "' is not a hexadecimal mask");
  }
  json operations = r.get<json>(in, "operations", "a list");
  for (const json &op : operations.is_array() ? operations : json::array()) {
    PECoreState::Operation &o = s.operations.emplace_back();
    o.microthread = r.get<int>(op, "microthread", "a number");
    o.mnemonic = r.get<std::string>(op, "operation", "a string");
    o.done = r.get<uint64_t>(op, "done", "a number");
    json length = r.get<json>(op, "length", "a number or null");
    o.length =
        length.is_number_unsigned() ? length.get<uint64_t>() : UINT64_MAX;
  }
  json queues = r.get<json>(in, "queues", "a list");
  for (const json &q : queues.is_array() ? queues : json::array())
    s.queues.emplace_back(r.get<uint8_t>(q, "color", "a number"),
                          r.get<uint64_t>(q, "wavelets", "a number"));
  json counters = r.get<json>(in, "counters", "an object");
  if (counters.is_object()) {
    PECounters &c = s.counters;
    c.instructions = r.get<uint64_t>(counters, "instructions", "a number");
    c.dsdElements = r.get<uint64_t>(counters, "dsdElements", "a number");
    c.tasksRun = r.get<uint64_t>(counters, "tasksRun", "a number");
    c.busyCycles = r.get<uint64_t>(counters, "busyCycles", "a number");
    c.stallCycles = r.get<uint64_t>(counters, "stallCycles", "a number");
    c.waveletsSent = r.get<uint64_t>(counters, "waveletsSent", "a number");
    c.waveletsReceived =
        r.get<uint64_t>(counters, "waveletsReceived", "a number");
  }
  std::string memory = r.get<std::string>(in, "memory", "a string");
  if (r.error.empty()) {
    std::optional<std::vector<uint8_t>> bytes = parseHexBytes(memory);
    if (!bytes || bytes->size() != pe::MemoryBytes)
      r.fail("'memory' is not " + std::to_string(pe::MemoryBytes) +
             " bytes in hexadecimal");
    else
      dump.memory = std::move(*bytes);
  }
  if (!r.error.empty()) {
    error = r.error;
    return std::nullopt;
  }
  return dump;
}

namespace {

/// Whether `writeCoreDumps` writes PE (x, y)'s core dump.
bool isWanted(const LoadedOutput &output, const std::optional<PEFault> &fault,
              const std::optional<std::array<uint64_t, 4>> &region, unsigned x,
              unsigned y) {
  if (!output.programAt(x, y))
    return false;
  if (fault && fault->pe.x == x && fault->pe.y == y)
    return true;
  return !region || (x >= (*region)[0] && y >= (*region)[1] &&
                     x <= (*region)[2] && y <= (*region)[3]);
}

/// The core dumps of row `y`'s PEs that this process emulates, as (file
/// name, text).
std::vector<std::pair<std::string, std::string>>
formatRow(const Emulator &emulator, const LoadedOutput &output,
          const std::string &why,
          const std::optional<std::array<uint64_t, 4>> &region, unsigned y) {
  std::vector<std::pair<std::string, std::string>> files;
  const std::optional<PEFault> &fault = emulator.getFault();
  for (unsigned x = 0; x < output.layout.getWidth(); ++x) {
    if (!isWanted(output, fault, region, x, y))
      continue;
    std::optional<PECoreState> state = emulator.getCoreState(x, y);
    if (!state)
      continue; // another rank's
    bool faulted = fault && fault->pe.x == x && fault->pe.y == y;
    CoreDump dump;
    dump.state = std::move(*state);
    dump.cycle = emulator.getCycle();
    dump.reason = faulted ? "fault: " + fault->message : why;
    dump.memory.resize(pe::MemoryBytes);
    (void)emulator.readMemory(x, y, 0, dump.memory);
    files.emplace_back("core-" + std::to_string(x) + "-" + std::to_string(y) +
                           ".json",
                       printCoreDump(dump));
  }
  return files;
}

} // namespace

std::string
tessera::writeCoreDumps(const Emulator &emulator, const LoadedOutput &output,
                        const std::string &why, const std::string &directory,
                        const std::optional<std::array<uint64_t, 4>> &region,
                        RankLink *ranks) {
  bool writes = !ranks || ranks->getRank() == 0;
  std::string error;
  if (writes) {
    std::error_code code;
    std::filesystem::create_directories(directory, code);
    if (code)
      error = "cannot create '" + directory + "': " + code.message();
  }
  if (ranks) {
    // Every rank learns whether rank 0 can write, and stops with it.
    std::vector<uint8_t> bytes(error.begin(), error.end());
    ranks->broadcast(bytes, 0);
    error.assign(bytes.begin(), bytes.end());
  }
  if (!error.empty())
    return error;
  const std::optional<PEFault> &fault = emulator.getFault();
  const FabricLayout &layout = output.layout;
  for (unsigned y = 0; y < layout.getHeight(); ++y) {
    // Every rank skips the same rows, so that each gather has all ranks.
    bool any = false;
    for (unsigned x = 0; x < layout.getWidth() && !any; ++x)
      any = isWanted(output, fault, region, x, y);
    if (!any)
      continue;
    // A row at a time: rank 0 never holds more than a row's dumps.
    std::vector<std::pair<std::string, std::string>> files =
        formatRow(emulator, output, why, region, y);
    if (ranks) {
      ByteWriter out;
      out.put<uint64_t>(files.size());
      for (const auto &[name, text] : files) {
        out.putString(name);
        out.putString(text);
      }
      files.clear();
      for (const std::vector<uint8_t> &part : ranks->gather(out.bytes, 0)) {
        ByteReader in(part);
        for (uint64_t n = in.get<uint64_t>(); n > 0 && in.isOK(); --n) {
          std::string name = in.getString();
          files.emplace_back(std::move(name), in.getString());
        }
      }
    }
    // After a failure rank 0 goes on taking part in the gathers.
    for (const auto &[name, text] : files) {
      if (!error.empty())
        break;
      std::string path = directory + "/" + name;
      std::ofstream file(path);
      file << text;
      if (!file)
        error = "cannot write '" + path + "'";
    }
    if (!error.empty() && !ranks)
      return error;
  }
  return error;
}
