//===- Encoding.cpp - instructions to 16-bit words and back ---------------===//
//
// An instruction is the opcode in the high byte of its first word followed
// by a stream of bit fields: the low byte of the first word, then whole
// words, least significant bit first. Field widths follow from the operand
// kinds in ISA.def, so encoder and decoder cannot disagree. Unused bits of
// the last word are zero, which makes every encoding canonical.
//
//===----------------------------------------------------------------------===//

#include "tessera/Target/PEBinary/ISA.h"

#include <cstdio>
#include <string>

namespace tessera::pe {

namespace {

constexpr unsigned FirstWordBits = 8;

/// Maps bit i of the field stream to its word and bit.
struct BitPos {
  size_t word;
  unsigned bit;
};
BitPos locate(size_t index) {
  if (index < FirstWordBits)
    return {0, static_cast<unsigned>(index)};
  index -= FirstWordBits;
  return {1 + index / 16, static_cast<unsigned>(index % 16)};
}

/// Words needed to hold `bits` bits of fields.
size_t wordsFor(size_t bits) {
  if (bits <= FirstWordBits)
    return 1;
  return 1 + (bits - FirstWordBits + 15) / 16;
}

class BitWriter {
public:
  explicit BitWriter(uint8_t opcode) : words{uint16_t(opcode << 8)} {}

  void put(uint64_t value, unsigned width) {
    // A word's worth of bits at a time: the rest of the current word, then
    // whole words.
    while (width) {
      BitPos at = locate(pos);
      if (at.word >= words.size())
        words.push_back(0);
      unsigned room = (at.word == 0 ? FirstWordBits : 16) - at.bit;
      unsigned n = width < room ? width : room;
      uint64_t chunk = value & ((uint64_t(1) << n) - 1);
      words[at.word] |= uint16_t(chunk << at.bit);
      value >>= n;
      width -= n;
      pos += n;
    }
  }
  size_t bits() const { return pos; }
  std::vector<uint16_t> take() {
    words.resize(wordsFor(pos));
    return std::move(words);
  }

private:
  std::vector<uint16_t> words;
  size_t pos = 0;
};

class BitReader {
public:
  BitReader(const uint16_t *words, size_t count) : words(words) {
    size_t limit = count < MaxInstructionWords ? count : MaxInstructionWords;
    available = FirstWordBits + 16 * (limit - 1);
    truncatedByInput = count < MaxInstructionWords;
  }

  /// Reads `width` bits; false when the stream ends first.
  bool get(unsigned width, uint64_t &value) {
    if (pos + width > available)
      return false;
    value = 0;
    for (unsigned done = 0; done < width;) {
      BitPos at = locate(pos);
      unsigned room = (at.word == 0 ? FirstWordBits : 16) - at.bit;
      unsigned n = width - done < room ? width - done : room;
      uint64_t chunk = (words[at.word] >> at.bit) & ((1u << n) - 1);
      value |= chunk << done;
      done += n;
      pos += n;
    }
    return true;
  }
  size_t bits() const { return pos; }
  bool endedByInput() const { return truncatedByInput; }
  /// True if no bit is set after the current position in its last word.
  bool paddingIsZero() const {
    size_t end = FirstWordBits + 16 * (wordsFor(pos) - 1);
    for (size_t i = pos; i < end; ++i) {
      BitPos at = locate(i);
      if ((words[at.word] >> at.bit) & 1)
        return false;
    }
    return true;
  }

private:
  const uint16_t *words;
  size_t available = 0;
  size_t pos = 0;
  bool truncatedByInput = false;
};

std::string describe(const InstInfo &info, unsigned index) {
  return std::string(info.mnemonic) + " operand " + std::to_string(index + 1);
}

//===----------------------------------------------------------------------===//
// Encoding
//===----------------------------------------------------------------------===//

// DSD operand modes as 3-bit codes.
constexpr unsigned DSDCodeReg = 3, DSDCodePtr = 4, DSDCodeNone = 5;

std::optional<unsigned> dsdCode(OperandMode mode) {
  switch (mode) {
  case OperandMode::DestDSR:
    return 0;
  case OperandMode::Src0DSR:
    return 1;
  case OperandMode::Src1DSR:
    return 2;
  case OperandMode::Reg:
    return DSDCodeReg;
  case OperandMode::Ptr:
    return DSDCodePtr;
  case OperandMode::None:
    return DSDCodeNone;
  case OperandMode::Imm:
    return std::nullopt;
  }
  return std::nullopt;
}

bool inRange(int64_t v, int64_t lo, int64_t hi) { return v >= lo && v <= hi; }

/// Whether a DSD-like operand kind accepts this mode.
bool dsdModeAllowed(OperandKind kind, OperandMode mode) {
  switch (mode) {
  case OperandMode::DestDSR:
  case OperandMode::Src0DSR:
  case OperandMode::Src1DSR:
  case OperandMode::Ptr:
    return true;
  case OperandMode::Reg:
    return kind == OperandKind::DSDSrc || kind == OperandKind::MapArg;
  case OperandMode::None:
    return kind == OperandKind::MapDest;
  case OperandMode::Imm:
    return false;
  }
  return false;
}

std::optional<std::string> encodeTaskRef(const Operand &op, BitWriter &w) {
  if (op.mode == OperandMode::Reg) {
    if (!inRange(op.value, 0, NumRegisters - 1))
      return "register out of range";
    w.put(1, 1);
    w.put(op.value, 6);
    return std::nullopt;
  }
  if (op.mode != OperandMode::Imm)
    return "expected a number or a register";
  if (!inRange(op.value, 0, 63))
    return "number " + std::to_string(op.value) + " is not in 0..63";
  w.put(0, 1);
  w.put(op.value, 6);
  return std::nullopt;
}

std::optional<std::string> encodeOperand(OperandKind kind, const Operand &op,
                                         BitWriter &w) {
  auto immField = [&](int64_t lo, int64_t hi,
                      unsigned width) -> std::optional<std::string> {
    if (op.mode != OperandMode::Imm)
      return "expected an immediate";
    if (!inRange(op.value, lo, hi))
      return "value " + std::to_string(op.value) + " is not in " +
             std::to_string(lo) + ".." + std::to_string(hi);
    w.put(static_cast<uint64_t>(op.value), width);
    return std::nullopt;
  };
  if (op.wide && kind != OperandKind::MapArg && kind != OperandKind::MapDest)
    return "only map arguments have a width";
  switch (kind) {
  case OperandKind::None:
    return "no operand expected";
  case OperandKind::Reg:
    if (op.mode != OperandMode::Reg)
      return "expected a register";
    if (!inRange(op.value, 0, NumRegisters - 1))
      return "register out of range";
    w.put(op.value, 4);
    return std::nullopt;
  case OperandKind::UImm16:
    return immField(0, 0xFFFF, 16);
  case OperandKind::SImm16:
    return immField(-0x8000, 0x7FFF, 16);
  case OperandKind::Imm32:
    return immField(0, 0xFFFFFFFF, 32);
  case OperandKind::Shift:
    return immField(0, 31, 5);
  case OperandKind::CodeAddr:
    if (op.mode != OperandMode::Imm)
      return "expected a code address";
    if (!inRange(op.value, 0, MemoryBytes - 2) || op.value % 2)
      return "code address " + std::to_string(op.value) +
             " is odd or outside 48 KiB";
    w.put(op.value / 2, 15);
    return std::nullopt;
  case OperandKind::TaskRef:
    return encodeTaskRef(op, w);
  case OperandKind::OptTaskRef:
    if (op.mode == OperandMode::None) {
      if (op.value != 0)
        return "an absent operand has no value";
      w.put(0, 1);
      return std::nullopt;
    }
    w.put(1, 1);
    return encodeTaskRef(op, w);
  case OperandKind::RegOrU16:
  case OperandKind::RegOrS16:
    if (op.mode == OperandMode::Reg) {
      if (!inRange(op.value, 0, NumRegisters - 1))
        return "register out of range";
      w.put(1, 1);
      w.put(op.value, 4);
      return std::nullopt;
    }
    if (op.mode != OperandMode::Imm)
      return "expected a register or an immediate";
    if (kind == OperandKind::RegOrU16 ? !inRange(op.value, 0, 0xFFFF)
                                      : !inRange(op.value, -0x8000, 0x7FFF))
      return "value " + std::to_string(op.value) + " does not fit 16 bits";
    w.put(0, 1);
    w.put(static_cast<uint64_t>(op.value), 16);
    return std::nullopt;
  case OperandKind::BlockSpace:
    return immField(0, NumBlockSpaces - 1, 3);
  case OperandKind::FCmpPred:
    return immField(0, 15, 4);
  case OperandKind::Width:
    if (op.mode != OperandMode::Imm || (op.value != 16 && op.value != 32))
      return "expected width 16 or 32";
    w.put(op.value == 32, 1);
    return std::nullopt;
  case OperandKind::Priority:
    return immField(0, 3, 2);
  case OperandKind::Color:
    return immField(0, 31, 5);
  case OperandKind::Queue:
    return immField(0, 7, 3);
  case OperandKind::Fifo:
    return immField(0, NumFifos - 1, 3);
  case OperandKind::Flag:
    return immField(0, 1, 1);
  case OperandKind::DSR: {
    std::optional<unsigned> code = dsdCode(op.mode);
    if (!code || *code > 2)
      return "expected a DSR";
    if (!inRange(op.value, 0, NumDSRsPerFile - 1))
      return "DSR index out of range";
    w.put(*code, 2);
    w.put(op.value, 4);
    return std::nullopt;
  }
  case OperandKind::DSDDest:
  case OperandKind::DSDSrc:
  case OperandKind::MapDest:
  case OperandKind::MapArg: {
    if (!dsdModeAllowed(kind, op.mode))
      return "operand mode not allowed here";
    unsigned limit = op.mode == OperandMode::Reg || op.mode == OperandMode::Ptr
                         ? NumRegisters
                         : NumDSRsPerFile;
    if (op.mode == OperandMode::None ? op.value != 0
                                     : !inRange(op.value, 0, limit - 1))
      return "register or DSR index out of range";
    if (op.wide && op.mode != OperandMode::Ptr)
      return "only a pointer has a width";
    w.put(*dsdCode(op.mode), 3);
    w.put(op.value, 4);
    if (kind == OperandKind::MapArg || kind == OperandKind::MapDest)
      w.put(op.wide, 1);
    return std::nullopt;
  }
  }
  return "unknown operand kind";
}

std::optional<std::string> encodeOptions(const DSDOptions &opts, BitWriter &w) {
  if (opts.isDefault()) {
    w.put(0, 1);
    return std::nullopt;
  }
  w.put(1, 1);
  w.put(opts.async, 1);
  w.put(static_cast<unsigned>(opts.priority), 2);
  if (static_cast<unsigned>(opts.priority) > 3)
    return "bad priority";
  for (const std::optional<Operand> *ref :
       {&opts.activate, &opts.unblock, &opts.microthread}) {
    w.put(ref->has_value(), 1);
    if (*ref)
      if (auto err = encodeTaskRef(**ref, w))
        return err;
  }
  w.put(opts.indexReg.has_value(), 1);
  if (opts.indexReg) {
    if (*opts.indexReg >= NumRegisters)
      return "index register out of range";
    w.put(*opts.indexReg, 4);
  }
  return std::nullopt;
}

std::optional<ISAError> encodeWords(const Instruction &inst,
                                    std::vector<uint16_t> &words) {
  const InstInfo *info = getInstInfo(inst.opcode);
  if (!info)
    return ISAError{"invalid opcode " +
                    std::to_string(static_cast<unsigned>(inst.opcode))};
  size_t fixed = info->operands.size();
  size_t count = inst.operands.size();
  bool variadic = info->variadic != OperandKind::None;
  if (count < fixed + (variadic ? info->minVariadic : 0) ||
      count > fixed + (variadic ? info->maxVariadic : 0))
    return ISAError{std::string(info->mnemonic) + " takes " +
                    std::to_string(fixed) +
                    (variadic ? " + " + std::to_string(info->minVariadic) +
                                    ".." + std::to_string(info->maxVariadic)
                              : std::string()) +
                    " operands, not " + std::to_string(count)};
  if (inst.opcode == Opcode::DsrMem4d && (count - fixed) % 2)
    return ISAError{"dsr.mem4d takes extent/stride pairs"};
  if (!info->hasOptions && !inst.options.isDefault())
    return ISAError{std::string(info->mnemonic) + " takes no DSD options"};

  BitWriter w(static_cast<uint8_t>(inst.opcode));
  for (size_t i = 0; i < count; ++i) {
    OperandKind kind = i < fixed ? info->operands[i] : info->variadic;
    if (i == fixed && variadic)
      w.put(count - fixed, 4);
    if (auto err = encodeOperand(kind, inst.operands[i], w))
      return ISAError{describe(*info, i) + ": " + *err};
  }
  if (variadic && count == fixed)
    w.put(0, 4);
  if (info->hasOptions)
    if (auto err = encodeOptions(inst.options, w))
      return ISAError{std::string(info->mnemonic) + " options: " + *err};
  if (wordsFor(w.bits()) > MaxInstructionWords)
    return ISAError{"instruction longer than 16 words"};
  words = w.take();
  return std::nullopt;
}

//===----------------------------------------------------------------------===//
// Decoding
//===----------------------------------------------------------------------===//

class Decoder {
public:
  Decoder(const uint16_t *words, size_t count) : r(words, count) {}

  /// Reads a field; on failure records why and returns false.
  bool field(unsigned width, uint64_t &value) {
    if (r.get(width, value))
      return true;
    fail(r.endedByInput() ? "truncated instruction"
                          : "instruction longer than 16 words");
    return false;
  }
  void fail(std::string message) {
    if (!error)
      error = std::move(message);
  }

  bool taskRef(Operand &op) {
    uint64_t isReg, value;
    if (!field(1, isReg) || !field(6, value))
      return false;
    if (isReg && value >= NumRegisters) {
      fail("register r" + std::to_string(value) + " does not exist");
      return false;
    }
    op = isReg ? Operand::reg(value) : Operand::imm(value);
    return true;
  }

  bool operand(OperandKind kind, Operand &op) {
    uint64_t v = 0;
    switch (kind) {
    case OperandKind::None:
      fail("no operand expected");
      return false;
    case OperandKind::Reg:
      if (!field(4, v))
        return false;
      op = Operand::reg(v);
      return true;
    case OperandKind::UImm16:
      if (!field(16, v))
        return false;
      op = Operand::imm(v);
      return true;
    case OperandKind::SImm16:
      if (!field(16, v))
        return false;
      op = Operand::imm(static_cast<int16_t>(v));
      return true;
    case OperandKind::Imm32:
      if (!field(32, v))
        return false;
      op = Operand::imm(v);
      return true;
    case OperandKind::Shift:
      if (!field(5, v))
        return false;
      op = Operand::imm(v);
      return true;
    case OperandKind::CodeAddr:
      if (!field(15, v))
        return false;
      if (v * 2 >= MemoryBytes) {
        fail("code address " + std::to_string(v * 2) + " is outside 48 KiB");
        return false;
      }
      op = Operand::imm(v * 2);
      return true;
    case OperandKind::TaskRef:
      return taskRef(op);
    case OperandKind::OptTaskRef:
      if (!field(1, v))
        return false;
      if (!v) {
        op = Operand::none();
        return true;
      }
      return taskRef(op);
    case OperandKind::RegOrU16:
    case OperandKind::RegOrS16: {
      uint64_t isReg;
      if (!field(1, isReg) || !field(isReg ? 4 : 16, v))
        return false;
      if (isReg)
        op = Operand::reg(v);
      else
        op = Operand::imm(kind == OperandKind::RegOrS16
                              ? static_cast<int64_t>(static_cast<int16_t>(v))
                              : static_cast<int64_t>(v));
      return true;
    }
    case OperandKind::BlockSpace:
      return enumField(3, NumBlockSpaces, "block space", op);
    case OperandKind::FCmpPred:
      return enumField(4, 16, "predicate", op);
    case OperandKind::Width:
      if (!field(1, v))
        return false;
      op = Operand::imm(v ? 32 : 16);
      return true;
    case OperandKind::Priority:
      return enumField(2, 4, "priority", op);
    case OperandKind::Color:
      return enumField(5, 32, "color", op);
    case OperandKind::Queue:
      return enumField(3, 8, "queue", op);
    case OperandKind::Fifo:
      return enumField(3, NumFifos, "FIFO", op);
    case OperandKind::Flag:
      return enumField(1, 2, "flag", op);
    case OperandKind::DSR: {
      uint64_t file;
      if (!field(2, file) || !field(4, v))
        return false;
      if (file > 2) {
        fail("DSR file 3 does not exist");
        return false;
      }
      op = Operand::dsr(fileMode(file), v);
      return true;
    }
    case OperandKind::DSDDest:
    case OperandKind::DSDSrc:
    case OperandKind::MapDest:
    case OperandKind::MapArg: {
      uint64_t code, wide = 0;
      if (!field(3, code) || !field(4, v))
        return false;
      bool map = kind == OperandKind::MapArg || kind == OperandKind::MapDest;
      if (map && !field(1, wide))
        return false;
      if (code > DSDCodeNone) {
        fail("operand mode " + std::to_string(code) + " does not exist");
        return false;
      }
      OperandMode mode = code <= 2            ? fileMode(code)
                         : code == DSDCodeReg ? OperandMode::Reg
                         : code == DSDCodePtr ? OperandMode::Ptr
                                              : OperandMode::None;
      if (!dsdModeAllowed(kind, mode)) {
        fail("operand mode not allowed here");
        return false;
      }
      if (mode == OperandMode::None && v != 0) {
        fail("an absent operand has no value");
        return false;
      }
      if (wide && mode != OperandMode::Ptr) {
        fail("only a pointer has a width");
        return false;
      }
      op = {mode, static_cast<int64_t>(v), wide != 0};
      return true;
    }
    }
    fail("unknown operand kind");
    return false;
  }

  bool options(DSDOptions &opts) {
    uint64_t present, v;
    if (!field(1, present))
      return false;
    opts = {};
    if (!present)
      return true;
    if (!field(1, v))
      return false;
    opts.async = v;
    if (!field(2, v))
      return false;
    opts.priority = static_cast<Priority>(v);
    for (std::optional<Operand> *ref :
         {&opts.activate, &opts.unblock, &opts.microthread}) {
      if (!field(1, v))
        return false;
      if (v) {
        Operand op;
        if (!taskRef(op))
          return false;
        *ref = op;
      }
    }
    if (!field(1, v))
      return false;
    if (v) {
      if (!field(4, v))
        return false;
      opts.indexReg = static_cast<unsigned>(v);
    }
    if (opts.isDefault()) {
      fail("options present but all default (non-canonical)");
      return false;
    }
    return true;
  }

  BitReader r;
  std::optional<std::string> error;

private:
  static OperandMode fileMode(uint64_t file) {
    return file == 0   ? OperandMode::DestDSR
           : file == 1 ? OperandMode::Src0DSR
                       : OperandMode::Src1DSR;
  }
  bool enumField(unsigned width, uint64_t limit, const char *what,
                 Operand &op) {
    uint64_t v;
    if (!field(width, v))
      return false;
    if (v >= limit) {
      fail(std::string(what) + " " + std::to_string(v) + " does not exist");
      return false;
    }
    op = Operand::imm(v);
    return true;
  }
};

} // namespace

std::optional<ISAError> encode(const Instruction &inst,
                               std::vector<uint16_t> &out) {
  std::vector<uint16_t> words;
  if (auto err = encodeWords(inst, words))
    return err;
  out.insert(out.end(), words.begin(), words.end());
  return std::nullopt;
}

size_t encodedSize(const Instruction &inst) {
  std::vector<uint16_t> words;
  return encodeWords(inst, words) ? 0 : words.size();
}

DecodeResult decode(const uint16_t *words, size_t count, Instruction &inst) {
  inst = {};
  if (!words || count == 0)
    return {0, ISAError{"no instruction: empty input"}};
  unsigned opcodeValue = words[0] >> 8;
  const InstInfo *info = getInstInfo(static_cast<Opcode>(opcodeValue));
  if (!info) {
    char hex[8];
    std::snprintf(hex, sizeof(hex), "0x%02x", opcodeValue);
    return {0, ISAError{std::string("invalid opcode ") + hex}};
  }
  Decoder d(words, count);
  auto failed = [&](size_t index) -> DecodeResult {
    inst = {};
    std::string where = index == SIZE_MAX ? std::string(info->mnemonic)
                                          : describe(*info, index);
    return {0, ISAError{where + ": " + *d.error}};
  };
  inst.opcode = info->opcode;
  size_t fixed = info->operands.size();
  for (size_t i = 0; i < fixed; ++i) {
    Operand op;
    if (!d.operand(info->operands[i], op))
      return failed(i);
    inst.operands.push_back(op);
  }
  if (info->variadic != OperandKind::None) {
    uint64_t n;
    if (!d.field(4, n))
      return failed(SIZE_MAX);
    if (n < info->minVariadic || n > info->maxVariadic ||
        (inst.opcode == Opcode::DsrMem4d && n % 2)) {
      d.fail("variadic operand count " + std::to_string(n) +
             " is out of range");
      return failed(SIZE_MAX);
    }
    for (size_t i = 0; i < n; ++i) {
      Operand op;
      if (!d.operand(info->variadic, op))
        return failed(fixed + i);
      inst.operands.push_back(op);
    }
  }
  if (info->hasOptions && !d.options(inst.options))
    return failed(SIZE_MAX);
  if (!d.r.paddingIsZero()) {
    d.fail("non-zero padding bits");
    return failed(SIZE_MAX);
  }
  return {wordsFor(d.r.bits()), std::nullopt};
}

} // namespace tessera::pe
