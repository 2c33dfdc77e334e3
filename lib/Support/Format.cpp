//===- Format.cpp - numbers as diagnostics print them ---------------------===//

#include "tessera/Support/Format.h"

std::string tessera::formatThousands(uint64_t value) {
  std::string digits = std::to_string(value);
  std::string text;
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i && (digits.size() - i) % 3 == 0)
      text += ',';
    text += digits[i];
  }
  return text;
}
