#!/usr/bin/env bash
# Elaborates generated layouts with `cslc --emit=fabric` and prints
# wall time, CPU time and peak memory per variant (see gen_layout.py).
# usage: bench/elaborate/run.sh [BUILD_DIR] [WIDTH HEIGHT] [VARIANTS...]
# Without a size: both variants at 750x994.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
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
  # Python's resource module gives the child's wall time and peak RSS
  # without needing /usr/bin/time.
  /usr/bin/python3 - "$build/bin/cslc" "$dir" "$variant" "$width" "$height" <<'PY'
import resource, subprocess, sys, time
cslc, d, variant, w, h = sys.argv[1:]
start = time.monotonic()
with open(f"{d}/out.mlir", "w") as out:
    rc = subprocess.run([cslc, "--emit=fabric", f"{d}/layout.csl"],
                        stdout=out).returncode
wall = time.monotonic() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
rss = usage.ru_maxrss / 1024
# CPU time is less disturbed than wall time by other work on the machine.
cpu = usage.ru_utime + usage.ru_stime
with open(f"{d}/out.mlir") as f:
    text = f.read()
ops = {k: text.count(f"fabric.{k} ")
       for k in ("instance", "place", "color_config")}
print(f"{variant:7} {w}x{h}: {wall:.2f} s (cpu {cpu:.2f} s), "
      f"peak RSS {rss:.0f} MB, "
      f"{ops['instance']} instances, {ops['place']} places, "
      f"{ops['color_config']} color configs" + ("" if rc == 0 else
                                                f" (exit {rc})"))
PY
done
