#!/usr/bin/env python3
"""Runs every cslc command line of a checkout of the public CSL examples in
place (so relative imports such as ../../benchmark-libs resolve) and prints
one line per command with its wall time and the first error of the failing
ones, then 'N passed, M failed'.

With `--emit=mlir` (the default) each line runs with `--emit=mlir` instead
of `-o`; with `--emit=binary` it writes its output directory under
`--out` (a fresh temporary directory by default), and passes when cslc
succeeds, out.json is there and every binary and the fabric file read back
with tessera-objdump.

usage: scripts/examples-cslc.py CHECKOUT [--cslc build/bin/cslc]
           [--arch wse3] [--emit mlir|binary] [--out DIR]
           [--only tutorials|benchmarks]
"""
import argparse
import os
import shlex
import subprocess
import sys
import tempfile
import time


def command_script(example, arch):
    other = "wse2" if arch == "wse3" else "wse3"
    for name in (f"commands_{arch}.sh", "commands.sh", f"commands_{other}.sh"):
        if os.path.isfile(os.path.join(example, name)):
            return os.path.join(example, name)
    return None


def cslc_lines(script):
    text = open(script).read().replace("\\\n", " ")
    return [shlex.split(line.strip())[1:] for line in text.splitlines()
            if line.strip().startswith("cslc ")]


def without_output(args):
    kept, skip = [], False
    for arg in args:
        if skip:
            skip = False
        elif arg == "-o":
            skip = True
        elif not arg.startswith("-o="):
            kept.append(arg)
    return kept


def check_output_dir(out, objdump):
    """None when `out` holds out.json and readable binaries, else a failed
    CompletedProcess describing the first problem."""
    if not os.path.isfile(os.path.join(out, "out.json")):
        return subprocess.CompletedProcess([], 1, "", "error: no out.json")
    files = [os.path.join(out, "fabric.tfab")] + [
        os.path.join(out, "bin", f)
        for f in sorted(os.listdir(os.path.join(out, "bin")))]
    for path in files:
        run = subprocess.run([objdump, path], capture_output=True, text=True)
        if run.returncode != 0:
            return run
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("checkout")
    parser.add_argument("--cslc", default=os.path.join("build", "bin", "cslc"))
    parser.add_argument("--arch", default="wse3")
    parser.add_argument("--emit", choices=["mlir", "binary"], default="mlir")
    parser.add_argument("--out")
    parser.add_argument("--only", choices=["tutorials", "benchmarks"])
    options = parser.parse_args()
    cslc = os.path.abspath(options.cslc)
    objdump = os.path.join(os.path.dirname(cslc), "tessera-objdump")
    out_root = options.out or tempfile.mkdtemp(prefix="examples-cslc-")
    passed = failed = 0
    groups = [options.only] if options.only else ["tutorials", "benchmarks"]
    for group in groups:
        root = os.path.join(options.checkout, group)
        for name in sorted(os.listdir(root)) if os.path.isdir(root) else []:
            example = os.path.join(root, name)
            script = command_script(example, options.arch)
            if name == "benchmark-libs" or not script:
                continue
            for i, args in enumerate(cslc_lines(script)):
                label = name if i == 0 else f"{name}#{i + 1}"
                out = os.path.join(out_root, label.replace("#", "_"))
                extra = (["--emit=mlir"] if options.emit == "mlir"
                         else ["-o", out])
                start = time.monotonic()
                run = subprocess.run([cslc] + without_output(args) + extra,
                                     cwd=example, capture_output=True,
                                     text=True)
                seconds = time.monotonic() - start
                if run.returncode == 0 and options.emit == "binary":
                    run = check_output_dir(out, objdump) or run
                if run.returncode == 0:
                    passed += 1
                    print(f"PASS {label} {seconds:.2f}s")
                    continue
                failed += 1
                errors = [l for l in run.stderr.splitlines() if "error:" in l]
                print(f"FAIL {label} {errors[0] if errors else run.stderr[-200:]}")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


if __name__ == "__main__":
    sys.exit(main())
