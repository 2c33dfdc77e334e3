#!/usr/bin/env bash
# `make bench`: runs every benchmark under bench/ (each bench/<name>/run.sh)
# against BUILD_DIR. Each prints what it measures and writes its
# measurements to $BENCH_RESULTS_DIR/<name>.json; bench/report.py then
# collects them, with the machine, into bench/results.json and regenerates
# the measured section of docs/Performance.md (between its bench:begin and
# bench:end markers).
# usage: bench/run-all.sh [BUILD_DIR]
#   BENCH_ONLY=stencil,gemv  run only these (the others keep their entries
#                            from the previous bench/results.json)
#   QUICK=1     skip the slow parts: the 256x256 and 750x994 fabrics and
#               most ISPD benchmarks
#   RUNS=N      runs per measurement where a script repeats (see each run.sh)
#   THREADS=N   passed to tessera-run as --threads=N
#   CSL_EXAMPLES=/path/to/csl-examples  also compile the public tutorials
#   BENCH_PROFILE=1  also run bench/profile (callgrind; minutes)
set -uo pipefail
build_dir=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
results=$(mktemp -d)
trap 'rm -rf "$results"' EXIT
export BENCH_RESULTS_DIR=$results
load_start=$(cut -d' ' -f1-3 /proc/loadavg)
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB," \
     "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //');" \
     "load average $load_start"
only=",${BENCH_ONLY:-},"
for script in "$here"/*/run.sh; do
  name=$(basename "$(dirname "$script")")
  if [ -n "${BENCH_ONLY:-}" ] && [[ "$only" != *",$name,"* ]]; then
    continue
  fi
  if [ "$name" = profile ] && [ "${BENCH_PROFILE:-}" != 1 ] &&
     [[ "$only" != *",profile,"* ]]; then
    continue
  fi
  echo
  echo "== bench: $name"
  start=$SECONDS
  bash "$script" "$build_dir"
  status=$?
  echo "$status $((SECONDS - start))" > "$results/$name.status"
  if [ "$status" != 0 ]; then
    echo "bench/$name/run.sh failed (exit $status)"
  fi
done
echo
previous=()
if [ -n "${BENCH_ONLY:-}" ] && [ -f "$here/results.json" ]; then
  previous=(--previous "$here/results.json")
fi
/usr/bin/python3 "$here/report.py" "$results" --out "$here/results.json" \
  --doc "$root/docs/Performance.md" --build "$build_dir" \
  --load-start "$load_start" "${previous[@]}"
