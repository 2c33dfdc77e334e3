#!/usr/bin/env bash
# Emulator throughput on one core: the router network (wavelet-hops per
# second; RUNS runs of each scenario, default 3) and the DSD engine (fmacs
# against a plain C++ loop: the median of 7 rounds). Writes
# $BENCH_RESULTS_DIR/emulator.json when that is set (bench/run-all.sh).
# usage: bench/emulator/run.sh [BUILD_DIR] [large]
# `large` (or LARGE=1) adds the 750x994 fabric with all 745,500 PEs
# streaming (about 20 s and 0.35 GB more).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-build}" && pwd)
large=${2:-}
if [ "${LARGE:-}" = 1 ]; then large=large; fi
exec /usr/bin/python3 - "$here/../lib" "$build" "$large" <<'PY'
import os, re, sys
sys.path.insert(0, sys.argv[1])
import benchlib
build, large = sys.argv[2], sys.argv[3] == "large"
rel = os.path.relpath(build)
results = benchlib.Results("emulator")
runs = benchlib.runs_setting(3)
scenarios = [("rows", 64, 64, 20000), ("mixed", 64, 64, 10000)]
if large:
    scenarios.append(("rows", 750, 994, 200))
failed = False
for kind, w, h, cycles in scenarios:
    args = [f"{build}/bin/tessera-router-bench", kind, str(w), str(h), str(cycles)]
    rates = []
    for _ in range(runs):
        wall, peak, rc, text, err = benchlib.timed(args)
        print(text, end="")
        found = re.search(r"([0-9.e+]+) wavelet-hops per second", text)
        if rc != 0 or not found:
            print(f"tessera-router-bench failed (exit {rc})\n{err}")
            failed = True
            break
        rates.append(float(found[1]))
    results.add(f"router_{kind}_{w}x{h}",
                f"router network, {kind} {w}x{h}: wavelet-hops per second, one core",
                "hops/s", rates, target=2e7,
                command=f"{rel}/bin/tessera-router-bench {kind} {w} {h} {cycles}",
                details={"cycles": cycles})
args = [f"{build}/bin/tessera-dsd-bench", "2048", "7"]
wall, peak, rc, text, err = benchlib.timed(args)
print(text, end="")
engine = re.search(r"dsd engine: ([0-9.e+]+) elements/s median", text)
loop = re.search(r"plain loop: ([0-9.e+]+) elements/s median", text)
ratio = re.search(r"ratio: ([0-9.]+) median \(([0-9.]+)\.\.([0-9.]+)", text)
if rc != 0 or not (engine and loop and ratio):
    print(f"tessera-dsd-bench failed (exit {rc})\n{err}")
    sys.exit(1)
command = f"{rel}/bin/tessera-dsd-bench 2048 7"
results.add("dsd_vs_native", "DSD engine fmacs ÷ native C++ loop, element rate",
            "", [float(ratio[1])], target=0.25, command=command,
            details={"rounds": 7, "round_range": [float(ratio[2]), float(ratio[3])]})
results.add("dsd_elements", "DSD engine fmacs: elements per second, one core",
            "elements/s", [float(engine[1])], command=command)
results.add("native_elements", "native C++ loop (same fmacs): elements per second",
            "elements/s", [float(loop[1])], command=command)
results.write()
sys.exit(1 if failed else 0)
PY
