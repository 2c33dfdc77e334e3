#!/usr/bin/env bash
# The dialect reference in docs/Dialects/ is generated from the ODS files by
# the build (into BUILD/docs/Dialects). `--check` fails when the committed copy
# is stale; without it the generated pages are copied into docs/Dialects/.
set -euo pipefail
mode=copy
if [[ ${1:-} == --check ]]; then
  mode=check
  shift
fi
build_dir=${1:-build}
root=$(cd "$(dirname "$0")/.." && pwd)
generated="$build_dir/docs/Dialects"
committed="$root/docs/Dialects"

if [[ ! -d $generated ]]; then
  echo "sync-dialect-docs: error: $generated does not exist; build first" >&2
  exit 1
fi
if [[ $mode == copy ]]; then
  rm -rf "$committed"
  mkdir -p "$committed"
  cp "$generated"/*.md "$committed"/
  echo "sync-dialect-docs: updated docs/Dialects from $generated"
  exit 0
fi
if ! diff -r "$generated" "$committed" >/dev/null 2>&1; then
  diff -r "$generated" "$committed" | head -n 20
  echo "sync-dialect-docs: error: docs/Dialects is out of date with the .td" \
       "files; run 'make docs' and commit the result" >&2
  exit 1
fi
echo "sync-dialect-docs: docs/Dialects matches the .td files"
