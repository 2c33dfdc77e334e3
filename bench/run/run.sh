#!/usr/bin/env bash
# Times tessera-run on bench/run's W x H fabric (compute plus row streams)
# and prints the emulator's rates per host second (RUNS runs, default 3;
# THREADS=N passes --threads=N). Writes $BENCH_RESULTS_DIR/run.json when
# that is set (bench/run-all.sh).
# usage: bench/run/run.sh [BUILD_DIR] [W H]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-build}" && pwd)
w=${2:-64}
h=${3:-64}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$build/bin/cslc" "$here/layout.csl" --arch=wse3 --fabric-dims="$w,$h" \
  --fabric-offsets=0,0 --params="w:$w,h:$h" -o "$work/out"
/usr/bin/python3 - "$here/../lib" "$build" "$work/out" "$w" "$h" <<'PY'
import os, sys
sys.path.insert(0, sys.argv[1])
import benchlib
build, out, w, h = sys.argv[2:]
threads = benchlib.threads()
args = [f"{build}/bin/tessera-run", out] + ([f"--threads={threads}"] if threads else [])
rates = {"cycles": [], "instructions": [], "dsd elements": [], "link hops": []}
walls, peaks, counts = [], [], {}
for _ in range(benchlib.runs_setting(3)):
    seconds, peak, rc, text, err = benchlib.timed(args)
    counts = benchlib.counters(text)
    if rc != 0:
        sys.exit(f"tessera-run failed (exit {rc})\n{err[-2000:]}")
    walls.append(seconds)
    peaks.append(peak)
    for key in rates:
        rates[key].append(counts[key] / seconds)
    print(f"bench/run {w}x{h}: {seconds:.2f} s, {peak:.0f} MB peak")
    print(f"  cycles {counts['cycles']:,}: {counts['cycles'] / seconds:,.0f} per second")
    print(f"  instructions {counts['instructions']:,}: {counts['instructions'] / seconds:,.0f} per second")
    print(f"  dsd elements {counts['dsd elements']:,}: {counts['dsd elements'] / seconds:,.0f} per second")
    print(f"  wavelet hops {counts['link hops']:,}: {counts['link hops'] / seconds:,.0f} per second")
command = f"bash bench/run/run.sh {os.path.relpath(build)} {w} {h}" + (
    f"  (THREADS={threads})" if threads else "")
label = f"bench/run {w}x{h} (row pipelines)"
results = benchlib.Results("run")
pes = int(w) * int(h)
results.add(f"{w}x{h}.tile_cycles_per_s",
            f"{label}: emulated tile-cycles per host second per thread",
            "tile-cycles/s", [c * pes / (threads or 1) for c in rates["cycles"]],
            command=command, details=dict(
                {k: counts.get(k) for k in rates}, pes=pes,
                # PEs wait on their west neighbours for most of the run.
                busy_fraction=round(counts.get("main thread busy cycles", 0)
                                    / (counts["cycles"] * pes), 3)))
for key, unit in (("instructions", "instructions/s"),
                  ("dsd elements", "elements/s"), ("link hops", "hops/s")):
    results.add(f"{w}x{h}.{key.replace(' ', '_')}_per_s",
                f"{label}: {key} per host second", unit, rates[key],
                command=command)
results.add(f"{w}x{h}.wall", f"{label}: tessera-run wall time", "s", walls,
            better="lower", command=command)
results.write()
PY
