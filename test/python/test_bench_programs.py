"""bench/stencil and bench/gemv, the programs `make bench` times, compiled
at 4x4 (and a non-square fabric) and run on the emulator: every PE's block
of the stencil grid and every row block of y equal their references
(bench/<program>/reference.py) exactly."""

import importlib.util
import os
import subprocess
import tempfile
import unittest

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))
# The built package is first on PYTHONPATH (test/python/CMakeLists.txt);
# the tools are beside it.
BIN = os.path.join(os.path.dirname(
    os.environ["PYTHONPATH"].split(os.pathsep)[0]), "bin")


def reference(program):
    path = os.path.join(ROOT, "bench", program, "reference.py")
    spec = importlib.util.spec_from_file_location(f"{program}_ref", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def compile_and_run(program, w, h, params, dumps):
    with tempfile.TemporaryDirectory() as work:
        out = os.path.join(work, "out")
        text = ",".join(f"{k}:{v}" for k, v in dict(w=w, h=h, **params).items())
        subprocess.run([os.path.join(BIN, "cslc"),
                        os.path.join(ROOT, "bench", program, "layout.csl"),
                        "--arch=wse3", f"--fabric-dims={w},{h}",
                        "--fabric-offsets=0,0", f"--params={text}", "-o", out],
                       check=True, capture_output=True, text=True)
        run = subprocess.run([os.path.join(BIN, "tessera-run"), out] + dumps,
                             capture_output=True, text=True)
        return run.returncode, run.stdout


class StencilTest(unittest.TestCase):
    ref = reference("stencil")

    def check(self, w, h, n, iters):
        status, text = compile_and_run("stencil", w, h,
                                       {"n": n, "iters": iters},
                                       self.ref.dump_args(w, h))
        self.assertEqual(status, 0, text)
        self.assertIn("finished: idle", text)
        self.assertEqual(self.ref.mismatches(text, w, h, n, iters), [])
        return text

    def test_4x4_matches_reference(self):
        text = self.check(4, 4, 4, 5)
        # 5 exchanges; every PE sends 4 lines of 4 to each neighbour.
        links = 2 * (3 * 4) * 2  # directed links between neighbours
        self.assertIn(f"wavelets sent: {5 * links * 4:,}", text)

    def test_non_square_fabric_and_blocks(self):
        self.check(3, 2, 3, 4)

    def test_reference_moves_heat(self):
        # The reference itself: a step changes the grid, and one point
        # inside the zero border keeps half its value.
        start = self.ref.initial(2, 2, 4)
        self.assertFalse((self.ref.solve(2, 2, 4, 1) == start).all())
        self.assertEqual(float(self.ref.solve(1, 1, 1, 1)[1, 1]),
                         float(start[1, 1]) * 0.5)


class GemvTest(unittest.TestCase):
    ref = reference("gemv")

    def check(self, w, h, mb, nb, reps):
        status, text = compile_and_run("gemv", w, h,
                                       {"mb": mb, "nb": nb, "reps": reps},
                                       self.ref.dump_args(w, h))
        self.assertEqual(status, 0, text)
        self.assertIn("finished: idle", text)
        self.assertEqual(self.ref.mismatches(text, w, h, mb, nb), [])

    def test_4x4_matches_reference(self):
        self.check(4, 4, 8, 8, 2)

    def test_non_square_fabric_and_blocks(self):
        self.check(3, 5, 5, 3, 1)

    def test_reference_is_a_plain_product(self):
        a = self.ref.matrix(2, 1, 3, 2)
        x = self.ref.vector(2, 2)
        want = [sum(a[r, c] * x[c] for c in range(4)) for r in range(3)]
        self.assertEqual(self.ref.solve(2, 1, 3, 2).tolist(), want)


if __name__ == "__main__":
    unittest.main()
