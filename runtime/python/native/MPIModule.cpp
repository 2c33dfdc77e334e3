//===- MPIModule.cpp - the tessera._mpi extension -------------------------===//
//
// MPI for `cs_python -m tessera.ranks` (docs/Scaling.md "Host programs on
// ranks"): starts and ends MPI and hands tessera._runtime this rank's
// RankLink as a capsule, so that the runtime module itself needs no MPI.
// Only this module links MPI; scripts that do not split a fabric never
// load it.
//
//===----------------------------------------------------------------------===//

#include "MPIRankLink.h"

#include <mpi.h>
#include <pybind11/pybind11.h>

namespace py = pybind11;
using namespace tessera::emulator;

namespace {

bool isInitialized() {
  int initialized = 0, finalized = 0;
  MPI_Initialized(&initialized);
  MPI_Finalized(&finalized);
  return initialized && !finalized;
}

} // namespace

PYBIND11_MODULE(_mpi, m) {
  m.doc() = "MPI for a fabric split among ranks (tessera.ranks)";
  m.def("init", [] {
    int initialized = 0;
    MPI_Initialized(&initialized);
    if (initialized)
      return;
    // Emulator threads never call MPI: only this thread does.
    int provided = 0;
    MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  });
  m.def("rank", [] {
    int rank = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    return rank;
  });
  m.def("size", [] {
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    return size;
  });
  // Made once MPI is initialised; lives as long as the process.
  m.def("link", [] {
    static MPIRankLink link;
    return py::capsule(static_cast<RankLink *>(&link), "tessera.RankLink");
  });
  m.def("abort", [](int code) {
    if (isInitialized())
      MPI_Abort(MPI_COMM_WORLD, code);
  });
  m.def("finalize", [] {
    if (isInitialized())
      MPI_Finalize();
  });
}
