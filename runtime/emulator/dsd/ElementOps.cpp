//===- ElementOps.cpp - DSD element operations by run-time opcode ---------===//

#include "ElementOps.h"

using namespace tessera;
using namespace tessera::emulator;

dsd::ApplyFn dsd::getApply(pe::Opcode opcode) {
  switch (opcode) {
#define TESSERA_APPLY(Name, ...)                                               \
  case pe::Opcode::Name:                                                       \
    return [](uint32_t a, uint32_t b, uint32_t c, uint32_t &carry) {           \
      return apply<pe::Opcode::Name>(a, b, c, carry);                          \
    };
    TESSERA_DSD_OPS(TESSERA_APPLY)
#undef TESSERA_APPLY
  default:
    return nullptr;
  }
}
