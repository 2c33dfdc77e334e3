//===- tessera-run.cpp - run a compiled program on the emulator -----------===//
//
// The whole fabric in this process (docs/tessera-run.md); RunTool.cpp does
// the work.
//
//===----------------------------------------------------------------------===//

#include "RunTool.h"

int main(int argc, char **argv) {
  return tessera::runTool(argc, argv, nullptr);
}
