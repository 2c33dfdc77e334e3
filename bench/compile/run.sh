#!/usr/bin/env bash
# Compiles to output directories (`cslc -o`) and prints wall time, CPU time
# and peak memory: the generated 750x994 row-pipeline layout (gen_layout.py)
# and, when CSL_EXAMPLES names a checkout of the public CSL examples, each
# of their tutorials' command lines.
# usage: bench/compile/run.sh [BUILD_DIR] [WIDTH HEIGHT]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-build}" && pwd)
width=${2:-750}
height=${3:-994}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

/usr/bin/python3 "$here/gen_layout.py" "$work/layout" "$width" "$height"
# Python's resource module gives the child's wall time and peak RSS without
# needing /usr/bin/time.
/usr/bin/python3 - "$build/bin/cslc" "$work/layout" "$width" "$height" <<'PY'
import json, os, resource, subprocess, sys, time
cslc, d, w, h = sys.argv[1:]
args = [cslc, "layout.csl", "--arch=wse3", f"--fabric-dims={int(w) + 7},{int(h) + 2}",
        "--fabric-offsets=4,1", "--memcpy", "--channels=1", "-o", "out"]
start = time.monotonic()
rc = subprocess.run(args, cwd=d).returncode
wall = time.monotonic() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
out = os.path.join(d, "out")
programs = json.load(open(os.path.join(out, "out.json")))["programs"] if rc == 0 else []
size = sum(os.path.getsize(os.path.join(root, f))
           for root, _, files in os.walk(out) for f in files) if rc == 0 else 0
print(f"row pipelines {w}x{h}: {wall:.2f} s (cpu {usage.ru_utime + usage.ru_stime:.2f} s), "
      f"peak RSS {usage.ru_maxrss / 1024:.0f} MB, "
      f"{sum(len(p['instances']) for p in programs)} program instances in "
      f"{len(programs)} binaries, output {size / 1e6:.1f} MB"
      + ("" if rc == 0 else f" (exit {rc})"))
PY

if [ -n "${CSL_EXAMPLES:-}" ]; then
  echo "tutorials of $CSL_EXAMPLES (each command line, cslc -o):"
  /usr/bin/python3 "$here/../../scripts/examples-cslc.py" "$CSL_EXAMPLES" \
    --cslc "$build/bin/cslc" --emit binary --out "$work/examples" \
    --only tutorials
fi
