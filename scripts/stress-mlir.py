#!/usr/bin/env python3
"""Mutates the public CSL examples and checks that `cslc --emit=mlir` (or,
with `--emit binary`, the whole compile to an output directory) never
crashes or reports an internal error on them: each run copies the checkout,
deletes, duplicates or swaps one line of one of an example's .csl files,
replaces the numbers on a line or one name by another of the file, and runs the example's first cslc command
line. Exit codes 0 and 1 (a diagnosed user error) pass; anything else, or
'internal error' in the output, is printed as CRASH.

usage: scripts/stress-mlir.py CHECKOUT [--seed N] [--runs N] [--cslc PATH]
           [--emit mlir|binary]
"""
import argparse
import importlib.machinery
import importlib.util
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
loader = importlib.machinery.SourceFileLoader(
    "examples_cslc", os.path.join(HERE, "examples-cslc.py"))
spec = importlib.util.spec_from_loader("examples_cslc", loader)
examples = importlib.util.module_from_spec(spec)
loader.exec_module(examples)


def mutate(lines, rng):
    i = rng.randrange(len(lines))
    kind = rng.choice(["delete", "duplicate", "swap", "numbers", "rename"])
    if kind == "delete":
        del lines[i]
    elif kind == "duplicate":
        lines.insert(i, lines[rng.randrange(len(lines))])
    elif kind == "swap":
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    elif kind == "numbers":
        lines[i] = re.sub(r"\b\d+\b", lambda _: str(rng.choice(
            [0, 1, 7, 24, 31, 65535, 99999])), lines[i])
    else:
        # One name on the line becomes another name of the file.
        names = re.findall(r"[A-Za-z_]\w*", "\n".join(lines))
        words = list(re.finditer(r"[A-Za-z_]\w*", lines[i]))
        if names and words:
            word = rng.choice(words)
            lines[i] = (lines[i][:word.start()] + rng.choice(names) +
                        lines[i][word.end():])
    return f"{kind} line {i + 1}"


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("checkout")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--runs", type=int, default=100)
    parser.add_argument("--cslc", default=os.path.join("build", "bin", "cslc"))
    parser.add_argument("--emit", choices=["mlir", "binary"], default="mlir")
    options = parser.parse_args()
    cslc = os.path.abspath(options.cslc)
    checkout = os.path.abspath(options.checkout)
    rng = random.Random(options.seed)
    cases = []
    for group in ("tutorials", "benchmarks"):
        root = os.path.join(checkout, group)
        for name in sorted(os.listdir(root)) if os.path.isdir(root) else []:
            example = os.path.join(root, name)
            script = examples.command_script(example, "wse3")
            lines = examples.cslc_lines(script) if script else []
            if name != "benchmark-libs" and lines:
                cases.append((os.path.relpath(example, checkout),
                              examples.without_output(lines[0])))
    work = tempfile.mkdtemp(prefix="stress-mlir-")
    crashes = 0
    try:
        for _ in range(options.runs):
            relative, args = rng.choice(cases)
            copy = os.path.join(work, "checkout")
            shutil.rmtree(copy, ignore_errors=True)
            shutil.copytree(checkout, copy,
                            ignore=shutil.ignore_patterns(".git"))
            example = os.path.join(copy, relative)
            files = sorted(os.path.join(d, f) for d, _, names in
                           os.walk(example) for f in names
                           if f.endswith(".csl"))
            path = rng.choice(files)
            lines = open(path).read().split("\n")
            what = mutate(lines, rng)
            open(path, "w").write("\n".join(lines))
            extra = (["--emit=mlir"] if options.emit == "mlir"
                     else ["-o", os.path.join(work, "out")])
            run = subprocess.run([cslc] + args + extra, cwd=example,
                                 capture_output=True, text=True, timeout=120)
            if run.returncode in (0, 1) and "internal error" not in run.stderr:
                continue
            crashes += 1
            print(f"CRASH {relative} {os.path.relpath(path, example)} {what}: "
                  f"exit {run.returncode}: {run.stderr[-300:]!r}")
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"{options.runs} runs, {crashes} crashes")
    return 1 if crashes else 0


if __name__ == "__main__":
    sys.exit(main())
