//===- SymbolText.cpp - a symbol's value as tessera-run prints it --------===//

#include "SymbolText.h"

#include "tessera/Support/Float16.h"

#include <algorithm>
#include <bit>
#include <charconv>

using namespace tessera;

namespace {

/// Appends to_chars(value, format...): an integer in decimal, or a float
/// as printf's "%.<digits>g" prints it (to_chars promises the same text,
/// without printf's arbitrary-precision digits, in which a 64x64 fabric's
/// dump of every PE's block spent a fifth of the run).
template <typename T, typename... Format>
void appendChars(std::string &text, T value, Format... format) {
  char buffer[48];
  auto [end, error] =
      std::to_chars(buffer, buffer + sizeof buffer, value, format...);
  text.append(buffer, error == std::errc() ? end : buffer);
}

/// A float with `digits` significant digits.
void appendFloat(std::string &text, double value, int digits) {
  appendChars(text, value, std::chars_format::general, digits);
}

/// One element as text: integers in decimal, floats with enough digits to
/// tell them apart.
void appendElement(std::string &text, pe::ElemType type, const uint8_t *bytes) {
  uint64_t raw = 0;
  unsigned size = pe::getElemTypeBytes(type);
  for (unsigned i = 0; i < size; ++i)
    raw |= uint64_t(bytes[i]) << (8 * i);
  switch (type) {
  case pe::ElemType::I8:
    return appendChars(text, int8_t(raw));
  case pe::ElemType::I16:
    return appendChars(text, int16_t(raw));
  case pe::ElemType::I32:
    return appendChars(text, int32_t(raw));
  case pe::ElemType::I64:
    return appendChars(text, int64_t(raw));
  case pe::ElemType::Bool:
    text += raw ? "true" : "false";
    return;
  case pe::ElemType::F16:
    return appendFloat(text, double(halfBitsToFloat(uint16_t(raw))), 5);
  case pe::ElemType::BF16:
    return appendFloat(text, double(bfloat16BitsToFloat(uint16_t(raw))), 4);
  case pe::ElemType::F32:
    return appendFloat(text, double(std::bit_cast<float>(uint32_t(raw))), 9);
  default:
    return appendChars(text, raw);
  }
}

} // namespace

std::string tessera::formatSymbolValue(const pe::Symbol &symbol,
                                       std::span<const uint8_t> bytes) {
  unsigned size = pe::getElemTypeBytes(symbol.elemType);
  bool array = symbol.count != 1;
  std::string text = array ? " [" : "";
  // Most elements print in at most 16 characters with their separator.
  text.reserve(2 + 16 * size_t(std::min<uint64_t>(symbol.count, 1u << 16)));
  for (uint32_t i = 0; i < symbol.count && (i + 1) * size <= bytes.size();
       ++i) {
    text += i ? ", " : array ? "" : " ";
    appendElement(text, symbol.elemType, bytes.data() + i * size);
  }
  if (array)
    text += ']';
  return text;
}
