//===- RunTool.h - tessera-run's work, on one process or a rank -*- C++ -*-===//
//
// tessera-run and tessera-run-mpi share everything but how they start:
// one process of the whole fabric, or one MPI rank of several
// (docs/tessera-run.md, docs/Scaling.md "Ranks").
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_TOOLS_TESSERA_RUN_RUNTOOL_H
#define TESSERA_TOOLS_TESSERA_RUN_RUNTOOL_H

namespace tessera {
namespace emulator {
class RankLink;
} // namespace emulator

/// Parses the command line, runs the program and prints the results;
/// returns the exit status. With `ranks`, this process emulates its slice
/// of rows and only rank 0 prints. The caller must exit right after: the
/// emulator is left to the operating system, not destroyed.
int runTool(int argc, char **argv, emulator::RankLink *ranks);

} // namespace tessera

#endif // TESSERA_TOOLS_TESSERA_RUN_RUNTOOL_H
