#!/usr/bin/env bash
# Generates a 10 MB CSL file and measures parse throughput on one core.
# usage: bench/parse/run.sh [BUILD_DIR] [SIZE_MB]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
size=${2:-10}
input=$(mktemp --suffix=.csl)
trap 'rm -f "$input"' EXIT
/usr/bin/python3 "$here/gen_csl.py" "$input" "$size"
"$build/bin/tessera-parse-bench" "$input" 7
