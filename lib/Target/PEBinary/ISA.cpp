//===- ISA.cpp - the instruction table ------------------------------------===//

#include "tessera/Target/PEBinary/ISA.h"

#include <array>

namespace tessera::pe {

namespace {

// Each row's operand kinds live in their own constexpr array so that the
// table can hand out spans into static storage.
namespace kinds {
using enum OperandKind;
#define INST(Name, Mnemonic, Class, HasOptions, Var, MinVar, MaxVar, ...)      \
  constexpr OperandKind Name[] = {None __VA_OPT__(, ) __VA_ARGS__};
#include "tessera/Target/PEBinary/ISA.def"
} // namespace kinds

constexpr InstInfo Table[] = {
#define INST(Name, Mnemonic, Class, HasOptions, Var, MinVar, MaxVar, ...)      \
  {Opcode::Name,                                                               \
   Mnemonic,                                                                   \
   InstClass::Class,                                                           \
   HasOptions,                                                                 \
   std::span<const OperandKind>(kinds::Name).subspan(1),                       \
   OperandKind::Var,                                                           \
   MinVar,                                                                     \
   MaxVar},
#include "tessera/Target/PEBinary/ISA.def"
};

static_assert(std::size(Table) + 1 == static_cast<size_t>(Opcode::NumOpcodes));
static_assert(static_cast<size_t>(Opcode::NumOpcodes) <= 256,
              "opcodes are 8 bits");

} // namespace

const InstInfo *getInstInfo(Opcode opcode) {
  auto index = static_cast<size_t>(opcode);
  if (index == 0 || index >= static_cast<size_t>(Opcode::NumOpcodes))
    return nullptr;
  return &Table[index - 1];
}

std::span<const InstInfo> getInstTable() { return Table; }

std::optional<Opcode> lookupMnemonic(std::string_view mnemonic) {
  for (const InstInfo &info : Table)
    if (info.mnemonic == mnemonic)
      return info.opcode;
  return std::nullopt;
}

std::string_view getPriorityName(Priority priority) {
  switch (priority) {
  case Priority::Default:
    return "default";
  case Priority::Low:
    return "low";
  case Priority::Medium:
    return "medium";
  case Priority::High:
    return "high";
  }
  return "?";
}

std::string_view getFCmpPredicateName(FCmpPredicate predicate) {
  static constexpr std::string_view Names[] = {
      "false", "oeq", "ogt", "oge", "olt", "ole", "one", "ord",
      "uno",   "ueq", "ugt", "uge", "ult", "ule", "une", "true"};
  auto index = static_cast<size_t>(predicate);
  return index < std::size(Names) ? Names[index] : "?";
}

std::string_view getBlockSpaceName(BlockSpace space) {
  static constexpr std::string_view Names[] = {"task", "color", "iq",
                                               "oq",   "ut",    "ctask"};
  auto index = static_cast<size_t>(space);
  return index < std::size(Names) ? Names[index] : "?";
}

} // namespace tessera::pe
