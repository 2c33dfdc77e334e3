//===- SymbolText.cpp - a symbol's value as tessera-run prints it --------===//

#include "SymbolText.h"

#include "tessera/Support/Float16.h"

#include <bit>
#include <cstdio>

using namespace tessera;

namespace {

/// One element as text: integers in decimal, floats with enough digits to
/// tell them apart.
std::string formatElement(pe::ElemType type, const uint8_t *bytes) {
  uint64_t raw = 0;
  unsigned size = pe::getElemTypeBytes(type);
  for (unsigned i = 0; i < size; ++i)
    raw |= uint64_t(bytes[i]) << (8 * i);
  char buffer[64];
  switch (type) {
  case pe::ElemType::I8:
    return std::to_string(int8_t(raw));
  case pe::ElemType::I16:
    return std::to_string(int16_t(raw));
  case pe::ElemType::I32:
    return std::to_string(int32_t(raw));
  case pe::ElemType::I64:
    return std::to_string(int64_t(raw));
  case pe::ElemType::Bool:
    return raw ? "true" : "false";
  case pe::ElemType::F16:
    std::snprintf(buffer, sizeof buffer, "%.5g",
                  double(halfBitsToFloat(uint16_t(raw))));
    return buffer;
  case pe::ElemType::BF16:
    std::snprintf(buffer, sizeof buffer, "%.4g",
                  double(bfloat16BitsToFloat(uint16_t(raw))));
    return buffer;
  case pe::ElemType::F32:
    std::snprintf(buffer, sizeof buffer, "%.9g",
                  double(std::bit_cast<float>(uint32_t(raw))));
    return buffer;
  default:
    return std::to_string(raw);
  }
}

} // namespace

std::string tessera::formatSymbolValue(const pe::Symbol &symbol,
                                       std::span<const uint8_t> bytes) {
  unsigned size = pe::getElemTypeBytes(symbol.elemType);
  bool array = symbol.count != 1;
  std::string text = array ? " [" : "";
  for (uint32_t i = 0; i < symbol.count && (i + 1) * size <= bytes.size(); ++i)
    text += (i       ? ", "
             : array ? ""
                     : " ") +
            formatElement(symbol.elemType, bytes.data() + i * size);
  return text + (array ? "]" : "");
}
