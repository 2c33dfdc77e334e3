#!/usr/bin/env bash
# The emulator on several cores (docs/Scaling.md): the bench stencil on a
# 128x128 and a 256x256 fabric run by tessera-run on 1 and 2 threads and by
# tessera-run-mpi on 2 ranks over loopback; every run must print exactly
# what the one-thread run prints. Writes $BENCH_RESULTS_DIR/scaling.json.
# usage: bench/scaling/run.sh [BUILD_DIR]   (RUNS=N, default 3; QUICK=1:
# 128x128 only)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-build}" && pwd)
exec /usr/bin/python3 "$here/scaling.py" "$build"
