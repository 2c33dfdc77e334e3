//===- tessera-run-mpi.cpp - tessera-run as one MPI rank of several -------===//
//
// `mpirun -np N tessera-run-mpi OUT_DIR [options]`: each rank emulates a
// slice of the rows and they step in lockstep; the output is tessera-run's
// for the whole fabric, printed by rank 0 (docs/Scaling.md "Ranks").
//
//===----------------------------------------------------------------------===//

#include "MPIRankLink.h"
#include "RunTool.h"

#include <mpi.h>

int main(int argc, char **argv) {
  // Band threads (--threads) never call MPI: only this thread does.
  int provided = 0;
  MPI_Init_thread(&argc, &argv, MPI_THREAD_FUNNELED, &provided);
  int status = 0;
  {
    tessera::emulator::MPIRankLink link;
    status = tessera::runTool(argc, argv, &link);
  }
  MPI_Finalize();
  return status;
}
