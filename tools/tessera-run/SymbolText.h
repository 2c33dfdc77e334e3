//===- SymbolText.h - a symbol's value as tessera-run prints it -*- C++ -*-===//
//
// `--dump` and tessera-core print data the same way (docs/tessera-run.md):
// integers in decimal, f32 with 9 significant digits, f16 with 5, bf16
// with 4, bool as true/false, an array in brackets.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_TOOLS_TESSERA_RUN_SYMBOLTEXT_H
#define TESSERA_TOOLS_TESSERA_RUN_SYMBOLTEXT_H

#include "tessera/Target/PEBinary/Binary.h"

#include <cstdint>
#include <span>
#include <string>

namespace tessera {

/// " 3" or " [1.5, 2.25]": the value of `symbol` held in `bytes` (its
/// getSymbolBytes bytes), with the leading space.
std::string formatSymbolValue(const pe::Symbol &symbol,
                              std::span<const uint8_t> bytes);

} // namespace tessera

#endif // TESSERA_TOOLS_TESSERA_RUN_SYMBOLTEXT_H
