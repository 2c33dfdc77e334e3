#!/usr/bin/env bash
# Times two tessera-run binaries on one output directory, in turn, and
# prints the median of the per-pair ratios B/A: on a shared guest whose
# speed drifts by a third from one minute to the next, a pair taken
# seconds apart sees the same speed, and the ratio cancels it
# (docs/Performance.md, "Profile of the emulator").
#
# usage: scripts/compare-runs.sh BIN_A BIN_B OUTPUT_DIR [PAIRS] [-- ARGS...]
#   PAIRS defaults to 10; the order within a pair alternates. ARGS after
#   `--` go to both binaries. Prints each pair, then one summary line.
set -euo pipefail
prog=compare-runs
if [ $# -lt 3 ]; then
  echo "usage: scripts/compare-runs.sh BIN_A BIN_B OUTPUT_DIR [PAIRS] [-- ARGS...]" >&2
  exit 2
fi
a=$1 b=$2 dir=$3
shift 3
pairs=10
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  pairs=$1
  shift
fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
for bin in "$a" "$b"; do
  if [ ! -x "$bin" ]; then
    echo "$prog: error: $bin is not an executable" >&2
    exit 2
  fi
done
if [ ! -d "$dir" ]; then
  echo "$prog: error: $dir is not a directory" >&2
  exit 2
fi
if ! [[ "$pairs" =~ ^[1-9][0-9]*$ ]]; then
  echo "$prog: error: PAIRS must be a positive whole number, not '$pairs'" >&2
  exit 2
fi

# Prints the run's start and end, in seconds since the epoch; the
# summary below subtracts them.
stamps() {
  local start
  start=$(date +%s.%N)
  if ! "$1" "$dir" "${@:2}" >/dev/null 2>&1; then
    echo "$prog: error: $1 $dir failed" >&2
    exit 1
  fi
  echo "$start $(date +%s.%N)"
}

times=""
for ((i = 1; i <= pairs; ++i)); do
  if ((i % 2)); then
    ta=$(stamps "$a" "$@")
    tb=$(stamps "$b" "$@")
  else
    tb=$(stamps "$b" "$@")
    ta=$(stamps "$a" "$@")
  fi
  times+="$ta $tb"$'\n'
done
printf '%s' "$times" | /usr/bin/python3 -c '
import statistics, sys
a, b, ratios = [], [], []
for line in sys.stdin:
    a0, a1, b0, b1 = map(float, line.split())
    x, y = a1 - a0, b1 - b0
    print(f"pair {len(a) + 1}: A {x:.3f} s, B {y:.3f} s, B/A {y / x:.3f}")
    a.append(x); b.append(y); ratios.append(y / x)
print(f"A median {statistics.median(a):.3f} s, B median "
      f"{statistics.median(b):.3f} s; B/A per pair: median "
      f"{statistics.median(ratios):.3f}, mean {statistics.mean(ratios):.3f} "
      f"({len(ratios)} pairs)")
'
