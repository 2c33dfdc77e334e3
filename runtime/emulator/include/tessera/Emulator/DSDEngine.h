//===- DSDEngine.h - DSD operations, element by element ---------*- C++ -*-===//
//
// Executes the DSD operations and `map` (docs/ISA.md "DSD operations",
// docs/Emulator.md "DSD engine"). An operation is started once, which
// snapshots its descriptors and registers into a DSDOperation, and then run
// until it is done. Fabric queues and FIFOs can make it wait: run() returns
// Blocked and the operation keeps everything (element index, snapshots,
// values already read, carry) so that the PE model retries it later: that
// is how a synchronous operation stalls the PE and an asynchronous one waits
// on its microthread. Nothing allocates per element; operations on memory
// and registers only take a fast path that runs on PE memory viewed as
// contiguous bytes, or over a mirror of the memory they touch.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_DSDENGINE_H
#define TESSERA_EMULATOR_DSDENGINE_H

#include "tessera/Emulator/DSRFile.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <memory>
#include <optional>
#include <utility>
#include <vector>

namespace tessera::emulator {

/// What a fabric operand's port needs of its descriptor: the queue, the
/// color, and whether control wavelets are sent or taken as data.
struct FabricEndpoint {
  uint8_t color = 0;
  uint8_t queue = 0;
  bool control = false;          ///< fabout: sends control wavelets
  bool controlTransform = false; ///< fabin: takes control wavelets as data
  static FabricEndpoint of(const Descriptor &fabric) {
    return {fabric.color, fabric.queue, fabric.control,
            fabric.controlTransform};
  }
};

/// The fabric side of fabin and fabout operands, implemented by the PE
/// model. "Would block" is a return value, never a wait.
class DSDPorts {
public:
  virtual ~DSDPorts() = default;
  /// The payload of the next wavelet in the input queue of `fabin` (its
  /// queue, color and control_transform), or none when no wavelet is there
  /// yet: the operation blocks and retries this element later.
  virtual std::optional<uint32_t> popWavelet(const FabricEndpoint &fabin) = 0;
  /// Sends one wavelet to the output queue of `fabout` (a control wavelet
  /// when `fabout.control`); false when the queue is full: the operation
  /// blocks and sends the same payload again later.
  virtual bool pushWavelet(const FabricEndpoint &fabout, uint32_t payload) = 0;
};

/// Everything an operation reads and changes besides its own state.
struct DSDContext {
  PEMemory &memory;
  DSRFile &dsrs;
  FifoFile &fifos;
  DSDPorts &ports;
};

/// The operation's options merged with those attached to its DSRs
/// (docs/Emulator.md gives the rule), task references resolved.
struct ResolvedOptions {
  bool async = false;
  pe::Priority priority = pe::Priority::Default;
  std::optional<uint8_t> activate; ///< fire at completion
  std::optional<uint8_t> unblock;  ///< fire at completion
  /// Where an asynchronous operation runs: `ut` if given, else the output
  /// queue of a fabout operand, else the input queue of the first fabin,
  /// else 0 (docs/ISA.md, "Options").
  uint8_t microthread = 0;
  bool operator==(const ResolvedOptions &) const = default;
};

enum class DSDStatus : uint8_t {
  Done,    ///< every element ran; completion effects are in the operation
  Blocked, ///< a fabric queue or FIFO cannot give or take an element now
  Paused,  ///< the element budget ran out
  CallMap, ///< map: call getMapCall() for this element, then setMapResult
  Trapped, ///< the trap says why; the element that trapped had no effect
           ///< on memory (fabric and FIFO reads of it may have happened)
};

struct DSDProgress {
  DSDStatus status = DSDStatus::Done;
  /// Elements completed by this call.
  uint64_t elements = 0;
  /// Bit t: a FIFO push or pop in this call activated task t.
  uint64_t activatedTasks = 0;
};

/// What `map` asks the caller to run for one element: the function with
/// r0..r<numArgs-1> set to `args`.
struct MapCall {
  static constexpr unsigned MaxArgs = 8;
  uint32_t function = 0;
  uint8_t numArgs = 0;
  std::array<uint32_t, MaxArgs> args{};
};

namespace detail {

inline constexpr uint64_t Unbounded = std::numeric_limits<uint64_t>::max();

/// Where the elements of a memory, pointer or scalar operand lie: the
/// current element's byte address and the step to the next. A run is a
/// stretch of constant step: a mem1d or pointer is one unbounded run, a
/// mem4d has one per innermost row and a circbuf one per lap.
struct Cursor {
  int64_t address = 0;
  int64_t step = 0;
  /// Elements left in the current run, this one included.
  uint64_t run = Unbounded;
  /// circbuf (wrap > 0): the position in the lap. Next to the address
  /// with dims, which advance() tests for every element.
  uint64_t wrap = 0;
  uint64_t lapIndex = 0;
  /// mem4d, dimensions merged where possible, outermost first; the
  /// outermost index is not bounded (operands advance in lock-step past
  /// their own length).
  uint8_t dims = 0;
  int64_t base = 0;
  std::array<uint64_t, MaxMem4dDims> index{};
  std::array<uint64_t, MaxMem4dDims> extent{};
  std::array<int64_t, MaxMem4dDims> stride{}; ///< bytes

  /// Moves `n` elements on; mem4d and circbuf take advanceShaped.
  void advance(uint64_t n) {
    if (wrap == 0 && dims == 0) // mem1d, pointer, scalar: wraps, never UB
      address = static_cast<int64_t>(static_cast<uint64_t>(address) +
                                     static_cast<uint64_t>(step) * n);
    else
      advanceShaped(n);
  }
  void advanceShaped(uint64_t n);
};

enum class OperandClass : uint8_t {
  None,    ///< map without a destination
  Memory,  ///< mem1d, mem4d, circbuf DSR
  Scalar,  ///< a register's value, read at start
  Pointer, ///< the address in a register, read at start
  FabIn,
  FabOut,
  Fifo,
};

/// A move between a memory operand and a fabric one (a send or receive of
/// a halo exchange), as DSDEngine::runFabricMove runs it: everything it
/// reads and changes per element, which with the operation's first fields
/// fits the first cache line of an operation in flight. Several such moves
/// advance on a PE every cycle, and on a large fabric reaching their
/// operand slots (~220 bytes each) cost more than the work. A
/// mem1d's address lives here while the move runs and is written back to
/// its slot when it ends or leaves runFabricMove; a mem4d or circbuf keeps
/// its slot's cursor, which the address follows. Addresses are 32 bits:
/// one beyond saturates and so stays outside memory, and a mem1d steps
/// from inside memory by at most 2^17 bytes before its next check.
struct FabricMove {
  enum Kind : uint8_t { None, Receive, Send };
  Kind kind = None;
  uint8_t bytes = 4;            ///< of the memory operand's element
  bool fabric16 : 1 = false;    ///< the fabric operand's elements are 16 bits
  bool indexOffset : 1 = false; ///< a fabout with wavelet index offset
  bool shaped : 1 = false;      ///< mem4d or circbuf: its slot's cursor leads
  FabricEndpoint endpoint;
  /// A send's element read from memory but not yet sent (the operation's
  /// `fetched` bit 1 says so); leaveFabricMove hands it to values[1].
  uint32_t held = 0;
  int32_t address = 0; ///< the memory operand's current element
  int32_t step = 0;    ///< mem1d: bytes to the next element
};
static_assert(sizeof(FabricMove) == 20, "a FabricMove packs into 20 bytes");

/// A cursor's address as a FabricMove keeps it: saturated, so that one far
/// outside memory stays outside it.
inline int32_t toMoveAddress(int64_t address) {
  return static_cast<int32_t>(
      std::clamp<int64_t>(address, std::numeric_limits<int32_t>::min(),
                          std::numeric_limits<int32_t>::max()));
}

/// One operand of a started operation.
struct OperandSlot {
  OperandClass cls = OperandClass::None;
  /// Bits each element reads or writes.
  uint8_t width = 32;
  /// The DSR it was copied from (descriptor holds the copy).
  std::optional<DSRId> dsr;
  /// Scalar, Pointer: the register.
  uint8_t reg = 0;
  /// Scalar: the value, little-endian in memory so the fast path reads it
  /// like any element.
  uint32_t scalar = 0;
  Cursor cursor;
  Descriptor descriptor;
};

} // namespace detail

/// A started operation; reusable (start() overwrites it).
class DSDOperation {
public:
  /// Up to: map's destination and 8 arguments.
  static constexpr unsigned MaxOperands = 9;
  /// advanceSwitchColor without advance_switch.
  static constexpr uint8_t NoColor = 0xff;

  DSDOperation() = default;
  DSDOperation(const DSDOperation &) = delete;
  DSDOperation &operator=(const DSDOperation &) = delete;
  DSDOperation(DSDOperation &&) = default;
  DSDOperation &operator=(DSDOperation &&) = default;

  /// Operand `i`, read where it lies: in the operation's own slots, or in
  /// those of the operation it was restart()ed from.
  const detail::OperandSlot &slot(unsigned i) const {
    return (sharedSlots ? sharedSlots : ownSlots.get())[i];
  }
  /// Operand `i`, to change: an operation that still reads another's
  /// slots copies them first.
  detail::OperandSlot &slot(unsigned i) {
    if (sharedSlots) [[unlikely]]
      takeOwnSlots();
    return ownSlots[i];
  }
  /// Slots of its own have been allocated (and stay while it is reused).
  bool ownsSlots() const { return ownCapacity != 0; }
  /// It still reads the slots of the operation it was restart()ed from.
  bool sharesSlots() const { return sharedSlots != nullptr; }
  /// Stops reading another operation's slots, copying them.
  void keepOwnSlots() {
    if (sharedSlots)
      takeOwnSlots();
  }

  pe::Opcode getOpcode() const { return opcode; }
  bool isMap() const { return opcode == pe::Opcode::Map; }
  /// Elements the operation runs for; UINT64_MAX when infinite.
  uint64_t getLength() const { return length; }
  unsigned getNumOperands() const { return numOperands; }
  uint64_t getElementsDone() const { return next; }
  bool isDone() const { return next == length; }
  /// An operand's DSR has save-address: completing writes it back.
  bool hasSaveAddress() const { return savesAddress; }
  const ResolvedOptions &getOptions() const { return options; }
  /// A move between memory and the fabric (FabricMove): the byte address
  /// its next element reads or writes; -1 for other operations.
  int64_t getFabricMoveAddress() const {
    return move.kind != detail::FabricMove::None ? move.address : -1;
  }
  /// The move between memory and the fabric, if the operation is one
  /// (kind None otherwise).
  const detail::FabricMove &getFabricMove() const { return move; }
  /// A fabout destination with advance_switch: the color whose switch
  /// advances when the operation completes.
  std::optional<uint8_t> getAdvanceSwitchColor() const {
    if (advanceSwitchColor == NoColor)
      return std::nullopt;
    return advanceSwitchColor;
  }

  /// After run() returned CallMap: the call for the current element. Its
  /// arguments are the element's sources, which stay in `values` until
  /// the result is set.
  MapCall getMapCall() const {
    MapCall call;
    call.function = mapFunction;
    call.numArgs = mapNumArgs;
    for (unsigned i = 0; i < mapNumArgs; ++i)
      call.args[i] = values[i + 1];
    return call;
  }
  /// The callee's r0 for the current element; the next run() writes it
  /// to the destination and goes on.
  void setMapResult(uint32_t r0) {
    mapResult = r0;
    mapResultReady = true;
  }

private:
  friend class DSDEngine;

  // What the PE model reads every cycle comes first, in one cache line.
  // The operand slots (~220 bytes each) are elsewhere: a transfer copied
  // from a start template reads the template's and never writes them, so
  // the eight a large fabric has in flight per PE fit three lines each.
  pe::Opcode opcode = pe::Opcode::Invalid;
  uint8_t numOperands = 0; ///< slot 0 is the destination
  bool completed = false;  ///< save-address write-back done
  /// An operand's DSR has save-address: complete() writes it back (others
  /// complete without reading their operand slots).
  bool savesAddress = false;
  bool fastOperands = false; ///< hasFastOperands, set by start()
  /// fmovs, fmovh, mov16 or mov32: the result is the source's element.
  bool isMove = false;
  /// getAdvanceSwitchColor, set by start(): completion reads it here,
  /// not from slot 0's descriptor (a cache line of its own).
  uint8_t advanceSwitchColor = NoColor;
  /// How many slots ownSlots holds: here, where a finished transfer's
  /// recycling reads it, not beside the pointers in the last line (and in
  /// a byte that was padding, so that `next` stays in the first line).
  uint8_t ownCapacity = 0;
  uint16_t fetched = 0; ///< bit i: values[i] holds source i's element
  bool resultReady = false;
  bool mapResultReady = false;
  /// What completion does (the task to activate or unblock), here so
  /// that a transfer's completion reads no other line.
  ResolvedOptions options;
  detail::FabricMove move; ///< set by start() for a move with the fabric
  uint64_t length = 0;
  uint64_t next = 0; ///< the element in progress
  /// The index option's register value (0 without one).
  int32_t index = 0;
  uint32_t carry = 0; ///< addc16: carry out of the previous element

  // The element in progress, kept while it is blocked.
  uint32_t result = 0;
  uint32_t mapResult = 0;
  std::array<uint32_t, MaxOperands> values{};
  /// map: the function and its argument count (the arguments are
  /// values[1...], not copied: an operation in flight stays within three
  /// cache lines).
  uint32_t mapFunction = 0;
  uint8_t mapNumArgs = 0;
  /// Slots this operation owns (ownCapacity of them, grown to what the
  /// widest start so far needed and kept while it is reused), and those of
  /// the operation it was restart()ed from, read until the first change.
  std::unique_ptr<detail::OperandSlot[]> ownSlots;
  const detail::OperandSlot *sharedSlots = nullptr;

  /// Room for `n` slots of its own, their contents left as they are;
  /// stops sharing.
  void makeOwnRoom(unsigned n);
  /// Copies the shared slots into its own.
  void takeOwnSlots();
};

/// Executes DSD operations. It holds only scratch buffers, so one engine
/// serves every PE a thread simulates; the state is in the operations and
/// the DSDContext.
class DSDEngine {
public:
  DSDEngine() = default;
  ~DSDEngine() = default;
  DSDEngine(const DSDEngine &) = delete;
  DSDEngine &operator=(const DSDEngine &) = delete;

  /// Starts a DSDOp-class instruction (every DSD operation and map):
  /// copies its DSRs, reads its scalar, pointer and index registers and
  /// resolves its options. Returns false with `trap` filled when an operand
  /// cannot be used (a fabout read, a fabin written, a FIFO never
  /// initialised, a task register out of range).
  static bool start(DSDOperation &op, const pe::Instruction &inst,
                    const CEState &state, const DSRFile &dsrs,
                    const FifoFile &fifos, DSDTrap &trap);
  /// Puts `op` in the state `started`, an operation just started, is in:
  /// what start() would make of the same instruction, DSRs and registers
  /// (Band's start templates), without reading them. `op` reads the
  /// operand slots of `started` until it changes one (a transfer carried
  /// between turns never does): `started` must stay as it is, and alive,
  /// while `op` is in use.
  static void restart(DSDOperation &op, const DSDOperation &started);

  /// Runs at most `maxElements` elements of a started operation. At Done,
  /// DSRs with save-address have been written back (once: running a done
  /// operation again returns Done with no elements). An operation whose
  /// start() failed traps.
  DSDProgress run(DSDOperation &op, DSDContext context, DSDTrap &trap,
                  uint64_t maxElements = detail::Unbounded);

  /// run() for a move between memory and one fabric operand (an
  /// asynchronous send or receive of a halo exchange), calling `ports`, a
  /// final class, directly (FabricMoves.h); `progress` is what run()
  /// would have returned. False when the operation is no such move, or
  /// when its next element would touch memory it may not: `progress` then
  /// counts the elements done before it, and run() goes on from there (and
  /// reports the fault).
  template <class Ports>
  static bool runFabricMove(DSDOperation &op, PEMemory &memory, DSRFile &dsrs,
                            Ports &ports, uint64_t maxElements,
                            DSDProgress &progress);

  /// A plain move (mem1d memory, no wavelet index offset, no control
  /// wavelets sent): one whose elements the PE model may carry between
  /// turns (docs/Emulator.md "Transfers between turns"). Its elements, run
  /// through the three calls below, do what runFabricMove's would.
  static bool isPlainMove(const DSDOperation &op) {
    const detail::FabricMove &move = op.move;
    return move.kind != detail::FabricMove::None && !move.shaped &&
           !move.indexOffset && !move.endpoint.control;
  }
  /// The bytes [first, end) of memory a plain move's remaining elements
  /// touch.
  static std::pair<int64_t, int64_t> getPlainMoveSpan(const DSDOperation &op);
  /// A plain receive's next element from `payload`; false, with nothing
  /// done, when its address may not be written (runFabricMove leaves such
  /// an element to run(), which traps).
  static bool receivePlainElement(DSDOperation &op, PEMemory &memory,
                                  uint32_t payload);
  /// A plain send's next element: `value` as read (or held) and the
  /// wavelet's `payload`; false, with nothing done, when its address may
  /// not be read. Then finishPlainSend once the wavelet went, or
  /// holdPlainSend when it could not (the next try sends the same value).
  static bool fetchPlainSend(const DSDOperation &op, const PEMemory &memory,
                             uint32_t &value, uint32_t &payload);
  static void finishPlainSend(DSDOperation &op);
  static void holdPlainSend(DSDOperation &op, uint32_t value) {
    op.move.held = value;
    op.fetched = 2u;
  }
  /// After a plain move's last element: what runFabricMove does when the
  /// operation is done (save-address write-back included).
  static void finishPlainMove(DSDOperation &op, DSRFile &dsrs) {
    if (!op.completed) {
      leaveFabricMove(op);
      complete(op, dsrs);
    }
  }

  /// The memory-only fast path is on by default; tests turn it off to
  /// compare it with the element-by-element path.
  void setFastPathEnabled(bool enabled) { fastPathEnabled = enabled; }

private:
  /// The fast path checks and mirrors this many elements at a time.
  static constexpr uint64_t FastChunk = 1 << 16;

  uint64_t runFast(DSDOperation &op, PEMemory &memory, uint64_t budget);
  DSDProgress runElements(DSDOperation &op, DSDContext context, DSDTrap &trap,
                          uint64_t budget);
  /// runElements for a move (DSDOperation::isMove).
  DSDProgress runMoves(DSDOperation &op, DSDContext context, DSDTrap &trap,
                       uint64_t budget);
  /// Whether the fast path may run the operation's next elements: its
  /// operands suit it (fastOperands) and no element is half done.
  static bool canRunFast(const DSDOperation &op) {
    return op.fastOperands && !op.fetched && !op.resultReady;
  }
  /// Operands the fast path handles (memory, pointers and scalars; not a
  /// map or a reduction into a pointer), decided once by start().
  static bool hasFastOperands(const DSDOperation &op);
  static void complete(DSDOperation &op, DSRFile &dsrs);
  /// Fills op.move for a move between memory and the fabric (start()
  /// calls it last).
  static void prepareFabricMove(DSDOperation &op);
  /// Hands a move back to the slots: its memory slot's cursor takes the
  /// address, and runFabricMove no longer runs it.
  static void leaveFabricMove(DSDOperation &op) {
    detail::FabricMove &move = op.move;
    if (move.kind == detail::FabricMove::None)
      return;
    // A done operation's cursor is read no more: a transfer carried from
    // a template's slots ends without copying them.
    if (!move.shaped && op.next != op.length)
      op.slot(move.kind == detail::FabricMove::Receive ? 0 : 1).cursor.address =
          move.address;
    if (op.fetched & 2u) { // a send's element waits: run() sends it
      op.values[1] = move.held;
      op.resultReady = false;
    }
    move.kind = detail::FabricMove::None;
  }
  /// A move's element is written: both operands step on to the next.
  static void finishMoveElement(DSDOperation &op, DSDProgress &progress) {
    op.slot(0).cursor.advance(1);
    op.slot(1).cursor.advance(1);
    finishElement(op, progress);
  }
  static void finishElement(DSDOperation &op, DSDProgress &progress) {
    ++op.next;
    ++progress.elements;
    op.fetched = 0;
    op.resultReady = false;
  }

  /// The fast path's buffers (FastPath.cpp): blocks of elements, and a
  /// mirror of the memory an operation touches at the same addresses.
  std::unique_ptr<uint8_t[]> scratch;
  /// What each source's broadcast block in `scratch` holds: this 32-bit
  /// pattern (a 16-bit scalar twice) this many times. Operations that loop
  /// over the same scalar do not fill it again.
  std::array<uint32_t, 3> broadcastPattern{};
  std::array<uint64_t, 3> broadcastWords{};
  bool fastPathEnabled = true;
};

} // namespace tessera::emulator

#endif // TESSERA_EMULATOR_DSDENGINE_H
