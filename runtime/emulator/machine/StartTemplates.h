//===- StartTemplates.h - operation starts kept for reuse -------*- C++ -*-===//
//
// A DSD operation's start reads its DSRs' descriptors and a few registers
// and builds cursors from them. Where the DSRs were set by prebuilt
// builders (DSRFile origins), every PE running the instruction with the
// same registers starts the same operation: a band keeps the first such
// start of each instruction of each program and copies it (docs/Emulator.md,
// "Starting an operation").
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_MACHINE_STARTTEMPLATES_H
#define TESSERA_EMULATOR_MACHINE_STARTTEMPLATES_H

#include "PE.h"

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

namespace tessera::emulator::machine {

/// What a start read: the origins of its DSRs and its registers' values.
struct StartInputs {
  static constexpr unsigned MaxDSRs = 4, MaxRegisters = 8;
  uint8_t numDSRs = 0, numRegisters = 0;
  std::array<DSRId, MaxDSRs> dsr{};
  std::array<uint16_t, MaxDSRs> origin{};
  std::array<uint8_t, MaxRegisters> reg{};
  std::array<uint32_t, MaxRegisters> value{};

  /// `pe` would start the same operation: its DSRs hold the same prebuilt
  /// descriptors and its registers the same values.
  bool matches(const PE &pe) const {
    for (unsigned i = 0; i < numDSRs; ++i)
      if (pe.dsrs.getOrigin(dsr[i]) != origin[i])
        return false;
    for (unsigned i = 0; i < numRegisters; ++i)
      if (pe.ce.r[reg[i]] != value[i])
        return false;
    return true;
  }
};

/// What start() made of one instruction, and what it read to make it.
struct StartTemplate : StartInputs {
  /// Flight's classification (Operations.cpp classify).
  bool interactive = false, fabric = false;
  unsigned bits = 16;
  /// An operation on memory started from it ran whole without a fault:
  /// every one does, as they touch the same addresses.
  bool ranWhole = false;
  DSDOperation op;

  /// Synchronous, on memory only, and without effects when it completes
  /// (activate, unblock, advance_switch): nothing but its PE's main thread
  /// can tell when it runs (Band::runMainThread runs it ahead).
  bool isQuiet() const {
    const ResolvedOptions &options = op.getOptions();
    return ranWhole && !interactive && !options.async && !options.activate &&
           !options.unblock && !op.getAdvanceSwitchColor();
  }
  /// Asynchronous, a plain move between memory and the fabric of two
  /// elements or more, and at most activating a task when it completes:
  /// what the band carries between turns (Band::tryStream,
  /// Band::mayCompleteApart), which a chain may start ahead
  /// (Band::isCarriedStartNext).
  bool isCarried() const {
    const ResolvedOptions &options = op.getOptions();
    return interactive && options.async && !op.isMap() &&
           DSDEngine::isPlainMove(op) && op.getLength() >= 2 &&
           !options.unblock && !op.getAdvanceSwitchColor();
  }
};

/// A band's templates, by program and instruction (DecodedInst::aux).
class StartTemplates {
public:
  /// Templates kept at most (each is some 900 bytes), and entries (16
  /// bytes, one per non-scalar instruction up to the last that started
  /// an operation), so that a layout of a program per PE does not fill
  /// memory with them.
  static constexpr size_t MaxTemplates = 8192, MaxEntries = size_t(1) << 18;

  StartTemplate *find(uint16_t program, uint32_t aux) {
    if (program >= byProgram.size() || aux >= byProgram[program].size())
      return nullptr;
    return byProgram[program][aux].kept.get();
  }
  /// After a start that found no template to copy: keeps what `flight`
  /// (just started by start() from `inst` on `pe`) holds as instruction
  /// `aux`'s template, unless its start read something a template cannot
  /// check (a DSR not set by a prebuilt builder, a FIFO), the band keeps
  /// enough, or the instruction has missed too often.
  /// Returns the template if it now holds this start.
  StartTemplate *remember(uint16_t program, uint32_t aux,
                          const pe::Instruction &inst, const PE &pe,
                          const Flight &flight);

private:
  /// An instruction whose starts found no template to copy this many
  /// times is left alone: its starts read what differs from one to the
  /// next (GEMV's fmacs on a column DSR it moves on itself).
  static constexpr uint8_t MaxMisses = 4;
  struct Entry {
    std::unique_ptr<StartTemplate> kept;
    uint8_t misses = 0;
  };
  std::vector<std::vector<Entry>> byProgram;
  size_t entries = 0;
  /// Templates replaced by a later start, kept (at most MaxMisses per
  /// entry) because operations copied from them read their operand slots
  /// (DSDEngine::restart).
  std::vector<std::unique_ptr<StartTemplate>> retired;
  /// remember()'s work: false when the start read what a template cannot
  /// check.
  bool keep(Entry &entry, const pe::Instruction &inst, const PE &pe,
            const Flight &flight);
  size_t count = 0;
};

} // namespace tessera::emulator::machine

#endif // TESSERA_EMULATOR_MACHINE_STARTTEMPLATES_H
