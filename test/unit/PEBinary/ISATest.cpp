//===- ISATest.cpp - encoding, decoding and disassembly of the PE ISA -----===//

#include "tessera/Target/PEBinary/ISA.h"

#include <catch2/catch.hpp>

#include <random>
#include <set>

using namespace tessera::pe;

namespace {

using M = OperandMode;

/// Values at the edges of what each operand kind accepts.
std::vector<Operand> extremes(OperandKind kind) {
  switch (kind) {
  case OperandKind::None:
    return {};
  case OperandKind::Reg:
    return {Operand::reg(0), Operand::reg(15), Operand::reg(7)};
  case OperandKind::UImm16:
    return {Operand::imm(0), Operand::imm(0xFFFF)};
  case OperandKind::SImm16:
    return {Operand::imm(-0x8000), Operand::imm(0x7FFF), Operand::imm(-1)};
  case OperandKind::Imm32:
    return {Operand::imm(0), Operand::imm(0xFFFFFFFF)};
  case OperandKind::Shift:
    return {Operand::imm(0), Operand::imm(31)};
  case OperandKind::CodeAddr:
    return {Operand::imm(0), Operand::imm(0xBFFE)};
  case OperandKind::TaskRef:
    return {Operand::imm(0), Operand::imm(63), Operand::reg(0),
            Operand::reg(15)};
  case OperandKind::OptTaskRef:
    return {Operand::none(), Operand::imm(63), Operand::reg(15),
            Operand::imm(0)};
  case OperandKind::RegOrU16:
    return {Operand::imm(0), Operand::imm(0xFFFF), Operand::reg(15)};
  case OperandKind::RegOrS16:
    return {Operand::imm(-0x8000), Operand::imm(0x7FFF), Operand::reg(0)};
  case OperandKind::BlockSpace:
    return {Operand::imm(0), Operand::imm(NumBlockSpaces - 1)};
  case OperandKind::FCmpPred:
    return {Operand::imm(0), Operand::imm(15)};
  case OperandKind::Width:
    return {Operand::imm(16), Operand::imm(32)};
  case OperandKind::Priority:
    return {Operand::imm(0), Operand::imm(3)};
  case OperandKind::Color:
    return {Operand::imm(0), Operand::imm(31)};
  case OperandKind::Queue:
    return {Operand::imm(0), Operand::imm(7)};
  case OperandKind::Fifo:
    return {Operand::imm(0), Operand::imm(NumFifos - 1)};
  case OperandKind::Flag:
    return {Operand::imm(0), Operand::imm(1)};
  case OperandKind::DSR:
    return {Operand::dsr(M::DestDSR, 0), Operand::dsr(M::Src0DSR, 15),
            Operand::dsr(M::Src1DSR, 15)};
  case OperandKind::DSDDest:
    return {Operand::dsr(M::DestDSR, 15), Operand::dsr(M::Src0DSR, 0),
            Operand::dsr(M::Src1DSR, 15), Operand::ptr(15)};
  case OperandKind::DSDSrc:
    return {Operand::dsr(M::Src0DSR, 15), Operand::dsr(M::Src1DSR, 0),
            Operand::reg(15), Operand::ptr(0), Operand::dsr(M::DestDSR, 15)};
  case OperandKind::MapDest:
    return {Operand::none(), Operand::dsr(M::DestDSR, 15),
            Operand::ptr(15, true), Operand::ptr(0)};
  case OperandKind::MapArg:
    return {Operand::dsr(M::Src0DSR, 15), Operand::reg(15),
            Operand::ptr(15, true), Operand::ptr(3),
            Operand::dsr(M::Src1DSR, 0)};
  }
  return {};
}

std::vector<DSDOptions> optionSamples() {
  DSDOptions none;
  DSDOptions all;
  all.async = true;
  all.priority = Priority::High;
  all.activate = Operand::imm(63);
  all.unblock = Operand::reg(15);
  all.microthread = Operand::imm(7);
  all.indexReg = 15;
  DSDOptions some;
  some.async = true;
  some.activate = Operand::reg(0);
  DSDOptions onlyIndex;
  onlyIndex.indexReg = 0;
  return {none, all, some, onlyIndex};
}

/// Instructions of `info` that together use every extreme of every operand.
std::vector<Instruction> samples(const InstInfo &info) {
  std::vector<unsigned> counts{0};
  if (info.variadic != OperandKind::None)
    counts = {info.minVariadic, info.maxVariadic};
  size_t variants = 1;
  for (OperandKind kind : info.operands)
    variants = std::max(variants, extremes(kind).size());
  variants = std::max(variants, extremes(info.variadic).size());
  std::vector<DSDOptions> options =
      info.hasOptions ? optionSamples() : std::vector<DSDOptions>{{}};
  variants = std::max(variants, options.size());

  std::vector<Instruction> result;
  for (unsigned count : counts) {
    for (size_t v = 0; v < variants; ++v) {
      Instruction inst;
      inst.opcode = info.opcode;
      size_t index = 0;
      for (OperandKind kind : info.operands) {
        std::vector<Operand> values = extremes(kind);
        inst.operands.push_back(values[(v + index++) % values.size()]);
      }
      for (unsigned i = 0; i < count; ++i) {
        std::vector<Operand> values = extremes(info.variadic);
        inst.operands.push_back(values[(v + index++) % values.size()]);
      }
      inst.options = options[v % options.size()];
      result.push_back(inst);
    }
  }
  return result;
}

Instruction make(Opcode opcode, std::vector<Operand> operands,
                 DSDOptions options = {}) {
  return {opcode, std::move(operands), options};
}

std::string roundTripText(const Instruction &inst) {
  std::vector<uint16_t> words;
  if (auto err = encode(inst, words))
    return "encode error: " + err->message;
  Instruction back;
  DecodeResult result = decode(words.data(), words.size(), back);
  if (!result)
    return "decode error: " + result.error->message;
  if (!(back == inst) || result.size != words.size())
    return "mismatch";
  return format(back);
}

} // namespace

TEST_CASE("the table covers every opcode once, in order", "[isa]") {
  std::set<std::string_view> mnemonics;
  unsigned expected = 1;
  for (const InstInfo &info : getInstTable()) {
    CHECK(static_cast<unsigned>(info.opcode) == expected++);
    CHECK(mnemonics.insert(info.mnemonic).second);
    CHECK(lookupMnemonic(info.mnemonic) == info.opcode);
    CHECK(getInstInfo(info.opcode) == &info);
  }
  CHECK(getInstInfo(Opcode::Invalid) == nullptr);
  CHECK(getInstInfo(Opcode::NumOpcodes) == nullptr);
  CHECK_FALSE(lookupMnemonic("frobnicate").has_value());
}

TEST_CASE("every CSL DSD builtin has one instruction", "[isa]") {
  for (std::string_view name :
       {"fadds",   "fsubs",   "fmuls",   "fmaxs",   "faddh",   "fsubh",
        "fmulh",   "fmaxh",   "faddhs",  "fmacs",   "fmach",   "fmachs",
        "fmovs",   "fmovh",   "fnegs",   "fnegh",   "fabss",   "fabsh",
        "fh2s",    "fs2h",    "fh2xp16", "fs2xp16", "xp162fh", "xp162fs",
        "fscaleh", "fscales", "fnormh",  "fnorms",  "mov16",   "mov32",
        "add16",   "addc16",  "sub16",   "and16",   "or16",    "xor16",
        "sll16",   "slr16",   "sar16",   "popcnt",  "clz",     "ctz",
        "map"}) {
    INFO(name);
    std::optional<Opcode> opcode = lookupMnemonic(name);
    REQUIRE(opcode.has_value());
    CHECK(getInstInfo(*opcode)->instClass == InstClass::DSDOp);
  }
}

TEST_CASE("every instruction round-trips at its operand extremes", "[isa]") {
  size_t checked = 0;
  for (const InstInfo &info : getInstTable()) {
    for (const Instruction &inst : samples(info)) {
      INFO(info.mnemonic << ": " << format(inst));
      std::vector<uint16_t> words{0xDEAD};
      REQUIRE_FALSE(encode(inst, words).has_value());
      words.erase(words.begin());
      CHECK(words.size() == encodedSize(inst));
      CHECK(words.size() <= MaxInstructionWords);
      CHECK((words[0] >> 8) == static_cast<unsigned>(info.opcode));

      // Trailing words after the instruction are not consumed.
      std::vector<uint16_t> padded = words;
      padded.push_back(0xFFFF);
      Instruction back;
      DecodeResult result = decode(padded.data(), padded.size(), back);
      REQUIRE(result);
      CHECK(result.size == words.size());
      CHECK(back == inst);
      CHECK(format(back) == format(inst));

      // Every strict prefix is a truncated instruction.
      for (size_t n = 1; n < words.size(); ++n) {
        Instruction partial;
        DecodeResult cut = decode(words.data(), n, partial);
        REQUIRE_FALSE(cut);
        CHECK(cut.error->message.find("truncated instruction") !=
              std::string::npos);
      }
      ++checked;
    }
  }
  CHECK(checked > 3 * getInstTable().size());
}

TEST_CASE("the encoding is compact", "[isa]") {
  CHECK(encodedSize(make(Opcode::Nop, {})) == 1);
  CHECK(encodedSize(make(Opcode::Ret, {})) == 1);
  CHECK(encodedSize(make(Opcode::Mov, {Operand::reg(1), Operand::reg(2)})) ==
        1);
  CHECK(encodedSize(make(Opcode::Add, {Operand::reg(1), Operand::reg(2),
                                       Operand::reg(3)})) == 2);
  CHECK(encodedSize(make(Opcode::MovI32,
                         {Operand::reg(1), Operand::imm(0x12345678)})) == 3);
  CHECK(encodedSize(make(Opcode::Activate, {Operand::imm(10)})) == 1);
  CHECK(encodedSize(make(Opcode::FAddSV, {Operand::dsr(M::DestDSR, 1),
                                          Operand::dsr(M::Src0DSR, 2),
                                          Operand::dsr(M::Src1DSR, 3)})) == 2);
}

TEST_CASE("disassembly of each class", "[isa]") {
  CHECK(roundTripText(make(Opcode::Nop, {})) == "nop");
  CHECK(roundTripText(
            make(Opcode::Assert, {Operand::reg(3), Operand::imm(17)})) ==
        "assert r3, 17");
  CHECK(roundTripText(make(Opcode::Random16, {Operand::reg(0)})) ==
        "rand16 r0");
  CHECK(roundTripText(make(Opcode::AddI, {Operand::reg(1), Operand::reg(2),
                                          Operand::imm(-5)})) ==
        "addi r1, r2, -5");
  CHECK(roundTripText(make(Opcode::MovI32,
                           {Operand::reg(4), Operand::imm(0x7FC00000)})) ==
        "movi32 r4, 0x7fc00000");
  CHECK(roundTripText(make(Opcode::FCmpS,
                           {Operand::reg(1), Operand::reg(2), Operand::reg(3),
                            Operand::imm(12)})) == "fcmp.s r1, r2, r3, ult");
  CHECK(
      roundTripText(make(Opcode::FCvtHS, {Operand::reg(5), Operand::reg(6)})) ==
      "fcvt.h.s r5, r6");
  CHECK(roundTripText(make(Opcode::Ld16U, {Operand::reg(1), Operand::reg(15),
                                           Operand::imm(-2)})) ==
        "ld16u r1, r15, -2");
  CHECK(roundTripText(
            make(Opcode::BNeZ, {Operand::reg(2), Operand::imm(0x1A0)})) ==
        "bnez r2, 0x01a0");
  CHECK(roundTripText(make(Opcode::Call, {Operand::imm(0xBFFE)})) ==
        "call 0xbffe");
  CHECK(roundTripText(
            make(Opcode::Unblock, {Operand::imm(1), Operand::reg(3)})) ==
        "unblock color, r3");
  CHECK(roundTripText(make(Opcode::Block, {Operand::imm(4),
                                           Operand::imm(2)})) == "block ut, 2");
  CHECK(roundTripText(make(Opcode::TaskExit, {})) == "texit");
  CHECK(roundTripText(make(Opcode::CfgSet,
                           {Operand::imm(0x7F20 + 3), Operand::reg(9)})) ==
        "cfg.set 32547, r9");
  CHECK(roundTripText(make(Opcode::DsrMem1d,
                           {Operand::dsr(M::Src0DSR, 2), Operand::imm(32),
                            Operand::reg(4), Operand::imm(16), Operand::imm(0),
                            Operand::imm(-1), Operand::imm(0)})) ==
        "dsr.mem1d src0.2, w32, r4, 16, 0, -1, 0");
  CHECK(roundTripText(make(Opcode::DsrFabout,
                           {Operand::dsr(M::DestDSR, 0), Operand::imm(32767),
                            Operand::imm(3), Operand::imm(2), Operand::imm(1),
                            Operand::imm(0), Operand::imm(1), Operand::imm(0),
                            Operand::imm(3)})) ==
        "dsr.fabout dest.0, 32767, c3, q2, 1, 0, 1, 0, high");
  CHECK(roundTripText(make(
            Opcode::DsrMem4d,
            {Operand::dsr(M::Src1DSR, 1), Operand::imm(16), Operand::imm(0x100),
             Operand::imm(0), Operand::imm(4), Operand::imm(8), Operand::imm(8),
             Operand::imm(1)})) == "dsr.mem4d src1.1, w16, 256, 0, 4, 8, 8, 1");
  CHECK(roundTripText(make(Opcode::FifoInit,
                           {Operand::imm(2), Operand::imm(32), Operand::imm(64),
                            Operand::imm(16), Operand::imm(9), Operand::none(),
                            Operand::imm(0)})) ==
        "fifo.init fifo2, w32, 64, 16, 9, _, default");

  DSDOptions opts;
  opts.async = true;
  opts.activate = Operand::imm(9);
  opts.unblock = Operand::reg(2);
  opts.microthread = Operand::imm(4);
  opts.priority = Priority::Medium;
  opts.indexReg = 7;
  CHECK(roundTripText(
            make(Opcode::FMacSV,
                 {Operand::dsr(M::DestDSR, 1), Operand::dsr(M::Src0DSR, 1),
                  Operand::ptr(3), Operand::reg(4)},
                 opts)) ==
        "fmacs dest.1, src0.1, [r3], r4 async priority medium activate 9 "
        "unblock r2 ut 4 index r7");
  CHECK(roundTripText(make(Opcode::Mov16V,
                           {Operand::dsr(M::DestDSR, 0), Operand::reg(1)})) ==
        "mov16 dest.0, r1");
  CHECK(roundTripText(
            make(Opcode::Map, {Operand::imm(0x40), Operand::ptr(5, true),
                               Operand::dsr(M::Src0DSR, 0),
                               Operand::ptr(5, true), Operand::reg(6)})) ==
        "map 0x0040, [r5].32, src0.0, [r5].32, r6");
}

TEST_CASE("encoding rejects operands that do not fit", "[isa]") {
  auto error = [](const Instruction &inst) {
    std::vector<uint16_t> words;
    std::optional<ISAError> err = encode(inst, words);
    CHECK(words.empty());
    return err ? err->message : std::string("ok");
  };
  CHECK(error(make(Opcode::Invalid, {})) == "invalid opcode 0");
  CHECK(error(make(Opcode::Add, {Operand::reg(1), Operand::reg(2)})) ==
        "add takes 3 operands, not 2");
  CHECK(error(make(Opcode::Mov, {Operand::reg(16), Operand::reg(0)})) ==
        "mov operand 1: register out of range");
  CHECK(error(make(Opcode::MovI, {Operand::reg(0), Operand::imm(0x8000)})) ==
        "movi operand 2: value 32768 is not in -32768..32767");
  CHECK(error(make(Opcode::Jmp, {Operand::imm(0xC000)})) ==
        "jmp operand 1: code address 49152 is odd or outside 48 KiB");
  CHECK(error(make(Opcode::Jmp, {Operand::imm(3)})) ==
        "jmp operand 1: code address 3 is odd or outside 48 KiB");
  CHECK(error(make(Opcode::Activate, {Operand::imm(64)})) ==
        "activate operand 1: number 64 is not in 0..63");
  CHECK(error(make(Opcode::FAddSV,
                   {Operand::reg(1), Operand::reg(2), Operand::reg(3)})) ==
        "fadds operand 1: operand mode not allowed here");
  DSDOptions opts;
  opts.async = true;
  CHECK(error(make(Opcode::Add,
                   {Operand::reg(1), Operand::reg(2), Operand::reg(3)},
                   opts)) == "add takes no DSD options");
  CHECK(error(make(Opcode::DsrMem4d,
                   {Operand::dsr(M::Src0DSR, 0), Operand::imm(16),
                    Operand::imm(0), Operand::imm(0), Operand::imm(4),
                    Operand::imm(1), Operand::imm(4)})) ==
        "dsr.mem4d takes extent/stride pairs");
  CHECK(error(make(Opcode::Map,
                   {Operand::imm(0), Operand::none(), Operand::none()})) ==
        "map operand 3: operand mode not allowed here");
}

TEST_CASE("decoding malformed words gives exact errors", "[isa]") {
  auto error = [](std::vector<uint16_t> words) {
    Instruction inst;
    DecodeResult result = decode(words.data(), words.size(), inst);
    CHECK(result.size == 0);
    CHECK(inst.opcode == Opcode::Invalid);
    return result ? std::string("ok") : result.error->message;
  };
  CHECK(error({}) == "no instruction: empty input");
  CHECK(error({0x0000}) == "invalid opcode 0x00");
  CHECK(error({0xFF00}) == "invalid opcode 0xff");
  unsigned nop = static_cast<unsigned>(Opcode::Nop) << 8;
  CHECK(error({uint16_t(nop | 1)}) == "nop: non-zero padding bits");
  unsigned jmp = static_cast<unsigned>(Opcode::Jmp) << 8;
  // Halfword address 0x6000 is byte 0xC000.
  CHECK(error({uint16_t(jmp), 0x60}) ==
        "jmp operand 1: code address 49152 is outside 48 KiB");
  unsigned act = static_cast<unsigned>(Opcode::Activate) << 8;
  CHECK(error({uint16_t(act | 0x1 | (20 << 1))}) ==
        "activate operand 1: register r20 does not exist");
  unsigned block = static_cast<unsigned>(Opcode::Block) << 8;
  CHECK(error({uint16_t(block | 7), 0}) ==
        "block operand 1: block space 7 does not exist");
  unsigned copy = static_cast<unsigned>(Opcode::DsrCopy) << 8;
  CHECK(error({uint16_t(copy | 0x03), 0}) ==
        "dsr.copy operand 1: DSR file 3 does not exist");
  unsigned fmovs = static_cast<unsigned>(Opcode::FMovSV) << 8;
  // Destination mode 3 is a scalar register: not a destination.
  CHECK(error({uint16_t(fmovs | 3), 0}) ==
        "fmovs operand 1: operand mode not allowed here");
  CHECK(error({uint16_t(fmovs | 7), 0}) ==
        "fmovs operand 1: operand mode 7 does not exist");
  // Options flag set with every option at its default.
  CHECK(error({uint16_t(fmovs), 0x0040, 0}) ==
        "fmovs: options present but all default (non-canonical)");
  unsigned map = static_cast<unsigned>(Opcode::Map) << 8;
  CHECK(error({uint16_t(map), 0x8000, 0x0007}) ==
        "map: variadic operand count 15 is out of range");
}

TEST_CASE("random words never crash the decoder", "[isa][fuzz]") {
  std::mt19937 rng(20240611);
  std::uniform_int_distribution<unsigned> word(0, 0xFFFF);
  std::uniform_int_distribution<unsigned> length(0, 20);
  std::uniform_int_distribution<unsigned> opcode(
      0, static_cast<unsigned>(Opcode::NumOpcodes));
  size_t decoded = 0, rejected = 0;
  for (int i = 0; i < 200000; ++i) {
    std::vector<uint16_t> words(length(rng));
    for (uint16_t &w : words)
      w = word(rng);
    // Mostly valid opcodes, so that operand decoding is exercised.
    if (!words.empty() && i % 4)
      words[0] = uint16_t((opcode(rng) << 8) | (words[0] & 0xFF));
    Instruction inst;
    DecodeResult result = decode(words.data(), words.size(), inst);
    if (!result) {
      REQUIRE_FALSE(result.error->message.empty());
      ++rejected;
      continue;
    }
    ++decoded;
    REQUIRE(result.size >= 1);
    REQUIRE(result.size <= words.size());
    // Whatever decodes re-encodes to the very same words.
    std::vector<uint16_t> again;
    REQUIRE_FALSE(encode(inst, again).has_value());
    REQUIRE(again ==
            std::vector<uint16_t>(words.begin(), words.begin() + result.size));
  }
  CHECK(decoded > 10000);
  CHECK(rejected > 10000);
}

TEST_CASE("a stream of instructions decodes back in order", "[isa]") {
  std::vector<Instruction> program;
  for (const InstInfo &info : getInstTable())
    for (const Instruction &inst : samples(info))
      program.push_back(inst);
  std::vector<uint16_t> words;
  for (const Instruction &inst : program)
    REQUIRE_FALSE(encode(inst, words).has_value());
  size_t at = 0;
  for (const Instruction &inst : program) {
    Instruction back;
    DecodeResult result = decode(words.data() + at, words.size() - at, back);
    REQUIRE(result);
    CHECK(back == inst);
    at += result.size;
  }
  CHECK(at == words.size());
}
