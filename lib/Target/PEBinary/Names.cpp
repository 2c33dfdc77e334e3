//===- Names.cpp - sizes and names of the binary format's enums -----------===//
//
// One table per enum, shared by the compiler's out.json writer, the
// loader's reader, tessera-objdump, the emulator's reports and the host
// runtime's Python binding.
//
//===----------------------------------------------------------------------===//

#include "tessera/Target/PEBinary/Binary.h"

#include <array>

using namespace tessera;
using namespace tessera::pe;

namespace {
/// out.json's spelling, in ElemType order.
constexpr std::array<std::string_view, NumElemTypes> ElemTypeNames = {
    "none", "i8",  "u8",  "i16",  "u16", "i32", "u32",
    "i64",  "u64", "f16", "bf16", "f32", "bool"};
} // namespace

namespace tessera::pe {

unsigned getElemTypeBytes(ElemType type) {
  switch (type) {
  case ElemType::None:
    return 0;
  case ElemType::I8:
  case ElemType::U8:
  case ElemType::Bool:
    return 1;
  case ElemType::I16:
  case ElemType::U16:
  case ElemType::F16:
  case ElemType::BF16:
    return 2;
  case ElemType::I32:
  case ElemType::U32:
  case ElemType::F32:
    return 4;
  case ElemType::I64:
  case ElemType::U64:
    return 8;
  }
  return 0;
}

std::string_view getElemTypeName(ElemType type) {
  unsigned index = static_cast<unsigned>(type);
  return index < NumElemTypes ? ElemTypeNames[index] : "none";
}

std::optional<ElemType> parseElemTypeName(std::string_view name) {
  for (unsigned i = 0; i < NumElemTypes; ++i)
    if (name == ElemTypeNames[i])
      return static_cast<ElemType>(i);
  return std::nullopt;
}

} // namespace tessera::pe

const char *pe::getTaskKindName(target::TaskKind kind) {
  switch (kind) {
  case target::TaskKind::Data:
    return "data";
  case target::TaskKind::Local:
    return "local";
  case target::TaskKind::Control:
    return "control";
  }
  return "?";
}

const char *pe::getPortName(Port port) {
  static const char *const names[] = {"west", "east", "south", "north",
                                      "ramp"};
  unsigned index = static_cast<unsigned>(port);
  return index < 5 ? names[index] : "?";
}
