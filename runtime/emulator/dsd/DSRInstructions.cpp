//===- DSRInstructions.cpp - building and changing descriptors ------------===//
//
// The DSR-class instructions of docs/ISA.md ("Building DSRs"). Each one
// reads and checks all its operands first and changes state only when none
// traps. Register operands are read at the instruction; builders start from
// a default Descriptor, so a rebuilt DSR loses its options and save-address
// flag, while the modifiers (setbase, setlen, incoff, setstride) keep them.
//
//===----------------------------------------------------------------------===//

#include "InstructionOperands.h"
#include "Messages.h"

#include "tessera/Emulator/DSRFile.h"

using namespace tessera;
using namespace tessera::emulator;
using namespace tessera::emulator::dsd;
using pe::Opcode;
using pe::OperandMode;

namespace {

constexpr int64_t MaxU16 = 0xFFFF;
constexpr int64_t MinS16 = -0x8000, MaxS16 = 0x7FFF;
constexpr int64_t MinS32 = INT32_MIN, MaxS32 = INT32_MAX;

bool buildMem1d(InstructionOperands &in, Descriptor &d) {
  int64_t base, extent, offset, stride;
  d.kind = DSRKind::Mem1d;
  if (!in.width(1, d.width) || !in.value(2, "base", false, 0, MaxU16, base) ||
      !in.value(3, "extent", false, 0, MaxDSRLength, extent) ||
      !in.value(4, "offset", true, MinS32, MaxS32, offset) ||
      !in.value(5, "stride", true, MinS16, MaxS16, stride) ||
      !in.flag(6, d.waveletIndexOffset))
    return false;
  d.base = static_cast<uint16_t>(base);
  d.length = static_cast<uint16_t>(extent);
  d.offset = static_cast<int32_t>(offset);
  d.stride = static_cast<int16_t>(stride);
  return true;
}

bool buildMem4d(InstructionOperands &in, Descriptor &d) {
  int64_t base;
  d.kind = DSRKind::Mem4d;
  if (!in.width(1, d.width) || !in.value(2, "base", false, 0, MaxU16, base) ||
      !in.flag(3, d.waveletIndexOffset))
    return false;
  d.base = static_cast<uint16_t>(base);
  d.dims = static_cast<uint8_t>((in.inst.operands.size() - 4) / 2);
  for (unsigned i = 0; i < d.dims; ++i) {
    int64_t extent, stride;
    if (!in.value(4 + 2 * i, "extent", true, 0, MaxDSRLength, extent) ||
        !in.value(5 + 2 * i, "stride", true, MinS16, MaxS16, stride))
      return false;
    d.extents[i] = static_cast<uint16_t>(extent);
    d.strides[i] = static_cast<int16_t>(stride);
  }
  return true;
}

bool buildCircbuf(InstructionOperands &in, Descriptor &d) {
  int64_t base, extent, wrap;
  d.kind = DSRKind::Circbuf;
  if (!in.width(1, d.width) || !in.value(2, "base", false, 0, MaxU16, base) ||
      !in.value(3, "extent", false, 0, MaxDSRLength, extent) ||
      !in.value(4, "wrap", false, 1, MaxU16, wrap))
    return false;
  d.base = static_cast<uint16_t>(base);
  d.length = static_cast<uint16_t>(extent);
  d.wrap = static_cast<uint16_t>(wrap);
  return true;
}

bool buildFabric(InstructionOperands &in, Descriptor &d, bool out) {
  int64_t extent, color, queue;
  d.kind = out ? DSRKind::FabOut : DSRKind::FabIn;
  if (!in.value(1, "extent", false, 0, MaxDSRLength, extent) ||
      !in.imm(2, 0, 31, color) || !in.imm(3, 0, 7, queue))
    return false;
  d.length = static_cast<uint16_t>(extent);
  d.color = static_cast<uint8_t>(color);
  d.queue = static_cast<uint8_t>(queue);
  if (!out)
    return in.flag(4, d.controlTransform) && in.priority(5, d.priority);
  return in.flag(4, d.control) && in.flag(5, d.waveletIndexOffset) &&
         in.flag(6, d.advanceSwitch) && in.flag(7, d.controlTransform) &&
         in.priority(8, d.priority);
}

/// fifo.init f, w, base, capacity, push_task, pop_task, priority.
bool initFifo(InstructionOperands &in, FifoFile &fifos) {
  int64_t slot, base, capacity;
  Fifo fifo;
  fifo.initialized = true;
  if (!in.imm(0, 0, pe::NumFifos - 1, slot) || !in.width(1, fifo.width) ||
      !in.value(2, "base", false, 0, MaxU16, base) ||
      !in.value(3, "capacity", false, 1, MaxU16, capacity) ||
      !in.taskRef(in.inst.operands[4], "push task", fifo.pushTask) ||
      !in.taskRef(in.inst.operands[5], "pop task", fifo.popTask) ||
      !in.priority(6, fifo.priority))
    return false;
  // Checked once here, so that pushes and pops cannot fault.
  uint64_t bytes = static_cast<uint64_t>(capacity) * (fifo.width / 8);
  bool fits = base + bytes <= PEMemory::Size;
  if (!fits || (base & 1)) {
    std::string what = std::string(in.name) + ": the buffer of fifo" +
                       std::to_string(slot) + " (" + std::to_string(bytes) +
                       " bytes at " + hex(static_cast<uint32_t>(base)) + ")";
    badOperand(in.trap, !fits
                            ? what + " does not fit in memory " + memoryRange()
                            : what + " is at an odd address");
    return false;
  }
  fifo.base = static_cast<uint16_t>(base);
  fifo.capacity = static_cast<uint16_t>(capacity);
  fifos.getMutable(static_cast<unsigned>(slot)) = fifo;
  return true;
}

/// dsr.incoff: mem1d offsets count elements; mem4d and circbuf have no
/// offset, so their base moves instead (as the compiler does for mem4d).
/// dsr.incoff (`unitBits` 0: elements of the DSR's width) and dsr.incoffw
/// (elements of `unitBits`, converted to the DSR's: CSL's
/// @increment_dsd_offset counts elements of its type argument).
bool incrementOffset(InstructionOperands &in, Descriptor &d, DSRId id,
                     unsigned countAt, unsigned unitBits) {
  int64_t n;
  if (!in.kindIs(d, id, {DSRKind::Mem1d, DSRKind::Mem4d, DSRKind::Circbuf},
                 "mem1d, mem4d and circbuf", "an offset") ||
      !in.value(countAt, "increment", true, MinS32, MaxS32, n))
    return false;
  if (unitBits && unitBits != d.width) {
    if (unitBits > d.width) {
      n *= 2;
    } else if (n % 2 == 0) {
      n /= 2;
    } else {
      badOperand(in.trap, std::string(in.name) + ": moving " + id.getName() +
                              ", whose elements are 32-bit, by " +
                              std::to_string(n) +
                              " 16-bit elements (an odd number)");
      return false;
    }
  }
  if (d.kind == DSRKind::Mem1d) {
    d.offset = static_cast<int32_t>(static_cast<uint32_t>(d.offset) +
                                    static_cast<uint32_t>(n));
    return true;
  }
  int64_t base = d.base + n * (d.width / 8);
  if (base < 0 || base > MaxU16) {
    badOperand(in.trap, std::string(in.name) + ": moving the base of " +
                            id.getName() + " by " + std::to_string(n) +
                            " elements gives " + std::to_string(base) +
                            ", which is not in 0..65535");
    return false;
  }
  d.base = static_cast<uint16_t>(base);
  return true;
}

/// The 4-byte aligned slot of dsr.ld/dsr.st: rb + off, wrapping like the
/// scalar core's addresses.
bool slotAddress(InstructionOperands &in, uint32_t &address) {
  const pe::Operand &rb = in.inst.operands[1];
  int64_t off;
  if (rb.mode != OperandMode::Reg || rb.value < 0 ||
      rb.value >= pe::NumRegisters)
    return in.malformed("operand 2 is not a register");
  if (!in.imm(2, MinS16, MaxS16, off))
    return false;
  address = in.state.r[rb.value] + static_cast<uint32_t>(off);
  bool fits = address <= PEMemory::Size - DescriptorImageBytes;
  if (fits && address % 4 == 0)
    return true;
  std::string what = std::string(in.name) + " of " +
                     std::to_string(DescriptorImageBytes) + " bytes at " +
                     hex(address);
  badMemoryAccess(in.trap,
                  !fits ? what + " does not fit in memory " + memoryRange()
                        : what + " is not 4-byte aligned",
                  address, DescriptorImageBytes);
  return false;
}

bool attachOptions(InstructionOperands &in, Descriptor &d) {
  const pe::DSDOptions &given = in.inst.options;
  AttachedOptions options;
  options.async = given.async;
  options.priority = given.priority;
  if (given.activate &&
      !in.taskRef(*given.activate, "activate", options.activate))
    return false;
  if (given.unblock && !in.taskRef(*given.unblock, "unblock", options.unblock))
    return false;
  if (given.microthread &&
      !in.taskRef(*given.microthread, "ut", options.microthread))
    return false;
  if (given.indexReg) {
    if (*given.indexReg >= pe::NumRegisters)
      return in.malformed("index register r" + std::to_string(*given.indexReg) +
                          " does not exist");
    options.indexReg = static_cast<uint8_t>(*given.indexReg);
  }
  d.options = options;
  return true;
}

} // namespace

bool emulator::executeDSRInstruction(const pe::Instruction &inst,
                                     const CEState &state, PEMemory &memory,
                                     DSRFile &dsrs, FifoFile &fifos,
                                     DSDTrap &trap) {
  const pe::InstInfo *info = pe::getInstInfo(inst.opcode);
  if (!info || info->instClass != pe::InstClass::DSR) {
    badOperand(trap, std::string(mnemonic(inst.opcode)) +
                         " is not a DSR instruction");
    return false;
  }
  InstructionOperands in(inst, state, trap);
  if (!in.checkCount())
    return false;
  if (inst.opcode == Opcode::FifoInit)
    return initFifo(in, fifos);

  DSRId id;
  if (!in.dsr(0, id))
    return false;
  // Builders start afresh; modifiers change a copy of the DSR.
  Descriptor d;
  Descriptor current = dsrs.get(id);
  switch (inst.opcode) {
  case Opcode::DsrMem1d:
    if (!buildMem1d(in, d))
      return false;
    break;
  case Opcode::DsrMem4d:
    if (!buildMem4d(in, d))
      return false;
    break;
  case Opcode::DsrCircbuf:
    if (!buildCircbuf(in, d))
      return false;
    break;
  case Opcode::DsrFabin:
  case Opcode::DsrFabout:
    if (!buildFabric(in, d, inst.opcode == Opcode::DsrFabout))
      return false;
    break;
  case Opcode::DsrFifo: {
    int64_t slot;
    if (!in.imm(1, 0, pe::NumFifos - 1, slot))
      return false;
    d.kind = DSRKind::Fifo;
    d.fifo = static_cast<uint8_t>(slot);
    break;
  }
  case Opcode::DsrCopy: {
    DSRId from;
    if (!in.dsr(1, from))
      return false;
    d = dsrs.get(from);
    break;
  }
  case Opcode::DsrSetBase:
  case Opcode::DsrSetBaseWidth: {
    int64_t base;
    d = current;
    bool withWidth = inst.opcode == Opcode::DsrSetBaseWidth;
    uint8_t width = d.width;
    if (!in.kindIs(d, id, {DSRKind::Mem1d, DSRKind::Mem4d, DSRKind::Circbuf},
                   "mem1d, mem4d and circbuf", "a base") ||
        (withWidth && !in.width(1, width)) ||
        !in.value(withWidth ? 2 : 1, "base", false, 0, MaxU16, base))
      return false;
    d.base = static_cast<uint16_t>(base);
    // dsr.setbasew: the DSD now addresses memory of that element type (a
    // DSD kept in a variable keeps the width of what it was made over).
    d.width = width;
    // The new base is the address of element 0: a mem1d's offset (the
    // array index it was made at, and what save-address added) is part of
    // the address it replaces. benchmark-libs' stencil makes DSDs at
    // dummy[i + 1] and re-bases them before moving them by one.
    if (d.kind == DSRKind::Mem1d)
      d.offset = 0;
    break;
  }
  case Opcode::DsrSetLength: {
    int64_t length;
    d = current;
    if (!in.kindIs(
            d, id,
            {DSRKind::Mem1d, DSRKind::Circbuf, DSRKind::FabIn, DSRKind::FabOut},
            "mem1d, circbuf, fabin and fabout", "a length") ||
        !in.value(1, "length", false, 0, MaxDSRLength, length))
      return false;
    d.length = static_cast<uint16_t>(length);
    break;
  }
  case Opcode::DsrIncOffset:
    d = current;
    if (!incrementOffset(in, d, id, 1, 0))
      return false;
    break;
  case Opcode::DsrIncOffsetWidth: {
    d = current;
    uint8_t unit = 0;
    if (!in.width(1, unit) || !incrementOffset(in, d, id, 2, unit))
      return false;
    break;
  }
  case Opcode::DsrSetStride: {
    int64_t stride;
    d = current;
    if (!in.kindIs(d, id, {DSRKind::Mem1d}, "mem1d", "a stride") ||
        !in.value(1, "stride", true, MinS16, MaxS16, stride))
      return false;
    d.stride = static_cast<int16_t>(stride);
    break;
  }
  case Opcode::DsrLoad: {
    uint32_t address;
    if (!slotAddress(in, address))
      return false;
    std::array<uint8_t, DescriptorImageBytes> image;
    memory.read(address, image);
    std::string why;
    std::optional<Descriptor> loaded = decodeDescriptor(image, why);
    if (!loaded) {
      badOperand(trap, "dsr.ld: the " + std::to_string(DescriptorImageBytes) +
                           " bytes at " + hex(address) +
                           " are not a descriptor image: " + why);
      return false;
    }
    d = *loaded;
    break;
  }
  case Opcode::DsrStore: {
    uint32_t address;
    if (!slotAddress(in, address))
      return false;
    memory.write(address, encodeDescriptor(current));
    return true;
  }
  case Opcode::DsrOptions:
    d = current;
    if (!attachOptions(in, d))
      return false;
    break;
  case Opcode::DsrSaveAddress:
    d = current;
    d.saveAddress = true;
    break;
  default:
    return in.malformed("unknown DSR instruction");
  }
  dsrs.set(id, d);
  return true;
}

std::optional<PrebuiltDSR>
emulator::prebuildDSRInstruction(const pe::Instruction &inst) {
  switch (inst.opcode) {
  case Opcode::DsrMem1d:
  case Opcode::DsrMem4d:
  case Opcode::DsrCircbuf:
  case Opcode::DsrFabin:
  case Opcode::DsrFabout:
  case Opcode::DsrFifo:
    break;
  default:
    return std::nullopt;
  }
  for (const pe::Operand &operand : inst.operands)
    if (operand.mode == OperandMode::Reg)
      return std::nullopt;
  // Builders read neither registers (none named), memory, FIFOs nor the
  // DSR's old value: running one on empty state gives what any PE gets.
  CEState state;
  PEMemory memory;
  DSRFile dsrs;
  FifoFile fifos;
  DSDTrap trap;
  std::optional<DSRId> id = inst.operands.empty()
                                ? std::nullopt
                                : DSRId::fromOperand(inst.operands[0]);
  if (!id || !executeDSRInstruction(inst, state, memory, dsrs, fifos, trap))
    return std::nullopt;
  return PrebuiltDSR{*id, dsrs.get(*id)};
}
