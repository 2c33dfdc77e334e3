//===- Messages.cpp - trap messages of the DSD engine ---------------------===//

#include "Messages.h"

#include <cstdio>

using namespace tessera;
using namespace tessera::emulator;

std::string dsd::hex(uint32_t value) {
  char buffer[16];
  std::snprintf(buffer, sizeof(buffer), "0x%04x", value);
  return buffer;
}

std::string dsd::memoryRange() {
  return "(" + hex(0) + ".." + hex(PEMemory::Size - 1) + ")";
}

std::string_view dsd::mnemonic(pe::Opcode opcode) {
  const pe::InstInfo *info = pe::getInstInfo(opcode);
  return info ? info->mnemonic : std::string_view("?");
}

std::string dsd::describeAccess(bool store, MemoryStatus status,
                                uint32_t address, unsigned bytes) {
  std::string what = std::string(store ? "store" : "load") + " of " +
                     std::to_string(bytes) + " bytes at ";
  if (status == MemoryStatus::Misaligned)
    return what + "odd address " + hex(address);
  return what + hex(address) + " does not fit in memory " + memoryRange();
}

void dsd::badOperand(DSDTrap &trap, std::string message) {
  trap = DSDTrap{};
  trap.kind = DSDTrapKind::BadOperand;
  trap.message = std::move(message);
}

void dsd::badMemoryAccess(DSDTrap &trap, std::string message, uint32_t address,
                          unsigned bytes, uint64_t element) {
  trap = DSDTrap{};
  trap.kind = DSDTrapKind::BadMemoryAccess;
  trap.message = std::move(message);
  trap.address = address;
  trap.width = static_cast<uint8_t>(bytes);
  trap.element = element;
}
