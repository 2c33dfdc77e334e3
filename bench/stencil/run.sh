#!/usr/bin/env bash
# Compiles bench/stencil for each fabric size, times tessera-run on it and
# prints emulated tile-cycles (cycles x PEs) per host second per thread;
# up to 64x64 it also checks every PE's result against reference.py.
# Writes $BENCH_RESULTS_DIR/stencil.json when that is set (bench/run-all.sh).
# usage: bench/stencil/run.sh [BUILD_DIR] [WxH ...]
#   default sizes 8x8 64x64 256x256 750x994 (QUICK=1: 8x8 64x64);
#   RUNS=N runs per size (default 5 up to 64x64, else 3);
#   THREADS=N passes --threads=N to tessera-run.
# Each 750x994 run takes about 35 s and 4 GB (about 5.5 KB per PE).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-build}" && pwd)
shift $(( $# > 0 ? 1 : 0 ))
exec /usr/bin/python3 "$here/../lib/program_bench.py" stencil "$build" "$@"
