#!/usr/bin/env python3
"""Feeds truncated and corrupted copies of CSL files to `cslc --emit=ast`.

usage: scripts/stress-parse.py DIR [--per-file N] [--seed S] [--cslc PATH]

Every .csl file under DIR (for instance a local checkout of the public
examples, kept outside this repository) is cut at random points and has
random bytes replaced, inserted or deleted. Each variant must either parse
(exit 0) or be rejected with a diagnostic (exit 1 and 'error:' on stderr);
a signal, another exit code or a time-out is a failure. Prints one line per
failure and a closing 'N passed, M failed'.
"""
import argparse
import os
import random
import subprocess
import sys
import tempfile

NOISE = b"{}()[];,.:=|&*@\"'\\/\n\t 0x9_azAZ"


def variants(data, rng, count):
    for _ in range(count):
        kind = rng.choice(("truncate", "replace", "insert", "delete"))
        if not data:
            yield kind, data
            continue
        pos = rng.randrange(len(data))
        if kind == "truncate":
            yield kind, data[:pos]
        elif kind == "replace":
            yield kind, data[:pos] + bytes([rng.choice(NOISE)]) + data[pos + 1:]
        elif kind == "insert":
            chunk = bytes(rng.choice(NOISE) for _ in range(rng.randint(1, 8)))
            yield kind, data[:pos] + chunk + data[pos:]
        else:
            yield kind, data[:pos] + data[pos + rng.randint(1, 64):]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dir")
    parser.add_argument("--per-file", type=int, default=12)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--cslc", default=os.path.join("build", "bin", "cslc"))
    args = parser.parse_args()

    rng = random.Random(args.seed)
    files = sorted(os.path.join(root, name)
                   for root, _, names in os.walk(args.dir)
                   for name in names if name.endswith(".csl"))
    if not files:
        sys.exit(f"stress-parse: error: no .csl files under '{args.dir}'")
    passed = failed = 0
    with tempfile.TemporaryDirectory() as tmp:
        path = os.path.join(tmp, "variant.csl")
        for source in files:
            with open(source, "rb") as f:
                data = f.read()
            for kind, text in variants(data, rng, args.per_file):
                with open(path, "wb") as f:
                    f.write(text)
                try:
                    p = subprocess.run([args.cslc, "--emit=ast", path],
                                       capture_output=True, timeout=20)
                    ok = p.returncode == 0 or (
                        p.returncode == 1 and b"error:" in p.stderr)
                    why = f"exit {p.returncode}"
                except subprocess.TimeoutExpired:
                    ok, why = False, "timed out"
                if ok:
                    passed += 1
                else:
                    failed += 1
                    keep = os.path.join(tempfile.gettempdir(),
                                        f"stress-parse-failure-{failed}.csl")
                    with open(keep, "wb") as f:
                        f.write(text)
                    print(f"FAIL {source} ({kind}): {why}; input kept in {keep}")
    print(f"{passed} passed, {failed} failed")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
