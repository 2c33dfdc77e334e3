//===- LoadImage.cpp - the memory a program starts with -------------------===//
//
// The checks repeat readProgram's (with its wording) because a ProgramBinary
// may also be built in memory, by tests or tools, without being read.
//
//===----------------------------------------------------------------------===//

#include "tessera/Emulator/PEMemory.h"

#include <cstdio>

using namespace tessera;
using namespace tessera::emulator;

namespace {

std::string hex(uint64_t value) {
  char buffer[24];
  std::snprintf(buffer, sizeof(buffer), "0x%04llx",
                static_cast<unsigned long long>(value));
  return buffer;
}

struct Region {
  const char *name;
  uint64_t begin;
  uint64_t size;
};

} // namespace

ImageResult PEMemory::buildImage(const pe::ProgramBinary &program) {
  if (program.codeAddress % 2)
    return {nullptr, "code address " + hex(program.codeAddress) + " is odd"};
  Region code{"code", program.codeAddress, 2 * uint64_t(program.code.size())};
  Region data{"data", program.dataAddress, program.data.size()};
  for (const Region &region : {code, data})
    if (region.begin + region.size > Size)
      return {nullptr, std::string(region.name) + " at " + hex(region.begin) +
                           " of " + std::to_string(region.size) +
                           " bytes ends beyond the " + std::to_string(Size) +
                           " bytes of PE memory"};
  if (code.size && data.size && code.begin < data.begin + data.size &&
      data.begin < code.begin + code.size)
    return {nullptr, "code and data overlap in PE memory"};

  auto image = std::make_shared<std::vector<uint8_t>>(Size, 0);
  uint8_t *bytes = image->data();
  for (size_t i = 0; i < program.code.size(); ++i) {
    bytes[code.begin + 2 * i] = static_cast<uint8_t>(program.code[i]);
    bytes[code.begin + 2 * i + 1] = static_cast<uint8_t>(program.code[i] >> 8);
  }
  for (size_t i = 0; i < program.data.size(); ++i)
    bytes[data.begin + i] = program.data[i];
  return {std::move(image), std::nullopt};
}
