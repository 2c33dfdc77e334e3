#!/usr/bin/env bash
# Times the flow router, color assigner, table builder and verifier on
# 200 flows over a 64x64 mesh (at three link capacities) and 3200 flows over
# 256x256: the hidden [.bench] case of RoutingTests (docs/FlowRouting.md).
# usage: bench/routing/run.sh [BUILD_DIR]
set -euo pipefail
build=$(cd "${1:-build}" && pwd)
echo "command: $build/unittests/RoutingTests '[.bench]'"
"$build/unittests/RoutingTests" '[.bench]'
