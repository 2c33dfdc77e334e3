//===- ScalarCore.h - the CE's scalar instructions --------------*- C++ -*-===//
//
// Executes one instruction of the classes Misc, IntALU, FloatALU, Memory and
// Branch (docs/ISA.md, docs/Emulator.md "Compute engine: scalar
// instructions") on a CE's registers and its PE's memory. Task, Config, DSR
// and DSD instructions are left to the PE model, which sees NotScalar and
// reads the full instruction from the DecodedProgram. Nothing allocates
// unless the PE traps.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_SCALARCORE_H
#define TESSERA_EMULATOR_SCALARCORE_H

#include "tessera/Emulator/DecodedProgram.h"
#include "tessera/Emulator/PEMemory.h"

#include <array>
#include <cstdint>
#include <string>

namespace tessera::emulator {

/// The PRNG generators a PE has (`randsel n` picks `n mod 4`).
inline constexpr unsigned NumGenerators = 4;

/// The state of one compute engine that scalar instructions change.
struct CEState {
  std::array<uint32_t, pe::NumRegisters> r{};
  /// Byte address of the next instruction.
  uint32_t pc = 0;
  /// xorshift32 states (never 0) and the generator rand16 advances.
  std::array<uint32_t, NumGenerators> prng{};
  uint8_t prngSelect = 0;

  /// Seeds every generator from the PE's coordinates (prngSeed) and
  /// selects generator 0.
  void seedPRNG(uint32_t x, uint32_t y);
  bool operator==(const CEState &) const = default;
};

/// The seed of generator `generator` of the PE at (x, y):
/// fmix32((x << 16 | (y & 0xFFFF)) + 0x9E3779B9 * (generator + 1)) with
/// MurmurHash3's finaliser fmix32, and 0x6D2B79F5 instead of 0 (xorshift
/// never leaves 0).
uint32_t prngSeed(uint32_t x, uint32_t y, unsigned generator);

/// Advances a xorshift32 state (shifts 13, 17, 5) and returns the new state.
inline uint32_t xorshift32(uint32_t &state) {
  state ^= state << 13;
  state ^= state >> 17;
  state ^= state << 5;
  return state;
}

enum class TrapKind : uint8_t {
  BadMemoryAccess, ///< out of range or misaligned; see address and width
  BadJumpTarget,   ///< odd or beyond memory; see address
  AssertFailed,    ///< `assert` of 0; see code
  TrapInstruction, ///< `trap`; see code
  Undecodable,     ///< the words at pc do not decode; message has why
  OutsideCode,     ///< pc is not in the program's code (fell off the end)
};

/// Why a CE stopped. The instruction at `pc` did not change any state.
struct Trap {
  TrapKind kind = TrapKind::Undecodable;
  uint32_t pc = 0;
  /// Lowercase, no trailing period, e.g. "ld32 of 4 bytes at 0xbffe is
  /// outside memory (0x0000..0xbfff)".
  std::string message;
  uint16_t code = 0;    ///< assert/trap: the program's code
  uint32_t address = 0; ///< memory: the byte address; jump: the target
  uint8_t width = 0;    ///< memory: bytes accessed (1, 2 or 4)
};

enum class StepResult : uint8_t {
  Continue,  ///< one instruction ran; pc is the next one
  Trapped,   ///< `trap` says why; nothing changed
  NotScalar, ///< the instruction at pc is for the PE model; nothing changed
  Returned,  ///< pc is pe::MemoryBytes, the address the loader and host put
             ///< in r14 for a top-level call: that call has returned
  Guarded,   ///< the load or store at pc was refused (MemoryGuard); nothing
             ///< changed
};

/// The PE's memory-mapped config words, which 16-bit loads and stores reach
/// at byte addresses 2 * 0x7F00 .. 2 * 0x7FFF + 1 beyond the 48 KiB of
/// memory (programs read and rewrite router registers so: spmv-hypersparse
/// takes `@bitcast(*u16, 2 * 0x7F40).*`). The PE model implements it.
class ConfigPort {
public:
  static constexpr uint32_t FirstByte = 2 * 0x7F00, EndByte = 2 * 0x8000;
  virtual ~ConfigPort() = default;
  virtual uint16_t read(uint32_t wordAddress) = 0;
  virtual void write(uint32_t wordAddress, uint16_t value) = 0;
};

/// Watches the loads and stores of instructions run ahead of their cycle
/// (the PE model's first batch of a task beside transfers still running):
/// an access it refuses is not made, and the instruction is not executed.
class MemoryGuard {
public:
  virtual ~MemoryGuard() = default;
  /// Whether the `width`-byte load or store at byte `address` (in memory or
  /// among the config words) may be made.
  virtual bool allows(uint32_t address, unsigned width, bool store) = 0;
};

/// Executes the instruction at `state.pc`. `trap` is written only when the
/// result is Trapped. Without `config`, config words are out of reach.
/// With `guard`, a load or store it refuses leaves everything as it was and
/// the result is Guarded.
StepResult step(CEState &state, PEMemory &memory, const DecodedProgram &program,
                Trap &trap, ConfigPort *config = nullptr,
                MemoryGuard *guard = nullptr);

struct RunResult {
  StepResult result = StepResult::Continue; ///< Continue: the limit was hit
  uint64_t steps = 0; ///< instructions executed (Continue results)
};

/// Takes instructions the scalar core does not execute but its caller can
/// without stopping a run: the PE model's DSR builders with immediate
/// operands. A run hands them over in place, so a task's code that
/// alternates them with scalar instructions is one run, not one per
/// stretch.
class InstructionTaker {
public:
  virtual ~InstructionTaker() = default;
  /// Whether it took `inst` (it counts as a step, and pc moves past it);
  /// if not, the run stops there with NotScalar.
  virtual bool take(const DecodedInst &inst) = 0;
};

/// Steps until an instruction does not continue, or `maxSteps` have run.
/// With `taker`, instructions it takes do not stop the run.
RunResult run(CEState &state, PEMemory &memory, const DecodedProgram &program,
              uint64_t maxSteps, Trap &trap, ConfigPort *config = nullptr,
              MemoryGuard *guard = nullptr, InstructionTaker *taker = nullptr);

} // namespace tessera::emulator

#endif // TESSERA_EMULATOR_SCALARCORE_H
