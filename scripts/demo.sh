#!/usr/bin/env bash
# `make demo`: compiles examples/hello with cslc and runs it on the emulator,
# stage by stage, saying what each stage did. A stage that cslc reports as
# "not supported yet" ends the demo there with a summary; any other failure
# is a real error and fails the demo. A stage whose input needs a library
# module that is not written yet ("is not available yet") ends it the same way.
set -uo pipefail
build_dir=$(cd "${1:-build}" && pwd)
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$build_dir/bin"
example="$root/examples/hello"
work="$build_dir/demo"
rm -rf "$work" && mkdir -p "$work"

flags=(--arch=wse2 --fabric-dims=11,3 --fabric-offsets=4,1
       --params=width:4,size:8 --memcpy --channels=1)
done_stages=()

# run_stage NAME DESCRIPTION COMMAND...: 0 = done, 2 = not available yet.
run_stage() {
  local name=$1 description=$2
  shift 2
  echo
  echo "== $name: $description"
  echo "\$ ${*/#$root\//}"
  local log="$work/$name-${#done_stages[@]}.log"
  (cd "$work" && "$@") >"$log" 2>&1
  local status=$?
  if [[ $status -eq 0 ]]; then
    head -n 12 "$log"
    local lines
    lines=$(wc -l <"$log")
    [[ $lines -gt 12 ]] && echo "... ($lines lines in total, see ${log#$root/})"
    # A stage of several steps (parse: layout, then PE code) is listed once.
    [[ " ${done_stages[*]} " == *" $name "* ]] || done_stages+=("$name")
    return 0
  fi
  if grep -qE "is not (supported|available) yet" "$log"; then
    cat "$log"
    return 2
  fi
  cat "$log"
  echo "demo: stage '$name' failed (exit $status)" >&2
  exit 1
}

summary() {
  echo
  echo "== demo summary"
  echo "stages done: ${done_stages[*]:-none}"
  if [[ $# -gt 0 ]]; then
    echo "stopped at '$1': it needs a part this build of Tessera does not have yet"
    echo "(named in the message above);"
    echo "the remaining stages ($2) follow once it does"
  else
    echo "hello compiled with cslc and ran on the emulator"
  fi
}

echo "Tessera demo: examples/hello on a 4x1 rectangle"
"$bin/cslc" --version | head -n 1

stages=(parse semantics compile run)
run_stage parse "parse the top-level layout file into a syntax tree" \
  "$bin/cslc" --emit=ast "$example/layout.csl" "${flags[@]}"
[[ $? -eq 2 ]] && { summary parse "${stages[*]:1}"; exit 0; }
run_stage parse "parse the PE program" \
  "$bin/cslc" --emit=ast "$example/pe_program.csl"
[[ $? -eq 2 ]] && { summary parse "${stages[*]:1}"; exit 0; }

run_stage semantics "comptime evaluation and layout elaboration into MLIR" \
  "$bin/cslc" --emit=mlir "$example/layout.csl" "${flags[@]}"
[[ $? -eq 2 ]] && { summary semantics "${stages[*]:2}"; exit 0; }

run_stage compile "write PE binaries and router tables" \
  "$bin/cslc" "$example/layout.csl" "${flags[@]}" -o "$work/out" --verbose
[[ $? -eq 2 ]] && { summary compile "${stages[*]:3}"; exit 0; }
run_stage compile "read the fabric file back" \
  "$bin/tessera-objdump" "$work/out/fabric.tfab"
run_stage compile "disassemble the binary of PE (0, 0), with source lines" \
  "$bin/tessera-objdump" "$work/out/bin/pe_program.tpeb"

# A program that needs no host runs on the emulator with tessera-run.
row_sum="$root/examples/row-sum"
run_stage run "compile examples/row-sum (a chain reduction, no host)" \
  "$bin/cslc" "$row_sum/layout.csl" --arch=wse2 --fabric-dims=8,1 \
  --fabric-offsets=0,0 -o "$work/row-sum"
run_stage run "run it on the emulator: the last PE prints the sum" \
  "$bin/tessera-run" "$work/row-sum" --dump=7,0,total

if [[ ! -x "$bin/cs_python" ]]; then
  echo
  echo "== run: hello needs cs_python (the host runtime), not built yet"
  summary run "run of hello through its host script"
  exit 0
fi
run_stage run "run on the emulator through the host runtime" \
  "$bin/cs_python" "$example/run.py" --name "$work/out"
summary
