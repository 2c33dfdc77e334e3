//===- TestOutput.h - small output directories for loader tests -*- C++ -*-===//
//
// A hand-made `cslc -o` directory: two programs on a 4x2 rectangle with two
// routed colors and two per-PE values, consistent in every file, which each
// test then breaks in one place.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_TEST_UNIT_EMULATORLOADER_TESTOUTPUT_H
#define TESSERA_TEST_UNIT_EMULATORLOADER_TESTOUTPUT_H

#include "tessera/Target/PEBinary/Binary.h"

#include <nlohmann/json.hpp>

#include <string>
#include <vector>

namespace loadertest {

/// A fresh directory under the system's temporary directory, removed with
/// everything in it at the end of the test.
class TempDir {
public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir &) = delete;
  TempDir &operator=(const TempDir &) = delete;
  const std::string &path() const { return dir; }

private:
  std::string dir;
};

void writeFile(const std::string &path, const std::vector<uint8_t> &bytes);
void writeFile(const std::string &path, const std::string &text);

/// Router configs of the sample: A and B on color 3, C and A on color 10.
tessera::pe::RouterConfig configA();
tessera::pe::RouterConfig configB();
tessera::pe::RouterConfig configC();

struct Sample {
  tessera::pe::FabricFile fabric;
  std::vector<tessera::pe::ProgramBinary> binaries; ///< as fabric.programs
  nlohmann::json json;

  /// Writes DIR/out.json, DIR/fabric.tfab and DIR/bin/*.tpeb.
  void write(const std::string &dir) const;
};

/// Program 0 `bin/left.tpeb` on PEs (0,0) and (0,1), program 1
/// `bin/right.tpeb` on (1..3,0) and (1..2,1); (3,1) runs nothing.
Sample makeSample();

/// Recomputes out.json's size fields of program `index` from its binary.
void describeSizes(Sample &sample, size_t index);

} // namespace loadertest

#endif // TESSERA_TEST_UNIT_EMULATORLOADER_TESTOUTPUT_H
