//===- ISA.h - the PE instruction set ---------------------------*- C++ -*-===//
//
// The instruction set the compiler lowers to and the emulator executes,
// described by one table (ISA.def) from which encoding, decoding and
// disassembly all follow. docs/ISA.md gives the semantics. Plain C++: the
// emulator links this without LLVM or MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_TARGET_PEBINARY_ISA_H
#define TESSERA_TARGET_PEBINARY_ISA_H

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::pe {

/// 16 general registers of 32 bits; floats live in them as raw bits (f16 and
/// bf16 in the low half, the high half zero).
inline constexpr unsigned NumRegisters = 16;
/// By convention (docs/ISA.md): `call` writes the return address to r14 and
/// r15 is the stack pointer.
inline constexpr unsigned LinkRegister = 14;
inline constexpr unsigned StackRegister = 15;
/// Data structure registers per file (dest, src0, src1).
inline constexpr unsigned NumDSRsPerFile = 16;
/// Hardware FIFO slots a program can initialise.
inline constexpr unsigned NumFifos = 8;
/// PE memory is byte addresses [0, MemoryBytes); code is halfword aligned.
inline constexpr unsigned MemoryBytes = 48 * 1024;
/// The longest encoding of any instruction, in 16-bit words.
inline constexpr unsigned MaxInstructionWords = 16;
/// The most operands one instruction has (fixed plus variadic).
inline constexpr unsigned MaxOperands = 12;

enum class Opcode : uint8_t {
  Invalid = 0,
#define INST(Name, ...) Name,
#include "tessera/Target/PEBinary/ISA.def"
  NumOpcodes
};

/// Groups of instructions, for documentation and tests.
enum class InstClass : uint8_t {
  Misc,
  IntALU,
  FloatALU,
  Memory,
  Branch,
  Task,
  Config,
  DSR,
  DSDOp
};

/// What an operand slot holds; fixes its encoding and the modes it allows.
enum class OperandKind : uint8_t {
  None,       ///< no operand (only as "no variadic tail")
  Reg,        ///< a general register, 4 bits
  UImm16,     ///< 16-bit unsigned immediate
  SImm16,     ///< 16-bit signed immediate
  Imm32,      ///< 32 raw bits
  Shift,      ///< shift amount 0..31, 5 bits
  CodeAddr,   ///< absolute code byte address, even, below MemoryBytes
  TaskRef,    ///< task/queue/color/microthread number 0..63 or a register
  OptTaskRef, ///< TaskRef or absent
  RegOrU16,   ///< a register or a 16-bit unsigned immediate
  RegOrS16,   ///< a register or a 16-bit signed immediate
  BlockSpace, ///< what block/unblock/qflush name (BlockSpace enum)
  FCmpPred,   ///< float comparison predicate (FCmpPredicate enum)
  Width,      ///< element width of a DSR: 16 or 32 bits
  Priority,   ///< microthread priority (Priority enum)
  Color,      ///< routable color 0..31 (5 bits)
  Queue,      ///< queue 0..7
  Fifo,       ///< FIFO slot 0..NumFifos-1
  Flag,       ///< one bit
  DSR,        ///< a data structure register: file and index
  DSDDest,    ///< DSD operation destination: a DSR or a pointer
  DSDSrc,     ///< DSD operation source: a DSR, a scalar register or a pointer
  MapDest,    ///< map destination: DSDDest, or none
  MapArg,     ///< map argument: DSDSrc with a pointee width
};

/// How an operand's value is to be read.
enum class OperandMode : uint8_t {
  Imm,     ///< value is the number itself
  Reg,     ///< value is a register number
  DestDSR, ///< value is a DSR index in the dest file
  Src0DSR, ///< ... in the src0 file
  Src1DSR, ///< ... in the src1 file
  Ptr,     ///< value is a register holding a byte address
  None,    ///< an optional operand that is absent
};

/// ControlTask names an entry of WSE-3's separate control task table.
enum class BlockSpace : uint8_t {
  Task,
  Color,
  InputQueue,
  OutputQueue,
  UT,
  ControlTask
};
inline constexpr unsigned NumBlockSpaces = 6;

/// Microthread priority; Default leaves the architecture's default.
enum class Priority : uint8_t { Default, Low, Medium, High };

/// The sixteen predicates of a float comparison; O* are false when either
/// operand is NaN, U* true.
enum class FCmpPredicate : uint8_t {
  False,
  OEQ,
  OGT,
  OGE,
  OLT,
  OLE,
  ONE,
  ORD,
  UNO,
  UEQ,
  UGT,
  UGE,
  ULT,
  ULE,
  UNE,
  True
};

struct Operand {
  OperandMode mode = OperandMode::Imm;
  /// The number, sign-extended for signed kinds.
  int64_t value = 0;
  /// MapArg pointers only: the pointee is 32 bits wide (else 16).
  bool wide = false;

  static Operand imm(int64_t v) { return {OperandMode::Imm, v, false}; }
  static Operand reg(unsigned r) { return {OperandMode::Reg, r, false}; }
  static Operand ptr(unsigned r, bool wide = false) {
    return {OperandMode::Ptr, r, wide};
  }
  static Operand dsr(OperandMode file, unsigned index) {
    return {file, index, false};
  }
  static Operand none() { return {OperandMode::None, 0, false}; }
  bool operator==(const Operand &) const = default;
};

/// The completion and scheduling options of a DSD operation.
struct DSDOptions {
  bool async = false;
  Priority priority = Priority::Default;
  std::optional<Operand> activate;    ///< TaskRef: local task to activate
  std::optional<Operand> unblock;     ///< TaskRef: task to unblock
  std::optional<Operand> microthread; ///< TaskRef: ut_id (WSE-3)
  std::optional<unsigned> indexReg;   ///< register holding `.index`

  bool isDefault() const {
    return !async && priority == Priority::Default && !activate && !unblock &&
           !microthread && !indexReg;
  }
  bool operator==(const DSDOptions &) const = default;
};

struct Instruction {
  Opcode opcode = Opcode::Invalid;
  std::vector<Operand> operands;
  DSDOptions options;

  bool operator==(const Instruction &) const = default;
};

/// One row of the instruction table.
struct InstInfo {
  Opcode opcode;
  std::string_view mnemonic;
  InstClass instClass;
  bool hasOptions;
  std::span<const OperandKind> operands;
  /// Repeated trailing operands (None if the instruction has none) and how
  /// many of them an instruction may have.
  OperandKind variadic;
  unsigned minVariadic;
  unsigned maxVariadic;
};

/// The table row of `opcode`, or null for an unassigned opcode.
const InstInfo *getInstInfo(Opcode opcode);
/// All rows, in opcode order.
std::span<const InstInfo> getInstTable();
/// The opcode with this mnemonic.
std::optional<Opcode> lookupMnemonic(std::string_view mnemonic);

/// Encoding or decoding went wrong; `message` says how.
struct ISAError {
  std::string message;
};

/// Appends the encoding of `inst` to `out`. Fails, leaving `out` unchanged,
/// when an operand does not fit its kind.
std::optional<ISAError> encode(const Instruction &inst,
                               std::vector<uint16_t> &out);

/// The outcome of decoding: the number of words consumed, or an error.
struct DecodeResult {
  size_t size = 0;
  std::optional<ISAError> error;
  explicit operator bool() const { return !error; }
};

/// Decodes one instruction from `words[0..count)`. Any input is safe: a
/// malformed or truncated stream gives an error, never a crash.
DecodeResult decode(const uint16_t *words, size_t count, Instruction &inst);

/// The number of words `inst` encodes to, or 0 if it cannot be encoded.
size_t encodedSize(const Instruction &inst);

/// Disassembly text, e.g. `fadds dest.1, src0.2, r3 async activate 9`.
std::string format(const Instruction &inst);

std::string_view getPriorityName(Priority priority);
std::string_view getFCmpPredicateName(FCmpPredicate predicate);
std::string_view getBlockSpaceName(BlockSpace space);

} // namespace tessera::pe

#endif // TESSERA_TARGET_PEBINARY_ISA_H
