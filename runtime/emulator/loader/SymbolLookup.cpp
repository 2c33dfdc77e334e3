//===- SymbolLookup.cpp - exported symbols by name, for the host ----------===//
//
// Programs export a handful of symbols and host reads of debug variables are
// rare, so a linear search is as fast as an index and needs nothing kept in
// step with the binary.
//
//===----------------------------------------------------------------------===//

#include "tessera/Emulator/OutputDirectory.h"

namespace tessera::emulator {

const pe::Symbol *findSymbol(const pe::ProgramBinary &program,
                             std::string_view name) {
  for (const pe::Symbol &symbol : program.symbols)
    if (symbol.name == name)
      return &symbol;
  return nullptr;
}

const pe::Symbol *findSymbol(const pe::ProgramBinary &program,
                             std::string_view name, pe::SymbolKind kind) {
  for (const pe::Symbol &symbol : program.symbols)
    if (symbol.name == name && symbol.kind == kind)
      return &symbol;
  return nullptr;
}

std::vector<const pe::Symbol *>
getEntryPoints(const pe::ProgramBinary &program) {
  std::vector<const pe::Symbol *> entries;
  // The reader guarantees valid indices; an in-memory binary may not.
  for (uint32_t index : program.entryPoints)
    if (index < program.symbols.size())
      entries.push_back(&program.symbols[index]);
  return entries;
}

const pe::Symbol *findEntryPoint(const pe::ProgramBinary &program,
                                 std::string_view name) {
  for (uint32_t index : program.entryPoints)
    if (index < program.symbols.size() && program.symbols[index].name == name)
      return &program.symbols[index];
  return nullptr;
}

std::optional<pe::Symbol> findReadableData(const pe::ProgramBinary &program,
                                           std::string_view name) {
  if (const pe::Symbol *symbol =
          findSymbol(program, name, pe::SymbolKind::Data))
    return *symbol;
  for (const pe::Variable &variable : program.variables) {
    if (variable.name != name)
      continue;
    pe::Symbol symbol;
    symbol.name = variable.name;
    symbol.address = variable.address;
    symbol.elemType = variable.elemType;
    symbol.count = variable.count;
    return symbol;
  }
  return std::nullopt;
}

uint64_t getSymbolBytes(const pe::Symbol &symbol) {
  return uint64_t(symbol.count) * pe::getElemTypeBytes(symbol.elemType);
}

const pe::Symbol *LoadedOutput::findSymbolAt(unsigned x, unsigned y,
                                             std::string_view name) const {
  const LoadedProgram *program = programAt(x, y);
  return program ? findSymbol(program->binary, name) : nullptr;
}

} // namespace tessera::emulator
