"""The weight-streaming example (examples/weight-streaming) in its small
configuration: every emulated step equals the numpy reference, the loss
falls, and sparsity cuts the cycles per step. The reference itself is
checked against a plain float64 computation of the same network. With
--systems N behind a SwarmX, the run matches the one-system run on the same
whole batches."""

import contextlib
import io
import os
import sys
import unittest

import numpy as np

EXAMPLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..",
                       "..", "examples", "weight-streaming")
sys.path.insert(0, os.path.abspath(EXAMPLE))

import reference  # noqa: E402
import train  # noqa: E402
from tessera import memoryx as mx  # noqa: E402


def quiet(*_):
    pass


# Runs shared by the test classes, by their arguments.
_RUNS = {}


def small_run(*argv):
    argv = ("--small",) + argv
    if argv not in _RUNS:
        _RUNS[argv] = train.run(train.parse_args(list(argv)), log=quiet)
    return _RUNS[argv]


class TrainTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.runs = {s: small_run("--sparsity", str(s)) for s in (0.0, 0.9)}

    def test_every_step_matches_the_reference(self):
        for sparsity, history in self.runs.items():
            args = train.parse_args(["--small"])
            steps = args.epochs * (160 // args.batch)
            self.assertEqual(history["steps_checked"], steps)
            self.assertEqual(len(history["step_error"]), steps)
            for error in history["step_error"]:
                self.assertLessEqual(error, train.TOLERANCE,
                                     f"sparsity {sparsity}")

    def test_loss_decreases(self):
        dense = self.runs[0.0]["epoch_loss"]
        for earlier, later in zip(dense, dense[1:]):
            self.assertLess(later, earlier)
        sparse = self.runs[0.9]["epoch_loss"]
        self.assertLess(sparse[-1], sparse[0])

    def test_sparsity_cuts_cycles(self):
        dense = np.mean(self.runs[0.0]["step_cycles"])
        sparse = np.mean(self.runs[0.9]["step_cycles"])
        self.assertLess(sparse, dense)
        self.assertLess(np.mean(self.runs[0.9]["weight_words"]),
                        np.mean(self.runs[0.0]["weight_words"]))


# The master weights of N systems against one after the 30 small steps,
# relative to the largest weight. The gradients differ in the last bits
# (another summation order), which the steps carry into the weights; they
# measure about 2e-7.
WEIGHT_TOLERANCE = 1e-5


class SwarmTrainTest(unittest.TestCase):
    """2 systems of 8 samples (dense), and 4 systems of 4 under fan-out 3
    (90 % sparse), against one system on the same batches of 16."""

    CASES = ((("--sparsity", "0.0"), 2, 2), (("--sparsity", "0.9"), 4, 3))

    @classmethod
    def setUpClass(cls):
        cls.pairs = [(small_run(*argv), small_run(
            *argv, "--systems", str(n), "--fanout", str(fanout)), n)
            for argv, n, fanout in cls.CASES]

    def test_every_step_matches_both_references(self):
        for one, many, n in self.pairs:
            with self.subTest(systems=n):
                self.assertEqual(many["steps_checked"], 30)
                # Exactly the arithmetic of the shards and the tree ...
                self.assertLessEqual(max(many["step_error"]),
                                     train.TOLERANCE)
                # ... and the whole batch on one system within rounding.
                self.assertEqual(len(many["whole_batch_error"]), 30)
                self.assertLessEqual(max(many["whole_batch_error"]),
                                     train.SWARM_TOLERANCE)

    def test_weights_match_the_one_system_run(self):
        for one, many, n in self.pairs:
            for name, want in one["master"].items():
                with self.subTest(systems=n, layer=name):
                    got = many["master"][name]
                    scale = np.max(np.abs(want))
                    self.assertLessEqual(np.max(np.abs(got - want)) / scale,
                                         WEIGHT_TOLERANCE)
            np.testing.assert_allclose(many["epoch_loss"],
                                       one["epoch_loss"], rtol=1e-5)

    def test_cycles_per_system(self):
        for one, many, n in self.pairs:
            with self.subTest(systems=n):
                for cycles, slowest, total in zip(
                        many["system_cycles"], many["step_cycles"],
                        many["step_cycles_total"]):
                    self.assertEqual(len(cycles), n)
                    self.assertEqual(slowest, max(cycles))
                    self.assertEqual(total, sum(cycles))
                # A shard of the batch takes no longer than the whole.
                self.assertLess(np.mean(many["step_cycles"]),
                                np.mean(one["step_cycles"]))

    def test_memoryx_sees_one_system(self):
        # Through the root: MemoryX's streams once, the gradients once.
        for one, many, n in self.pairs:
            down, up = many["root_words"]
            self.assertEqual(down, one["root_words"][0])
            self.assertEqual(up, one["root_words"][1])
            self.assertGreater(up, 0)

    def test_batch_must_split_evenly(self):
        for argv, message in (
                (["--systems", "3"],
                 "--batch 16 does not split evenly over 3 systems"),
                (["--systems", "16"],
                 "each system's shard of 1 samples does not split over 2 "
                 "PE rows"),
                (["--systems", "0"], "--systems must be at least 1, got 0"),
                (["--fanout", "1"], "--fanout must be at least 2, got 1")):
            err = io.StringIO()
            with self.assertRaises(SystemExit), \
                    contextlib.redirect_stderr(err):
                train.parse_args(["--small"] + argv)
            self.assertTrue(err.getvalue().endswith(
                f"error: {message}\n"), err.getvalue())


class ReferenceTest(unittest.TestCase):
    def test_reference_is_the_gradient(self):
        # The reference's float32 chains against float64 backpropagation
        # through the same FP16 weights and masks.
        rng = np.random.default_rng(5)
        n_in, n_hid, n_out, batch, cols, rows = 12, 6, 10, 8, 3, 2
        store = mx.WeightStore()
        layers = []
        for name, shape in (("a", (n_hid, n_in)), ("b", (n_out, n_hid))):
            w = rng.normal(0, 0.5, shape).astype(np.float32)
            mask = rng.random(shape) < 0.6
            layers.append(store.add_layer(name, weights=w, mask=mask,
                                          gradient_mask=mask))
        l1, l2 = layers
        x = rng.random((batch, n_in)).astype(np.float32)
        labels = rng.integers(0, n_out, batch)
        logits, loss, g1, g2 = reference.step(
            x, labels, l1.forward(), l2.forward(), l2.transposed(),
            l1.gradient_mask, l2.gradient_mask, cols, rows)

        w1 = l1.forward().to_dense().astype(np.float64)
        w2 = l2.forward().to_dense().astype(np.float64)
        h = np.maximum(x @ w1.T, 0)
        z = h @ w2.T
        p = np.exp(z - z.max(axis=1, keepdims=True))
        p /= p.sum(axis=1, keepdims=True)
        want_loss = -np.mean(np.log(p[np.arange(batch), labels]))
        dz = p.copy()
        dz[np.arange(batch), labels] -= 1
        dz /= batch
        dh = (dz @ w2) * (h > 0)
        np.testing.assert_allclose(logits, z, rtol=1e-5, atol=1e-6)
        self.assertAlmostEqual(loss, want_loss, places=5)
        np.testing.assert_allclose(g2, (dz.T @ h)[l2.gradient_mask],
                                   rtol=1e-4, atol=1e-6)
        np.testing.assert_allclose(g1, (dh.T @ x)[l1.gradient_mask],
                                   rtol=1e-4, atol=1e-6)


if __name__ == "__main__":
    unittest.main()
