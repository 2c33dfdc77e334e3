#!/usr/bin/env bash
# Runs tessera-place on the twenty ISPD 2020 benchmarks (A..T), checks every
# solution with `tessera-place --check`, and prints a markdown table of δT,
# wire length, score, utilisation, δT over the lower bound and seconds beside
# the published CU.POKer and DP-strips figures (docs/Placement.md).
# Writes $BENCH_RESULTS_DIR/placement.json when that is set (bench/run-all.sh):
# each benchmark's seconds and legality, the slowest and the number legal.
# usage: bench/placement/run.sh [BUILD_DIR] [TIME_LIMIT] [EXTRA_FLAGS...]
#   ISPD2020_DIR overrides where the .kgraph files are (../shared/ispd2020);
#   without them the benchmark is skipped with a note.
#   ISPD_BENCHMARKS="A K" runs only those; QUICK=1 runs A, K and M (one
#   graph of each kind, a few seconds each) instead of all twenty.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-build}" && pwd)
limit=${2:-60}
shift $(( $# > 2 ? 2 : $# ))
data=${ISPD2020_DIR:-$here/../../../shared/ispd2020}
tool="$build/bin/tessera-place"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
names=(A B C D E F G H I J K L M N O P Q R S T)
if [ -n "${ISPD_BENCHMARKS:-}" ]; then
  read -r -a names <<<"$ISPD_BENCHMARKS"
elif [ "${QUICK:-}" = 1 ]; then
  names=(A K M)
fi
if [ ! -f "$data/${names[0]}.kgraph" ]; then
  echo "skipped: no ISPD 2020 benchmarks in $data (set ISPD2020_DIR)"
  /usr/bin/python3 - "$here/../lib" "$data" <<'PY'
import sys
sys.path.insert(0, sys.argv[1])
import benchlib
results = benchlib.Results("placement")
results.skip("ispd2020", "ISPD 2020 placement", f"no .kgraph files in {sys.argv[2]}",
             command="ISPD2020_DIR=/path/to/ispd2020 bash bench/placement/run.sh build")
results.write()
PY
  exit 0
fi
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "command: tessera-place --kgraph X.kgraph -o X.sol --time-limit=$limit $*"
for name in "${names[@]}"; do
  start=$(date +%s.%N)
  "$tool" --kgraph "$data/$name.kgraph" -o "$work/$name.sol" \
    --time-limit="$limit" "$@" > "$work/$name.out"
  end=$(date +%s.%N)
  echo "$start $end" > "$work/$name.seconds"
  if "$tool" --check --kgraph "$data/$name.kgraph" "$work/$name.sol" \
       > "$work/$name.check" 2>&1; then
    echo legal >> "$work/$name.check"
  else
    echo ILLEGAL >> "$work/$name.check"
  fi
done
/usr/bin/python3 - "$work" "$here/../lib" "$build" "$limit" "$*" "${names[*]}" <<'PY'
import os, re, sys
work = sys.argv[1]
sys.path.insert(0, sys.argv[2])
import benchlib
build, limit, extra, names = sys.argv[3], float(sys.argv[4]), sys.argv[5], sys.argv[6].split()
results = benchlib.Results("placement")
command = f"bash bench/placement/run.sh {os.path.relpath(build)} {sys.argv[4]}" + (f" {extra}" if extra else "")
# README: bound, CU.POKer (δT, WL, score), DP strips (δT, WL, score).
published = {
  'A': (33152, 34496, 1314, 35810, 34496, 1314, 35810),
  'B': (62181, 63504, 2639.5, 66143.5, 64512, 1913, 66425),
  'C': (60270, 64512, 2408, 66920, 64512, 4108, 68620),
  'D': (32256, 33713, 2722, 36435, 33712, 3588, 37300),
  'E': (33152, 39312, 562, 44932, 34496, 1314, 47636),
  'F': (62181, 65170, 1489.5, 80065, 64512, 1913, 83642),
  'G': (60270, 64512, 2508.5, 89597, 64512, 4108, 105592),
  'H': (32256, 39520, 1104.5, 50565, 33712, 3588, 69592),
  'I': (46592, 52136, 617.5, 54606, 49280, 1504, 55296),
  'J': (45752, 50274, 2472.5, 60164, 49224, 4361, 66668),
  'K': (252, 432, 240, 1392, 252, 423, 1944),
  'L': (252, 864, 279, 1980, 252, 867, 3720),
  'M': (2156544, 2211840, 3610.5, 2226282, 2322432, 3644, 2337008),
  'N': (1020, 1482, 480.5, 3404, 1035, 1490, 6995),
  'O': (46592, 52136, 617.5, 76836, 49280, 1504, 109440),
  'P': (45752, 57792, 1101, 101832, 49224, 4361, 223664),
  'Q': (252, 882, 166, 7522, 252, 423, 17172),
  'R': (252, 8064, 259, 18424, 252, 867, 34932),
  'S': (2156544, 2396300, 1897.5, 3155300, 2322432, 3644, 3780032),
  'T': (1020, 4102, 208.5, 12442, 1035, 1490, 60635),
}
def fmt(x):
    if isinstance(x, float) and x != int(x):
        return f"{x:.1f}"
    return str(int(x))
print()
print("| BM | δT | WL | score | util | δT/bound | s | legal "
      "| CU.POKer δT | WL | score | DP δT | WL | score |")
print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
sums = {'wl': 0, 'cu_wl': 0, 'ratio': [], 'wl_ratio': [], 'score_ratio': []}
times, legal_count = [], 0
for name, row in published.items():
    if name not in names:
        continue
    out = open(f"{work}/{name}.out").read()
    values = dict(re.findall(r"^([a-z T]+): ([0-9.]+)", out, re.M))
    start, end = map(float, open(f"{work}/{name}.seconds").read().split())
    seconds = end - start
    legal = open(f"{work}/{name}.check").read().split()[-1]
    times.append(seconds)
    legal_count += legal == "legal"
    results.add(f"{name}.seconds", f"ISPD 2020 {name}: tessera-place wall time",
                "s", [seconds], target=limit, better="lower", command=command,
                summary=False)
    results.add(f"{name}.legal", f"ISPD 2020 {name}: solution legal", "bool",
                [1 if legal == "legal" else 0], target=1, command=command,
                summary=False, details={"deltaT": int(values['deltaT']),
                                        "wire_length": float(values['wire length']),
                                        "score": float(values['score']),
                                        "deltaT_over_bound": round(int(values['deltaT']) / int(values['deltaT lower bound']), 4)})
    dt, wl, score = int(values['deltaT']), float(values['wire length']), float(values['score'])
    bound = int(values['deltaT lower bound'])
    ratio = dt / bound
    sums['wl'] += wl
    sums['cu_wl'] += row[2]
    sums['ratio'].append(ratio)
    sums['wl_ratio'].append(wl / row[2])
    sums['score_ratio'].append(score / row[3])
    print(f"| {name} | {dt} | {fmt(wl)} | {fmt(score)} | {values['utilisation']} "
          f"| {ratio:.3f} | {seconds:.1f} | {legal} | {row[1]} | {fmt(row[2])} "
          f"| {fmt(row[3])} | {row[4]} | {fmt(row[5])} | {fmt(row[6])} |")
import math
geo = lambda xs: math.exp(sum(map(math.log, xs)) / len(xs))
print()
count = len(sums['ratio'])
print(f"largest δT/bound {max(sums['ratio']):.3f}; mean WL {sums['wl']/count:.1f} "
      f"(CU.POKer {sums['cu_wl']/count:.1f}); geometric mean WL/CU.POKer "
      f"{geo(sums['wl_ratio']):.3f}, score/CU.POKer {geo(sums['score_ratio']):.3f}")
# The issue's target: every benchmark legal within 60 s.
which = "all 20" if count == 20 else " ".join(names)
results.add("slowest", f"ISPD 2020 placement ({which}): slowest wall time", "s",
            [max(times)], target=60, better="lower", command=command)
results.add("legal", f"ISPD 2020 placement ({which}): legal solutions", "",
            [legal_count], target=count, command=command)
results.add("deltaT_over_bound", f"ISPD 2020 placement ({which}): largest δT ÷ lower bound",
            "", [max(sums['ratio'])], target=1.08, better="lower", command=command)
results.write()
PY
