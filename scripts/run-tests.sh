#!/usr/bin/env bash
# Runs every test through CTest and ends with CTest's summary line, so the last
# line printed says how many tests passed. Exits with CTest's status.
set -uo pipefail
build_dir=${1:-build}
jobs=${2:-$(nproc)}
log="$build_dir/ctest.log"
(cd "$build_dir" && ctest -j "$jobs" --output-on-failure) 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
summary=$(grep -E '^[0-9]+% tests passed' "$log" | tail -n 1)
echo
echo "${summary:-ctest printed no summary (exit $status)}"
exit "$status"
