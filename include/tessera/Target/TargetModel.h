//===- TargetModel.h - facts about the WSE-2 and WSE-3 ----------*- C++ -*-===//
//
// Every architectural fact the compiler, runtime and emulator rely on lives
// here, so that no pass or emulator component hard-codes a number. Plain C++
// so the emulator can use it without linking LLVM or MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_TARGET_TARGETMODEL_H
#define TESSERA_TARGET_TARGETMODEL_H

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

namespace tessera::target {

enum class Arch { WSE2, WSE3 };

/// Parses an architecture name as `cslc --arch` spells it ("wse2", "wse3").
std::optional<Arch> parseArch(std::string_view name);

/// The three kinds of task; each has its own ID range.
enum class TaskKind { Data, Local, Control };

/// What the ID of a data task names.
enum class DataTaskSource {
  Color,     ///< WSE-2: the data task ID is the color it receives on.
  InputQueue ///< WSE-3: the data task ID is the input queue it drains.
};

/// An inclusive range of hardware IDs.
struct IDRange {
  unsigned first;
  unsigned last;

  constexpr bool contains(int64_t id) const {
    return id >= static_cast<int64_t>(first) &&
           id <= static_cast<int64_t>(last);
  }
};

/// The PEs memcpy adds around the program rectangle, per side.
struct MemcpyMargins {
  unsigned west;
  unsigned east;
  unsigned north;
  unsigned south;
};

/// The numbers behind one architecture; see TargetModel for their meaning.
struct TargetFacts {
  std::string_view name;
  unsigned numRoutableColors;
  unsigned peMemoryBytes;
  unsigned numTaskIDs;
  unsigned maxMemcpyChannels;
  unsigned numInputQueues;
  unsigned numOutputQueues;
  IDRange dataTaskIDs;
  IDRange localTaskIDs;
  IDRange controlTaskIDs;
  DataTaskSource dataTaskSource;
  unsigned numMicrothreadIDs;
  bool hasColorSwap;
  bool hasFabricDSDPriority;
  bool hasQueueFlush;
  bool hasSeparateControlTaskTable;
  std::span<const unsigned> memcpyReservedInputQueues;
  std::span<const unsigned> memcpyReservedOutputQueues;
  /// Wavelets each input queue 0..7 holds (the emulator's delivery queue).
  std::span<const unsigned> inputQueueDepths;
  /// DSD elements a memory-only operation retires per cycle, by width.
  unsigned simdElements16;
  unsigned simdElements32;
};

class TargetModel {
public:
  static const TargetModel &get(Arch arch);

  Arch getArch() const { return arch; }
  /// The name `cslc --arch` uses for this architecture.
  std::string_view getName() const { return facts.name; }
  /// Colors 0..N-1 can be given routes.
  unsigned getNumRoutableColors() const { return facts.numRoutableColors; }
  /// Bytes of SRAM per PE, shared by code and data.
  unsigned getPEMemoryBytes() const { return facts.peMemoryBytes; }
  /// Entries in the hardware task table.
  unsigned getNumTaskIDs() const { return facts.numTaskIDs; }
  /// Host I/O channels the memcpy runtime can use at once.
  unsigned getMaxMemcpyChannels() const { return facts.maxMemcpyChannels; }

  //===--------------------------------------------------------------------===//
  // Tasks
  //===--------------------------------------------------------------------===//

  /// The IDs a task of `kind` may be bound to.
  IDRange getTaskIDRange(TaskKind kind) const;
  /// What a data task ID is: a color (WSE-2) or an input queue (WSE-3).
  DataTaskSource getDataTaskSource() const { return facts.dataTaskSource; }
  /// The ID that means "no entry point" in control wavelets.
  static constexpr unsigned getNullTaskID() { return 31; }
  /// The hardware teardown task.
  static constexpr unsigned getTeardownTaskID() { return 29; }
  /// Task IDs the memcpy runtime binds on every kernel PE.
  std::span<const unsigned> getMemcpyReservedTaskIDs() const;
  /// A data task splits one wavelet payload among at most this many
  /// arguments; a control task takes at most as many.
  static constexpr unsigned getMaxTaskArgs() { return 4; }
  /// Bits of payload in one wavelet, shared by a data task's arguments.
  static constexpr unsigned getWaveletPayloadBits() { return 32; }

  //===--------------------------------------------------------------------===//
  // Colors, queues and microthreads
  //===--------------------------------------------------------------------===//

  /// Routable colors the memcpy runtime uses for its own streams.
  std::span<const unsigned> getMemcpyReservedColors() const;
  unsigned getNumInputQueues() const { return facts.numInputQueues; }
  unsigned getNumOutputQueues() const { return facts.numOutputQueues; }
  /// Queues memcpy owns: 0 on WSE-2, 0 and 1 on WSE-3.
  std::span<const unsigned> getMemcpyReservedInputQueues() const {
    return facts.memcpyReservedInputQueues;
  }
  std::span<const unsigned> getMemcpyReservedOutputQueues() const {
    return facts.memcpyReservedOutputQueues;
  }
  /// Queues must be bound to a color with @initialize_queue (WSE-3); on
  /// WSE-2 the fabric DSD's color binds them implicitly.
  bool requiresQueueInitialization() const {
    return facts.dataTaskSource == DataTaskSource::InputQueue;
  }
  /// Microthread IDs a program can name (`ut_id`); 0 where microthreads are
  /// chosen implicitly by the hardware (WSE-2).
  unsigned getNumMicrothreadIDs() const { return facts.numMicrothreadIDs; }
  /// Microthreads the emulator runs asynchronous DSD operations on: 8 on
  /// both generations (WSE-2 names them by queue ID).
  static constexpr unsigned getNumMicrothreads() { return 8; }
  /// Wavelets input queue `queue` holds before the route backs up
  /// (csl-reference 1.11: WSE-2's table, also used for WSE-3, whose depths
  /// are not public); 2 for a queue out of range.
  unsigned getInputQueueDepth(unsigned queue) const {
    return queue < facts.inputQueueDepths.size() ? facts.inputQueueDepths[queue]
                                                 : 2;
  }

  //===--------------------------------------------------------------------===//
  // Timing (the emulator's cycle model, docs/Emulator.md)
  //===--------------------------------------------------------------------===//

  /// Elements of 16 or 32 bits a DSD operation on memory retires per cycle
  /// (the SIMD width: WSE-2 4x16-bit, WSE-3 8x16-bit; 32-bit elements at
  /// half that rate).
  unsigned getSIMDElementsPerCycle(unsigned elementBits) const {
    return elementBits > 16 ? facts.simdElements32 : facts.simdElements16;
  }
  /// Wavelets a fabric operand of a DSD operation moves per cycle.
  static constexpr unsigned getFabricElementsPerCycle() { return 1; }
  /// Cycles a scalar instruction, a task switch (picking a task and entering
  /// it) or any other CE instruction takes.
  static constexpr unsigned getInstructionCycles() { return 1; }
  static constexpr unsigned getTaskSwitchCycles() { return 1; }
  /// @block/@unblock accept a color (WSE-2) or a queue and a ut_id (WSE-3).
  /// These follow what a data task is bound to.
  bool canBlockColors() const {
    return facts.dataTaskSource == DataTaskSource::Color;
  }
  bool canBlockQueues() const {
    return facts.dataTaskSource == DataTaskSource::InputQueue;
  }
  /// @queue_flush exists on WSE-3 only.
  bool hasQueueFlush() const { return facts.hasQueueFlush; }
  /// @set_control_task_table (WSE-3 only) moves control tasks to a table of
  /// their own, with as many entries as the shared one.
  bool hasSeparateControlTaskTable() const {
    return facts.hasSeparateControlTaskTable;
  }
  /// Instructions per entry a separate control task table may hold, and
  /// the default.
  static constexpr std::array<unsigned, 3> getControlTableInstructionChoices() {
    return {2, 4, 8};
  }
  static constexpr unsigned getDefaultControlTableInstructions() { return 4; }
  /// Entries between the control tables of consecutive `ctrl_table_id`s.
  static constexpr IDRange getControlTableStrideRange() { return {1, 7}; }
  static constexpr unsigned getDefaultControlTableStride() { return 1; }
  /// The `ctrl_table_id` an input queue may carry.
  static constexpr IDRange getControlTableIDRange() { return {0, 7}; }
  /// Bytes of PE memory a separate control task table takes: every entry
  /// holds its instructions inline, 2 bytes each (docs/CodeGen.md).
  unsigned getControlTableBytes(unsigned instructions) const {
    return getNumTaskIDs() * instructions * 2;
  }

  //===--------------------------------------------------------------------===//
  // DSDs
  //===--------------------------------------------------------------------===//

  /// Width of a DSD's length field.
  static constexpr unsigned getDSDLengthBits() { return 15; }
  /// The length value that means "never ends" (fabric streams).
  static constexpr unsigned getInfiniteDSDLength() {
    return (1u << getDSDLengthBits()) - 1;
  }
  /// The largest finite DSD length.
  static constexpr unsigned getMaxDSDLength() {
    return getInfiniteDSDLength() - 1;
  }
  /// Induction variables of a mem4d DSD.
  static constexpr unsigned getMaxMem4dDims() { return 4; }
  /// WSE-3 puts `.priority` on fabric DSDs and FIFOs; WSE-2 on the
  /// operation.
  bool hasFabricDSDPriority() const { return facts.hasFabricDSDPriority; }
  bool hasDSDOpPriority() const { return !facts.hasFabricDSDPriority; }
  /// Registers in each DSR file (dest, src0, src1); the real counts are not
  /// public, so this is Tessera's ISA choice (docs/ISA.md).
  static constexpr unsigned getNumDSRsPerFile() { return 16; }
  static constexpr unsigned getNumDSRFiles() { return 3; }
  /// Hardware FIFO slots of a PE (`@allocate_fifo`), also an ISA choice.
  static constexpr unsigned getNumFIFOs() { return 8; }

  //===--------------------------------------------------------------------===//
  // Memory
  //===--------------------------------------------------------------------===//

  /// Pointers are 16-bit byte addresses (reference 7.20).
  static constexpr unsigned getPointerBytes() { return 2; }
  /// A handle (color, queue, task or microthread ID, DSR) stored in memory
  /// is a 16-bit number.
  static constexpr unsigned getHandleBytes() { return 2; }
  /// A DSD variable is a slot holding a descriptor image that `dsr.ld` and
  /// `dsr.st` move whole (docs/ISA.md).
  static constexpr unsigned getDSDSlotBytes() { return 32; }
  static constexpr unsigned getDSDSlotAlignment() { return 4; }

  //===--------------------------------------------------------------------===//
  // Router
  //===--------------------------------------------------------------------===//

  /// Route positions per color: 0 (the base routes) and 1..N-1 (switches).
  static constexpr unsigned getNumSwitchPositions() { return 4; }
  /// Colors c and c^1 can swap on entry (WSE-2 only).
  bool hasColorSwap() const { return facts.hasColorSwap; }
  /// Range filters compare the 16-bit index field of a wavelet.
  static constexpr unsigned getFilterIndexBits() { return 16; }

  //===--------------------------------------------------------------------===//
  // Memcpy
  //===--------------------------------------------------------------------===//

  /// The support PEs memcpy places around the rectangle (three columns west
  /// and two east of it, plus a one-PE halo all round).
  static constexpr MemcpyMargins getMemcpyMargins() { return {4, 3, 1, 1}; }

private:
  constexpr TargetModel(Arch arch, const TargetFacts &facts)
      : arch(arch), facts(facts) {}

  Arch arch;
  TargetFacts facts;

  static const TargetModel wse2;
  static const TargetModel wse3;
};

} // namespace tessera::target

#endif // TESSERA_TARGET_TARGETMODEL_H
