"""The reference of bench/gemv and a checker for tessera-run's dumps of
`y` on the last column, shared by run.sh's check and
test/python/test_bench_programs.py. A and x hold small integers, so y is
exact in float32 whatever the order of the sums."""
import re

import numpy as np


def _p(r):
    return (5 * r & 15) - 8


def _q(c):
    return (3 * c & 7) - 4


def _t(k):
    return (7 * k & 15) - 7


def matrix(w, h, mb, nb):
    """A as pe.csl's fill makes it (exact in float64 and float32)."""
    rows = np.arange(h * mb, dtype=np.int64)[:, None]
    cols = np.arange(w * nb, dtype=np.int64)[None, :]
    return (_p(rows) + _q(cols) * _t(rows + cols)).astype(np.float64)


def vector(w, nb):
    return _q(np.arange(w * nb, dtype=np.int64)).astype(np.float64)


def solve(w, h, mb, nb):
    return (matrix(w, h, mb, nb) @ vector(w, nb)).astype(np.float32)


def dump_args(w, h):
    return [f"--dump={w - 1},{y},y" for y in range(h)]


def mismatches(text, w, h, mb, nb):
    """Descriptions of every row of PEs whose y differs from the reference
    (an empty list when the run is right)."""
    want = solve(w, h, mb, nb)
    problems = []
    for y in range(h):
        found = re.search(rf"^y@\({w - 1},{y}\) = \[([^\]]*)\]", text, re.M)
        if not found:
            problems.append(f"PE ({w - 1},{y}): no dump of y")
            continue
        got = np.array([float(v) for v in found[1].split(",")],
                       dtype=np.float32)
        part = want[y * mb:(y + 1) * mb]
        if not np.array_equal(got, part):
            problems.append(f"PE ({w - 1},{y}): {got.tolist()} != "
                            f"{part.tolist()}")
    return problems

