//===- Reader.cpp - bytes to program binaries and fabric files ------------===//
//
// Every field is checked before it is used, and every count is bounded by
// the bytes left in its section before anything is allocated, so a corrupt
// or hostile file costs at most memory proportional to its size.
//
//===----------------------------------------------------------------------===//

#include "Container.h"

#include "tessera/Target/PEBinary/Binary.h"

#include <algorithm>
#include <cstdio>
#include <map>

namespace tessera::pe {

using namespace container;

namespace {

std::string hex(uint64_t value) {
  char buffer[24];
  std::snprintf(buffer, sizeof(buffer), "0x%llx",
                static_cast<unsigned long long>(value));
  return buffer;
}

/// Reads one section; the first failure sticks.
class Cursor {
public:
  Cursor(std::span<const uint8_t> file, size_t begin, size_t size,
         std::string name, std::optional<FormatError> &error)
      : file(file), pos(begin), end(begin + size), name(std::move(name)),
        error(error) {}

  bool ok() const { return !error; }
  size_t offset() const { return pos; }
  size_t remaining() const { return end - pos; }

  bool fail(size_t at, std::string message) {
    if (!error)
      error = FormatError{at, std::move(message)};
    return false;
  }
  bool u8(uint8_t &v) {
    if (!need(1))
      return false;
    v = file[pos++];
    return true;
  }
  bool u16(uint16_t &v) {
    if (!need(2))
      return false;
    v = uint16_t(file[pos] | file[pos + 1] << 8);
    pos += 2;
    return true;
  }
  bool u32(uint32_t &v) {
    if (!need(4))
      return false;
    v = uint32_t(file[pos]) | uint32_t(file[pos + 1]) << 8 |
        uint32_t(file[pos + 2]) << 16 | uint32_t(file[pos + 3]) << 24;
    pos += 4;
    return true;
  }
  bool bytes(size_t n, std::vector<uint8_t> &out) {
    if (!need(n))
      return false;
    out.assign(file.begin() + pos, file.begin() + pos + n);
    pos += n;
    return true;
  }
  /// Reads a table's count and checks that `entrySize` bytes per entry fit.
  bool count(uint32_t &n, size_t entrySize) {
    size_t at = pos;
    if (!u32(n))
      return false;
    if (uint64_t(n) * entrySize > remaining())
      return fail(at, "count " + std::to_string(n) + " in section '" + name +
                          "' is out of range: " + std::to_string(remaining()) +
                          " bytes left for entries of at least " +
                          std::to_string(entrySize));
    return true;
  }
  bool zero(uint8_t v, size_t at) {
    return v == 0 ||
           fail(at, "reserved field in section '" + name + "' is not zero");
  }
  bool finish() {
    if (ok() && pos != end)
      return fail(pos, std::to_string(end - pos) +
                           " trailing bytes in section '" + name + "'");
    return ok();
  }

private:
  // Every field of a wafer's fabric file passes here: the check inlines,
  // the message is built out of line.
  bool need(size_t n) { return ok() && (n <= end - pos || truncated(n)); }
  [[gnu::noinline, gnu::cold]] bool truncated(size_t n) {
    return fail(pos, "truncated section '" + name + "': needs " +
                         std::to_string(n) + " more bytes, has " +
                         std::to_string(end - pos));
  }

  std::span<const uint8_t> file;
  size_t pos, end;
  std::string name;
  std::optional<FormatError> &error;
};

struct SectionRef {
  uint16_t kind;
  size_t offset;
  size_t size;
};

/// Checks header, checksum and directory; fills `sections` by kind.
std::optional<FormatError>
readContainer(std::span<const uint8_t> bytes, std::span<const uint8_t, 4> magic,
              const char *what, std::map<uint16_t, SectionRef> &sections) {
  auto at = [&](size_t i) -> unsigned { return bytes[i]; };
  auto le16 = [&](size_t i) { return uint16_t(at(i) | at(i + 1) << 8); };
  auto le32 = [&](size_t i) { return uint32_t(le16(i) | le16(i + 2) << 16); };
  if (bytes.size() < HeaderSize)
    return FormatError{bytes.size(),
                       "truncated header: " + std::to_string(bytes.size()) +
                           " bytes of " + std::to_string(HeaderSize)};
  if (!std::equal(magic.begin(), magic.end(), bytes.begin()))
    return FormatError{0, std::string("bad magic: not a Tessera ") + what};
  uint16_t major = le16(4), minor = le16(6);
  if (major != FormatMajorVersion)
    return FormatError{4, "unsupported format version " +
                              std::to_string(major) + "." +
                              std::to_string(minor) + " (this reader reads " +
                              std::to_string(FormatMajorVersion) + ".x)"};
  if (le16(10) != 0)
    return FormatError{10, "reserved header field is not zero"};
  uint32_t stored = le32(ChecksumOffset);
  uint32_t computed = crc32(bytes.subspan(HeaderSize));
  if (stored != computed)
    return FormatError{ChecksumOffset, "checksum mismatch: stored " +
                                           hex(stored) + ", computed " +
                                           hex(computed)};
  size_t count = le16(8);
  size_t directoryEnd = HeaderSize + count * DirectoryEntrySize;
  if (directoryEnd > bytes.size())
    return FormatError{
        HeaderSize, "truncated section directory: " + std::to_string(count) +
                        " sections need " + std::to_string(directoryEnd) +
                        " bytes, the file has " + std::to_string(bytes.size())};
  std::vector<SectionRef> all;
  for (size_t i = 0; i < count; ++i) {
    size_t entry = HeaderSize + i * DirectoryEntrySize;
    SectionRef ref{le16(entry), le32(entry + 4), le32(entry + 8)};
    if (le16(entry + 2) != 0)
      return FormatError{entry + 2, "reserved directory field is not zero"};
    if (ref.offset < directoryEnd || ref.offset + ref.size > bytes.size())
      return FormatError{
          entry + 4,
          "truncated section: section kind " + std::to_string(ref.kind) +
              " at " + std::to_string(ref.offset) + " of " +
              std::to_string(ref.size) + " bytes lies outside the file's " +
              std::to_string(bytes.size()) + " bytes"};
    if (!sections.emplace(ref.kind, ref).second)
      return FormatError{entry,
                         "duplicate section kind " + std::to_string(ref.kind)};
    all.push_back(ref);
  }
  std::sort(all.begin(), all.end(),
            [](const SectionRef &a, const SectionRef &b) {
              return a.offset < b.offset;
            });
  for (size_t i = 1; i < all.size(); ++i)
    if (all[i].offset < all[i - 1].offset + all[i - 1].size)
      return FormatError{all[i].offset, "overlapping sections: kind " +
                                            std::to_string(all[i - 1].kind) +
                                            " and kind " +
                                            std::to_string(all[i].kind)};
  return std::nullopt;
}

/// Parses the Strings section (possibly absent: no strings).
bool readStrings(std::span<const uint8_t> bytes,
                 const std::map<uint16_t, SectionRef> &sections,
                 std::optional<FormatError> &error,
                 std::vector<std::string> &strings) {
  auto it = sections.find(Strings);
  if (it == sections.end())
    return true;
  Cursor c(bytes, it->second.offset, it->second.size, "strings", error);
  uint32_t n;
  if (!c.count(n, 2))
    return false;
  strings.reserve(n);
  for (uint32_t i = 0; i < n; ++i) {
    uint16_t length;
    std::vector<uint8_t> text;
    if (!c.u16(length) || !c.bytes(length, text))
      return false;
    strings.emplace_back(text.begin(), text.end());
  }
  return c.finish();
}

bool stringRef(Cursor &c, const std::vector<std::string> &strings,
               std::string &out) {
  size_t at = c.offset();
  uint32_t index;
  if (!c.u32(index))
    return false;
  if (index >= strings.size())
    return c.fail(at, "string index " + std::to_string(index) +
                          " is out of range (" +
                          std::to_string(strings.size()) + " strings)");
  out = strings[index];
  return true;
}

bool archField(Cursor &c, target::Arch &arch) {
  size_t at = c.offset();
  uint8_t v;
  if (!c.u8(v))
    return false;
  if (v > 1)
    return c.fail(at, "unknown architecture " + std::to_string(v));
  arch = v ? target::Arch::WSE3 : target::Arch::WSE2;
  return true;
}

/// A memory region of the program, for range and overlap checks.
struct Region {
  const char *name;
  uint64_t begin, size;
};

//===----------------------------------------------------------------------===//
// What both readers share
//===----------------------------------------------------------------------===//

/// The directory and string table of a container, and the first error.
class ContainerReader {
protected:
  explicit ContainerReader(std::span<const uint8_t> bytes) : bytes(bytes) {}

  /// Checks the header and directory and reads the strings; false after an
  /// error (in `error`).
  bool open(const std::array<uint8_t, 4> &magic, const char *what) {
    if (auto err = readContainer(bytes, magic, what, sections)) {
      error = err;
      return false;
    }
    return readStrings(bytes, sections, error, strings);
  }

  /// A cursor over section `kind`, or over nothing if it is absent.
  std::optional<Cursor> section(uint16_t kind, const char *name,
                                bool required = false) {
    auto it = sections.find(kind);
    if (it == sections.end()) {
      if (required && !error)
        error = FormatError{HeaderSize,
                            std::string("missing section '") + name + "'"};
      return std::nullopt;
    }
    return Cursor(bytes, it->second.offset, it->second.size, name, error);
  }

  std::span<const uint8_t> bytes;
  std::map<uint16_t, SectionRef> sections;
  std::optional<FormatError> error;
  std::vector<std::string> strings;
};

//===----------------------------------------------------------------------===//
// Program binary
//===----------------------------------------------------------------------===//

class ProgramReader : ContainerReader {
public:
  explicit ProgramReader(std::span<const uint8_t> bytes)
      : ContainerReader(bytes) {}

  ReadResult<ProgramBinary> run() {
    if (open(ProgramMagic, "program binary") && header() && code() && data() &&
        memory() && symbols() && tasks() && queues() && startup() &&
        entryPoints() && files() && lines() && variables())
      return {std::move(p), std::nullopt};
    return {std::nullopt, error};
  }

private:
  bool inCode(uint64_t address) const {
    return address % 2 == 0 && address >= p.codeAddress &&
           address < p.codeAddress + 2 * uint64_t(p.code.size());
  }
  bool codeAddress(Cursor &c, size_t at, uint16_t address, const char *what) {
    if (inCode(address))
      return true;
    return c.fail(at, std::string(what) + " address " + hex(address) +
                          " is not an instruction address in the code");
  }

  bool header() {
    auto c = section(ProgramHeader, "program header", true);
    if (!c)
      return false;
    uint8_t table;
    headerOffset = c->offset();
    if (!archField(*c, p.arch) || !c->u8(table))
      return false;
    if (table) {
      unsigned instructions = table & 0xf, stride = table >> 4;
      if (p.arch != target::Arch::WSE3)
        return c->fail(headerOffset + 1,
                       "a separate control task table needs wse3");
      if (instructions != 2 && instructions != 4 && instructions != 8)
        return c->fail(headerOffset + 1,
                       "control task table entries hold 2, 4 or 8 "
                       "instructions, not " +
                           std::to_string(instructions));
      if (stride < 1 || stride > 7)
        return c->fail(headerOffset + 1, "control task table stride " +
                                             std::to_string(stride) +
                                             " is out of range 1..7");
      p.controlTableInstructions = static_cast<uint8_t>(instructions);
      p.controlTableStride = static_cast<uint8_t>(stride);
    }
    return c->u16(p.codeAddress) && c->u16(p.dataAddress) &&
           c->u16(p.bssAddress) && c->u16(p.bssSize) && c->finish();
  }

  bool code() {
    auto c = section(Code, "code", true);
    if (!c)
      return false;
    if (c->remaining() % 2)
      return c->fail(c->offset(), "code section has an odd size");
    p.code.resize(c->remaining() / 2);
    for (uint16_t &word : p.code)
      c->u16(word);
    return c->finish();
  }

  bool data() {
    auto c = section(Data, "data");
    if (!c)
      return true;
    return c->bytes(c->remaining(), p.data) && c->finish();
  }

  bool memory() {
    Cursor c(bytes, headerOffset, 0, "program header", error);
    if (p.codeAddress % 2)
      return c.fail(headerOffset + 2,
                    "code address " + hex(p.codeAddress) + " is odd");
    Region regions[] = {{"code", p.codeAddress, 2 * uint64_t(p.code.size())},
                        {"data", p.dataAddress, p.data.size()},
                        {"bss", p.bssAddress, p.bssSize}};
    for (size_t i = 0; i < 3; ++i)
      if (regions[i].begin + regions[i].size > MemoryBytes)
        return c.fail(headerOffset + 2 + 2 * i,
                      std::string(regions[i].name) + " at " +
                          hex(regions[i].begin) + " of " +
                          std::to_string(regions[i].size) +
                          " bytes ends beyond the 49152 bytes of PE memory");
    for (size_t i = 0; i < 3; ++i)
      for (size_t j = i + 1; j < 3; ++j) {
        const Region &a = regions[i], &b = regions[j];
        if (a.size && b.size && a.begin < b.begin + b.size &&
            b.begin < a.begin + a.size)
          return c.fail(headerOffset + 2 + 2 * j, std::string(a.name) +
                                                      " and " + b.name +
                                                      " overlap in PE memory");
      }
    return true;
  }

  bool symbols() {
    auto c = section(Symbols, "symbols");
    if (!c)
      return true;
    uint32_t n;
    if (!c->count(n, SymbolEntryMin))
      return false;
    p.symbols.resize(n);
    for (Symbol &s : p.symbols) {
      size_t at = c->offset();
      uint8_t kind, type, isMutable, params;
      if (!stringRef(*c, strings, s.name) || !c->u16(s.address) ||
          !c->u8(kind) || !c->u8(type) || !c->u32(s.count) ||
          !c->u8(isMutable) || !c->u8(params))
        return false;
      if (kind > 1)
        return c->fail(at + 6, "unknown symbol kind " + std::to_string(kind));
      if (type >= NumElemTypes)
        return c->fail(at + 7, "unknown element type " + std::to_string(type));
      if (isMutable > 1)
        return c->fail(at + 12, "mutability flag must be 0 or 1");
      s.kind = static_cast<SymbolKind>(kind);
      s.elemType = static_cast<ElemType>(type);
      s.isMutable = isMutable;
      for (uint8_t i = 0; i < params; ++i) {
        size_t paramAt = c->offset();
        if (!c->u8(type))
          return false;
        if (type >= NumElemTypes)
          return c->fail(paramAt,
                         "unknown parameter type " + std::to_string(type));
        s.params.push_back(static_cast<ElemType>(type));
      }
      if (s.kind == SymbolKind::Function) {
        if (!codeAddress(*c, at + 4, s.address, "function"))
          return false;
      } else if (s.address + uint64_t(s.count) * getElemTypeBytes(s.elemType) >
                 MemoryBytes) {
        return c->fail(at + 4, "symbol '" + s.name + "' at " + hex(s.address) +
                                   " ends beyond the 49152 bytes of PE memory");
      }
    }
    return c->finish();
  }

  bool tasks() {
    auto c = section(Tasks, "tasks");
    if (!c)
      return true;
    uint32_t n;
    if (!c->count(n, TaskEntrySize))
      return false;
    p.tasks.resize(n);
    for (TaskEntry &t : p.tasks) {
      size_t at = c->offset();
      uint8_t kind;
      if (!c->u8(kind) || !c->u8(t.id) || !c->u16(t.entry))
        return false;
      if (kind > 2)
        return c->fail(at, "unknown task kind " + std::to_string(kind));
      if (t.id >= 64)
        return c->fail(at + 1, "task ID " + std::to_string(t.id) +
                                   " is out of range 0..63");
      t.kind = static_cast<target::TaskKind>(kind);
      if (!codeAddress(*c, at + 2, t.entry, "task entry"))
        return false;
    }
    return c->finish();
  }

  bool queues() {
    auto c = section(Queues, "queues");
    if (!c)
      return true;
    uint32_t n;
    if (!c->count(n, QueueEntrySize))
      return false;
    p.queues.resize(n);
    for (QueueInit &q : p.queues) {
      size_t at = c->offset();
      uint8_t output;
      if (!c->u8(output) || !c->u8(q.queue) || !c->u8(q.color) ||
          !c->u8(q.ctrlTableID))
        return false;
      if (q.ctrlTableID && (output || !p.hasSeparateControlTable()))
        return c->fail(at + 3, "ctrl_table_id " +
                                   std::to_string(q.ctrlTableID) +
                                   " needs an input queue of a program with "
                                   "a separate control task table");
      if (q.ctrlTableID > 7)
        return c->fail(at + 3, "ctrl_table_id " +
                                   std::to_string(q.ctrlTableID) +
                                   " is out of range 0..7");
      if (output > 1)
        return c->fail(at, "queue direction must be 0 or 1");
      if (q.queue >= 8)
        return c->fail(at + 1, "queue " + std::to_string(q.queue) +
                                   " is out of range 0..7");
      if (q.color >= 32)
        return c->fail(at + 2, "color " + std::to_string(q.color) +
                                   " is out of range 0..31");
      q.output = output;
    }
    return c->finish();
  }

  bool startup() {
    auto c = section(Startup, "startup");
    if (!c)
      return true;
    uint32_t n;
    if (!c->count(n, StartupEntrySize))
      return false;
    p.startup.resize(n);
    for (StartupAction &a : p.startup) {
      size_t at = c->offset();
      uint8_t kind, space;
      if (!c->u8(kind) || !c->u8(space) || !c->u16(a.value))
        return false;
      if (kind > 3)
        return c->fail(at, "unknown start-up action " + std::to_string(kind));
      if (space >= NumBlockSpaces)
        return c->fail(at + 1, "unknown block space " + std::to_string(space));
      a.kind = static_cast<StartupKind>(kind);
      a.space = static_cast<BlockSpace>(space);
      if (a.kind == StartupKind::Call &&
          !codeAddress(*c, at + 2, a.value, "start-up call"))
        return false;
      if (a.kind != StartupKind::Call && a.value >= 64)
        return c->fail(at + 2, "start-up ID " + std::to_string(a.value) +
                                   " is out of range 0..63");
    }
    return c->finish();
  }

  bool entryPoints() {
    auto c = section(EntryPoints, "entry points");
    if (!c)
      return true;
    uint32_t n;
    if (!c->count(n, 4))
      return false;
    p.entryPoints.resize(n);
    for (uint32_t &index : p.entryPoints) {
      size_t at = c->offset();
      if (!c->u32(index))
        return false;
      if (index >= p.symbols.size())
        return c->fail(at, "entry point symbol " + std::to_string(index) +
                               " is out of range (" +
                               std::to_string(p.symbols.size()) + " symbols)");
      if (p.symbols[index].kind != SymbolKind::Function)
        return c->fail(at, "entry point '" + p.symbols[index].name +
                               "' is not a function");
    }
    return c->finish();
  }

  bool files() {
    auto c = section(Files, "files");
    if (!c)
      return true;
    uint32_t n;
    if (!c->count(n, 4))
      return false;
    p.files.resize(n);
    for (std::string &name : p.files)
      if (!stringRef(*c, strings, name))
        return false;
    return c->finish();
  }

  bool lines() {
    auto c = section(Lines, "lines");
    if (!c)
      return true;
    uint32_t n;
    if (!c->count(n, LineEntrySize))
      return false;
    p.lines.resize(n);
    for (size_t i = 0; i < n; ++i) {
      LineEntry &l = p.lines[i];
      size_t at = c->offset();
      uint16_t reserved;
      if (!c->u16(l.address) || !c->u16(l.file) || !c->u32(l.line) ||
          !c->u16(l.column) || !c->u16(reserved) ||
          !c->zero(reserved != 0, at + 10))
        return false;
      if (!codeAddress(*c, at, l.address, "line entry"))
        return false;
      if (l.file >= p.files.size())
        return c->fail(at + 2, "file index " + std::to_string(l.file) +
                                   " is out of range (" +
                                   std::to_string(p.files.size()) + " files)");
      if (i && l.address < p.lines[i - 1].address)
        return c->fail(at, "line entries are not sorted by address");
    }
    return c->finish();
  }

  bool variables() {
    auto c = section(Variables, "variables");
    if (!c)
      return true;
    uint32_t n;
    if (!c->count(n, VariableEntrySize))
      return false;
    p.variables.resize(n);
    for (Variable &v : p.variables) {
      size_t at = c->offset();
      uint8_t type, reserved;
      if (!stringRef(*c, strings, v.name) || !c->u16(v.address) ||
          !c->u8(type) || !c->u8(reserved) || !c->zero(reserved, at + 7) ||
          !c->u32(v.count))
        return false;
      if (type == 0 || type >= NumElemTypes)
        return c->fail(at + 6, "unknown element type " + std::to_string(type));
      v.elemType = static_cast<ElemType>(type);
      if (v.address + uint64_t(v.count) * getElemTypeBytes(v.elemType) >
          MemoryBytes)
        return c->fail(at + 4, "variable '" + v.name + "' at " +
                                   hex(v.address) +
                                   " ends beyond the 49152 bytes of PE memory");
    }
    return c->finish();
  }

  size_t headerOffset = 0;
  ProgramBinary p;
};

//===----------------------------------------------------------------------===//
// Fabric file
//===----------------------------------------------------------------------===//

class FabricReader : ContainerReader {
public:
  explicit FabricReader(std::span<const uint8_t> bytes)
      : ContainerReader(bytes) {}

  ReadResult<FabricFile> run() {
    if (open(FabricMagic, "fabric file") && header() && programs() &&
        placement() && routes() && values())
      return {std::move(f), std::nullopt};
    return {std::nullopt, error};
  }

private:
  bool header() {
    auto c = section(FabricHeader, "fabric header", true);
    if (!c)
      return false;
    size_t at = c->offset();
    uint8_t flags;
    if (!archField(*c, f.arch) || !c->u8(flags) || !c->u16(f.channels) ||
        !c->u16(f.dimsWidth) || !c->u16(f.dimsHeight) || !c->u16(f.offsetX) ||
        !c->u16(f.offsetY) || !c->u16(f.rectWidth) || !c->u16(f.rectHeight))
      return false;
    if (flags > 1)
      return c->fail(at + 1, "unknown fabric flags " + hex(flags));
    f.memcpy = flags;
    if (uint32_t(f.offsetX) + f.rectWidth > f.dimsWidth ||
        uint32_t(f.offsetY) + f.rectHeight > f.dimsHeight)
      return c->fail(at + 8, "the rectangle " + std::to_string(f.rectWidth) +
                                 "x" + std::to_string(f.rectHeight) + " at (" +
                                 std::to_string(f.offsetX) + "," +
                                 std::to_string(f.offsetY) +
                                 ") does not fit the fabric " +
                                 std::to_string(f.dimsWidth) + "x" +
                                 std::to_string(f.dimsHeight));
    return c->finish();
  }

  bool programs() {
    auto c = section(Programs, "programs");
    if (!c)
      return true;
    uint32_t n;
    if (!c->count(n, 4))
      return false;
    f.programs.resize(n);
    for (std::string &name : f.programs)
      if (!stringRef(*c, strings, name))
        return false;
    return c->finish();
  }

  /// Checks a run of PEs inside the rectangle.
  bool runInRectangle(Cursor &c, size_t at, uint16_t x, uint16_t y,
                      uint16_t length) {
    if (length == 0)
      return c.fail(at, "empty run");
    if (y >= f.rectHeight || uint32_t(x) + length > f.rectWidth)
      return c.fail(at, "run of " + std::to_string(length) + " PEs at (" +
                            std::to_string(x) + "," + std::to_string(y) +
                            ") leaves the rectangle");
    return true;
  }

  bool placement() {
    auto c = section(Placement, "placement");
    if (!c)
      return true;
    uint32_t n;
    if (!c->count(n, RunEntrySize))
      return false;
    f.placement.resize(n);
    for (size_t i = 0; i < n; ++i) {
      ProgramRun &run = f.placement[i];
      size_t at = c->offset();
      if (!c->u16(run.y) || !c->u16(run.x) || !c->u16(run.length) ||
          !c->u16(run.program) ||
          !runInRectangle(*c, at, run.x, run.y, run.length))
        return false;
      if (run.program >= f.programs.size())
        return c->fail(at + 6, "program index " + std::to_string(run.program) +
                                   " is out of range (" +
                                   std::to_string(f.programs.size()) +
                                   " programs)");
      if (i) {
        const ProgramRun &prev = f.placement[i - 1];
        if (run.y < prev.y || (run.y == prev.y && run.x < prev.x + prev.length))
          return c->fail(at, "placement runs overlap or are not sorted by "
                             "(y, x)");
      }
    }
    return c->finish();
  }

  bool position(Cursor &c, size_t at, uint8_t byte,
                std::optional<SwitchPosition> &pos) {
    if (byte == 0)
      return true;
    if (!(byte & 0x80) || (byte & 0x70) || (byte & 0x07) > 4)
      return c.fail(at, "bad switch position byte " + hex(byte));
    pos = SwitchPosition{(byte & 0x08) != 0, static_cast<Port>(byte & 0x07)};
    return true;
  }

  bool routes() {
    auto c = section(Routes, "routes");
    if (!c)
      return true;
    uint32_t n;
    if (!c->count(n, RouteEntrySize))
      return false;
    const target::TargetModel &model = target::TargetModel::get(f.arch);
    f.routes.resize(n);
    for (size_t i = 0; i < n; ++i) {
      RouteRun &run = f.routes[i];
      RouterConfig &cfg = run.config;
      size_t at = c->offset();
      uint8_t pos[3], flags, pop, filterKind, filterFlags, reserved;
      uint16_t a, b, limit;
      if (!c->u8(run.color) || !c->u8(cfg.rx) || !c->u8(cfg.tx) ||
          !c->u8(pos[0]) || !c->u8(pos[1]) || !c->u8(pos[2]) ||
          !c->u8(cfg.currentPosition) || !c->u8(flags) || !c->u8(pop) ||
          !c->u8(filterKind) || !c->u16(run.y) || !c->u16(run.x) ||
          !c->u16(run.length) || !c->u16(a) || !c->u16(b) || !c->u16(limit) ||
          !c->u8(filterFlags) || !c->u8(reserved) ||
          !c->zero(reserved, at + 23))
        return false;
      if (run.color >= model.getNumRoutableColors())
        return c->fail(at, "color " + std::to_string(run.color) +
                               " is not routable");
      if (cfg.rx > 31 || cfg.tx > 31)
        return c->fail(at + 1, "direction set has unknown bits");
      for (int k = 0; k < 3; ++k)
        if (!position(*c, at + 3 + k, pos[k], cfg.positions[k]))
          return false;
      if ((!cfg.positions[0] && cfg.positions[1]) ||
          (!cfg.positions[1] && cfg.positions[2]))
        return c->fail(at + 3, "switch positions are not filled in order");
      if (cfg.currentPosition > 3 ||
          (cfg.currentPosition && !cfg.positions[cfg.currentPosition - 1]))
        return c->fail(at + 6, "current switch position " +
                                   std::to_string(cfg.currentPosition) +
                                   " is not filled");
      if (flags > 15)
        return c->fail(at + 7, "unknown route flags " + hex(flags));
      cfg.ringMode = flags & 1;
      cfg.teardown = flags & 2;
      cfg.colorSwapX = flags & 4;
      cfg.colorSwapY = flags & 8;
      if ((cfg.colorSwapX || cfg.colorSwapY) && !model.hasColorSwap())
        return c->fail(at + 7, "color swap on " + std::string(model.getName()));
      if (pop > 2)
        return c->fail(at + 8, "unknown pop mode " + std::to_string(pop));
      cfg.popMode = static_cast<PopMode>(pop);
      if (filterKind > 2)
        return c->fail(at + 9,
                       "unknown filter kind " + std::to_string(filterKind));
      Filter &filter = cfg.filter;
      filter.kind = static_cast<Filter::Kind>(filterKind);
      if (filter.kind == Filter::Kind::Counter) {
        if (filterFlags > 7)
          return c->fail(at + 22, "unknown filter flags " + hex(filterFlags));
        filter.initCounter = a;
        filter.maxCounter = b;
        filter.limit1 = limit;
        filter.countData = filterFlags & 1;
        filter.countControl = filterFlags & 2;
        filter.fastMode = filterFlags & 4;
      } else if ((filter.kind == Filter::Kind::None && (a || b)) || limit ||
                 filterFlags) {
        return c->fail(at + 16, "filter fields unused by the filter kind "
                                "are not zero");
      } else {
        filter.min = a;
        filter.max = b;
      }
      if (!runInRectangle(*c, at + 10, run.x, run.y, run.length))
        return false;
      if (i) {
        const RouteRun &prev = f.routes[i - 1];
        if (run.color < prev.color ||
            (run.color == prev.color &&
             (run.y < prev.y ||
              (run.y == prev.y && run.x < prev.x + prev.length))))
          return c->fail(at, "route runs overlap or are not sorted by "
                             "(color, y, x)");
      }
    }
    return c->finish();
  }

  bool values() {
    auto c = section(Values, "values");
    if (!c)
      return true;
    uint32_t n;
    if (!c->count(n, ValueEntryMin))
      return false;
    f.values.resize(n);
    for (PEValue &v : f.values) {
      size_t at = c->offset();
      uint16_t length;
      if (!c->u16(v.x) || !c->u16(v.y) || !stringRef(*c, strings, v.symbol) ||
          !c->u16(v.offset) || !c->u16(length) || !c->bytes(length, v.bytes))
        return false;
      if (v.x >= f.rectWidth || v.y >= f.rectHeight)
        return c->fail(at, "PE (" + std::to_string(v.x) + "," +
                               std::to_string(v.y) +
                               ") is outside the rectangle");
      if (uint32_t(v.offset) + length > MemoryBytes)
        return c->fail(at + 8, "value for '" + v.symbol +
                                   "' ends beyond the 49152 bytes of PE "
                                   "memory");
    }
    return c->finish();
  }

  FabricFile f;
};

} // namespace

ReadResult<ProgramBinary> readProgram(std::span<const uint8_t> bytes) {
  return ProgramReader(bytes).run();
}

ReadResult<FabricFile> readFabric(std::span<const uint8_t> bytes) {
  return FabricReader(bytes).run();
}

} // namespace tessera::pe
