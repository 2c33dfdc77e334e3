#!/usr/bin/env bash
# Profiles tessera-run on bench/stencil at a small size under callgrind and
# prints the top functions by self and by inclusive instruction count
# (callgrind_annotate). Not part of `make bench` unless BENCH_PROFILE=1 or
# BENCH_ONLY names it: under callgrind the emulator runs about 50 times
# slower. docs/Performance.md ("Profile of the emulator") summarises it.
# usage: bench/profile/run.sh [BUILD_DIR] [W H N ITERS]
#   default 8x8 PEs, 8x8 blocks, 10 iterations; PROFILE_OUT=DIR keeps
#   callgrind.out there (for kcachegrind or callgrind_annotate --tree).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
build=$(cd "${1:-build}" && pwd)
w=${2:-8}
h=${3:-8}
n=${4:-8}
iters=${5:-10}
top=${TOP:-20}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
out_dir=${PROFILE_OUT:-$work}
mkdir -p "$out_dir"
"$build/bin/cslc" "$here/../stencil/layout.csl" --arch=wse3 \
  --fabric-dims="$w,$h" --fabric-offsets=0,0 \
  --params="w:$w,h:$h,n:$n,iters:$iters" -o "$work/out"
echo "command: valgrind --tool=callgrind $build/bin/tessera-run OUT" \
     "(bench/stencil, w:$w,h:$h,n:$n,iters:$iters)"
valgrind --tool=callgrind --callgrind-out-file="$out_dir/callgrind.out" \
  "$build/bin/tessera-run" "$work/out" > "$work/run.txt" 2> "$work/valgrind.txt"
grep -E '^(cycles|instructions|dsd elements|tasks run):' "$work/run.txt"
# Drop what callgrind_annotate adds around a name without debug info
# ("???:" and the object) and the emulator's namespace.
trim() {
  sed -E 's/ \[[^]]*\]$//; s/\?\?\?://; s/tessera::emulator:://g'
}
echo
echo "== top $top by self cost (instructions)"
callgrind_annotate "$out_dir/callgrind.out" 2>/dev/null |
  awk '/^-+$/ {n++} n >= 4 && /\(/' | head -n "$top" | trim
echo
echo "== top $top by inclusive cost"
callgrind_annotate --inclusive=yes "$out_dir/callgrind.out" 2>/dev/null |
  awk '/^-+$/ {n++} n >= 4 && /\(/' | head -n "$top" | trim
