#!/usr/bin/env bash
# Times the flow router, color assigner, table builder and verifier on
# 200 flows over a 64x64 mesh (at three link capacities) and 3200 flows over
# 256x256: the hidden [.bench] case of RoutingTests (docs/FlowRouting.md),
# RUNS times (default 3). Writes $BENCH_RESULTS_DIR/routing.json when that
# is set (bench/run-all.sh).
# usage: bench/routing/run.sh [BUILD_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-build}" && pwd)
echo "command: $build/unittests/RoutingTests '[.bench]'"
exec /usr/bin/python3 - "$here/../lib" "$build" <<'PY'
import os, re, sys
sys.path.insert(0, sys.argv[1])
import benchlib
build = sys.argv[2]
tool = f"{build}/unittests/RoutingTests"
command = f"{os.path.relpath(tool)} '[.bench]'"
cases = {}
for _ in range(benchlib.runs_setting(3)):
    wall, peak, rc, text, err = benchlib.timed([tool, "[.bench]"])
    print(text, end="")
    if rc != 0:
        sys.exit(f"RoutingTests failed (exit {rc})\n{err[-2000:]}")
    # "64x64, 200 flows, 21 flows per link: iterations 1, ..." then
    # "  route 0.059 s, color 0.014 s, tables 0.003 s, verify 0.030 s"
    for case, phases in re.findall(r"^(\S.*?): iterations.*\n\s+(route .*)$",
                                   text, re.M):
        for phase, seconds in re.findall(r"(\w+) ([0-9.]+) s", phases):
            cases.setdefault((case, phase), []).append(float(seconds))
results = benchlib.Results("routing")
for (case, phase), runs in cases.items():
    key = re.sub(r"[^a-z0-9]+", "_", case.lower()).strip("_")
    results.add(f"{key}.{phase}", f"flow routing, {case}: {phase}", "s", runs,
                better="lower", command=command)
results.write()
PY
