#!/usr/bin/env bash
# Emulator throughput on one core: the router network (wavelet-hops per
# second) and the DSD engine (fmacs against a plain C++ loop).
# usage: bench/emulator/run.sh [BUILD_DIR] [large]
# `large` adds the 750x994 fabric with all 745,500 PEs streaming (about
# 20 s and 0.35 GB more).
set -euo pipefail
build=${1:-build}
"$build/bin/tessera-router-bench" rows 64 64 20000
"$build/bin/tessera-router-bench" mixed 64 64 10000
if [[ "${2:-}" == large ]]; then
  "$build/bin/tessera-router-bench" rows 750 994 200
fi
"$build/bin/tessera-dsd-bench" 2048 7
