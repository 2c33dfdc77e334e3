//===- SymbolLookupTest.cpp - exported symbols by name --------------------===//

#include "TestOutput.h"

#include "tessera/Emulator/OutputDirectory.h"

#include <catch2/catch.hpp>

using namespace tessera;
using namespace tessera::emulator;
using namespace loadertest;

TEST_CASE("symbols are found by name, and by name and kind") {
  const pe::ProgramBinary right = makeSample().binaries[1];
  CHECK(findSymbol(right, "buf") == &right.symbols[0]);
  CHECK(findSymbol(right, "scale") == &right.symbols[2]);
  CHECK(findSymbol(right, "scal") == nullptr);
  CHECK(findSymbol(right, "") == nullptr);
  CHECK(findSymbol(right, "buf", pe::SymbolKind::Data) == &right.symbols[0]);
  CHECK(findSymbol(right, "buf", pe::SymbolKind::Function) == nullptr);
  CHECK(findSymbol(right, "compute", pe::SymbolKind::Function) ==
        &right.symbols[1]);
  CHECK(findSymbol(right, "compute", pe::SymbolKind::Data) == nullptr);
}

TEST_CASE("entry points are the functions the binary lists, in its order") {
  pe::ProgramBinary right = makeSample().binaries[1];
  CHECK(getEntryPoints(right) ==
        std::vector<const pe::Symbol *>{&right.symbols[1], &right.symbols[2]});
  CHECK(findEntryPoint(right, "scale") == &right.symbols[2]);
  CHECK(findEntryPoint(right, "buf") == nullptr);

  right.entryPoints = {2};
  CHECK(getEntryPoints(right) ==
        std::vector<const pe::Symbol *>{&right.symbols[2]});
  CHECK(findEntryPoint(right, "compute") == nullptr);

  // Indices the reader would refuse are skipped.
  right.entryPoints = {7, 1};
  CHECK(getEntryPoints(right) ==
        std::vector<const pe::Symbol *>{&right.symbols[1]});
  CHECK(findEntryPoint(right, "compute") == &right.symbols[1]);
}

TEST_CASE("a data symbol's bytes are its count times its element size") {
  pe::Symbol s{"x", 0, pe::SymbolKind::Data, pe::ElemType::F16, 5, false, {}};
  CHECK(getSymbolBytes(s) == 10);
  s.elemType = pe::ElemType::U64;
  s.count = 0xffffffff;
  CHECK(getSymbolBytes(s) == 0xffffffffull * 8);
  s.elemType = pe::ElemType::Bool;
  s.count = 3;
  CHECK(getSymbolBytes(s) == 3);
  const pe::ProgramBinary left = makeSample().binaries[0];
  CHECK(getSymbolBytes(left.symbols[1]) == 0);
}
