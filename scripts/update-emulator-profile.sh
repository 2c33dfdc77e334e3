#!/usr/bin/env bash
# Records the profile the emulator is optimised with,
# runtime/emulator/pgo/emulator.proftext (docs/Performance.md, "How the
# emulator is built"). Builds an instrumented emulator (tessera-run and the
# Python host runtime) in PGO_BUILD_DIR, runs the training programs on it
# and merges what they recorded. Commit the new profile with the change
# that needed it; a profile older than the code only helps less.
#
# usage: scripts/update-emulator-profile.sh [BUILD_DIR]
#   BUILD_DIR (default build): a build whose cslc compiles the programs.
#   PGO_BUILD_DIR (default build-pgo): where the instrumented build goes.
#
# Training programs: every example under examples/ that has a commands.sh,
# run as its commands say, and bench/stencil and bench/gemv at 48x48 (a
# size the benchmarks do not use, large enough that the network fetches
# ahead) for a busy fabric's paths.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
fail() {
  echo "update-emulator-profile: error: $*" >&2
  exit 1
}
build_arg=${1:-build}
[[ -d $build_arg ]] ||
  fail "no build directory '$build_arg' (build first: make build)"
build=$(cd "$build_arg" && pwd)
[[ -x $build/bin/cslc ]] ||
  fail "'$build' has no bin/cslc (build first: make build)"
pgo=${PGO_BUILD_DIR:-$root/build-pgo}
profdata=$(command -v llvm-profdata-22 || echo /usr/lib/llvm-22/bin/llvm-profdata)
[[ -x $profdata ]] ||
  fail "llvm-profdata-22 is missing (scripts/install-deps.sh installs it)"
command -v clang++-22 > /dev/null ||
  fail "clang++-22 is missing (scripts/install-deps.sh installs it)"

mkdir -p "$pgo"
cmake -G Ninja -S "$root" -B "$pgo" -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_C_COMPILER=clang-22 -DCMAKE_CXX_COMPILER=clang++-22 \
  -DTESSERA_EMULATOR_PGO=generate > "$pgo/configure.log"
cmake --build "$pgo" -j "$(nproc)" --target tessera-run \
  TesseraPythonRuntime TesseraPythonPackage

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
export LLVM_PROFILE_FILE="$work/profiles/%p.profraw"
# The instrumented tessera-run and cs_python first; cslc from BUILD_DIR.
export PATH="$pgo/bin:$build/bin:$PATH"

for commands in "$root"/examples/*/commands.sh; do
  example=$(basename "$(dirname "$commands")")
  cp -r "$(dirname "$commands")" "$work/$example"
  echo "training: examples/$example"
  (cd "$work/$example" && bash commands.sh > run.log 2>&1) || {
    tail -n 20 "$work/$example/run.log" >&2
    fail "examples/$example failed (its output above)"
  }
done

train_bench() { # NAME PARAMS
  echo "training: bench/$1 ($2)"
  "$build/bin/cslc" "$root/bench/$1/layout.csl" --arch=wse3 \
    --fabric-dims=48,48 --fabric-offsets=0,0 --params="$2" -o "$work/$1"
  tessera-run "$work/$1" > "$work/$1.log"
}
train_bench stencil w:48,h:48,n:8,iters:4
train_bench gemv w:48,h:48,mb:16,nb:16,reps:2

"$profdata" merge --sparse --text -o "$root/runtime/emulator/pgo/emulator.proftext" \
  "$work"/profiles/*.profraw
echo "wrote runtime/emulator/pgo/emulator.proftext" \
     "($(wc -c < "$root/runtime/emulator/pgo/emulator.proftext") bytes)"
