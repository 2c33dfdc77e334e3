//===- DecodedProgramTest.cpp - decoding a program once -------------------===//

#include "TestSupport.h"

using namespace emutest;

TEST_CASE("every halfword of the code has an entry", "[decoded]") {
  pe::ProgramBinary binary = assemble({
      I(Opcode::Nop),                                // 0x100
      I(Opcode::MovI32, {R(1), Imm(0x12345678)}),    // 0x102, 3 words
      I(Opcode::Activate, {Imm(10)}),                // 0x108
      I(Opcode::AddI, {R(3), R(4), Imm(-2)}),        // 0x10a
      I(Opcode::Select, {R(1), R(2), R(3), R(4)}),   // 0x10e
      I(Opcode::SetPRNG, {R(9)}),                    // 0x112
      I(Opcode::FCmpS, {R(5), R(6), R(7), Imm(13)}), // 0x114
      I(Opcode::Jmp, {Imm(0x100)}),                  // 0x118
  });
  DecodedProgram program(binary);
  CHECK(program.getCodeBegin() == 0x100);
  CHECK(program.getCodeEnd() == 0x100 + 2 * binary.code.size());

  const DecodedInst *nop = program.lookup(0x100);
  REQUIRE(nop);
  CHECK(nop->opcode == Opcode::Nop);
  CHECK(nop->size == 1);

  const DecodedInst *movi32 = program.lookup(0x102);
  REQUIRE(movi32);
  CHECK(movi32->opcode == Opcode::MovI32);
  CHECK(movi32->size == 3);
  CHECK(movi32->reg[0] == 1);
  CHECK(movi32->imm == 0x12345678);
  CHECK(!program.getInstruction(*movi32));
  CHECK(program.getDecodeError(*movi32).empty());
  // The middle of movi32 decodes (or not) as whatever its words say.
  CHECK(program.lookup(0x104));

  const DecodedInst *activate = program.lookup(0x108);
  REQUIRE(activate);
  CHECK(activate->opcode == Opcode::Activate);
  CHECK(!activate->isScalar());
  const pe::Instruction *full = program.getInstruction(*activate);
  REQUIRE(full);
  CHECK(pe::format(*full) == "activate 10");

  const DecodedInst *addi = program.lookup(0x10a);
  REQUIRE(addi);
  CHECK(addi->isScalar());
  CHECK(addi->reg[0] == 3);
  CHECK(addi->reg[1] == 4);
  CHECK(addi->imm == 0xFFFFFFFE);

  const DecodedInst *sel = program.lookup(0x10e);
  REQUIRE(sel);
  CHECK((sel->reg[0] == 1 && sel->reg[1] == 2 && sel->reg[2] == 3 &&
         sel->reg[3] == 4));

  const DecodedInst *randsel = program.lookup(0x112);
  REQUIRE(randsel);
  CHECK(randsel->flags ==
        (DecodedInst::RegOperand | DecodedInst::ScalarOpcode));
  CHECK(randsel->reg[0] == 9);

  const DecodedInst *fcmp = program.lookup(0x114);
  REQUIRE(fcmp);
  CHECK(fcmp->imm == 13);

  const DecodedInst *jmp = program.lookup(0x118);
  REQUIRE(jmp);
  CHECK(jmp->imm == 0x100);

  CHECK(!program.lookup(0x101));
  CHECK(!program.lookup(0xFE));
  CHECK(!program.lookup(0));
  CHECK(!program.lookup(program.getCodeEnd()));
  CHECK(!program.lookup(0xFFFFFFFE));
}

TEST_CASE("only Misc, IntALU, FloatALU, Memory and Branch are scalar",
          "[decoded]") {
  for (const pe::InstInfo &info : pe::getInstTable()) {
    bool scalar = info.instClass == pe::InstClass::Misc ||
                  info.instClass == pe::InstClass::IntALU ||
                  info.instClass == pe::InstClass::FloatALU ||
                  info.instClass == pe::InstClass::Memory ||
                  info.instClass == pe::InstClass::Branch;
    INFO(info.mnemonic);
    CHECK(DecodedProgram::isScalar(info.opcode) == scalar);
  }
  CHECK(!DecodedProgram::isScalar(Opcode::Invalid));
  CHECK(DecodedProgram::isScalar(Opcode::Ret));
  CHECK(!DecodedProgram::isScalar(Opcode::TaskExit));
}

TEST_CASE("words that do not decode keep the decoder's message", "[decoded]") {
  pe::ProgramBinary binary;
  binary.codeAddress = 0x20;
  // A zero word, nop with operand bits set, and movi32 cut short.
  binary.code = {0x0000, 0x0101, 0x0801};
  DecodedProgram program(binary);
  for (uint32_t pc : {0x20u, 0x22u, 0x24u}) {
    const DecodedInst *inst = program.lookup(pc);
    REQUIRE(inst);
    CHECK(inst->opcode == Opcode::Invalid);
    CHECK(inst->size == 1);
    CHECK(!program.getInstruction(*inst));
    // The same words given to the decoder directly.
    pe::Instruction decoded;
    size_t index = (pc - 0x20) / 2;
    pe::DecodeResult result = pe::decode(binary.code.data() + index,
                                         binary.code.size() - index, decoded);
    REQUIRE(!result);
    CHECK(program.getDecodeError(*inst) == result.error->message);
  }
  CHECK(program.getDecodeError(*program.lookup(0x20)) == "invalid opcode 0x00");
  CHECK(program.getDecodeError(*program.lookup(0x22)) ==
        "nop: non-zero padding bits");
  CHECK(program.getDecodeError(*program.lookup(0x24)) ==
        "movi32 operand 2: truncated instruction");
}

TEST_CASE("code past the end of memory is not decoded", "[decoded]") {
  pe::ProgramBinary binary;
  binary.codeAddress = 0xBFFC;
  binary.code = {0x0100, 0x0100, 0x0100, 0x0100};
  DecodedProgram program(binary);
  CHECK(program.getCodeEnd() == 0xC000);
  CHECK(program.lookup(0xBFFE));
  CHECK(!program.lookup(0xC000));

  DecodedProgram empty;
  CHECK(empty.getCodeBegin() == 0);
  CHECK(empty.getCodeEnd() == 0);
  CHECK(!empty.lookup(0));
  CHECK(!empty.getLocation(0));
}

TEST_CASE("source locations come from the line table", "[decoded]") {
  pe::ProgramBinary binary =
      assemble({I(Opcode::Nop), I(Opcode::Nop), I(Opcode::Nop), I(Opcode::Nop),
                I(Opcode::Nop)});
  binary.files = {"pe.csl", "lib.csl"};
  // Unsorted on purpose; two entries share 0x104 (the last is innermost).
  binary.lines = {
      {0x104, 0, 10, 3}, {0x104, 1, 77, 9}, {0x102, 0, 5, 1}, {0x108, 7, 1, 1}};
  DecodedProgram program(binary);
  CHECK(!program.getLocation(0x100)); // before the first entry
  CHECK(program.getLocation(0x102) == SourceLocation{"pe.csl", 5, 1});
  CHECK(program.getLocation(0x104) == SourceLocation{"lib.csl", 77, 9});
  CHECK(program.getLocation(0x106) == SourceLocation{"lib.csl", 77, 9});
  // A file index out of range gives no file name, not a crash.
  CHECK(program.getLocation(0x108) == SourceLocation{"", 1, 1});
  CHECK(!program.getLocation(0x10A)); // past the code
  CHECK(!program.getLocation(0xFE));
}
