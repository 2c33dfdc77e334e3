//===- ParseBench.cpp - Parse throughput benchmark ------------------------===//
//
// usage: tessera-parse-bench FILE.csl [REPEAT]
// Parses FILE REPEAT times (default 5) on one thread and prints the best and
// median throughput. Not a test: numbers go to docs/Performance.md.
//
//===----------------------------------------------------------------------===//

#include "tessera/Frontend/Parser.h"

#include "llvm/Support/Format.h"
#include "llvm/Support/MemoryBuffer.h"
#include "llvm/Support/raw_ostream.h"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <vector>

using namespace tessera::frontend;

int main(int argc, char **argv) {
  if (argc < 2) {
    llvm::errs() << "usage: tessera-parse-bench FILE.csl [REPEAT]\n";
    return 2;
  }
  int repeat = argc > 2 ? std::max(1, std::atoi(argv[2])) : 5;
  auto buffer = llvm::MemoryBuffer::getFile(argv[1]);
  if (!buffer) {
    llvm::errs() << "cannot read " << argv[1] << "\n";
    return 2;
  }
  double megabytes = (*buffer)->getBufferSize() / 1e6;
  llvm::SourceMgr sm;
  unsigned id = sm.AddNewSourceBuffer(std::move(*buffer), llvm::SMLoc());

  std::vector<double> seconds;
  size_t decls = 0;
  for (int i = 0; i < repeat; ++i) {
    auto start = std::chrono::steady_clock::now();
    ParseResult result = parseSourceFile(sm, id, llvm::errs());
    auto stop = std::chrono::steady_clock::now();
    if (result.numErrors != 0) {
      llvm::errs() << "the input has syntax errors\n";
      return 1;
    }
    decls = result.file->decls.size();
    seconds.push_back(std::chrono::duration<double>(stop - start).count());
  }
  std::sort(seconds.begin(), seconds.end());
  double best = seconds.front(), median = seconds[seconds.size() / 2];
  llvm::outs() << llvm::format("%.2f MB, %zu declarations, %d runs\n",
                               megabytes, decls, repeat)
               << llvm::format("best   %.1f ms  %.1f MB/s\n", best * 1e3,
                               megabytes / best)
               << llvm::format("median %.1f ms  %.1f MB/s\n", median * 1e3,
                               megabytes / median);
  return 0;
}
