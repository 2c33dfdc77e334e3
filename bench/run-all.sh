#!/usr/bin/env bash
# `make bench`: runs every benchmark under bench/ (each bench/<name>/run.sh)
# against BUILD_DIR and prints what each measured. Results are reported by
# hand in docs/Performance.md with the machine and command.
set -euo pipefail
build_dir=$(cd "${1:-build}" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
echo "machine: $(nproc) cores, $(free -g | awk '/Mem:/ {print $2}') GiB," \
     "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
for script in "$here"/*/run.sh; do
  name=$(basename "$(dirname "$script")")
  echo
  echo "== bench: $name"
  bash "$script" "$build_dir"
done
