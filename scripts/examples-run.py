#!/usr/bin/env python3
"""Runs every example of a checkout of the public CSL examples through its own
commands script, unchanged, with Tessera's cslc and cs_python first on PATH,
and reports per example: pass or fail, the emulated cycles and the host
seconds, and for a failure the last line it printed.

The checkout is copied whole to a scratch directory first, so the examples
that import ../../benchmark-libs find it, and the checkout is never written.
Each SdkRuntime of a run appends its figures to a file named by
TESSERA_STATS (docs/HostRuntime.md); an example's cycles are the sum over its
runs (an example's script may run several).

An example passes when its script exits 0 and prints SUCCESS; an example
whose Python scripts never print SUCCESS (bandwidth-test,
row-col-broadcast: they assert and print figures) passes on exit status 0.

usage: scripts/examples-run.py CHECKOUT [--bin build/bin] [--arch wse3]
           [--only NAME,...] [--timeout S] [--markdown FILE]
"""
import argparse
import glob
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time


def command_script(example, arch):
    other = "wse2" if arch == "wse3" else "wse3"
    for name in (f"commands_{arch}.sh", "commands.sh", f"commands_{other}.sh"):
        if os.path.isfile(os.path.join(example, name)):
            return name
    return None


def prints_success(example):
    """Whether any of the example's Python scripts can print SUCCESS."""
    for path in glob.glob(os.path.join(example, "**", "*.py"), recursive=True):
        with open(path, errors="replace") as f:
            if "SUCCESS" in f.read():
                return True
    return False


def examples(root):
    found = []
    for group in ("tutorials", "benchmarks"):
        directory = os.path.join(root, group)
        if not os.path.isdir(directory):
            continue
        for name in sorted(os.listdir(directory)):
            path = os.path.join(directory, name)
            if name != "benchmark-libs" and os.path.isdir(path):
                found.append(path)
    return found


def last_line(text):
    lines = [line for line in text.strip().splitlines() if line.strip()]
    return lines[-1].strip()[:200] if lines else ""


def run_example(path, script, bindir, timeout):
    stats = os.path.join(path, ".tessera-stats.jsonl")
    env = dict(os.environ)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    env["TESSERA_STATS"] = stats
    start = time.time()
    try:
        done = subprocess.run(["bash", script], cwd=path, env=env,
                              capture_output=True, text=True, timeout=timeout)
        code, output = done.returncode, done.stdout + done.stderr
    except subprocess.TimeoutExpired:
        code, output = 124, f"timed out after {timeout} s"
    seconds = time.time() - start
    cycles, runs = 0, 0
    if os.path.isfile(stats):
        with open(stats) as f:
            for line in f:
                cycles += json.loads(line)["cycles"]
                runs += 1
    return code, output, seconds, cycles, runs


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("checkout")
    parser.add_argument("--bin", default=os.path.join("build", "bin"))
    parser.add_argument("--arch", default="wse3")
    parser.add_argument("--only", default="")
    parser.add_argument("--timeout", type=int, default=600)
    parser.add_argument("--markdown")
    args = parser.parse_args()
    bindir = os.path.abspath(args.bin)
    only = [name for name in args.only.split(",") if name]

    scratch = tempfile.mkdtemp(prefix="tessera-examples-")
    copy = os.path.join(scratch, "checkout")
    shutil.copytree(args.checkout, copy, ignore=shutil.ignore_patterns(".git"))
    rows = []
    try:
        for path in examples(copy):
            name = os.path.basename(path)
            if only and name not in only:
                continue
            script = command_script(path, args.arch)
            if script is None:
                continue
            code, output, seconds, cycles, runs = run_example(
                path, script, bindir, args.timeout)
            needs_success = prints_success(path)
            passed = code == 0 and ("SUCCESS" in output or not needs_success)
            if not passed:
                note = f"exit {code}: {last_line(output)}"
            elif not needs_success:
                note = "prints no SUCCESS line: passes on exit status 0"
            else:
                note = ""
            rows.append((name, passed, cycles, runs, seconds, note))
            print(f"{'PASS' if passed else 'FAIL'} {name} {cycles} cycles "
                  f"({runs} runs) {seconds:.1f}s {note}", flush=True)
    finally:
        shutil.rmtree(scratch, ignore_errors=True)

    if args.markdown:
        with open(args.markdown, "w") as f:
            f.write("| example | run | emulated cycles | host seconds | note |\n"
                    "|---|---|---|---|---|\n")
            for name, passed, cycles, runs, seconds, note in rows:
                shown = f"{cycles:,}" if runs else "-"
                if runs > 1:
                    shown += f" ({runs} runs)"
                f.write(f"| {name} | {'pass' if passed else 'FAIL'} | {shown} "
                        f"| {seconds:.1f} | {note.replace('|', '/')} |\n")
    passed = sum(1 for row in rows if row[1])
    print(f"{passed} passed, {len(rows) - passed} failed")
    return 0 if passed == len(rows) else 1


if __name__ == "__main__":
    sys.exit(main())
