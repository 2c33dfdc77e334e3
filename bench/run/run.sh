#!/usr/bin/env bash
# Times tessera-run on bench/run's W x H fabric (compute plus row streams)
# and prints the emulator's rates per host second on one core.
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
/usr/bin/python3 - "$build/bin/tessera-run" "$work/out" "$w" "$h" <<'PY'
import re, resource, subprocess, sys, time
tool, out, w, h = sys.argv[1:]
start = time.perf_counter()
result = subprocess.run([tool, out], capture_output=True, text=True, check=True)
seconds = time.perf_counter() - start
peak = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
counts = {k: int(v.replace(",", "")) for k, v in
          re.findall(r"^([a-z ]+): ([0-9,]+)", result.stdout, re.M)}
hops = int(re.search(r"link hops: ([0-9,]+)", result.stdout)[1].replace(",", ""))
print(f"bench/run {w}x{h}: {seconds:.2f} s, {peak:.0f} MB peak")
print(f"  cycles {counts['cycles']:,}: {counts['cycles'] / seconds:,.0f} per second")
print(f"  instructions {counts['instructions']:,}: {counts['instructions'] / seconds:,.0f} per second")
print(f"  dsd elements {counts['dsd elements']:,}: {counts['dsd elements'] / seconds:,.0f} per second")
print(f"  wavelet hops {hops:,}: {hops / seconds:,.0f} per second")
PY
