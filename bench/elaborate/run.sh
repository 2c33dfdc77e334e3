#!/usr/bin/env bash
# Elaborates generated layouts with `cslc --emit=fabric` and prints wall
# time, CPU time and peak memory per variant (see gen_layout.py), RUNS
# times each (default 3); writes $BENCH_RESULTS_DIR/elaborate.json when that
# is set (bench/run-all.sh).
# usage: bench/elaborate/run.sh [BUILD_DIR] [WIDTH HEIGHT] [VARIANTS...]
# Without a size: both variants at 750x994.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-build}" && pwd)
runs=()
if [ $# -ge 3 ]; then
  width=$2
  height=$3
  shift 3
  for variant in "${@:-roles}"; do
    runs+=("$variant:$width:$height")
  done
else
  runs=(roles:750:994 coords:750:994)
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for run in "${runs[@]}"; do
  IFS=: read -r variant width height <<<"$run"
  dir="$work/$variant"
  /usr/bin/python3 "$here/gen_layout.py" "$dir" "$variant" "$width" "$height"
  /usr/bin/python3 - "$here/../lib" "$build" "$dir" "$variant" "$width" "$height" <<'PY'
import os, sys
sys.path.insert(0, sys.argv[1])
import benchlib
build, d, variant, w, h = sys.argv[2:]
runs = benchlib.runs_setting(3)
walls, cpus, peaks, ops, failed = [], [], [], {}, False
for _ in range(runs):
    # CPU time is less disturbed than wall time by other work on the machine.
    usage = {}
    wall, peak, rc, text, err = benchlib.timed(
        [f"{build}/bin/cslc", "--emit=fabric", f"{d}/layout.csl"], usage=usage)
    cpu = usage["cpu"]
    if rc != 0:
        print(f"{variant} {w}x{h}: cslc failed (exit {rc})\n{err[-2000:]}")
        failed = True
        break
    walls.append(wall)
    cpus.append(cpu)
    peaks.append(peak)
    ops = {k: text.count(f"fabric.{k} ")
           for k in ("instance", "place", "color_config")}
    print(f"{variant:7} {w}x{h}: {wall:.2f} s (cpu {cpu:.2f} s), "
          f"peak RSS {peak:.0f} MB, "
          f"{ops['instance']} instances, {ops['place']} places, "
          f"{ops['color_config']} color configs")
# Issue 4: a 750x994 layout with per-PE params elaborates in <= 10 s, 4 GB.
command = f"bash bench/elaborate/run.sh {os.path.relpath(build)} {w} {h} {variant}"
name = f"elaborate {w}x{h} layout, {variant} (cslc --emit=fabric)"
results = benchlib.Results("elaborate")
results.add(f"{variant}_{w}x{h}.wall", f"{name}: wall time", "s", walls,
            target=10, better="lower", command=command,
            details=dict(ops, cpu_seconds=[round(c, 2) for c in cpus]))
results.add(f"{variant}_{w}x{h}.peak_rss", f"{name}: peak RSS", "MB", peaks,
            target=4096, better="lower", command=command)
results.write()
sys.exit(1 if failed else 0)
PY
done
