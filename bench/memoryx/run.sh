#!/usr/bin/env bash
# MemoryX on one core: rebuilding the sparse FP16 copy of a 4096x4096 layer
# and streaming it in forward and transposed order, at 0, 50 and 90 %
# sparsity (nonzeros per second, median of 7 runs): rebuild, refresh,
# visits, wire streams, and refresh plus forward wire stream ("encoding
# plus streaming", issue 10).
# usage: bench/memoryx/run.sh [BUILD_DIR]
set -euo pipefail
build=${1:-build}
"$build/bin/tessera-bench-memoryx" 4096 4096 7
