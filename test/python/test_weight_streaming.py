"""The weight-streaming example (examples/weight-streaming) in its small
configuration: every emulated step equals the numpy reference, the loss
falls, and sparsity cuts the cycles per step. The reference itself is
checked against a plain float64 computation of the same network."""

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


class TrainTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.runs = {s: train.run(train.parse_args(["--small", "--sparsity",
                                                   str(s)]), log=quiet)
                    for s in (0.0, 0.9)}

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
