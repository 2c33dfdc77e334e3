//===- TestMachine.h - hand-built programs and fabrics for PE tests -*- C++
//-*-===//
//
// Tests write each PE program as an instruction list with labels (Program),
// place programs and routes on a small rectangle (Fabric) and run the real
// Emulator over the LoadedOutput that makes (Machine). Nothing goes through
// the compiler or the file system, so a test shows every instruction whose
// timing it asserts.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_TEST_UNIT_EMULATORMACHINE_TESTMACHINE_H
#define TESSERA_TEST_UNIT_EMULATORMACHINE_TESTMACHINE_H

#include "tessera/Emulator/Emulator.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace machinetest {

using namespace tessera;
using namespace tessera::emulator;
using pe::BlockSpace;
using pe::Opcode;
using pe::Operand;
using target::Arch;
using target::TaskKind;

//===----------------------------------------------------------------------===//
// Operands
//===----------------------------------------------------------------------===//

inline Operand R(unsigned reg) { return Operand::reg(reg); }
inline Operand Imm(int64_t value) { return Operand::imm(value); }
inline Operand Dest(unsigned i) {
  return Operand::dsr(pe::OperandMode::DestDSR, i);
}
inline Operand Src0(unsigned i) {
  return Operand::dsr(pe::OperandMode::Src0DSR, i);
}

/// An operand, or a label that build() replaces by its code address.
struct Arg {
  Arg(Operand operand) : operand(operand) {}
  Operand operand;
  std::string label;
};
inline Arg L(std::string label) {
  Arg arg(Imm(0));
  arg.label = std::move(label);
  return arg;
}

/// DSD options, e.g. `opts().async().activate(11)`.
struct Opts {
  pe::DSDOptions value;
  Opts &async() {
    value.async = true;
    return *this;
  }
  Opts &activate(unsigned task) {
    value.activate = Imm(task);
    return *this;
  }
  Opts &unblock(unsigned task) {
    value.unblock = Imm(task);
    return *this;
  }
  Opts &ut(unsigned microthread) {
    value.microthread = Imm(microthread);
    return *this;
  }
  Opts &priority(pe::Priority priority) {
    value.priority = priority;
    return *this;
  }
  operator pe::DSDOptions() const { return value; }
};
inline Opts opts() { return {}; }

//===----------------------------------------------------------------------===//
// Conventions of the test programs
//===----------------------------------------------------------------------===//

/// Programs never write r13, which every task and call enters with as 0, so
/// `st32 rs, r13, address` stores at an absolute address.
inline constexpr unsigned Zero = 13;
/// log() uses r11 and r12.
inline constexpr unsigned LogScratch1 = 11, LogScratch2 = 12;
inline constexpr uint16_t CodeBase = 0x100;
/// The log: a count, then the values appended in order.
inline constexpr uint16_t LogCount = 0x2000;
inline constexpr uint16_t LogBase = 0x2004;
/// Instructions (and so cycles) log() takes.
inline constexpr unsigned LogCycles = 5;

/// Config words of docs/Library.md.
inline constexpr uint16_t ColorConfigWord = 0x7F20;
inline constexpr uint16_t XCoordWord = 0x7F80, YCoordWord = 0x7F81;
inline constexpr uint16_t TscLowWord = 0x7F88, TscMidWord = 0x7F89,
                          TscHighWord = 0x7F8A, TscControlWord = 0x7F8B;
inline constexpr uint16_t SimprintWord = 0x7F90;

/// A control wavelet's payload: `entry` in bits 16..21 and `low` as the low
/// half (where slots 2..7 lie, which only popping routers execute); slots 0
/// and 1 are NOP.
inline uint32_t controlPayload(unsigned entry, uint16_t low) {
  return uint32_t(entry) << 16 | low;
}

//===----------------------------------------------------------------------===//
// Program
//===----------------------------------------------------------------------===//

/// One PE program: code with labels, the task table, queues, start-up
/// actions and symbols. Labels resolve when the binary is built.
class Program {
public:
  explicit Program(std::string name, Arch arch = Arch::WSE2);

  const std::string &getName() const { return name; }
  Arch getArch() const { return arch; }

  // Code.
  Program &label(const std::string &label);
  /// The next instruction comes from line `line` of "<name>.csl".
  Program &line(uint32_t line, uint16_t column = 3);
  Program &emit(Opcode opcode, std::vector<Arg> operands = {},
                pe::DSDOptions options = {});

  /// `movi` when the value fits 16 signed bits, else `movi32`.
  Program &movi(unsigned rd, int64_t value);
  Program &store(unsigned rs, uint16_t address) {
    return emit(Opcode::St32, {R(rs), R(Zero), Imm(address)});
  }
  Program &load(unsigned rd, uint16_t address) {
    return emit(Opcode::Ld32, {R(rd), R(Zero), Imm(address)});
  }
  /// Appends register `rs` to the log (LogCycles instructions).
  Program &log(unsigned rs);
  /// Appends `value` through r9 (1 + LogCycles instructions).
  Program &logValue(uint32_t value);
  Program &texit() { return emit(Opcode::TaskExit); }
  Program &ret() { return emit(Opcode::Ret); }
  Program &activate(unsigned task) {
    return emit(Opcode::Activate, {Imm(task)});
  }
  Program &block(BlockSpace space, unsigned id) {
    return emit(Opcode::Block, {Imm(unsigned(space)), Imm(id)});
  }
  Program &unblock(BlockSpace space, unsigned id) {
    return emit(Opcode::Unblock, {Imm(unsigned(space)), Imm(id)});
  }
  Program &cfgGet(unsigned rd, uint16_t word) {
    return emit(Opcode::CfgGet, {R(rd), Imm(word)});
  }
  Program &cfgSet(uint16_t word, unsigned rs) {
    return emit(Opcode::CfgSet, {Imm(word), R(rs)});
  }
  /// `dsr.mem1d dsr, width, base, extent, 0, 1, 0`.
  Program &mem1d(Operand dsr, unsigned width, uint16_t base, uint16_t extent);
  /// `dsr.fabin dsr, extent, color, queue, 0, default`.
  Program &fabin(Operand dsr, uint16_t extent, unsigned color, unsigned queue);
  /// `dsr.fabout dsr, extent, color, queue, control, 0, 0, 0, default`.
  Program &fabout(Operand dsr, uint16_t extent, unsigned color, unsigned queue,
                  bool control = false);

  // Tables.
  Program &task(TaskKind kind, unsigned id, const std::string &label);
  Program &activateAtStart(unsigned task);
  Program &blockAtStart(BlockSpace space, unsigned id);
  Program &unblockAtStart(BlockSpace space, unsigned id);
  Program &callAtStart(const std::string &label);
  Program &inputQueue(unsigned queue, unsigned color);
  Program &function(const std::string &symbol, const std::string &label);
  /// An exported u32 at `address`.
  Program &dataSymbol(const std::string &symbol, uint16_t address);
  /// Initialised data: 32-bit words from `address` on (one block).
  Program &data(uint16_t address, const std::vector<uint32_t> &words);

  /// The code address of `label`.
  uint16_t address(const std::string &label) const;
  /// The binary, every label resolved; a bad instruction fails the test.
  pe::ProgramBinary build() const;

private:
  struct Line {
    pe::Instruction inst;
    std::vector<std::pair<unsigned, std::string>> labels; ///< operand, label
  };
  std::map<std::string, uint16_t> layout() const;

  std::string name;
  Arch arch;
  std::vector<Line> lines;
  std::map<std::string, size_t> labels; ///< label: index into lines
  std::vector<std::pair<size_t, pe::LineEntry>> sourceLines;
  std::vector<std::pair<pe::TaskEntry, std::string>> tasks;
  std::vector<std::pair<pe::StartupAction, std::string>> startup;
  std::vector<std::pair<std::string, std::string>> functions;
  std::vector<pe::Symbol> dataSymbols;
  std::vector<pe::QueueInit> queues;
  uint16_t dataAddress = 0;
  std::vector<uint8_t> initialData;
};

//===----------------------------------------------------------------------===//
// Fabric and Machine
//===----------------------------------------------------------------------===//

/// Direction sets as in the color config word.
inline constexpr uint8_t W = 1, E = 2, S = 4, N = 8, Ramp = 16;

/// A rectangle with programs placed and colors routed.
class Fabric {
public:
  explicit Fabric(uint16_t width, uint16_t height, Arch arch = Arch::WSE2);
  /// One PE running `program`.
  static Fabric single(const Program &program);
  /// (0, 0) running `west` and (1, 0) `east`, `color` going east from the
  /// first's CE to the second's.
  static Fabric eastPair(const Program &west, const Program &east,
                         unsigned color);

  /// PEs (x .. x+length-1, y) run `program`.
  Fabric &place(uint16_t x, uint16_t y, const Program &program,
                uint16_t length = 1);
  Fabric &route(uint16_t x, uint16_t y, unsigned color, uint8_t rx, uint8_t tx);
  Fabric &route(uint16_t x, uint16_t y, unsigned color,
                const pe::RouterConfig &config);

  LoadedOutput build() const;

private:
  pe::FabricFile file;
  std::vector<LoadedProgram> programs;
};

/// An Emulator over a fabric, with the output it needs kept alive.
class Machine {
public:
  explicit Machine(const Fabric &fabric, EmulatorOptions options = {});
  Machine(const Machine &) = delete;
  Machine &operator=(const Machine &) = delete;

  RunOutcome run(uint64_t maxCycles = 1'000'000) { return emu.run(maxCycles); }

  uint32_t read32(unsigned x, unsigned y, uint32_t address) const;
  std::vector<uint32_t> read32s(unsigned x, unsigned y, uint32_t address,
                                unsigned count) const;
  /// The values log() appended on PE (x, y), in order.
  std::vector<uint32_t> log(unsigned x, unsigned y) const;
  /// The whole memory of PE (x, y).
  std::vector<uint8_t> memory(unsigned x, unsigned y) const;
  /// Puts a wavelet into PE (x, y)'s inject buffer; false when it is full.
  bool inject(unsigned x, unsigned y, unsigned color, uint32_t payload,
              bool control = false);
  /// A top-level call that must be accepted.
  void call(unsigned x, unsigned y, uint32_t address,
            std::vector<uint32_t> args = {});

  std::string deadlock() const { return formatDeadlock(emu.getDeadlock()); }
  /// formatFault of the fault, or "" if there is none.
  std::string fault() const;

  const LoadedOutput output;
  Emulator emu;
};

/// What the host can see of a fabric's first row after a run that ended
/// with `status`: what two ways of emulating the same run must agree on.
struct RowView {
  RunStatus status = RunStatus::Idle;
  uint64_t cycle = 0;
  std::vector<PECounters> counters;
  std::vector<std::vector<uint8_t>> memories;
  std::string fault, deadlock; ///< the deadlock report only when stalled

  bool operator==(const RowView &) const = default;
};
RowView viewRow(const Machine &m, RunStatus status, unsigned width);

/// A program ("left") whose task 10, started at load, sends 1, 2, 3, 4, a
/// control wavelet for no task (entry point 31, which a receive drops),
/// then 5, 6, 7, 8, all on color 1 through output queue 1, in three
/// synchronous moves; its data lie at `data` (40 bytes).
Program dataAroundControl(uint16_t data);

/// A fabric (width x 1) run with carried transfers
/// (EmulatorOptions::carryTransfers) on or off: first `steps` single steps
/// (each lets the host look between cycles), then a run of at most
/// `maxCycles`; and the elements the band carried.
struct CarriedRun : RowView {
  uint64_t carried = 0;
};
CarriedRun runCarrying(const Fabric &fabric, unsigned width, bool carry,
                       unsigned steps = 0, uint64_t maxCycles = 1'000'000);
/// Both ways, which must look the same (and the run without carries
/// nothing): the carried one.
CarriedRun runCarriedAndNot(const Fabric &fabric, unsigned width,
                            uint64_t maxCycles = 1'000'000);

/// A fabric (width x 1) run to the end with chaining
/// (EmulatorOptions::chainOperations) on, after a run without it that
/// must look the same: the chained run, the operations it chained, and
/// the turns each run took.
struct ChainedRun {
  RowView view;
  uint64_t chained = 0;
  uint64_t turnsWithout = 0, turnsWith = 0;
};
ChainedRun runChainedAndNot(const Fabric &fabric, unsigned width);
/// Stops runs of `fabric` (width x 1) with chaining and without at every
/// cycle before the run's end (the host's cycle limit), checks that the
/// host finds the same at each stop and after the rest of the run, and
/// returns the operations the chained runs chained in all.
uint64_t runChainedAndNotToEveryStop(const Fabric &fabric, unsigned width);

} // namespace machinetest

namespace Catch {
template <> struct StringMaker<tessera::emulator::PECounters> {
  static std::string convert(const tessera::emulator::PECounters &c);
};
template <> struct StringMaker<tessera::emulator::RunStatus> {
  static std::string convert(tessera::emulator::RunStatus status);
};
template <> struct StringMaker<tessera::emulator::PrintedLine> {
  static std::string convert(const tessera::emulator::PrintedLine &line);
};
} // namespace Catch

#endif // TESSERA_TEST_UNIT_EMULATORMACHINE_TESTMACHINE_H
