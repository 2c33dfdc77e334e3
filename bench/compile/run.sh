#!/usr/bin/env bash
# Compiles to output directories (`cslc -o`) and prints wall time and peak
# memory: the generated 750x994 row-pipeline layout (gen_layout.py) and,
# when CSL_EXAMPLES names a checkout of the public CSL examples, each of its
# tutorials' command lines (without it they are skipped, with a note). Each
# is compiled RUNS times (default 3); writes $BENCH_RESULTS_DIR/compile.json
# when that is set (bench/run-all.sh). See measure.py.
# usage: bench/compile/run.sh [BUILD_DIR] [WIDTH HEIGHT]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-build}" && pwd)
exec /usr/bin/python3 "$here/measure.py" "$build" "${2:-750}" "${3:-994}"
