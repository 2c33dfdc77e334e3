//===- TestSupport.h - running DSR instructions and DSD ops -----*- C++ -*-===//
//
// One PE's descriptor state (registers, memory, DSR and FIFO files) with a
// scripted fake fabric, and helpers that build instructions the way the
// decoder gives them to the PE model.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_TEST_EMULATORDSD_TESTSUPPORT_H
#define TESSERA_TEST_EMULATORDSD_TESTSUPPORT_H

#include "ElementOps.h"

#include "tessera/Emulator/DSDEngine.h"

#include <catch2/catch.hpp>

#include <bit>
#include <deque>
#include <limits>
#include <map>
#include <utility>
#include <vector>

namespace dsdtest {

using namespace tessera;
using namespace tessera::emulator;
using pe::Opcode;
using pe::Operand;
using pe::OperandMode;

inline Operand Dest(unsigned i) {
  return Operand::dsr(OperandMode::DestDSR, i);
}
inline Operand Src0(unsigned i) {
  return Operand::dsr(OperandMode::Src0DSR, i);
}
inline Operand Src1(unsigned i) {
  return Operand::dsr(OperandMode::Src1DSR, i);
}
inline Operand R(unsigned r) { return Operand::reg(r); }
inline Operand Ptr(unsigned r, bool wide = false) {
  return Operand::ptr(r, wide);
}
inline Operand Imm(int64_t v) { return Operand::imm(v); }
inline Operand None() { return Operand::none(); }
inline DSRId idOf(const Operand &op) { return *DSRId::fromOperand(op); }

inline uint32_t bitsOf(float value) { return std::bit_cast<uint32_t>(value); }
inline float floatOf(uint32_t bits) { return std::bit_cast<float>(bits); }

/// Every opcode the engine gives a shape (the DSD operations but map), for
/// random tests over all of them.
inline std::vector<Opcode> shapedOpcodes() {
  std::vector<Opcode> opcodes;
  for (const pe::InstInfo &info : pe::getInstTable())
    if (dsd::getShape(info.opcode))
      opcodes.push_back(info.opcode);
  return opcodes;
}

/// One wavelet a fake output queue received.
struct Sent {
  unsigned queue;
  unsigned color;
  bool control;
  uint32_t payload;
  bool operator==(const Sent &) const = default;
};

/// Input queues hold what the test feeds; output queues accept `room`
/// more wavelets (unbounded by default). An empty input or a full output
/// is "would block".
class FakePorts : public DSDPorts {
public:
  std::optional<uint32_t> popWavelet(const FabricEndpoint &fabin) override {
    ++pops;
    std::deque<uint32_t> &queue = inputs[fabin.queue];
    if (queue.empty())
      return std::nullopt;
    uint32_t payload = queue.front();
    queue.pop_front();
    return payload;
  }
  bool pushWavelet(const FabricEndpoint &fabout, uint32_t payload) override {
    ++pushes;
    if (room == 0)
      return false;
    --room;
    sent.push_back({fabout.queue, fabout.color, fabout.control, payload});
    return true;
  }

  std::map<unsigned, std::deque<uint32_t>> inputs;
  std::vector<Sent> sent;
  uint64_t room = std::numeric_limits<uint64_t>::max();
  unsigned pops = 0, pushes = 0;
};

/// How a run of an operation ended, to compare the fast path with the
/// element path: status, elements, message, memory and the DSRs used.
struct Outcome {
  DSDStatus status = DSDStatus::Done;
  uint64_t elements = 0;
  std::string message;
  std::vector<uint8_t> memory;
  std::vector<Descriptor> dsrs;
  bool operator==(const Outcome &) const = default;
};

/// An operation started as a band keeps a start template, and the bytes
/// of its operand slots then, to check that copies never write them.
struct KeptStart {
  DSDOperation op;
  std::vector<uint8_t> slotBytes;

  std::vector<uint8_t> currentSlotBytes() const {
    std::vector<uint8_t> bytes;
    for (unsigned i = 0; i < op.getNumOperands(); ++i) {
      const auto *first =
          reinterpret_cast<const uint8_t *>(&std::as_const(op).slot(i));
      bytes.insert(bytes.end(), first, first + sizeof(detail::OperandSlot));
    }
    return bytes;
  }
};

struct Machine {
  CEState state;
  PEMemory memory;
  DSRFile dsrs;
  FifoFile fifos;
  FakePorts ports;
  DSDEngine engine;
  DSDTrap trap;
  DSDOperation op;

  explicit Machine(bool fastPath = true) {
    engine.setFastPathEnabled(fastPath);
  }

  DSDContext context() { return {memory, dsrs, fifos, ports}; }

  /// Runs a DSR-class instruction that must succeed.
  void exec(Opcode opcode, std::vector<Operand> operands,
            pe::DSDOptions options = {}) {
    pe::Instruction inst{opcode, std::move(operands), options};
    if (!executeDSRInstruction(inst, state, memory, dsrs, fifos, trap))
      FAIL(pe::format(inst) << " trapped: " << trap.message);
  }
  /// Runs a DSR-class instruction that must trap; its message.
  std::string execTrap(Opcode opcode, std::vector<Operand> operands,
                       pe::DSDOptions options = {}) {
    pe::Instruction inst{opcode, std::move(operands), options};
    if (executeDSRInstruction(inst, state, memory, dsrs, fifos, trap))
      FAIL(pe::format(inst) << " did not trap");
    return trap.message;
  }

  void mem1d(Operand dsr, unsigned width, uint32_t base, uint32_t extent,
             int64_t offset = 0, int64_t stride = 1, bool wio = false) {
    exec(Opcode::DsrMem1d, {dsr, Imm(width), Imm(base), Imm(extent),
                            Imm(offset), Imm(stride), Imm(wio)});
  }

  /// Starts an operation that must start.
  void start(Opcode opcode, std::vector<Operand> operands,
             pe::DSDOptions options = {}) {
    pe::Instruction inst{opcode, std::move(operands), options};
    if (!DSDEngine::start(op, inst, state, dsrs, fifos, trap))
      FAIL(pe::format(inst) << " did not start: " << trap.message);
  }
  /// Starts `kept.op` as start() does and `op` as a copy of it
  /// (DSDEngine::restart), which reads kept's operand slots.
  void startCopy(const pe::Instruction &inst, KeptStart &kept) {
    if (!DSDEngine::start(kept.op, inst, state, dsrs, fifos, trap))
      FAIL(pe::format(inst) << " did not start: " << trap.message);
    kept.slotBytes = kept.currentSlotBytes();
    DSDEngine::restart(op, kept.op);
    REQUIRE(op.sharesSlots());
  }
  /// Starts an operation that must not start; the message.
  std::string startTrap(Opcode opcode, std::vector<Operand> operands,
                        pe::DSDOptions options = {}) {
    pe::Instruction inst{opcode, std::move(operands), options};
    if (DSDEngine::start(op, inst, state, dsrs, fifos, trap))
      FAIL(pe::format(inst) << " started");
    return trap.message;
  }
  DSDProgress run(uint64_t budget = std::numeric_limits<uint64_t>::max()) {
    return engine.run(op, context(), trap, budget);
  }
  /// Sets registers and runs DSR instructions (what a random test built).
  void prepare(const std::vector<std::pair<unsigned, uint32_t>> &registers,
               const std::vector<pe::Instruction> &setup) {
    for (auto [reg, value] : registers)
      state.r[reg] = value;
    for (const pe::Instruction &step : setup)
      exec(step.opcode, step.operands, step.options);
  }
  /// Starts `inst` and runs it `slice` elements at a time until it is no
  /// longer paused; adds the elements done to `elements`.
  DSDProgress runSliced(const pe::Instruction &inst, uint64_t slice,
                        uint64_t &elements) {
    start(inst.opcode, inst.operands, inst.options);
    DSDProgress progress;
    do {
      progress = run(slice);
      elements += progress.elements;
    } while (progress.status == DSDStatus::Paused);
    return progress;
  }
  /// The DSRs random tests give their operands: dest.0, src0.0, src1.0 and
  /// src1.1.
  std::vector<Descriptor> operandDSRs() const {
    std::vector<Descriptor> all;
    for (DSRId id : {DSRId{0, 0}, DSRId{1, 0}, DSRId{2, 0}, DSRId{2, 1}})
      all.push_back(dsrs.get(id));
    return all;
  }
  /// Starts and runs to completion.
  DSDProgress runOp(Opcode opcode, std::vector<Operand> operands,
                    pe::DSDOptions options = {}) {
    start(opcode, std::move(operands), options);
    DSDProgress progress = run();
    if (progress.status == DSDStatus::Trapped)
      FAIL("trapped: " << trap.message);
    REQUIRE(progress.status == DSDStatus::Done);
    return progress;
  }
  /// Starts and runs an operation that must trap at run time.
  std::string runTrap(Opcode opcode, std::vector<Operand> operands,
                      pe::DSDOptions options = {}) {
    start(opcode, std::move(operands), options);
    DSDProgress progress = run();
    REQUIRE(progress.status == DSDStatus::Trapped);
    return trap.message;
  }

  void put16(uint32_t address, std::vector<uint32_t> values) {
    for (uint32_t value : values) {
      REQUIRE(memory.store16(address, static_cast<uint16_t>(value)) ==
              MemoryStatus::Ok);
      address += 2;
    }
  }
  void put32(uint32_t address, std::vector<uint32_t> values) {
    for (uint32_t value : values) {
      REQUIRE(memory.store32(address, value) == MemoryStatus::Ok);
      address += 4;
    }
  }
  std::vector<uint32_t> get16(uint32_t address, unsigned n) {
    std::vector<uint32_t> values;
    for (unsigned i = 0; i < n; ++i) {
      uint16_t value = 0;
      REQUIRE(memory.load16(address + 2 * i, value) == MemoryStatus::Ok);
      values.push_back(value);
    }
    return values;
  }
  std::vector<uint32_t> get32(uint32_t address, unsigned n) {
    std::vector<uint32_t> values;
    for (unsigned i = 0; i < n; ++i) {
      uint32_t value = 0;
      REQUIRE(memory.load32(address + 4 * i, value) == MemoryStatus::Ok);
      values.push_back(value);
    }
    return values;
  }
  void put(unsigned width, uint32_t address, std::vector<uint32_t> values) {
    width == 16 ? put16(address, std::move(values))
                : put32(address, std::move(values));
  }
  std::vector<uint32_t> get(unsigned width, uint32_t address, unsigned n) {
    return width == 16 ? get16(address, n) : get32(address, n);
  }
};

/// A source of an element-wise check: its width and elements.
struct Input {
  unsigned width;
  std::vector<uint32_t> values;
};

/// Runs `opcode` with every operand a mem1d DSR (dest.0, src0.0, src1.0,
/// src1.1) over consecutive arrays, on the fast path and on the element
/// path; both must agree. Returns the destination's elements.
inline std::vector<uint32_t> elementwise(Opcode opcode, unsigned destWidth,
                                         std::vector<Input> inputs) {
  const Operand sources[] = {Src0(0), Src1(0), Src1(1)};
  const unsigned n = static_cast<unsigned>(inputs[0].values.size());
  std::vector<uint32_t> results[2];
  for (bool fast : {true, false}) {
    Machine m(fast);
    std::vector<Operand> operands = {Dest(0)};
    m.mem1d(Dest(0), destWidth, 0x1000, n);
    for (size_t i = 0; i < inputs.size(); ++i) {
      uint32_t base = 0x2000 + 0x1000 * static_cast<uint32_t>(i);
      m.mem1d(sources[i], inputs[i].width, base, n);
      m.put(inputs[i].width, base, inputs[i].values);
      operands.push_back(sources[i]);
    }
    DSDProgress progress = m.runOp(opcode, operands);
    REQUIRE(progress.elements == n);
    results[fast] = m.get(destWidth, 0x1000, n);
  }
  CHECK(results[0] == results[1]);
  return results[1];
}

} // namespace dsdtest

#endif // TESSERA_TEST_EMULATORDSD_TESTSUPPORT_H
