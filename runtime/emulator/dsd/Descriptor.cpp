//===- Descriptor.cpp - descriptors and DSR names -------------------------===//

#include "tessera/Emulator/DSRFile.h"

using namespace tessera;
using namespace tessera::emulator;

std::string_view emulator::getDSRKindName(DSRKind kind) {
  switch (kind) {
  case DSRKind::Mem1d:
    return "mem1d";
  case DSRKind::Mem4d:
    return "mem4d";
  case DSRKind::Circbuf:
    return "circbuf";
  case DSRKind::FabIn:
    return "fabin";
  case DSRKind::FabOut:
    return "fabout";
  case DSRKind::Fifo:
    return "fifo";
  }
  return "?";
}

std::optional<uint64_t> Descriptor::getLength() const {
  switch (kind) {
  case DSRKind::Mem1d:
  case DSRKind::Circbuf:
    return length;
  case DSRKind::FabIn:
  case DSRKind::FabOut:
    if (length == MaxDSRLength)
      return UINT64_MAX;
    return length;
  case DSRKind::Mem4d: {
    uint64_t product = 1;
    for (unsigned d = 0; d < dims && d < MaxMem4dDims; ++d)
      product *= extents[d];
    return product;
  }
  case DSRKind::Fifo:
    return std::nullopt;
  }
  return std::nullopt;
}

std::optional<DSRId> DSRId::fromOperand(const pe::Operand &operand) {
  uint8_t file;
  switch (operand.mode) {
  case pe::OperandMode::DestDSR:
    file = 0;
    break;
  case pe::OperandMode::Src0DSR:
    file = 1;
    break;
  case pe::OperandMode::Src1DSR:
    file = 2;
    break;
  default:
    return std::nullopt;
  }
  if (operand.value < 0 || operand.value >= pe::NumDSRsPerFile)
    return std::nullopt;
  return DSRId{file, static_cast<uint8_t>(operand.value)};
}

std::string DSRId::getName() const {
  static constexpr const char *Files[] = {"dest", "src0", "src1"};
  return std::string(file < 3 ? Files[file] : "?") + "." +
         std::to_string(index);
}
