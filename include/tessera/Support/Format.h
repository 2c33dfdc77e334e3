//===- Format.h - numbers as diagnostics print them -------------*- C++ -*-===//
//
// Plain C++ shared by the compiler's passes and the emulator, so that every
// message groups digits the same way.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_SUPPORT_FORMAT_H
#define TESSERA_SUPPORT_FORMAT_H

#include <cstdint>
#include <string>

namespace tessera {

/// 51200 -> "51,200": byte counts and PE counts in messages.
std::string formatThousands(uint64_t value);

} // namespace tessera

#endif // TESSERA_SUPPORT_FORMAT_H
