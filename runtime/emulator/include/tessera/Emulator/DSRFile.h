//===- DSRFile.h - descriptors, DSR files and FIFOs -------------*- C++ -*-===//
//
// The descriptor state of one PE (docs/ISA.md "Building DSRs",
// docs/Emulator.md "DSD engine"): the three DSR files of 16 descriptors, the
// 8 FIFO slots, the 32-byte descriptor image `dsr.st`/`dsr.ld` use, and the
// execution of the DSR-class instructions. A wafer has ~850,000 PEs and most
// use a few DSRs and no FIFO, so both files store only what was written.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_EMULATOR_DSRFILE_H
#define TESSERA_EMULATOR_DSRFILE_H

#include "tessera/Emulator/PEMemory.h"
#include "tessera/Emulator/Prefetch.h"
#include "tessera/Emulator/ScalarCore.h"
#include "tessera/Target/PEBinary/ISA.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::emulator {

enum class DSRKind : uint8_t { Mem1d, Mem4d, Circbuf, FabIn, FabOut, Fifo };
inline constexpr unsigned NumDSRKinds = 6;

/// "mem1d", "mem4d", "circbuf", "fabin", "fabout", "fifo".
std::string_view getDSRKindName(DSRKind kind);

/// The longest length a descriptor holds (15 bits); for fabric DSRs it
/// means "infinite".
inline constexpr uint16_t MaxDSRLength = 0x7FFF;
inline constexpr unsigned MaxMem4dDims = 4;
/// The size of a descriptor slot in memory (`dsr.st`, `dsr.ld`).
inline constexpr unsigned DescriptorImageBytes = 32;
/// Task IDs, colors, queues and microthreads a TaskRef can name.
inline constexpr unsigned NumTaskRefValues = 64;

/// The options `dsr.opts` attached to a DSR, task references resolved to
/// numbers when it ran (a later change of the register does not matter).
struct AttachedOptions {
  bool async = false;
  pe::Priority priority = pe::Priority::Default;
  std::optional<uint8_t> activate;    ///< task ID 0..63
  std::optional<uint8_t> unblock;     ///< task ID 0..63
  std::optional<uint8_t> microthread; ///< 0..63
  std::optional<uint8_t> indexReg;    ///< register read when an op starts

  bool isDefault() const { return *this == AttachedOptions{}; }
  bool operator==(const AttachedOptions &) const = default;
};

/// One whole descriptor. Builders start from a default Descriptor and set
/// the fields of their kind only, so fields a kind does not use stay at
/// their defaults (which is what makes the image round trip exact).
struct Descriptor {
  DSRKind kind = DSRKind::Mem1d;
  /// Memory kinds: element width in bits (16 or 32), which scales offsets
  /// and strides into bytes.
  uint8_t width = 16;
  /// mem1d, mem4d, fabout: the operation's `index` takes part.
  bool waveletIndexOffset = false;
  /// `dsr.saveaddr`: operations write their advanced position back.
  bool saveAddress = false;
  /// Memory kinds: byte address of element 0.
  uint16_t base = 0;
  /// mem1d, circbuf, fabin, fabout: the extent (fabric: MaxDSRLength is
  /// infinite). mem4d has one extent per dimension instead; FIFO none.
  uint16_t length = 0;
  /// mem1d: element k is at base + (offset + k * stride) * width / 8.
  int32_t offset = 0;
  int16_t stride = 0;
  /// circbuf: element k is at base + ((position + k) mod wrap) * width / 8.
  uint16_t wrap = 0;
  /// mem4d, circbuf: elements already consumed by save-address operations.
  uint32_t position = 0;
  /// mem4d: 1..4 dimensions, outermost first; the last varies fastest.
  uint8_t dims = 0;
  std::array<uint16_t, MaxMem4dDims> extents{};
  std::array<int16_t, MaxMem4dDims> strides{};
  /// fabin, fabout.
  uint8_t color = 0;
  uint8_t queue = 0;
  bool control = false;       ///< fabout: sends control wavelets
  bool advanceSwitch = false; ///< fabout: advances the switch at the end
  bool controlTransform = false;
  pe::Priority priority = pe::Priority::Default;
  /// fifo: the FIFO slot 0..7.
  uint8_t fifo = 0;
  AttachedOptions options;

  /// Elements an operation led by this descriptor runs for: the extent,
  /// the product of a mem4d's extents, UINT64_MAX for an infinite fabric
  /// DSR; none for a FIFO (which never leads).
  std::optional<uint64_t> getLength() const;
  bool isMemory() const { return kind <= DSRKind::Circbuf; }
  bool operator==(const Descriptor &) const = default;
};

/// A DSR: its file (0 dest, 1 src0, 2 src1) and index 0..15.
struct DSRId {
  uint8_t file = 0;
  uint8_t index = 0;

  /// The DSR an operand names (modes DestDSR, Src0DSR, Src1DSR with an
  /// index in range), or none.
  static std::optional<DSRId> fromOperand(const pe::Operand &operand);
  /// "dest.3", "src0.1", "src1.15".
  std::string getName() const;
  unsigned getSlot() const { return file * pe::NumDSRsPerFile + index; }
  bool operator==(const DSRId &) const = default;
};
inline constexpr unsigned NumDSRs = 3 * pe::NumDSRsPerFile;

/// The three DSR files. A DSR never written reads as the default
/// Descriptor: an empty mem1d (what a zeroed slot loads as).
class DSRFile {
public:
  // Inline: every operation start reads two or three, and the scalar
  // batches before it set as many.
  const Descriptor &get(DSRId id) const {
    uint8_t slot = slots[id.getSlot() % NumDSRs];
    return slot ? used[slot - 1] : DefaultDescriptor;
  }
  /// `origin` names where the descriptor came from, for operation starts
  /// that reuse what they made of it: 1 + the index of the prebuilt
  /// builder in its program (PrebuiltDSR), or 0 for any other write. One
  /// nonzero origin must always come with the same descriptor.
  void set(DSRId id, const Descriptor &descriptor, uint16_t origin = 0) {
    uint8_t slot = slots[id.getSlot() % NumDSRs];
    if (slot) {
      // Only writes with an origin set it, each with the origin's own
      // descriptor: a DSR holding a nonzero origin holds that descriptor
      // already, and a large fabric's PE is spared the write's cache miss.
      if (origin != 0 && origins[slot - 1] == origin)
        return;
      used[slot - 1] = descriptor;
      origins[slot - 1] = origin;
    } else {
      add(id, descriptor, origin);
    }
  }
  /// The origin of the DSR's last write; 0 for a DSR never written.
  uint16_t getOrigin(DSRId id) const {
    uint8_t slot = slots[id.getSlot() % NumDSRs];
    return slot ? origins[slot - 1] : 0;
  }
  /// DSRs written since construction or reset() (each costs a Descriptor).
  unsigned getUsedCount() const { return static_cast<unsigned>(used.size()); }
  void reset();
  /// Fetches the written descriptors and their origins into the cache, for
  /// a turn ahead that may start an operation or run builders: they live
  /// apart from the PE, and a large fabric's are out of the caches.
  void prefetch() const {
    prefetchLines(used.data(), used.size() * sizeof(Descriptor));
    __builtin_prefetch(origins.data()); // 2 bytes a DSR: one line
  }

private:
  /// set() of a DSR never written.
  void add(DSRId id, const Descriptor &descriptor, uint16_t origin);
  static inline const Descriptor DefaultDescriptor{};
  /// 0: default; k: used[k - 1] (and origins[k - 1]).
  std::array<uint8_t, NumDSRs> slots{};
  std::vector<Descriptor> used;
  std::vector<uint16_t> origins;
};

/// One FIFO slot: a ring of `capacity` elements of `width` bits at `base`.
struct Fifo {
  bool initialized = false;
  uint8_t width = 16;
  uint16_t base = 0;
  uint16_t capacity = 0;
  uint16_t head = 0;  ///< index of the oldest element
  uint16_t count = 0; ///< elements held
  std::optional<uint8_t> pushTask, popTask;
  pe::Priority priority = pe::Priority::Default;

  /// Byte address of ring element `index`.
  uint32_t elementAddress(uint32_t index) const {
    return base + (index % capacity) * (width / 8u);
  }
  bool operator==(const Fifo &) const = default;
};

/// The 8 FIFO slots; allocated when the first one is initialised.
class FifoFile {
public:
  const Fifo &get(unsigned slot) const;
  Fifo &getMutable(unsigned slot);
  void reset() { fifos.reset(); }

private:
  std::unique_ptr<std::array<Fifo, pe::NumFifos>> fifos;
};

/// Why a DSR instruction or a DSD operation stopped the PE. The PE model
/// adds the pc and source line.
enum class DSDTrapKind : uint8_t {
  BadMemoryAccess, ///< a DSD element, pointee, FIFO cell or descriptor slot
                   ///< outside memory or misaligned; see address, width
  BadOperand,      ///< a value or descriptor the instruction cannot use
};

struct DSDTrap {
  DSDTrapKind kind = DSDTrapKind::BadOperand;
  /// Lowercase, no trailing period, naming the instruction first, e.g.
  /// "fadds: element 3 of src0.2: load of 4 bytes at 0xbffe does not fit
  /// in memory (0x0000..0xbfff)".
  std::string message;
  uint32_t address = 0; ///< memory: the byte address
  uint8_t width = 0;    ///< memory: bytes accessed
  uint64_t element = 0; ///< DSD operations: the element that trapped
};

/// The 32-byte image of a descriptor (docs/Emulator.md gives the layout).
std::array<uint8_t, DescriptorImageBytes>
encodeDescriptor(const Descriptor &descriptor);
/// The descriptor an image holds, or why it holds none (every image
/// encodeDescriptor writes decodes to the same descriptor; all zeros is an
/// empty mem1d).
std::optional<Descriptor>
decodeDescriptor(std::span<const uint8_t, DescriptorImageBytes> image,
                 std::string &why);

/// Executes one instruction of class DSR (dsr.*, fifo.init) with the CE's
/// registers. Returns false with `trap` filled, changing nothing, when the
/// instruction cannot run.
bool executeDSRInstruction(const pe::Instruction &inst, const CEState &state,
                           PEMemory &memory, DSRFile &dsrs, FifoFile &fifos,
                           DSDTrap &trap);

/// What a builder (dsr.mem1d, dsr.mem4d, dsr.circbuf, dsr.fabin,
/// dsr.fabout, dsr.fifo) writes when none of its operands is a register:
/// the same DSR and descriptor on every PE, whatever its registers and the
/// DSR held before, so a program's loader may build it once. None for
/// other instructions, register operands, or one that would trap (which
/// executeDSRInstruction then reports where it runs).
struct PrebuiltDSR {
  DSRId dsr;
  Descriptor descriptor;
};
std::optional<PrebuiltDSR> prebuildDSRInstruction(const pe::Instruction &inst);

} // namespace tessera::emulator

#endif // TESSERA_EMULATOR_DSRFILE_H
