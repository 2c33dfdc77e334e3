//===- TestSupport.h - shared helpers of the Viz tests ----------*- C++ -*-===//
#ifndef TESSERA_TEST_VIZ_TESTSUPPORT_H
#define TESSERA_TEST_VIZ_TESTSUPPORT_H

#include "tessera/Viz/Image.h"
#include "tessera/Viz/RunRecord.h"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace viztest {

/// A 3x2 wse2 record of 100 cycles: PEs (0,0), (1,0), (2,0) send, relay and
/// receive on color 0; (1,1) receives color 3; (0,1) and (2,1) have no
/// record. Every kind of event occurs.
tessera::viz::RunRecord makeSmallRecord();

/// A fresh directory, removed with its contents at the end of the test.
class TempDir {
public:
  TempDir();
  ~TempDir();
  std::string file(const std::string &name) const {
    return directory + "/" + name;
  }
  const std::string &path() const { return directory; }

private:
  std::string directory;
};

/// Decodes what encodePNG writes (8-bit RGB, any of the five filters),
/// checking signature, chunk CRCs and lengths; nullopt with `error` set when
/// the bytes are not such a PNG.
std::optional<tessera::viz::Image> decodePNG(const std::vector<uint8_t> &bytes,
                                             std::string &error);

std::string readFile(const std::string &path);

} // namespace viztest

#endif // TESSERA_TEST_VIZ_TESTSUPPORT_H
