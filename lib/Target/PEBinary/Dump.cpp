//===- Dump.cpp - Human-readable listings of PE binaries ------------------===//

#include "tessera/Target/PEBinary/Dump.h"

#include <algorithm>
#include <cstdio>
#include <sstream>
#include <tuple>

using namespace tessera;
using namespace tessera::pe;

namespace {

/// A listing shows no type as "-".
std::string_view elemTypeLabel(ElemType type) {
  return type == ElemType::None ? "-" : getElemTypeName(type);
}

std::string hex(unsigned value, int digits = 4) {
  char buffer[16];
  std::snprintf(buffer, sizeof(buffer), "0x%0*x", digits, value);
  return buffer;
}

std::string formatPorts(uint8_t set) {
  std::string text = "[";
  for (unsigned port = 0; port < 5; ++port) {
    if (!(set & (1u << port)))
      continue;
    if (text.size() > 1)
      text += ", ";
    text += getPortName(static_cast<Port>(port));
  }
  return text + "]";
}

std::string formatRouter(const RouterConfig &c) {
  std::string text = "rx " + formatPorts(c.rx) + " tx " + formatPorts(c.tx);
  for (unsigned i = 0; i < 3; ++i)
    if (c.positions[i])
      text += " pos" + std::to_string(i + 1) +
              (c.positions[i]->rxSide ? " rx " : " tx ") +
              getPortName(c.positions[i]->port);
  if (c.currentPosition)
    text += " current " + std::to_string(c.currentPosition);
  if (c.ringMode)
    text += " ring";
  if (c.popMode == PopMode::AlwaysPop)
    text += " always_pop";
  else if (c.popMode == PopMode::PopOnAdvance)
    text += " pop_on_advance";
  if (c.filter.kind == Filter::Kind::Range)
    text += " range " + std::to_string(c.filter.min) + ".." +
            std::to_string(c.filter.max);
  else if (c.filter.kind == Filter::Kind::Counter)
    text += " counter " + std::to_string(c.filter.initCounter) + "/" +
            std::to_string(c.filter.maxCounter) + "/" +
            std::to_string(c.filter.limit1);
  if (c.teardown)
    text += " teardown";
  if (c.colorSwapX)
    text += " swap_x";
  if (c.colorSwapY)
    text += " swap_y";
  return text;
}

} // namespace

std::string pe::dumpSymbols(const ProgramBinary &program) {
  std::ostringstream os;
  os << "symbols:\n";
  for (const Symbol &s : program.symbols) {
    os << "  " << hex(s.address) << " " << s.name;
    if (s.kind == SymbolKind::Function) {
      os << " fn(";
      for (size_t i = 0; i < s.params.size(); ++i)
        os << (i ? ", " : "") << elemTypeLabel(s.params[i]);
      os << ")\n";
      continue;
    }
    os << " [" << s.count << "]" << elemTypeLabel(s.elemType)
       << (s.isMutable ? " mutable" : "") << "\n";
  }
  return os.str();
}

std::string pe::dumpRoutes(const FabricFile &fabric) {
  // One entry per PE and color, from the runs; sorting puts a PE's colors
  // together, so this stays O(n log n) on the largest fabrics.
  struct Entry {
    uint16_t y, x;
    uint8_t color;
    const RouterConfig *config;
  };
  std::vector<Entry> entries;
  for (const RouteRun &run : fabric.routes)
    for (unsigned x = run.x; x < unsigned(run.x) + run.length; ++x)
      entries.push_back({run.y, uint16_t(x), run.color, &run.config});
  std::sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) {
    return std::tie(a.y, a.x, a.color) < std::tie(b.y, b.x, b.color);
  });
  std::ostringstream os;
  size_t run = 0; // placement runs are sorted by (y, x) too
  for (size_t i = 0; i < entries.size(); ++i) {
    const Entry &e = entries[i];
    if (i == 0 || entries[i - 1].y != e.y || entries[i - 1].x != e.x) {
      while (run < fabric.placement.size() &&
             std::make_pair(fabric.placement[run].y,
                            uint16_t(fabric.placement[run].x +
                                     fabric.placement[run].length - 1)) <
                 std::make_pair(e.y, e.x))
        ++run;
      os << "PE (" << e.x << ", " << e.y << "): ";
      const ProgramRun *p =
          run < fabric.placement.size() ? &fabric.placement[run] : nullptr;
      if (p && p->y == e.y && e.x >= p->x && e.x < p->x + p->length)
        os << "program " << p->program << " "
           << (p->program < fabric.programs.size() ? fabric.programs[p->program]
                                                   : "?")
           << "\n";
      else
        os << "no program\n";
    }
    os << "  color " << unsigned(e.color) << ": " << formatRouter(*e.config)
       << "\n";
  }
  return os.str();
}

std::string pe::dumpProgram(const ProgramBinary &program) {
  std::ostringstream os;
  os << "arch " << target::TargetModel::get(program.arch).getName() << ", code "
     << program.code.size() * 2 << " bytes at " << hex(program.codeAddress)
     << ", data " << program.data.size() << " bytes at "
     << hex(program.dataAddress) << ", bss " << program.bssSize << " bytes at "
     << hex(program.bssAddress) << "\n";
  os << "\n" << dumpSymbols(program);
  if (!program.variables.empty()) {
    os << "\nvariables:\n";
    for (const Variable &v : program.variables)
      os << "  " << hex(v.address) << " " << v.name << " [" << v.count << "]"
         << elemTypeLabel(v.elemType) << "\n";
  }
  os << "\ntasks:\n";
  if (program.hasSeparateControlTable())
    os << "  (control tasks in a separate table: "
       << unsigned(program.controlTableInstructions)
       << " instructions per entry, stride "
       << unsigned(program.controlTableStride) << ")\n";
  for (const TaskEntry &t : program.tasks)
    os << "  " << getTaskKindName(t.kind) << " " << unsigned(t.id) << " at "
       << hex(t.entry) << "\n";
  if (!program.queues.empty()) {
    os << "\nqueues:\n";
    for (const QueueInit &q : program.queues)
      os << "  " << (q.output ? "output " : "input ") << unsigned(q.queue)
         << " color " << unsigned(q.color)
         << (q.ctrlTableID ? " ctrl_table_id " + std::to_string(q.ctrlTableID)
                           : std::string())
         << "\n";
  }
  if (!program.startup.empty()) {
    os << "\nstart-up:\n";
    for (const StartupAction &a : program.startup) {
      switch (a.kind) {
      case StartupKind::Activate:
        os << "  activate " << a.value << "\n";
        break;
      case StartupKind::Block:
      case StartupKind::Unblock:
        os << "  " << (a.kind == StartupKind::Block ? "block " : "unblock ")
           << getBlockSpaceName(a.space) << " " << a.value << "\n";
        break;
      case StartupKind::Call:
        os << "  call " << hex(a.value) << "\n";
        break;
      }
    }
  }
  if (!program.data.empty()) {
    // Initial values, 16 bytes a line.
    os << "\ndata:\n";
    static const char *const digits = "0123456789abcdef";
    for (size_t i = 0; i < program.data.size(); i += 16) {
      os << "  " << hex(program.dataAddress + i) << ":";
      for (size_t j = i; j < std::min(i + 16, program.data.size()); ++j)
        os << ' ' << digits[program.data[j] >> 4]
           << digits[program.data[j] & 15];
      os << "\n";
    }
  }
  os << "\ncode:\n";
  size_t line = 0;
  for (size_t word = 0; word < program.code.size();) {
    unsigned address = program.codeAddress + 2 * word;
    Instruction inst;
    DecodeResult decoded =
        decode(program.code.data() + word, program.code.size() - word, inst);
    os << "  " << hex(address) << ": ";
    if (!decoded) {
      os << ".word " << hex(program.code[word])
         << " ; cannot decode: " << decoded.error->message << "\n";
      ++word;
      continue;
    }
    os << format(inst);
    // The line table is sorted by address.
    while (line < program.lines.size() && program.lines[line].address < address)
      ++line;
    if (line < program.lines.size() && program.lines[line].address == address) {
      const LineEntry &entry = program.lines[line];
      os << " ; "
         << (entry.file < program.files.size() ? program.files[entry.file]
                                               : "?")
         << ":" << entry.line << ":" << entry.column;
    }
    os << "\n";
    word += decoded.size;
  }
  return os.str();
}

std::string pe::dumpFabric(const FabricFile &fabric) {
  std::ostringstream os;
  os << "arch " << target::TargetModel::get(fabric.arch).getName()
     << ", fabric " << fabric.dimsWidth << "x" << fabric.dimsHeight
     << " at offsets " << fabric.offsetX << "," << fabric.offsetY
     << ", rectangle " << fabric.rectWidth << "x" << fabric.rectHeight;
  if (fabric.memcpy)
    os << ", memcpy with " << fabric.channels << " channels";
  os << "\n\nprograms:\n";
  for (size_t i = 0; i < fabric.programs.size(); ++i)
    os << "  " << i << " " << fabric.programs[i] << "\n";
  os << "\nplacement:\n";
  for (const ProgramRun &run : fabric.placement)
    os << "  (" << run.x << ", " << run.y << ") +" << run.length << ": program "
       << run.program << "\n";
  os << "\nroutes: " << fabric.routes.size()
     << " runs, values: " << fabric.values.size() << "\n";
  return os.str();
}

std::string pe::dumpPE(const FabricFile &fabric, uint16_t x, uint16_t y) {
  std::ostringstream os;
  if (x >= fabric.rectWidth || y >= fabric.rectHeight) {
    os << "error: PE (" << x << ", " << y << ") is outside the "
       << fabric.rectWidth << "x" << fabric.rectHeight << " rectangle\n";
    return os.str();
  }
  os << "PE (" << x << ", " << y << "): ";
  bool placed = false;
  for (const ProgramRun &run : fabric.placement) {
    if (run.y != y || x < run.x || x >= run.x + run.length)
      continue;
    os << "program " << run.program << " "
       << (run.program < fabric.programs.size() ? fabric.programs[run.program]
                                                : "?")
       << "\n";
    placed = true;
  }
  if (!placed)
    os << "no program\n";
  for (const RouteRun &run : fabric.routes)
    if (run.y == y && x >= run.x && x < run.x + run.length)
      os << "  color " << unsigned(run.color) << ": "
         << formatRouter(run.config) << "\n";
  for (const PEValue &value : fabric.values)
    if (value.x == x && value.y == y)
      os << "  value " << value.symbol << "+" << value.offset << ": "
         << value.bytes.size() << " bytes\n";
  return os.str();
}
