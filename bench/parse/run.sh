#!/usr/bin/env bash
# Generates a 10 MB CSL file and measures parse throughput on one core
# (tessera-parse-bench: the median of 7 parses). Writes
# $BENCH_RESULTS_DIR/parse.json when that is set (bench/run-all.sh).
# usage: bench/parse/run.sh [BUILD_DIR] [SIZE_MB]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
size=${2:-10}
input=$(mktemp --suffix=.csl)
output=$(mktemp)
trap 'rm -f "$input" "$output"' EXIT
/usr/bin/python3 "$here/gen_csl.py" "$input" "$size"
"$build/bin/tessera-parse-bench" "$input" 7 | tee "$output"
/usr/bin/python3 - "$here/../lib" "$output" "$build" "$size" <<'PY'
import os, re, sys
sys.path.insert(0, sys.argv[1])
import benchlib
text = open(sys.argv[2]).read()
build, size = sys.argv[3], sys.argv[4]
rates = dict(re.findall(r"^(best|median)\s+[0-9.]+ ms\s+([0-9.]+) MB/s", text, re.M))
results = benchlib.Results("parse")
results.add("mb_per_s", f"parse, generated {size} MB of CSL, one core", "MB/s",
            [float(rates["median"])], target=20,
            command=f"bash bench/parse/run.sh {os.path.relpath(build)} {size}",
            details={"parses": 7, "best_mb_per_s": float(rates["best"])})
results.write()
PY
