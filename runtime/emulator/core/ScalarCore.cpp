//===- ScalarCore.cpp - the compute engine's scalar instructions ----------===//
//
// One switch on the opcode over pre-decoded entries; every case reads its
// operands, checks what can trap before changing anything, then writes its
// result. The rules are docs/ISA.md's; docs/Emulator.md lists the choices
// made where ISA.md is silent.
//
//===----------------------------------------------------------------------===//

#include "tessera/Emulator/ScalarCore.h"

#include "FloatOps.h"
#include "Traps.h"

#include <bit>
#include <cmath>

using namespace tessera;
using namespace tessera::emulator;

namespace {

using pe::Opcode;

uint32_t sext8(uint32_t v) {
  return static_cast<uint32_t>(static_cast<int8_t>(v & 0xFF));
}
uint32_t sext16(uint32_t v) {
  return static_cast<uint32_t>(static_cast<int16_t>(v & 0xFFFF));
}
int32_t s32(uint32_t v) { return static_cast<int32_t>(v); }

uint32_t divS(uint32_t a, uint32_t b) {
  if (b == 0)
    return 0xFFFFFFFF;
  if (a == 0x80000000 && b == 0xFFFFFFFF)
    return 0x80000000;
  return static_cast<uint32_t>(s32(a) / s32(b));
}
uint32_t remS(uint32_t a, uint32_t b) {
  if (b == 0)
    return a;
  if (a == 0x80000000 && b == 0xFFFFFFFF)
    return 0;
  return static_cast<uint32_t>(s32(a) % s32(b));
}

/// A jump may reach any even address in memory, and MemoryBytes itself (the
/// return address of a top-level call).
bool isJumpTarget(uint32_t target) {
  return target <= PEMemory::Size && (target & 1) == 0;
}

double h(uint32_t bits) { return fp::f16(bits); }

/// An even byte address of a config word, for a 16-bit access.
bool isConfigAddress(uint32_t address) {
  return address >= ConfigPort::FirstByte && address < ConfigPort::EndByte &&
         (address & 1) == 0;
}

/// `inst` is the entry at pc (`code.find(s.pc)`), null outside the code.
[[gnu::always_inline]] inline StepResult
execute(CEState &s, PEMemory &memory, const DecodedProgram &program,
        const DecodedInst *inst, Trap &trap, ConfigPort *config,
        MemoryGuard *guard) {
  const uint32_t pc = s.pc;
  if (!inst) [[unlikely]] {
    if (pc == PEMemory::Size)
      return StepResult::Returned;
    traps::outsideCode(trap, pc, program);
    return StepResult::Trapped;
  }
  auto &r = s.r;
  const uint8_t a = inst->reg[0], b = inst->reg[1], c = inst->reg[2],
                d = inst->reg[3];
  const uint32_t imm = inst->imm;
  uint32_t next = pc + 2u * inst->size;

  // Memory accesses: on failure the trap is filled and nothing changes.
  auto fault = [&](MemoryStatus status, uint32_t address, unsigned width) {
    traps::badMemoryAccess(trap, pc, inst->opcode, status, address, width);
    return StepResult::Trapped;
  };
  auto refused = [&](uint32_t address, unsigned width, bool store) {
    return guard && !guard->allows(address, width, store);
  };
  auto jumpFault = [&](uint32_t target) {
    traps::badJumpTarget(trap, pc, inst->opcode, target);
    return StepResult::Trapped;
  };

  switch (inst->opcode) {
  case Opcode::Invalid:
    traps::undecodable(trap, pc, program.getDecodeError(*inst));
    return StepResult::Trapped;

  // Miscellaneous.
  case Opcode::Nop:
    break;
  case Opcode::Trap:
    traps::trapInstruction(trap, pc, static_cast<uint16_t>(imm));
    return StepResult::Trapped;
  case Opcode::Assert:
    if (r[a] == 0) {
      traps::assertFailed(trap, pc, static_cast<uint16_t>(imm));
      return StepResult::Trapped;
    }
    break;
  case Opcode::Random16:
    r[a] = xorshift32(s.prng[s.prngSelect % NumGenerators]) >> 16;
    break;
  case Opcode::SetPRNG:
    s.prngSelect = static_cast<uint8_t>(
        ((inst->flags & DecodedInst::RegOperand) ? r[a] : imm) % NumGenerators);
    break;

  // Moves and integer arithmetic (unsigned, so everything wraps).
  case Opcode::Mov:
    r[a] = r[b];
    break;
  case Opcode::MovI:
  case Opcode::MovI32:
    r[a] = imm;
    break;
  case Opcode::Add:
    r[a] = r[b] + r[c];
    break;
  case Opcode::Sub:
    r[a] = r[b] - r[c];
    break;
  case Opcode::Mul:
    r[a] = r[b] * r[c];
    break;
  case Opcode::MulHS:
    r[a] = static_cast<uint32_t>(
        static_cast<uint64_t>(int64_t(s32(r[b])) * int64_t(s32(r[c]))) >> 32);
    break;
  case Opcode::MulHU:
    r[a] = static_cast<uint32_t>((uint64_t(r[b]) * uint64_t(r[c])) >> 32);
    break;
  case Opcode::DivS:
    r[a] = divS(r[b], r[c]);
    break;
  case Opcode::DivU:
    r[a] = r[c] ? r[b] / r[c] : 0xFFFFFFFF;
    break;
  case Opcode::RemS:
    r[a] = remS(r[b], r[c]);
    break;
  case Opcode::RemU:
    r[a] = r[c] ? r[b] % r[c] : r[b];
    break;
  case Opcode::And:
    r[a] = r[b] & r[c];
    break;
  case Opcode::Or:
    r[a] = r[b] | r[c];
    break;
  case Opcode::Xor:
    r[a] = r[b] ^ r[c];
    break;
  case Opcode::Shl:
    r[a] = r[b] << (r[c] & 31);
    break;
  case Opcode::ShrL:
    r[a] = r[b] >> (r[c] & 31);
    break;
  case Opcode::ShrA:
    r[a] = static_cast<uint32_t>(s32(r[b]) >> (r[c] & 31));
    break;
  case Opcode::CmpEq:
    r[a] = r[b] == r[c];
    break;
  case Opcode::CmpNe:
    r[a] = r[b] != r[c];
    break;
  case Opcode::CmpLtS:
    r[a] = s32(r[b]) < s32(r[c]);
    break;
  case Opcode::CmpLtU:
    r[a] = r[b] < r[c];
    break;
  case Opcode::CmpLeS:
    r[a] = s32(r[b]) <= s32(r[c]);
    break;
  case Opcode::CmpLeU:
    r[a] = r[b] <= r[c];
    break;
  case Opcode::AddI: // imm is already sign-extended
    r[a] = r[b] + imm;
    break;
  case Opcode::AndI: // UImm16: zero-extended
    r[a] = r[b] & imm;
    break;
  case Opcode::OrI:
    r[a] = r[b] | imm;
    break;
  case Opcode::XorI:
    r[a] = r[b] ^ imm;
    break;
  case Opcode::ShlI:
    r[a] = r[b] << (imm & 31);
    break;
  case Opcode::ShrLI:
    r[a] = r[b] >> (imm & 31);
    break;
  case Opcode::ShrAI:
    r[a] = static_cast<uint32_t>(s32(r[b]) >> (imm & 31));
    break;
  case Opcode::Not:
    r[a] = ~r[b];
    break;
  case Opcode::Neg:
    r[a] = 0u - r[b];
    break;
  case Opcode::SExt8:
    r[a] = sext8(r[b]);
    break;
  case Opcode::SExt16:
    r[a] = sext16(r[b]);
    break;
  case Opcode::ZExt8:
    r[a] = r[b] & 0xFF;
    break;
  case Opcode::ZExt16:
    r[a] = r[b] & 0xFFFF;
    break;
  case Opcode::Clz32:
    r[a] = static_cast<uint32_t>(std::countl_zero(r[b]));
    break;
  case Opcode::Ctz32:
    r[a] = static_cast<uint32_t>(std::countr_zero(r[b]));
    break;
  case Opcode::Popc32:
    r[a] = static_cast<uint32_t>(std::popcount(r[b]));
    break;
  case Opcode::Select:
    r[a] = r[b] != 0 ? r[c] : r[d];
    break;

  // f32: the host's binary32 arithmetic is IEEE round-to-nearest-even.
  case Opcode::FAddS:
    r[a] = fp::bits32(fp::f32(r[b]) + fp::f32(r[c]));
    break;
  case Opcode::FSubS:
    r[a] = fp::bits32(fp::f32(r[b]) - fp::f32(r[c]));
    break;
  case Opcode::FMulS:
    r[a] = fp::bits32(fp::f32(r[b]) * fp::f32(r[c]));
    break;
  case Opcode::FDivS:
    r[a] = fp::bits32(fp::f32(r[b]) / fp::f32(r[c]));
    break;
  case Opcode::FMinS:
    r[a] = fp::pickMin(fp::f32(r[b]), r[b], fp::f32(r[c]), r[c],
                       fp::CanonicalNaN32);
    break;
  case Opcode::FMaxS:
    r[a] = fp::pickMax(fp::f32(r[b]), r[b], fp::f32(r[c]), r[c],
                       fp::CanonicalNaN32);
    break;
  case Opcode::FNegS:
    r[a] = r[b] ^ 0x80000000u;
    break;
  case Opcode::FAbsS:
    r[a] = r[b] & 0x7FFFFFFFu;
    break;
  case Opcode::FSqrtS:
    r[a] = fp::bits32(std::sqrt(fp::f32(r[b])));
    break;
  case Opcode::FCmpS:
    r[a] = fp::compare(fp::f32(r[b]), fp::f32(r[c]),
                       static_cast<pe::FCmpPredicate>(imm & 15));
    break;

  // f16: exact in double, then one rounding (see FloatOps.h).
  case Opcode::FAddH:
    r[a] = fp::roundToHalf(h(r[b]) + h(r[c]));
    break;
  case Opcode::FSubH:
    r[a] = fp::roundToHalf(h(r[b]) - h(r[c]));
    break;
  case Opcode::FMulH:
    r[a] = fp::roundToHalf(h(r[b]) * h(r[c]));
    break;
  case Opcode::FDivH:
    r[a] = fp::roundToHalf(h(r[b]) / h(r[c]));
    break;
  case Opcode::FMinH:
    r[a] = fp::pickMin(h(r[b]), r[b] & 0xFFFF, h(r[c]), r[c] & 0xFFFF,
                       fp::CanonicalNaN16);
    break;
  case Opcode::FMaxH:
    r[a] = fp::pickMax(h(r[b]), r[b] & 0xFFFF, h(r[c]), r[c] & 0xFFFF,
                       fp::CanonicalNaN16);
    break;
  case Opcode::FNegH:
    r[a] = (r[b] ^ 0x8000u) & 0xFFFF;
    break;
  case Opcode::FAbsH:
    r[a] = r[b] & 0x7FFFu;
    break;
  case Opcode::FSqrtH:
    r[a] = fp::roundToHalf(std::sqrt(h(r[b])));
    break;
  case Opcode::FCmpH:
    r[a] =
        fp::compare(h(r[b]), h(r[c]), static_cast<pe::FCmpPredicate>(imm & 15));
    break;

  // Conversions, fcvt.<to>.<from>.
  case Opcode::FCvtSH:
    r[a] = fp::bits32(fp::f16(r[b]));
    break;
  case Opcode::FCvtHS: {
    float value = fp::f32(r[b]);
    r[a] = std::isnan(value) ? fp::CanonicalNaN16 : floatToHalfBits(value);
    break;
  }
  case Opcode::FCvtSBF:
    r[a] = fp::bits32(bfloat16BitsToFloat(static_cast<uint16_t>(r[b])));
    break;
  case Opcode::FCvtBFS: {
    float value = fp::f32(r[b]);
    r[a] =
        std::isnan(value) ? fp::CanonicalNaNBF16 : floatToBFloat16Bits(value);
    break;
  }
  case Opcode::FCvtSW:
    r[a] = fp::int32ToF32(s32(r[b]));
    break;
  case Opcode::FCvtSWU:
    r[a] = fp::uint32ToF32(r[b]);
    break;
  case Opcode::FCvtWS:
    r[a] = fp::toInt32(fp::f32(r[b]));
    break;
  case Opcode::FCvtWUS:
    r[a] = fp::toUInt32(fp::f32(r[b]));
    break;
  case Opcode::FCvtHW:
    r[a] = fp::roundToHalf(static_cast<double>(s32(r[b])));
    break;
  case Opcode::FCvtHWU:
    r[a] = fp::roundToHalf(static_cast<double>(r[b]));
    break;
  case Opcode::FCvtWH:
    r[a] = fp::toInt32(h(r[b]));
    break;
  case Opcode::FCvtWUH:
    r[a] = fp::toUInt32(h(r[b]));
    break;

  // Memory: rd/rs in a, the base in b, the sign-extended offset in imm.
  case Opcode::Ld8S:
  case Opcode::Ld8U: {
    uint32_t address = r[b] + imm;
    uint8_t value;
    if (refused(address, 1, false)) [[unlikely]]
      return StepResult::Guarded;
    if (MemoryStatus st = memory.load8(address, value); st != MemoryStatus::Ok)
      return fault(st, address, 1);
    r[a] = inst->opcode == Opcode::Ld8S ? sext8(value) : value;
    break;
  }
  case Opcode::Ld16S:
  case Opcode::Ld16U: {
    uint32_t address = r[b] + imm;
    uint16_t value;
    if (refused(address, 2, false)) [[unlikely]]
      return StepResult::Guarded;
    if (MemoryStatus st = memory.load16(address, value);
        st != MemoryStatus::Ok) {
      if (!config || !isConfigAddress(address))
        return fault(st, address, 2);
      value = config->read(address / 2);
    }
    r[a] = inst->opcode == Opcode::Ld16S ? sext16(value) : value;
    break;
  }
  case Opcode::Ld32: {
    uint32_t address = r[b] + imm;
    uint32_t value;
    if (refused(address, 4, false)) [[unlikely]]
      return StepResult::Guarded;
    if (MemoryStatus st = memory.load32(address, value); st != MemoryStatus::Ok)
      return fault(st, address, 4);
    r[a] = value;
    break;
  }
  case Opcode::St8: {
    uint32_t address = r[b] + imm;
    if (refused(address, 1, true)) [[unlikely]]
      return StepResult::Guarded;
    if (MemoryStatus st = memory.store8(address, static_cast<uint8_t>(r[a]));
        st != MemoryStatus::Ok)
      return fault(st, address, 1);
    break;
  }
  case Opcode::St16: {
    uint32_t address = r[b] + imm;
    if (refused(address, 2, true)) [[unlikely]]
      return StepResult::Guarded;
    if (MemoryStatus st = memory.store16(address, static_cast<uint16_t>(r[a]));
        st != MemoryStatus::Ok) {
      if (!config || !isConfigAddress(address))
        return fault(st, address, 2);
      config->write(address / 2, static_cast<uint16_t>(r[a]));
    }
    break;
  }
  case Opcode::St32: {
    uint32_t address = r[b] + imm;
    if (refused(address, 4, true)) [[unlikely]]
      return StepResult::Guarded;
    if (MemoryStatus st = memory.store32(address, r[a]); st != MemoryStatus::Ok)
      return fault(st, address, 4);
    break;
  }

  // Control flow. CodeAddr immediates are even and in memory (the decoder
  // checks); register targets are checked here, before r14 is written.
  case Opcode::Jmp:
    next = imm;
    break;
  case Opcode::JmpR:
    if (!isJumpTarget(r[a]))
      return jumpFault(r[a]);
    next = r[a];
    break;
  case Opcode::BEqZ:
    if (r[a] == 0)
      next = imm;
    break;
  case Opcode::BNeZ:
    if (r[a] != 0)
      next = imm;
    break;
  case Opcode::Call:
    r[pe::LinkRegister] = next;
    next = imm;
    break;
  case Opcode::CallR: {
    uint32_t target = r[a]; // read before r14 changes: `callr r14` works
    if (!isJumpTarget(target))
      return jumpFault(target);
    r[pe::LinkRegister] = next;
    next = target;
    break;
  }
  case Opcode::Ret: {
    uint32_t target = r[pe::LinkRegister];
    if (!isJumpTarget(target))
      return jumpFault(target);
    next = target;
    break;
  }

  default:
    return StepResult::NotScalar;
  }
  s.pc = next;
  return StepResult::Continue;
}

} // namespace

StepResult tessera::emulator::step(CEState &state, PEMemory &memory,
                                   const DecodedProgram &program, Trap &trap,
                                   ConfigPort *config, MemoryGuard *guard) {
  return execute(state, memory, program, program.lookup(state.pc), trap,
                 config, guard);
}

RunResult tessera::emulator::run(CEState &state, PEMemory &memory,
                                 const DecodedProgram &program,
                                 uint64_t maxSteps, Trap &trap,
                                 ConfigPort *config, MemoryGuard *guard,
                                 InstructionTaker *taker) {
  RunResult result;
  const DecodedProgram::Table code = program.getTable();
  while (result.steps < maxSteps) {
    const DecodedInst *inst = code.find(state.pc);
    result.result = execute(state, memory, program, inst, trap, config, guard);
    if (result.result != StepResult::Continue) {
      if (result.result != StepResult::NotScalar || !taker ||
          !taker->take(*inst))
        return result;
      state.pc += 2u * inst->size;
    }
    ++result.steps;
  }
  result.result = StepResult::Continue;
  return result;
}
