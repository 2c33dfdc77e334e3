//===- ParserFuzzer.cpp - libFuzzer target for the CSL parser -------------===//
//
// Any input must parse without crashing, hanging or asserting. Inputs that
// parse cleanly must also survive the round trip: printing the tree as CSL
// and parsing it again gives the same tree. A violation aborts, which the
// fuzzer reports as a finding.
//
//===----------------------------------------------------------------------===//

#include "tessera/Frontend/ASTPrinter.h"
#include "tessera/Frontend/CSLPrinter.h"
#include "tessera/Frontend/Parser.h"

#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

using namespace tessera::frontend;

namespace {
struct Parsed {
  llvm::SourceMgr sm;
  ParseResult result;
};

void parseText(Parsed &p, llvm::StringRef text) {
  unsigned id = p.sm.AddNewSourceBuffer(
      llvm::MemoryBuffer::getMemBufferCopy(text, "fuzz.csl"), llvm::SMLoc());
  p.result = parseSourceFile(p.sm, id, llvm::nulls());
}

std::string astWithoutLocations(const Parsed &p) {
  std::string out;
  llvm::raw_string_ostream os(out);
  printAST(*p.result.file, p.sm, os, ASTPrintOptions{false});
  return out;
}
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size) {
  llvm::StringRef text(reinterpret_cast<const char *>(data), size);
  Parsed first;
  parseText(first, text);
  if (!first.result.file)
    std::abort();
  if (first.result.numErrors != 0)
    return 0;

  std::string printed;
  llvm::raw_string_ostream os(printed);
  printCSL(*first.result.file, os);
  Parsed second;
  parseText(second, printed);
  if (second.result.numErrors != 0 ||
      astWithoutLocations(first) != astWithoutLocations(second)) {
    std::fprintf(stderr, "round trip failed; printed form:\n%s\n",
                 printed.c_str());
    std::abort();
  }
  return 0;
}
