//===- DescriptorTest.cpp - building, changing and storing DSRs -----------===//

#include "TestSupport.h"

using namespace dsdtest;

namespace {

Descriptor mem1d(uint8_t width, uint16_t base, uint16_t length, int32_t offset,
                 int16_t stride, bool wio) {
  Descriptor d;
  d.kind = DSRKind::Mem1d;
  d.width = width;
  d.base = base;
  d.length = length;
  d.offset = offset;
  d.stride = stride;
  d.waveletIndexOffset = wio;
  return d;
}

pe::DSDOptions allOptions() {
  pe::DSDOptions options;
  options.async = true;
  options.priority = pe::Priority::High;
  options.activate = Imm(9);
  options.unblock = R(2);
  options.microthread = Imm(5);
  options.indexReg = 7;
  return options;
}

} // namespace

TEST_CASE("an unwritten DSR is an empty mem1d", "[dsd][descriptor]") {
  DSRFile dsrs;
  const Descriptor &d = dsrs.get({2, 15});
  CHECK(d == Descriptor{});
  CHECK(d.kind == DSRKind::Mem1d);
  CHECK(d.getLength() == 0u);
  CHECK(dsrs.getUsedCount() == 0);
}

TEST_CASE("builders set every field of their kind", "[dsd][descriptor]") {
  Machine m;
  m.state.r[1] = 0x1234;
  m.state.r[2] = static_cast<uint32_t>(-70000);
  m.state.r[3] = static_cast<uint32_t>(-3);
  m.exec(Opcode::DsrMem1d,
         {Dest(1), Imm(32), R(1), Imm(100), R(2), R(3), Imm(1)});
  CHECK(m.dsrs.get({0, 1}) == mem1d(32, 0x1234, 100, -70000, -3, true));
  CHECK(m.dsrs.getUsedCount() == 1);

  m.exec(Opcode::DsrMem4d, {Src0(2), Imm(16), Imm(0x400), Imm(1), Imm(4),
                            Imm(-8), Imm(3), Imm(1), Imm(2), R(3)});
  Descriptor d4;
  d4.kind = DSRKind::Mem4d;
  d4.base = 0x400;
  d4.waveletIndexOffset = true;
  d4.dims = 3;
  d4.extents = {4, 3, 2, 0};
  d4.strides = {-8, 1, -3, 0};
  CHECK(m.dsrs.get({1, 2}) == d4);
  CHECK(d4.getLength() == 24u);

  m.exec(Opcode::DsrCircbuf, {Src1(3), Imm(32), Imm(0x800), Imm(10), Imm(4)});
  Descriptor c;
  c.kind = DSRKind::Circbuf;
  c.width = 32;
  c.base = 0x800;
  c.length = 10;
  c.wrap = 4;
  CHECK(m.dsrs.get({2, 3}) == c);

  m.exec(Opcode::DsrFabin,
         {Src0(4), Imm(MaxDSRLength), Imm(7), Imm(2), Imm(1), Imm(3)});
  Descriptor in;
  in.kind = DSRKind::FabIn;
  in.length = MaxDSRLength;
  in.color = 7;
  in.queue = 2;
  in.controlTransform = true;
  in.priority = pe::Priority::High;
  CHECK(m.dsrs.get({1, 4}) == in);
  CHECK(in.getLength() == UINT64_MAX);

  m.exec(Opcode::DsrFabout, {Dest(5), Imm(6), Imm(31), Imm(7), Imm(1), Imm(1),
                             Imm(1), Imm(0), Imm(1)});
  Descriptor out;
  out.kind = DSRKind::FabOut;
  out.length = 6;
  out.color = 31;
  out.queue = 7;
  out.control = true;
  out.waveletIndexOffset = true;
  out.advanceSwitch = true;
  out.priority = pe::Priority::Low;
  CHECK(m.dsrs.get({0, 5}) == out);

  m.exec(Opcode::DsrFifo, {Dest(6), Imm(3)});
  Descriptor f;
  f.kind = DSRKind::Fifo;
  f.fifo = 3;
  CHECK(m.dsrs.get({0, 6}) == f);
  CHECK(f.getLength() == std::nullopt);
}

TEST_CASE("modifiers change their field and keep options and save-address",
          "[dsd][descriptor]") {
  Machine m;
  m.mem1d(Dest(0), 16, 0x100, 8, 2, 1);
  m.state.r[2] = 3;
  m.exec(Opcode::DsrOptions, {Dest(0)}, allOptions());
  m.exec(Opcode::DsrSaveAddress, {Dest(0)});
  Descriptor expected = m.dsrs.get({0, 0});
  CHECK(expected.saveAddress);

  // The new base is element 0's address: the offset (2) goes with the
  // old one.
  m.exec(Opcode::DsrSetBase, {Dest(0), Imm(0x300)});
  m.exec(Opcode::DsrSetLength, {Dest(0), Imm(20)});
  m.exec(Opcode::DsrIncOffset, {Dest(0), Imm(-5)});
  m.exec(Opcode::DsrSetStride, {Dest(0), Imm(-2)});
  expected.base = 0x300;
  expected.length = 20;
  expected.offset = -5;
  expected.stride = -2;
  CHECK(m.dsrs.get({0, 0}) == expected);

  // mem4d and circbuf have no offset: dsr.incoff moves the base.
  m.exec(Opcode::DsrMem4d,
         {Dest(1), Imm(32), Imm(0x100), Imm(0), Imm(2), Imm(1)});
  m.exec(Opcode::DsrIncOffset, {Dest(1), Imm(3)});
  CHECK(m.dsrs.get({0, 1}).base == 0x10C);
  m.exec(Opcode::DsrCircbuf, {Dest(2), Imm(16), Imm(0x100), Imm(4), Imm(2)});
  m.exec(Opcode::DsrIncOffset, {Dest(2), Imm(-1)});
  m.exec(Opcode::DsrSetLength, {Dest(2), Imm(9)});
  CHECK(m.dsrs.get({0, 2}).base == 0xFE);
  CHECK(m.dsrs.get({0, 2}).length == 9);
  m.exec(Opcode::DsrFabin, {Src0(0), Imm(1), Imm(0), Imm(0), Imm(0), Imm(0)});
  m.exec(Opcode::DsrSetLength, {Src0(0), Imm(MaxDSRLength)});
  CHECK(m.dsrs.get({1, 0}).length == MaxDSRLength);
}

TEST_CASE("dsr.incoffw counts elements of its width, converted to the DSR's",
          "[dsd][descriptor]") {
  Machine m;
  // A 16-bit DSR moved by 3 32-bit elements: 6 of its own.
  m.mem1d(Dest(0), 16, 0x100, 8, 1, 1);
  m.exec(Opcode::DsrIncOffsetWidth, {Dest(0), Imm(32), Imm(3)});
  CHECK(m.dsrs.get({0, 0}).offset == 7);
  // A 32-bit DSR moved by -4 16-bit elements: -2 of its own.
  m.mem1d(Dest(1), 32, 0x100, 8, 5, 1);
  m.exec(Opcode::DsrIncOffsetWidth, {Dest(1), Imm(16), Imm(-4)});
  CHECK(m.dsrs.get({0, 1}).offset == 3);
  // Same width: as dsr.incoff; a register count too.
  m.state.r[4] = 2;
  m.exec(Opcode::DsrIncOffsetWidth, {Dest(1), Imm(32), R(4)});
  CHECK(m.dsrs.get({0, 1}).offset == 5);
  // mem4d: the base moves by bytes of the given width.
  m.exec(Opcode::DsrMem4d,
         {Dest(2), Imm(16), Imm(0x100), Imm(0), Imm(2), Imm(1)});
  m.exec(Opcode::DsrIncOffsetWidth, {Dest(2), Imm(32), Imm(3)});
  CHECK(m.dsrs.get({0, 2}).base == 0x10C);
}

TEST_CASE("dsr.setbasew sets the base and the element width",
          "[dsd][descriptor]") {
  Machine m;
  m.mem1d(Dest(0), 16, 0x100, 8, 3, 1);
  m.state.r[5] = 0x2000;
  m.exec(Opcode::DsrSetBaseWidth, {Dest(0), Imm(32), R(5)});
  const Descriptor &d = m.dsrs.get({0, 0});
  CHECK(d.base == 0x2000);
  CHECK(d.width == 32);
  CHECK(d.offset == 0);
  CHECK(d.length == 8);
  m.exec(Opcode::DsrFabin, {Src0(1), Imm(1), Imm(0), Imm(0), Imm(0), Imm(0)});
  CHECK(m.execTrap(Opcode::DsrSetBaseWidth, {Src0(1), Imm(32), Imm(0)}) ==
        "dsr.setbasew: src0.1 is a fabin DSR; only mem1d, mem4d and circbuf "
        "DSRs have a base");
}

TEST_CASE("dsr.copy copies the whole descriptor", "[dsd][descriptor]") {
  Machine m;
  m.mem1d(Src1(9), 32, 0x100, 8, 2, 1, true);
  m.exec(Opcode::DsrOptions, {Src1(9)}, allOptions());
  m.exec(Opcode::DsrSaveAddress, {Src1(9)});
  m.exec(Opcode::DsrCopy, {Dest(0), Src1(9)});
  CHECK(m.dsrs.get({0, 0}) == m.dsrs.get({2, 9}));
  // Building again drops options and save-address.
  m.mem1d(Dest(0), 32, 0x100, 8, 2, 1, true);
  CHECK(m.dsrs.get({0, 0}).options.isDefault());
  CHECK_FALSE(m.dsrs.get({0, 0}).saveAddress);
}

TEST_CASE("dsr.opts resolves task registers when it runs",
          "[dsd][descriptor]") {
  Machine m;
  m.state.r[2] = 63;
  m.exec(Opcode::DsrOptions, {Dest(3)}, allOptions());
  m.state.r[2] = 1;
  AttachedOptions expected;
  expected.async = true;
  expected.priority = pe::Priority::High;
  expected.activate = 9;
  expected.unblock = 63;
  expected.microthread = 5;
  expected.indexReg = 7;
  CHECK(m.dsrs.get({0, 3}).options == expected);
  // A second dsr.opts replaces the first.
  pe::DSDOptions activateOnly;
  activateOnly.activate = R(2);
  m.exec(Opcode::DsrOptions, {Dest(3)}, activateOnly);
  AttachedOptions replaced;
  replaced.activate = 1;
  CHECK(m.dsrs.get({0, 3}).options == replaced);
}

TEST_CASE("fifo.init resets a FIFO slot", "[dsd][descriptor]") {
  Machine m;
  CHECK_FALSE(m.fifos.get(4).initialized);
  m.state.r[5] = 12;
  m.exec(Opcode::FifoInit,
         {Imm(4), Imm(32), Imm(0x200), Imm(10), R(5), None(), Imm(2)});
  Fifo expected;
  expected.initialized = true;
  expected.width = 32;
  expected.base = 0x200;
  expected.capacity = 10;
  expected.pushTask = 12;
  expected.priority = pe::Priority::Medium;
  CHECK(m.fifos.get(4) == expected);
  m.fifos.getMutable(4).count = 3;
  m.exec(Opcode::FifoInit,
         {Imm(4), Imm(16), Imm(0xBFFC), Imm(2), Imm(60), Imm(61), Imm(0)});
  const Fifo &again = m.fifos.get(4);
  CHECK(again.count == 0);
  CHECK(again.head == 0);
  CHECK(again.popTask == 61);
  CHECK(again.elementAddress(3) == 0xBFFE);
}

TEST_CASE("dsr.st and dsr.ld round-trip every kind of descriptor",
          "[dsd][descriptor]") {
  Machine m;
  m.state.r[2] = 0;
  m.state.r[1] = 0x404;
  // Every kind, with extreme values, options and save-address.
  m.mem1d(Dest(0), 32, 0xFFFF, MaxDSRLength, INT32_MIN, -32768, true);
  m.exec(Opcode::DsrMem4d,
         {Dest(1), Imm(16), Imm(0x8001), Imm(1), Imm(1), Imm(32767), Imm(2),
          Imm(-32768), Imm(32767), Imm(-1), Imm(0), Imm(5)});
  m.exec(Opcode::DsrCircbuf,
         {Dest(2), Imm(32), Imm(0xBFFC), Imm(0), Imm(0xFFFF)});
  m.exec(Opcode::DsrFabin,
         {Dest(3), Imm(MaxDSRLength), Imm(31), Imm(7), Imm(1), Imm(3)});
  m.exec(Opcode::DsrFabout, {Dest(4), Imm(1), Imm(1), Imm(1), Imm(1), Imm(1),
                             Imm(1), Imm(1), Imm(2)});
  m.exec(Opcode::DsrFifo, {Dest(5), Imm(7)});
  Descriptor moved = m.dsrs.get({0, 2});
  moved.position = 0xFFFFFFFF; // as save-address leaves it
  m.dsrs.set({0, 6}, moved);
  for (unsigned i = 0; i <= 6; ++i) {
    Operand dsr = Dest(i);
    if (i % 2) {
      m.exec(Opcode::DsrOptions, {dsr}, allOptions());
      m.exec(Opcode::DsrSaveAddress, {dsr});
    }
    m.exec(Opcode::DsrStore, {dsr, R(1), Imm(-4 + 32 * int(i))});
    m.exec(Opcode::DsrLoad, {Src1(i), R(1), Imm(-4 + 32 * int(i))});
    CHECK(m.dsrs.get({2, static_cast<uint8_t>(i)}) ==
          m.dsrs.get({0, static_cast<uint8_t>(i)}));
    std::array<uint8_t, DescriptorImageBytes> image =
        encodeDescriptor(m.dsrs.get({0, static_cast<uint8_t>(i)}));
    std::string why;
    CHECK(decodeDescriptor(image, why) == m.dsrs.get({0, uint8_t(i)}));
  }
}

TEST_CASE("a zeroed slot loads as an empty mem1d", "[dsd][descriptor]") {
  Machine m;
  m.mem1d(Src0(0), 32, 0x100, 8);
  m.exec(Opcode::DsrLoad, {Src0(0), R(0), Imm(0x40)});
  CHECK(m.dsrs.get({1, 0}) == Descriptor{});
  std::array<uint8_t, DescriptorImageBytes> zeros{};
  CHECK(encodeDescriptor(Descriptor{}) == zeros);
}

TEST_CASE("the image layout is the documented one", "[dsd][descriptor]") {
  Descriptor d = mem1d(32, 0x1234, 0x0102, -2, -3, true);
  d.saveAddress = true;
  d.options.async = true;
  d.options.priority = pe::Priority::Medium;
  d.options.unblock = 33;
  std::array<uint8_t, DescriptorImageBytes> expected{
      0x38, 0x15, 0,    33,   0,    0,    0x34, 0x12,
      0x02, 0x01, 0xFD, 0xFF, 0xFE, 0xFF, 0xFF, 0xFF};
  CHECK(encodeDescriptor(d) == expected);
}
