//===- Consistency.cpp - out.json, fabric file and binaries agree ---------===//

#include "Consistency.h"
#include "tessera/Support/Format.h"

#include "FileReading.h"

#include <algorithm>
#include <cstdint>
#include <unordered_map>

namespace tessera::emulator::loader {

namespace {

std::string archName(target::Arch arch) {
  return std::string(target::TargetModel::get(arch).getName());
}

std::string pairText(int64_t a, int64_t b) {
  return "[" + std::to_string(a) + ", " + std::to_string(b) + "]";
}

std::string quoted(const std::string &path) { return "'" + path + "'"; }

/// "PATH: 'key' is OURS but 'FABRIC' has THEIRS".
std::string disagreement(const LoadPaths &paths, const std::string &key,
                         const std::string &ours, const std::string &theirs) {
  return paths.json + ": '" + key + "' is " + ours + " but " +
         quoted(paths.fabric) + " has " + theirs;
}

std::string boolText(bool value) { return value ? "true" : "false"; }

/// Whether two element types are stored alike: the binary records storage
/// (a CSL `u32` array is an i32 memref there), out.json the host's view.
bool sameStorage(pe::ElemType a, pe::ElemType b) {
  auto isFloat = [](pe::ElemType t) {
    return t == pe::ElemType::F16 || t == pe::ElemType::BF16 ||
           t == pe::ElemType::F32;
  };
  return pe::getElemTypeBytes(a) == pe::getElemTypeBytes(b) &&
         isFloat(a) == isFloat(b);
}

bool matches(const ExportInfo &e, const pe::Symbol &s) {
  if (s.name != e.name || s.kind != e.kind)
    return false;
  if (e.kind == pe::SymbolKind::Function)
    return s.params.size() == e.params.size() &&
           std::equal(s.params.begin(), s.params.end(), e.params.begin(),
                      sameStorage);
  // The layout may keep the host from writing what the program could let
  // it write, never the other way round.
  return sameStorage(s.elemType, e.type) && (s.isMutable || !e.isMutable);
}

} // namespace

std::string checkFabricHeader(OutputJson &json, const pe::FabricFile &fabric,
                              const LoadPaths &paths) {
  OutputMetadata &m = json.metadata;
  if (m.arch != fabric.arch)
    return disagreement(paths, "arch", "\"" + archName(m.arch) + "\"",
                        "\"" + archName(fabric.arch) + "\"");
  struct Pair {
    const char *key;
    const std::array<int64_t, 2> &ours;
    uint16_t a, b;
  } pairs[] = {
      {"fabric_dims", json.dims, fabric.dimsWidth, fabric.dimsHeight},
      {"fabric_offsets", json.offsets, fabric.offsetX, fabric.offsetY},
      {"rectangle", json.rectangle, fabric.rectWidth, fabric.rectHeight}};
  for (const Pair &p : pairs)
    if (p.ours[0] != p.a || p.ours[1] != p.b)
      return disagreement(paths, p.key, pairText(p.ours[0], p.ours[1]),
                          pairText(p.a, p.b));
  if (json.memcpy != fabric.memcpy)
    return disagreement(paths, "memcpy", boolText(json.memcpy),
                        boolText(fabric.memcpy));
  if (json.channels != fabric.channels)
    return disagreement(paths, "channels", std::to_string(json.channels),
                        std::to_string(fabric.channels));
  m.dimsWidth = fabric.dimsWidth;
  m.dimsHeight = fabric.dimsHeight;
  m.offsetX = fabric.offsetX;
  m.offsetY = fabric.offsetY;
  m.rectWidth = fabric.rectWidth;
  m.rectHeight = fabric.rectHeight;
  m.memcpy = fabric.memcpy;
  m.channels = fabric.channels;
  return {};
}

std::string matchPrograms(const OutputJson &json, const pe::FabricFile &fabric,
                          const LoadPaths &paths,
                          std::vector<size_t> &entryOf) {
  if (fabric.programs.size() > FabricLayout::MaxPrograms)
    return paths.fabric + ": lists " + formatThousands(fabric.programs.size()) +
           " programs, more than the " +
           formatThousands(FabricLayout::MaxPrograms) +
           " the emulator supports";
  std::unordered_map<std::string, size_t> fabricIndex;
  for (size_t i = 0; i < fabric.programs.size(); ++i) {
    auto [it, added] = fabricIndex.try_emplace(fabric.programs[i], i);
    if (!added)
      return paths.fabric + ": program " + quoted(fabric.programs[i]) +
             " is listed twice (programs " + std::to_string(it->second) +
             " and " + std::to_string(i) + ")";
  }
  constexpr size_t None = ~size_t(0);
  entryOf.assign(fabric.programs.size(), None);
  for (size_t e = 0; e < json.programs.size(); ++e) {
    const std::string &file = json.programs[e].file;
    auto it = fabricIndex.find(file);
    if (it == fabricIndex.end())
      return paths.json + ": 'programs[" + std::to_string(e) + "].file' " +
             quoted(file) + " is not a program of " + quoted(paths.fabric);
    if (entryOf[it->second] != None)
      return paths.json + ": 'programs[" + std::to_string(entryOf[it->second]) +
             "]' and 'programs[" + std::to_string(e) + "]' both describe " +
             quoted(file);
    entryOf[it->second] = e;
  }
  for (size_t i = 0; i < entryOf.size(); ++i)
    if (entryOf[i] == None)
      return paths.json + ": no entry of 'programs' describes " +
             quoted(fabric.programs[i]) + ", program " + std::to_string(i) +
             " of " + quoted(paths.fabric);
  return {};
}

std::string checkProgram(const ProgramEntry &entry, size_t entryIndex,
                         const pe::ProgramBinary &binary,
                         const std::string &binaryPath, target::Arch arch,
                         size_t numPEs, const LoadPaths &paths) {
  if (binary.arch != arch)
    return binaryPath + ": the program is for " + archName(binary.arch) +
           " but " + quoted(paths.fabric) + " is for " + archName(arch);
  std::string key = "'programs[" + std::to_string(entryIndex) + "].";
  struct Size {
    const char *name;
    uint64_t claimed, actual;
  } sizes[] = {{"code_bytes", entry.codeBytes, binary.code.size() * 2},
               {"data_bytes", entry.dataBytes, binary.data.size()},
               {"bss_bytes", entry.bssBytes, binary.bssSize}};
  for (const Size &s : sizes)
    if (s.claimed != s.actual)
      return paths.json + ": " + key + s.name + "' is " +
             std::to_string(s.claimed) + " but " + quoted(binaryPath) +
             " has " + std::to_string(s.actual);
  // Saturating, so that an absurd stack size cannot wrap around to "fits".
  uint64_t code = binary.getMemoryBytes();
  uint64_t needed = entry.stackBytes > UINT64_MAX - code
                        ? UINT64_MAX
                        : code + entry.stackBytes;
  if (entry.memoryBytes != needed)
    return paths.json + ": " + key + "memory_bytes' is " +
           std::to_string(entry.memoryBytes) +
           " but code, data, bss and stack add up to " + std::to_string(needed);
  unsigned memory = target::TargetModel::get(arch).getPEMemoryBytes();
  if (needed > memory)
    return binaryPath + ": the program needs " + formatThousands(needed) +
           " bytes of the " + formatThousands(memory) +
           " bytes of PE memory (code " +
           formatThousands(binary.code.size() * 2) + ", data " +
           formatThousands(binary.data.size()) + ", bss " +
           formatThousands(binary.bssSize) + ", stack " +
           formatThousands(entry.stackBytes) + ")";
  if (entry.pes != numPEs)
    return paths.json + ": " + key + "pes' is " + std::to_string(entry.pes) +
           " but " + quoted(paths.fabric) + " places the program on " +
           std::to_string(numPEs) + " PEs";
  return {};
}

std::string checkExports(const LoadedOutput &output, const LoadPaths &paths) {
  const std::vector<ExportInfo> &exports = output.metadata.exports;
  for (size_t i = 0; i < exports.size(); ++i) {
    bool found = false;
    for (const LoadedProgram &program : output.programs)
      for (const pe::Symbol &symbol : program.binary.symbols)
        found = found || matches(exports[i], symbol);
    if (!found)
      return paths.json + ": 'exports[" + std::to_string(i) + "]' " +
             quoted(exports[i].name) + " matches no symbol of any program";
  }
  return {};
}

std::string checkValues(const LoadedOutput &output, const LoadPaths &paths) {
  std::string base = parentPath(paths.fabric);
  for (const pe::PEValue &value : output.values) {
    std::string what = paths.fabric + ": value for " + quoted(value.symbol) +
                       " on PE (" + std::to_string(value.x) + "," +
                       std::to_string(value.y) + "): ";
    const LoadedProgram *program = output.programAt(value.x, value.y);
    if (!program)
      return what + "the PE runs no program";
    const pe::Symbol *symbol =
        findSymbol(program->binary, value.symbol, pe::SymbolKind::Data);
    if (!symbol)
      return what + quoted(joinPath(base, program->file)) +
             " has no data symbol " + quoted(value.symbol);
    uint64_t bytes = getSymbolBytes(*symbol);
    if (value.offset + uint64_t(value.bytes.size()) > bytes)
      return what + std::to_string(value.bytes.size()) + " bytes at offset " +
             std::to_string(value.offset) + " end beyond the symbol's " +
             std::to_string(bytes) + " bytes";
  }
  return {};
}

} // namespace tessera::emulator::loader
