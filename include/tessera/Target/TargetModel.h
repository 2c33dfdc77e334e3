//===- TargetModel.h - facts about the WSE-2 and WSE-3 ----------*- C++ -*-===//
//
// Every architectural fact the compiler, runtime and emulator rely on lives
// here, so that no pass or emulator component hard-codes a number. Plain C++
// so the emulator can use it without linking LLVM or MLIR.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_TARGET_TARGETMODEL_H
#define TESSERA_TARGET_TARGETMODEL_H

#include <optional>
#include <string_view>

namespace tessera::target {

enum class Arch { WSE2, WSE3 };

/// Parses an architecture name as `cslc --arch` spells it ("wse2", "wse3").
std::optional<Arch> parseArch(std::string_view name);

class TargetModel {
public:
  static const TargetModel &get(Arch arch);

  Arch getArch() const { return arch; }
  /// The name `cslc --arch` uses for this architecture.
  std::string_view getName() const { return name; }
  /// Colors 0..N-1 can be given routes.
  unsigned getNumRoutableColors() const { return numRoutableColors; }
  /// Bytes of SRAM per PE, shared by code and data.
  unsigned getPEMemoryBytes() const { return peMemoryBytes; }
  /// Entries in the hardware task table.
  unsigned getNumTaskIDs() const { return numTaskIDs; }
  /// Host I/O channels the memcpy runtime can use at once.
  unsigned getMaxMemcpyChannels() const { return maxMemcpyChannels; }

private:
  constexpr TargetModel(Arch arch, std::string_view name,
                        unsigned numRoutableColors, unsigned peMemoryBytes,
                        unsigned numTaskIDs, unsigned maxMemcpyChannels)
      : arch(arch), name(name), numRoutableColors(numRoutableColors),
        peMemoryBytes(peMemoryBytes), numTaskIDs(numTaskIDs),
        maxMemcpyChannels(maxMemcpyChannels) {}

  Arch arch;
  std::string_view name;
  unsigned numRoutableColors;
  unsigned peMemoryBytes;
  unsigned numTaskIDs;
  unsigned maxMemcpyChannels;

  static const TargetModel wse2;
  static const TargetModel wse3;
};

} // namespace tessera::target

#endif // TESSERA_TARGET_TARGETMODEL_H
