//===- Writer.cpp - program binaries and fabric files to bytes ------------===//

#include "Container.h"

#include "tessera/Target/PEBinary/Binary.h"

#include <string>

namespace tessera::pe {

using namespace container;

namespace container {

uint32_t StringTable::add(std::string_view s) {
  for (size_t i = 0; i < strings.size(); ++i)
    if (strings[i] == s)
      return static_cast<uint32_t>(i);
  strings.push_back(s);
  return static_cast<uint32_t>(strings.size() - 1);
}

std::vector<uint8_t> StringTable::serialize() const {
  ByteWriter w;
  w.u32(static_cast<uint32_t>(strings.size()));
  for (std::string_view s : strings) {
    w.u16(static_cast<uint16_t>(s.size()));
    w.raw({reinterpret_cast<const uint8_t *>(s.data()), s.size()});
  }
  return std::move(w.bytes);
}

std::vector<uint8_t>
assemble(std::span<const uint8_t, 4> magic,
         std::vector<std::pair<uint16_t, std::vector<uint8_t>>> sections) {
  ByteWriter w;
  w.raw(magic);
  w.u16(FormatMajorVersion);
  w.u16(FormatMinorVersion);
  w.u16(static_cast<uint16_t>(sections.size()));
  w.u16(0);
  w.u32(0); // checksum, filled in below
  uint32_t offset =
      HeaderSize + DirectoryEntrySize * static_cast<uint32_t>(sections.size());
  for (auto &[kind, body] : sections) {
    w.u16(kind);
    w.u16(0);
    w.u32(offset);
    w.u32(static_cast<uint32_t>(body.size()));
    offset += static_cast<uint32_t>(body.size());
  }
  for (auto &[kind, body] : sections)
    w.raw(body);
  std::vector<uint8_t> bytes = std::move(w.bytes);
  uint32_t sum = crc32(std::span(bytes).subspan(HeaderSize));
  for (int i = 0; i < 4; ++i)
    bytes[ChecksumOffset + i] = uint8_t(sum >> (8 * i));
  return bytes;
}

} // namespace container

namespace {

uint8_t archCode(target::Arch arch) { return arch == target::Arch::WSE3; }

uint8_t positionByte(const std::optional<SwitchPosition> &pos) {
  if (!pos)
    return 0;
  return uint8_t(0x80 | (pos->rxSide ? 0x08 : 0) |
                 static_cast<uint8_t>(pos->port));
}

} // namespace

std::vector<uint8_t> writeProgram(const ProgramBinary &p) {
  StringTable strings;
  std::vector<std::pair<uint16_t, std::vector<uint8_t>>> sections;

  ByteWriter header;
  header.u8(archCode(p.arch));
  header.u8(static_cast<uint8_t>(p.controlTableInstructions |
                                 p.controlTableStride << 4));
  header.u16(p.codeAddress);
  header.u16(p.dataAddress);
  header.u16(p.bssAddress);
  header.u16(p.bssSize);
  sections.emplace_back(ProgramHeader, std::move(header.bytes));

  ByteWriter code;
  for (uint16_t word : p.code)
    code.u16(word);
  sections.emplace_back(Code, std::move(code.bytes));
  sections.emplace_back(Data, p.data);

  ByteWriter symbols;
  symbols.u32(static_cast<uint32_t>(p.symbols.size()));
  for (const Symbol &s : p.symbols) {
    symbols.u32(strings.add(s.name));
    symbols.u16(s.address);
    symbols.u8(static_cast<uint8_t>(s.kind));
    symbols.u8(static_cast<uint8_t>(s.elemType));
    symbols.u32(s.count);
    symbols.u8(s.isMutable);
    symbols.u8(static_cast<uint8_t>(s.params.size()));
    for (ElemType t : s.params)
      symbols.u8(static_cast<uint8_t>(t));
  }

  ByteWriter tasks;
  tasks.u32(static_cast<uint32_t>(p.tasks.size()));
  for (const TaskEntry &t : p.tasks) {
    tasks.u8(static_cast<uint8_t>(t.kind));
    tasks.u8(t.id);
    tasks.u16(t.entry);
  }

  ByteWriter queues;
  queues.u32(static_cast<uint32_t>(p.queues.size()));
  for (const QueueInit &q : p.queues) {
    queues.u8(q.output);
    queues.u8(q.queue);
    queues.u8(q.color);
    queues.u8(q.ctrlTableID);
  }

  ByteWriter startup;
  startup.u32(static_cast<uint32_t>(p.startup.size()));
  for (const StartupAction &a : p.startup) {
    startup.u8(static_cast<uint8_t>(a.kind));
    startup.u8(static_cast<uint8_t>(a.space));
    startup.u16(a.value);
  }

  ByteWriter entries;
  entries.u32(static_cast<uint32_t>(p.entryPoints.size()));
  for (uint32_t index : p.entryPoints)
    entries.u32(index);

  ByteWriter files;
  files.u32(static_cast<uint32_t>(p.files.size()));
  for (const std::string &f : p.files)
    files.u32(strings.add(f));

  ByteWriter lines;
  lines.u32(static_cast<uint32_t>(p.lines.size()));
  for (const LineEntry &l : p.lines) {
    lines.u16(l.address);
    lines.u16(l.file);
    lines.u32(l.line);
    lines.u16(l.column);
    lines.u16(0);
  }

  ByteWriter variables;
  variables.u32(static_cast<uint32_t>(p.variables.size()));
  for (const Variable &v : p.variables) {
    variables.u32(strings.add(v.name));
    variables.u16(v.address);
    variables.u8(static_cast<uint8_t>(v.elemType));
    variables.u8(0);
    variables.u32(v.count);
  }

  // Strings come before the tables that refer to them.
  sections.emplace_back(Strings, strings.serialize());
  sections.emplace_back(Symbols, std::move(symbols.bytes));
  sections.emplace_back(Tasks, std::move(tasks.bytes));
  sections.emplace_back(Queues, std::move(queues.bytes));
  sections.emplace_back(Startup, std::move(startup.bytes));
  sections.emplace_back(EntryPoints, std::move(entries.bytes));
  sections.emplace_back(Files, std::move(files.bytes));
  sections.emplace_back(Lines, std::move(lines.bytes));
  if (!p.variables.empty())
    sections.emplace_back(Variables, std::move(variables.bytes));
  return assemble(ProgramMagic, std::move(sections));
}

std::vector<uint8_t> writeFabric(const FabricFile &f) {
  StringTable strings;
  std::vector<std::pair<uint16_t, std::vector<uint8_t>>> sections;

  ByteWriter header;
  header.u8(archCode(f.arch));
  header.u8(f.memcpy ? 1 : 0);
  header.u16(f.channels);
  header.u16(f.dimsWidth);
  header.u16(f.dimsHeight);
  header.u16(f.offsetX);
  header.u16(f.offsetY);
  header.u16(f.rectWidth);
  header.u16(f.rectHeight);
  sections.emplace_back(FabricHeader, std::move(header.bytes));

  ByteWriter programs;
  programs.u32(static_cast<uint32_t>(f.programs.size()));
  for (const std::string &name : f.programs)
    programs.u32(strings.add(name));

  ByteWriter placement;
  placement.u32(static_cast<uint32_t>(f.placement.size()));
  for (const ProgramRun &run : f.placement) {
    placement.u16(run.y);
    placement.u16(run.x);
    placement.u16(run.length);
    placement.u16(run.program);
  }

  ByteWriter routes;
  routes.u32(static_cast<uint32_t>(f.routes.size()));
  for (const RouteRun &run : f.routes) {
    const RouterConfig &c = run.config;
    routes.u8(run.color);
    routes.u8(c.rx);
    routes.u8(c.tx);
    for (const auto &pos : c.positions)
      routes.u8(positionByte(pos));
    routes.u8(c.currentPosition);
    routes.u8(uint8_t((c.ringMode ? 1 : 0) | (c.teardown ? 2 : 0) |
                      (c.colorSwapX ? 4 : 0) | (c.colorSwapY ? 8 : 0)));
    routes.u8(static_cast<uint8_t>(c.popMode));
    routes.u8(static_cast<uint8_t>(c.filter.kind));
    routes.u16(run.y);
    routes.u16(run.x);
    routes.u16(run.length);
    // Only the fields of the filter's kind are stored; the rest are zero.
    const Filter &filter = c.filter;
    bool range = filter.kind == Filter::Kind::Range;
    bool counter = filter.kind == Filter::Kind::Counter;
    routes.u16(range ? filter.min : counter ? filter.initCounter : 0);
    routes.u16(range ? filter.max : counter ? filter.maxCounter : 0);
    routes.u16(counter ? filter.limit1 : 0);
    routes.u8(counter ? uint8_t((filter.countData ? 1 : 0) |
                                (filter.countControl ? 2 : 0) |
                                (filter.fastMode ? 4 : 0))
                      : 0);
    routes.u8(0);
  }

  ByteWriter values;
  values.u32(static_cast<uint32_t>(f.values.size()));
  for (const PEValue &v : f.values) {
    values.u16(v.x);
    values.u16(v.y);
    values.u32(strings.add(v.symbol));
    values.u16(v.offset);
    values.u16(static_cast<uint16_t>(v.bytes.size()));
    values.raw(v.bytes);
  }

  sections.emplace_back(Strings, strings.serialize());
  sections.emplace_back(Programs, std::move(programs.bytes));
  sections.emplace_back(Placement, std::move(placement.bytes));
  sections.emplace_back(Routes, std::move(routes.bytes));
  sections.emplace_back(Values, std::move(values.bytes));
  return assemble(FabricMagic, std::move(sections));
}

} // namespace tessera::pe
