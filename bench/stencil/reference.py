"""The numpy reference of bench/stencil and a checker for tessera-run's
dumps of it, shared by run.sh's check and test/python/test_bench_programs.py.

The reference does the device's float32 operations in the device's order,
so a correct run matches it bit for bit."""
import re

import numpy as np


def initial(w, h, n):
    """The (h*n + 2) x (w*n + 2) grid with its zero border, as pe.csl's
    start task fills it."""
    grid = np.zeros((h * n + 2, w * n + 2), dtype=np.float32)
    rows = np.arange(h * n, dtype=np.int64)[:, None]
    cols = np.arange(w * n, dtype=np.int64)[None, :]
    grid[1:-1, 1:-1] = (7 * rows) % 17 + (13 * cols) % 17
    return grid


def solve(w, h, n, iters):
    grid = initial(w, h, n)
    quarter, half = np.float32(0.125), np.float32(0.5)
    for _ in range(iters):
        inner = grid[:-2, 1:-1] + grid[2:, 1:-1]
        inner = inner + grid[1:-1, :-2]
        inner = inner + grid[1:-1, 2:]
        inner = inner * quarter
        inner = inner + grid[1:-1, 1:-1] * half
        grid[1:-1, 1:-1] = inner
    return grid


def parse_dumps(text, symbol):
    """{(x, y): float32 array} from tessera-run's `SYMBOL@(X,Y) = [...]`
    lines."""
    found = {}
    pattern = re.escape(symbol) + r"@\((\d+),(\d+)\) = \[([^\]]*)\]"
    for x, y, values in re.findall(pattern, text):
        found[(int(x), int(y))] = np.array(
            [float(v) for v in values.split(",")], dtype=np.float32)
    return found


def dump_args(w, h):
    return [f"--dump={x},{y},u" for y in range(h) for x in range(w)]


def mismatches(text, w, h, n, iters):
    """Descriptions of every PE whose block differs from the reference (an
    empty list when the run is right)."""
    grid = solve(w, h, n, iters)
    dumps = parse_dumps(text, "u")
    problems = []
    for y in range(h):
        for x in range(w):
            got = dumps.get((x, y))
            if got is None or got.size != (n + 2) * (n + 2):
                problems.append(f"PE ({x},{y}): no dump of u")
                continue
            block = got.reshape(n + 2, n + 2)[1:-1, 1:-1]
            want = grid[1 + y * n:1 + (y + 1) * n, 1 + x * n:1 + (x + 1) * n]
            if not np.array_equal(block, want):
                problems.append(f"PE ({x},{y}): {block.tolist()} != "
                                f"{want.tolist()}")
    return problems

