#!/usr/bin/env bash
# MemoryX on one core: rebuilding the sparse FP16 copy of a 4096x4096 layer
# and streaming it in forward and transposed order, at 0, 50 and 90 %
# sparsity (nonzeros per second, median of 7 runs): rebuild, refresh,
# visits, wire streams, and refresh plus forward wire stream ("encoding
# plus streaming", issue 10). Writes $BENCH_RESULTS_DIR/memoryx.json when
# that is set (bench/run-all.sh), from the program's lines by their labels.
# usage: bench/memoryx/run.sh [BUILD_DIR] [ROWS COLS RUNS]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
rows=${2:-4096}
cols=${3:-4096}
runs=${4:-7}
output=$(mktemp)
trap 'rm -f "$output"' EXIT
"$build/bin/tessera-bench-memoryx" "$rows" "$cols" "$runs" | tee "$output"
/usr/bin/python3 - "$here/../lib" "$output" "$build" "$rows" "$cols" "$runs" <<'PY'
import os, re, sys
sys.path.insert(0, sys.argv[1])
import benchlib
path, build, rows, cols, runs = sys.argv[2:]
command = f"{os.path.relpath(build)}/bin/tessera-bench-memoryx {rows} {cols} {runs}"
# Issue 10: encoding plus streaming at >= 1e9 nonzeros per second per core.
# The summary shows the streaming lines; the others go to the details.
SUMMARY = ("encode+stream in one pass", "wire stream (forward")
results = benchlib.Results("memoryx")
sparsity = None
for line in open(path):
    header = re.match(r"^(\d+)% sparse: (\d+) nonzeros", line)
    if header:
        sparsity, nonzeros = int(header[1]), int(header[2])
        continue
    # "  LABEL   12.1 ms   1.390 Gnz/s   cpu ..."
    found = re.match(r"^\s+(\S.*?)\s{2,}([0-9.]+) ms\s+([0-9.]+) Gnz/s", line)
    if not found or sparsity is None:
        continue
    label, ms, rate = found[1], float(found[2]), float(found[3]) * 1e9
    key = re.sub(r"[^a-z0-9]+", "_", label.lower()).strip("_")
    results.add(f"{sparsity}pct.{key}",
                f"MemoryX {rows}x{cols}, {sparsity} % sparse: {label}, one core",
                "nonzeros/s", [rate], target=1e9, command=command,
                summary=label.startswith(SUMMARY),
                details={"ms": ms, "nonzeros": nonzeros, "runs_inside": int(runs)})
if not results.metrics:
    sys.exit("no measurements found in the output of tessera-bench-memoryx")
results.write()
PY
