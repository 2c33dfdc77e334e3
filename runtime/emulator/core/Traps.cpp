//===- Traps.cpp - building trap reports ----------------------------------===//

#include "Traps.h"

#include <cstdio>

using namespace tessera;
using namespace tessera::emulator;

namespace {

/// Byte addresses print with at least four hex digits, as objdump's do.
std::string hex(uint32_t value) {
  char buffer[16];
  std::snprintf(buffer, sizeof(buffer), "0x%04x", value);
  return buffer;
}

std::string mnemonic(pe::Opcode opcode) {
  const pe::InstInfo *info = pe::getInstInfo(opcode);
  return info ? std::string(info->mnemonic) : std::string("?");
}

/// "(0x0000..0xbfff)": the byte addresses of PE memory.
std::string memoryRange() {
  return "(" + hex(0) + ".." + hex(PEMemory::Size - 1) + ")";
}

void fill(Trap &trap, TrapKind kind, uint32_t pc, std::string message) {
  trap = Trap{};
  trap.kind = kind;
  trap.pc = pc;
  trap.message = std::move(message);
}

} // namespace

void traps::badMemoryAccess(Trap &trap, uint32_t pc, pe::Opcode opcode,
                            MemoryStatus status, uint32_t address,
                            unsigned width) {
  std::string what = mnemonic(opcode) + " of " + std::to_string(width) +
                     (width == 1 ? " byte" : " bytes");
  fill(trap, TrapKind::BadMemoryAccess, pc,
       status == MemoryStatus::Misaligned
           ? what + " at odd address " + hex(address)
           : what + " at " + hex(address) + " does not fit in memory " +
                 memoryRange());
  trap.address = address;
  trap.width = static_cast<uint8_t>(width);
}

void traps::badJumpTarget(Trap &trap, uint32_t pc, pe::Opcode opcode,
                          uint32_t target) {
  std::string what = mnemonic(opcode) + " to ";
  fill(trap, TrapKind::BadJumpTarget, pc,
       target > PEMemory::Size
           ? what + hex(target) + " is outside memory " + memoryRange()
           : what + "odd address " + hex(target));
  trap.address = target;
}

void traps::assertFailed(Trap &trap, uint32_t pc, uint16_t code) {
  fill(trap, TrapKind::AssertFailed, pc,
       "assertion failed (code " + std::to_string(code) + ")");
  trap.code = code;
}

void traps::trapInstruction(Trap &trap, uint32_t pc, uint16_t code) {
  fill(trap, TrapKind::TrapInstruction, pc,
       "trap instruction (code " + std::to_string(code) + ")");
  trap.code = code;
}

void traps::undecodable(Trap &trap, uint32_t pc,
                        std::string_view decoderMessage) {
  fill(trap, TrapKind::Undecodable, pc,
       "undecodable instruction at " + hex(pc) + ": " +
           std::string(decoderMessage));
}

void traps::outsideCode(Trap &trap, uint32_t pc,
                        const DecodedProgram &program) {
  std::string code =
      program.getCodeEnd() == program.getCodeBegin()
          ? std::string("the program has no code")
          : hex(program.getCodeBegin()) + ".." + hex(program.getCodeEnd() - 1);
  fill(trap, TrapKind::OutsideCode, pc,
       "pc " + hex(pc) + " is outside the code (" + code + ")");
}
