//===- DescriptorErrorTest.cpp - every trap of the DSR instructions -------===//

#include "TestSupport.h"

using namespace dsdtest;

TEST_CASE("out-of-range fields trap and change nothing",
          "[dsd][descriptor][errors]") {
  Machine m;
  m.mem1d(Dest(0), 16, 0x100, 4);
  Descriptor before = m.dsrs.get({0, 0});
  m.state.r[2] = 0x10000;
  m.state.r[3] = 40000;
  CHECK(m.execTrap(Opcode::DsrMem1d, {Dest(0), Imm(16), Imm(0), Imm(40000),
                                      Imm(0), Imm(1), Imm(0)}) ==
        "dsr.mem1d: extent 40000 is not in 0..32767");
  CHECK(m.execTrap(Opcode::DsrMem1d,
                   {Dest(0), Imm(16), R(2), Imm(1), Imm(0), Imm(1), Imm(0)}) ==
        "dsr.mem1d: base 65536 (r2) is not in 0..65535");
  CHECK(m.execTrap(Opcode::DsrMem1d,
                   {Dest(0), Imm(16), Imm(0), Imm(1), Imm(0), R(3), Imm(0)}) ==
        "dsr.mem1d: stride 40000 (r3) is not in -32768..32767");
  CHECK(m.trap.kind == DSDTrapKind::BadOperand);
  CHECK(m.dsrs.get({0, 0}) == before);

  m.state.r[4] = static_cast<uint32_t>(-1);
  CHECK(m.execTrap(Opcode::DsrMem4d,
                   {Dest(0), Imm(16), Imm(0), Imm(0), R(4), Imm(1)}) ==
        "dsr.mem4d: extent -1 (r4) is not in 0..32767");
  CHECK(m.execTrap(Opcode::DsrMem4d, {Dest(0), Imm(16), Imm(0), Imm(0), Imm(2),
                                      Imm(1), Imm(2), R(3)}) ==
        "dsr.mem4d: stride 40000 (r3) is not in -32768..32767");
  CHECK(m.execTrap(Opcode::DsrCircbuf,
                   {Dest(0), Imm(16), Imm(0), Imm(4), Imm(0)}) ==
        "dsr.circbuf: wrap 0 is not in 1..65535");
  CHECK(m.execTrap(Opcode::DsrFabin,
                   {Src0(0), R(3), Imm(0), Imm(0), Imm(0), Imm(0)}) ==
        "dsr.fabin: extent 40000 (r3) is not in 0..32767");
  CHECK(
      m.execTrap(Opcode::DsrFabout, {Dest(0), Imm(32768), Imm(0), Imm(0),
                                     Imm(0), Imm(0), Imm(0), Imm(0), Imm(0)}) ==
      "dsr.fabout: extent 32768 is not in 0..32767");
  CHECK(m.execTrap(Opcode::DsrSetLength, {Dest(0), Imm(32768)}) ==
        "dsr.setlen: length 32768 is not in 0..32767");
  CHECK(m.execTrap(Opcode::DsrSetBase, {Dest(0), R(2)}) ==
        "dsr.setbase: base 65536 (r2) is not in 0..65535");
  CHECK(m.execTrap(Opcode::DsrSetStride, {Dest(0), R(3)}) ==
        "dsr.setstride: stride 40000 (r3) is not in -32768..32767");
  CHECK(m.dsrs.get({0, 0}) == before);
}

TEST_CASE("modifiers trap on kinds without the field",
          "[dsd][descriptor][errors]") {
  Machine m;
  m.exec(Opcode::DsrFabin, {Src0(1), Imm(1), Imm(0), Imm(0), Imm(0), Imm(0)});
  m.exec(Opcode::DsrMem4d, {Dest(2), Imm(16), Imm(0), Imm(0), Imm(2), Imm(1)});
  m.exec(Opcode::DsrFifo, {Dest(1), Imm(0)});
  m.exec(Opcode::DsrCircbuf, {Dest(3), Imm(16), Imm(0), Imm(4), Imm(2)});
  CHECK(m.execTrap(Opcode::DsrSetBase, {Src0(1), Imm(0)}) ==
        "dsr.setbase: src0.1 is a fabin DSR; only mem1d, mem4d and circbuf "
        "DSRs have a base");
  CHECK(m.execTrap(Opcode::DsrSetLength, {Dest(2), Imm(1)}) ==
        "dsr.setlen: dest.2 is a mem4d DSR; only mem1d, circbuf, fabin and "
        "fabout DSRs have a length");
  CHECK(m.execTrap(Opcode::DsrSetLength, {Dest(1), Imm(1)}) ==
        "dsr.setlen: dest.1 is a fifo DSR; only mem1d, circbuf, fabin and "
        "fabout DSRs have a length");
  CHECK(m.execTrap(Opcode::DsrIncOffset, {Dest(1), Imm(1)}) ==
        "dsr.incoff: dest.1 is a fifo DSR; only mem1d, mem4d and circbuf "
        "DSRs have an offset");
  CHECK(m.execTrap(Opcode::DsrSetStride, {Dest(3), Imm(1)}) ==
        "dsr.setstride: dest.3 is a circbuf DSR; only mem1d DSRs have a "
        "stride");
  CHECK(m.execTrap(Opcode::DsrIncOffset, {Dest(2), Imm(-1)}) ==
        "dsr.incoff: moving the base of dest.2 by -1 elements gives -2, "
        "which is not in 0..65535");
  m.mem1d(Dest(4), 32, 0x100, 8);
  CHECK(m.execTrap(Opcode::DsrIncOffsetWidth, {Dest(4), Imm(16), Imm(3)}) ==
        "dsr.incoffw: moving dest.4, whose elements are 32-bit, by 3 16-bit "
        "elements (an odd number)");
}

TEST_CASE("fifo.init traps on a bad buffer or task",
          "[dsd][descriptor][errors]") {
  Machine m;
  m.state.r[2] = 64;
  CHECK(m.execTrap(Opcode::FifoInit, {Imm(2), Imm(16), Imm(0x100), Imm(0),
                                      None(), None(), Imm(0)}) ==
        "fifo.init: capacity 0 is not in 1..65535");
  CHECK(m.execTrap(Opcode::FifoInit, {Imm(2), Imm(16), Imm(0x100), Imm(4), R(2),
                                      None(), Imm(0)}) ==
        "fifo.init: push task 64 (r2) is not in 0..63");
  CHECK(m.execTrap(Opcode::FifoInit, {Imm(2), Imm(16), Imm(0x100), Imm(4),
                                      None(), Imm(70), Imm(0)}) ==
        "fifo.init: pop task 70 is not in 0..63");
  CHECK(m.execTrap(Opcode::FifoInit, {Imm(2), Imm(32), Imm(0xBF80), Imm(50),
                                      None(), None(), Imm(0)}) ==
        "fifo.init: the buffer of fifo2 (200 bytes at 0xbf80) does not fit in "
        "memory (0x0000..0xbfff)");
  CHECK(m.execTrap(Opcode::FifoInit, {Imm(2), Imm(16), Imm(0x101), Imm(4),
                                      None(), None(), Imm(0)}) ==
        "fifo.init: the buffer of fifo2 (8 bytes at 0x0101) is at an odd "
        "address");
  CHECK_FALSE(m.fifos.get(2).initialized);
}

TEST_CASE("dsr.opts traps on a task register out of range",
          "[dsd][descriptor][errors]") {
  Machine m;
  m.state.r[4] = 99;
  pe::DSDOptions options;
  options.activate = R(4);
  CHECK(m.execTrap(Opcode::DsrOptions, {Dest(0)}, options) ==
        "dsr.opts: activate 99 (r4) is not in 0..63");
  options = {};
  options.unblock = Imm(64);
  CHECK(m.execTrap(Opcode::DsrOptions, {Dest(0)}, options) ==
        "dsr.opts: unblock 64 is not in 0..63");
  options = {};
  options.microthread = Operand::ptr(1);
  CHECK(m.execTrap(Opcode::DsrOptions, {Dest(0)}, options) ==
        "dsr.opts: malformed instruction (ut is not a task reference)");
  options = {};
  options.indexReg = 16;
  CHECK(m.execTrap(Opcode::DsrOptions, {Dest(0)}, options) ==
        "dsr.opts: malformed instruction (index register r16 does not "
        "exist)");
  CHECK(m.dsrs.getUsedCount() == 0);
}

TEST_CASE("descriptor slots must be in memory and 4-byte aligned",
          "[dsd][descriptor][errors]") {
  Machine m;
  m.state.r[1] = 0xBFE4;
  CHECK(m.execTrap(Opcode::DsrLoad, {Dest(0), R(1), Imm(0)}) ==
        "dsr.ld of 32 bytes at 0xbfe4 does not fit in memory "
        "(0x0000..0xbfff)");
  CHECK(m.trap.kind == DSDTrapKind::BadMemoryAccess);
  CHECK(m.trap.address == 0xBFE4);
  CHECK(m.trap.width == 32);
  CHECK(m.execTrap(Opcode::DsrStore, {Dest(0), R(0), Imm(-4)}) ==
        "dsr.st of 32 bytes at 0xfffffffc does not fit in memory "
        "(0x0000..0xbfff)");
  m.state.r[1] = 0x400;
  CHECK(m.execTrap(Opcode::DsrStore, {Dest(0), R(1), Imm(2)}) ==
        "dsr.st of 32 bytes at 0x0402 is not 4-byte aligned");
  CHECK(m.memory.getTouchedPages() == 0);
  // The last slot in memory is fine.
  m.state.r[1] = 0xBFE0;
  m.exec(Opcode::DsrStore, {Dest(0), R(1), Imm(0)});
}

TEST_CASE("dsr.ld traps on bytes that are not a descriptor image",
          "[dsd][descriptor][errors]") {
  using Image = std::array<uint8_t, DescriptorImageBytes>;
  auto load = [](Image image) {
    Machine m;
    REQUIRE(m.memory.write(0x400, image) == MemoryStatus::Ok);
    std::string message =
        m.execTrap(Opcode::DsrLoad, {Dest(0), R(0), Imm(0x400)});
    CHECK(m.dsrs.getUsedCount() == 0);
    return message;
  };
  auto with = [](std::initializer_list<std::pair<unsigned, uint8_t>> bytes) {
    Image image{};
    for (auto [at, value] : bytes)
      image[at] = value;
    return image;
  };
  const std::string prefix = "dsr.ld: the 32 bytes at 0x0400 are not a "
                             "descriptor image: ";
  CHECK(load(with({{0, 6}})) == prefix + "kind 6 does not exist");
  CHECK(load(with({{9, 0x80}})) == prefix + "length 32768 is not in 0..32767");
  CHECK(load(with({{1, 8}, {2, 64}})) ==
        prefix + "activate task 64 is not in 0..63");
  CHECK(load(with({{1, 16}, {3, 64}})) ==
        prefix + "unblock task 64 is not in 0..63");
  CHECK(load(with({{1, 32}, {4, 64}})) ==
        prefix + "microthread 64 is not in 0..63");
  CHECK(load(with({{1, 64}, {5, 16}})) ==
        prefix + "index register 16 is not in 0..15");
  CHECK(load(with({{0, 2}})) == prefix + "wrap 0 is not in 1..65535");
  CHECK(load(with({{0, 1}})) == prefix + "dimension count 0 is not in 1..4");
  CHECK(load(with({{0, 1}, {10, 5}})) ==
        prefix + "dimension count 5 is not in 1..4");
  CHECK(load(with({{0, 1}, {10, 1}, {17, 0x80}})) ==
        prefix + "extent 32768 is not in 0..32767");
  CHECK(load(with({{0, 3}, {10, 32}})) == prefix + "color 32 is not in 0..31");
  CHECK(load(with({{0, 4}, {11, 8}})) == prefix + "queue 8 is not in 0..7");
  CHECK(load(with({{0, 3}, {13, 4}})) == prefix + "priority 4 is not in 0..3");
  CHECK(load(with({{0, 5}, {10, 8}})) == prefix + "FIFO slot 8 is not in 0..7");
  // Bits no field of the kind uses: reserved bits, an absent option's
  // byte, bytes past the kind's fields, a mem4d's unused dimensions.
  CHECK(load(with({{0, 0x40}})) ==
        prefix + "bits a mem1d descriptor does not use are set");
  CHECK(load(with({{2, 1}})) ==
        prefix + "bits a mem1d descriptor does not use are set");
  CHECK(load(with({{0, 5}, {20, 1}})) ==
        prefix + "bits a fifo descriptor does not use are set");
  CHECK(load(with({{0, 1}, {10, 1}, {20, 1}})) ==
        prefix + "bits a mem4d descriptor does not use are set");
  CHECK(load(with({{0, 3}, {12, 8}})) ==
        prefix + "bits a fabin descriptor does not use are set");
}

TEST_CASE("malformed DSR instructions trap", "[dsd][descriptor][errors]") {
  Machine m;
  CHECK(m.execTrap(Opcode::FAddSV, {Dest(0), Src0(0), Src1(0)}) ==
        "fadds is not a DSR instruction");
  CHECK(m.execTrap(Opcode::DsrMem1d, {Dest(0), Imm(16), Imm(0)}) ==
        "dsr.mem1d: malformed instruction (with 3 operands)");
  CHECK(m.execTrap(Opcode::DsrMem4d,
                   {Dest(0), Imm(16), Imm(0), Imm(0), Imm(2)}) ==
        "dsr.mem4d: malformed instruction (with 5 operands)");
  CHECK(m.execTrap(Opcode::DsrCopy, {Dest(0), R(1)}) ==
        "dsr.copy: malformed instruction (operand 2 is not a DSR)");
  CHECK(m.execTrap(Opcode::DsrSetBase, {Dest(16), Imm(0)}) ==
        "dsr.setbase: malformed instruction (operand 1 is not a DSR)");
  CHECK(m.execTrap(Opcode::DsrMem1d,
                   {Dest(0), Imm(8), Imm(0), Imm(0), Imm(0), Imm(1), Imm(0)}) ==
        "dsr.mem1d: malformed instruction (operand 2 is not in 16..32)");
  CHECK(m.execTrap(Opcode::DsrMem1d, {Dest(0), Imm(24), Imm(0), Imm(0), Imm(0),
                                      Imm(1), Imm(0)}) ==
        "dsr.mem1d: malformed instruction (operand 2 is not a width (16 or "
        "32))");
  CHECK(m.execTrap(Opcode::DsrMem1d, {Dest(0), Imm(16), Dest(1), Imm(0), Imm(0),
                                      Imm(1), Imm(0)}) ==
        "dsr.mem1d: malformed instruction (operand 3 is not a register or an "
        "immediate)");
  CHECK(m.execTrap(Opcode::DsrFabin,
                   {Src0(0), Imm(1), Imm(32), Imm(0), Imm(0), Imm(0)}) ==
        "dsr.fabin: malformed instruction (operand 3 is not in 0..31)");
  CHECK(m.execTrap(Opcode::DsrLoad, {Dest(0), Imm(0), Imm(0)}) ==
        "dsr.ld: malformed instruction (operand 2 is not a register)");
  CHECK(m.execTrap(Opcode::FifoInit, {Imm(2), Imm(16), Imm(0x100), Imm(4),
                                      Dest(0), None(), Imm(0)}) ==
        "fifo.init: malformed instruction (push task is not a task "
        "reference)");
  CHECK(m.dsrs.getUsedCount() == 0);
}
