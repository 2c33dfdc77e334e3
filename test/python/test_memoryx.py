"""tessera.memoryx against numpy: the sparse copy, the optimizers,
checkpoints and every argument error (docs/MemoryX.md, "Python")."""

import os
import struct
import tempfile
import unittest
import zlib

import numpy as np

from tessera import memoryx as mx


def half_bits(values):
    """FP16 bit patterns, so that -0 and +0 differ. -1e6 overflows to -inf
    on purpose."""
    with np.errstate(over="ignore"):
        return np.asarray(values, dtype=np.float16).view(np.uint16)


def random_layer(rng, rows, cols, density):
    weights = rng.normal(0, 0.05, (rows, cols)).astype(np.float32)
    # Exact zeros and values that round to FP16 zero or overflow it: the
    # mask, not the value, decides what is stored.
    weights.flat[::17] = 0.0
    weights.flat[5::23] = 1e-9
    weights.flat[7::29] = -1e6
    return weights, rng.random((rows, cols)) < density


def expected_csr(weights, mask):
    """CSR of the masked, FP16-rounded matrix, straight from numpy."""
    indptr = np.concatenate([[0], np.cumsum(mask.sum(axis=1))])
    return indptr, np.nonzero(mask)[1], half_bits(weights[mask])


# Shapes: square, tall, and rows long enough that the stream needs escape
# words (65535 columns or more) and the tiled value layout.
SHAPES = [(37, 53, 0.5), (300, 7, 0.3), (3, 70000, 0.001), (40, 600, 0.9)]


class SparseCopyTest(unittest.TestCase):
    def test_forward_csr_is_the_masked_fp16_dense(self):
        rng = np.random.default_rng(10)
        for rows, cols, density in SHAPES:
            with self.subTest(shape=(rows, cols)):
                weights, mask = random_layer(rng, rows, cols, density)
                layer = mx.WeightStore().add_layer("fc", weights=weights,
                                                   mask=mask)
                csr = layer.forward()
                indptr, indices, values = expected_csr(weights, mask)
                self.assertEqual(csr.shape, (rows, cols))
                self.assertEqual(csr.indptr.dtype, np.int64)
                self.assertEqual(csr.indices.dtype, np.int32)
                self.assertEqual(csr.data.dtype, np.float16)
                np.testing.assert_array_equal(csr.indptr, indptr)
                np.testing.assert_array_equal(csr.indices, indices)
                np.testing.assert_array_equal(half_bits(csr.data), values)
                dense = np.where(mask, half_bits(weights), 0)
                np.testing.assert_array_equal(half_bits(csr.to_dense()), dense)
                self.assertEqual(layer.nonzeros, mask.sum())
                np.testing.assert_array_equal(layer.master, weights)
                np.testing.assert_array_equal(layer.weight_mask, mask)

    def test_transposed_is_the_csr_of_the_transpose(self):
        rng = np.random.default_rng(11)
        for rows, cols, density in SHAPES:
            with self.subTest(shape=(rows, cols)):
                weights, mask = random_layer(rng, rows, cols, density)
                layer = mx.WeightStore().add_layer("fc", weights=weights,
                                                   mask=mask)
                csr = layer.transposed()
                indptr, indices, values = expected_csr(weights.T, mask.T)
                self.assertEqual(csr.shape, (cols, rows))
                np.testing.assert_array_equal(csr.indptr, indptr)
                np.testing.assert_array_equal(csr.indices, indices)
                np.testing.assert_array_equal(half_bits(csr.data), values)

    def test_chunks_concatenate_to_the_whole(self):
        rng = np.random.default_rng(12)
        weights, mask = random_layer(rng, 45, 31, 0.4)
        layer = mx.WeightStore().add_layer("fc", weights=weights, mask=mask)
        for stream, whole in ((layer.stream_forward, layer.forward()),
                              (layer.stream_transposed, layer.transposed())):
            chunks = list(stream(lines=8))
            self.assertEqual([first for first, _ in chunks],
                             list(range(0, whole.shape[0], 8)))
            self.assertEqual(chunks[-1][1].shape,
                             ((whole.shape[0] - 1) % 8 + 1, whole.shape[1]))
            dense = np.concatenate([c.to_dense() for _, c in chunks])
            np.testing.assert_array_equal(half_bits(dense),
                                          half_bits(whole.to_dense()))
        middle = layer.forward(10, 20)
        np.testing.assert_array_equal(
            half_bits(middle.to_dense()),
            half_bits(layer.forward().to_dense()[10:20]))
        self.assertEqual(layer.forward(4, 4).shape, (0, 31))

    def test_raw_index_streams_take_escapes(self):
        mask = np.zeros((1, 200000), dtype=bool)
        mask[0, [0, 70000, 199999]] = True
        layer = mx.WeightStore().add_layer("wide", (1, 200000), mask=mask,
                                           gradient_mask=mask)
        for which in ("forward", "gradient"):
            stream = layer.index_stream(which)
            self.assertEqual(stream.offsets.dtype, np.uint32)
            self.assertEqual(stream.deltas.dtype, np.uint16)
            np.testing.assert_array_equal(stream.offsets, [0, 5])
            np.testing.assert_array_equal(
                stream.deltas, [0, mx.ESCAPE_WORD, 4465, mx.ESCAPE_WORD,
                                64464])
        transposed = layer.index_stream("transposed")
        self.assertEqual(len(transposed.offsets), 200001)
        self.assertEqual(transposed.deltas.size, 3)

    def test_returned_arrays_are_read_only_copies(self):
        layer = mx.WeightStore().add_layer("fc", (2, 3),
                                           optimizer=mx.Momentum())
        for array in (layer.master, layer.weight_mask, layer.gradient_mask,
                      layer.optimizer_state[0]):
            with self.assertRaisesRegex(ValueError, "read-only"):
                array[0, 0] = 1


def sgd_reference(w, state, g, requested, opt, step):
    lr = np.float64(np.float32(opt.lr))
    new = w.astype(np.float64) - lr * g
    return np.where(requested, new.astype(np.float32), w), state


def momentum_reference(w, state, g, requested, opt, step):
    lr = np.float64(np.float32(opt.lr))
    mu = np.float64(np.float32(opt.momentum))
    (velocity,) = state
    v = mu * velocity.astype(np.float64) + g
    new_w = (w.astype(np.float64) - lr * v).astype(np.float32)
    return (np.where(requested, new_w, w),
            (np.where(requested, v.astype(np.float32), velocity),))


def adam_reference(w, state, g, requested, opt, step):
    lr, b1, b2, eps = (np.float64(np.float32(x)) for x in
                       (opt.lr, opt.beta1, opt.beta2, opt.epsilon))
    first, second = state
    m = b1 * first.astype(np.float64) + (1 - b1) * g
    v = b2 * second.astype(np.float64) + (1 - b2) * g * g
    corrected_m = m / (1 - b1 ** step)
    corrected_v = v / (1 - b2 ** step)
    update = lr * corrected_m / (np.sqrt(corrected_v) + eps)
    new_w = (w.astype(np.float64) - update).astype(np.float32)
    return (np.where(requested, new_w, w),
            (np.where(requested, m.astype(np.float32), first),
             np.where(requested, v.astype(np.float32), second)))


OPTIMIZERS = [
    (mx.SGD(lr=0.05), sgd_reference),
    (mx.Momentum(lr=0.03, momentum=0.8), momentum_reference),
    (mx.Adam(lr=0.01, beta1=0.85, beta2=0.99, epsilon=1e-6), adam_reference),
]


class OptimizerTest(unittest.TestCase):
    def test_steps_match_numpy(self):
        rng = np.random.default_rng(20)
        rows, cols = 9, 13
        for optimizer, reference in OPTIMIZERS:
            with self.subTest(optimizer=optimizer.kind):
                weights = rng.normal(0, 0.05, (rows, cols)).astype(np.float32)
                mask = rng.random((rows, cols)) < 0.6
                # Some requested weights are inactive (they regrow), some
                # active ones are frozen.
                requested = rng.random((rows, cols)) < 0.7
                layer = mx.WeightStore().add_layer(
                    "fc", weights=weights, mask=mask, gradient_mask=requested,
                    optimizer=optimizer)
                w = weights
                state = tuple(np.zeros((rows, cols), np.float32)
                              for _ in layer.optimizer_state)
                for step in range(1, 6):
                    g = rng.normal(0, 1, (rows, cols)).astype(np.float32)
                    # Dense and request-order gradients alternate.
                    layer.apply_gradient(g if step % 2 else g[requested])
                    w, state = reference(w, state, g.astype(np.float64),
                                         requested, optimizer, step)
                    self.assertEqual(layer.steps, step)
                    np.testing.assert_array_max_ulp(layer.master, w, maxulp=1)
                    for ours, theirs in zip(layer.optimizer_state, state):
                        np.testing.assert_array_max_ulp(ours, theirs,
                                                        maxulp=1)
                np.testing.assert_array_equal(layer.master[~requested],
                                              weights[~requested])
                self.assertFalse(np.array_equal(layer.master[requested],
                                                weights[requested]))
                # The streamed copy followed the updates.
                _, _, values = expected_csr(layer.master, mask)
                np.testing.assert_array_equal(half_bits(layer.forward().data),
                                              values)

    def test_hyper_parameters_can_change_between_steps(self):
        layer = mx.WeightStore().add_layer(
            "fc", weights=np.ones((1, 2), np.float32))
        layer.apply_gradient(np.ones((1, 2), np.float32))
        layer.set_optimizer(mx.SGD(lr=0.5))
        layer.apply_gradient(np.ones((1, 2), np.float32))
        np.testing.assert_array_equal(
            layer.master, np.float32(np.float32(1) - np.float32(0.01)) - 0.5)
        self.assertEqual(layer.optimizer, mx.SGD(lr=0.5))

    def test_admitted_weight_streams_its_trained_value(self):
        mask = np.array([[True, False]])
        layer = mx.WeightStore().add_layer(
            "fc", weights=np.zeros((1, 2), np.float32), mask=mask)
        layer.apply_gradient(np.array([[-1, -2]], np.float32))
        trained = np.array([0.01, 0.02], np.float32).astype(np.float16)
        np.testing.assert_array_equal(layer.forward().data, trained[:1])
        layer.set_weight_mask(np.array([[True, True]]))
        np.testing.assert_array_equal(layer.forward().data, trained)


class CheckpointTest(unittest.TestCase):
    def setUp(self):
        self.directory = tempfile.TemporaryDirectory()
        self.path = os.path.join(self.directory.name, "step.tsmx")
        rng = np.random.default_rng(30)
        self.store = mx.WeightStore()
        for name, optimizer in (("fc1", mx.Adam(lr=0.02)),
                                ("fc2", mx.Momentum()), ("fc3", mx.SGD())):
            weights, mask = random_layer(rng, 6, 70, 0.5)
            layer = self.store.add_layer(
                name, weights=weights, mask=mask,
                gradient_mask=rng.random((6, 70)) < 0.8, optimizer=optimizer)
            for _ in range(3):
                layer.apply_gradient(
                    rng.normal(0, 1, (6, 70)).astype(np.float32))

    def tearDown(self):
        self.directory.cleanup()

    def snapshot(self, store):
        """Per layer: name, steps, then every array as bytes."""
        return [(layer.name, layer.steps,
                 [a.view(np.uint8) for a in
                  (layer.master, layer.weight_mask, layer.gradient_mask,
                   *layer.optimizer_state, layer.forward().to_dense(),
                   layer.transposed().to_dense())])
                for layer in store]

    def assertSameSnapshots(self, a, b):
        self.assertEqual(len(a), len(b))
        for ours, theirs in zip(a, b):
            self.assertEqual(ours[:2], theirs[:2])
            self.assertEqual(len(ours[2]), len(theirs[2]))
            for x, y in zip(ours[2], theirs[2]):
                np.testing.assert_array_equal(x, y)

    def test_restore_gives_identical_weights_and_state(self):
        before = self.snapshot(self.store)
        self.store.save(self.path)
        for layer in self.store:
            layer.apply_gradient(np.ones(layer.shape, np.float32))
            layer.set_weight_mask(np.ones(layer.shape, bool))
        self.store.load(self.path)
        self.assertSameSnapshots(self.snapshot(self.store), before)
        self.assertEqual([layer.steps for layer in self.store], [3, 3, 3])
        read = mx.WeightStore.read(self.path)
        self.assertEqual(read.names, ["fc1", "fc2", "fc3"])
        self.assertEqual([layer.optimizer for layer in read],
                         [mx.Adam(), mx.Momentum(), mx.SGD()])
        # Hyper-parameters are not in the file; load keeps the store's.
        self.assertEqual(self.store["fc1"].optimizer, mx.Adam(lr=0.02))
        self.assertSameSnapshots(self.snapshot(read), before)

    def test_flipped_byte_raises_the_library_message(self):
        self.store.save(self.path)
        with open(self.path, "rb") as f:
            data = bytearray(f.read())
        # Header (20), layer header section (24 + 24 + len("fc1")), then the
        # master weights' section header; its payload CRC is at +16.
        master = 20 + 24 + 24 + 3
        payload = master + 24
        size = 6 * 70 * 4
        self.assertEqual(struct.unpack_from("<IIQ", data, master),
                         (2, 0, size))
        stored = struct.unpack_from("<I", data, master + 16)[0]
        self.assertEqual(stored, zlib.crc32(data[payload:payload + size]))
        data[payload + 100] ^= 0x10
        computed = zlib.crc32(data[payload:payload + size])
        with open(self.path, "wb") as f:
            f.write(data)
        before = self.snapshot(self.store)
        message = (f"{self.path}: offset {master + 16}: checksum mismatch in "
                   f"the master weights of layer 0 'fc1': stored "
                   f"0x{stored:08x}, computed 0x{computed:08x}")
        with self.assertRaises(mx.MemoryXError) as caught:
            self.store.load(self.path)
        self.assertEqual(str(caught.exception), message)
        with self.assertRaises(mx.MemoryXError) as caught:
            mx.WeightStore.read(self.path)
        self.assertEqual(str(caught.exception), message)
        # A failed load leaves the store as it was.
        self.assertSameSnapshots(self.snapshot(self.store), before)

    def test_file_errors(self):
        missing = os.path.join(self.directory.name, "missing")
        with self.assertRaises(mx.MemoryXError) as caught:
            self.store.load(missing)
        self.assertEqual(str(caught.exception),
                         f"cannot read '{missing}': No such file or directory")
        with open(missing, "wb") as f:
            f.write(b"not a checkpoint at all")
        with self.assertRaises(mx.MemoryXError) as caught:
            mx.WeightStore.read(missing)
        self.assertEqual(str(caught.exception),
                         f"{missing}: offset 0: bad magic: not a Tessera "
                         f"MemoryX checkpoint")
        nowhere = os.path.join(missing, "x")
        with self.assertRaises(mx.MemoryXError) as caught:
            self.store.save(nowhere)
        self.assertEqual(str(caught.exception),
                         f"cannot create a temporary file beside '{nowhere}': "
                         f"Not a directory")

    def test_loading_into_a_different_store(self):
        self.store.save(self.path)
        other = mx.WeightStore()
        other.add_layer("fc1", (6, 70), optimizer=mx.Adam())
        with self.assertRaises(mx.MemoryXError) as caught:
            other.load(self.path)
        self.assertEqual(str(caught.exception),
                         f"{self.path}: offset 12: the checkpoint has 3 "
                         f"layers, the store has 1")


class ArgumentErrorTest(unittest.TestCase):
    def setUp(self):
        self.store = mx.WeightStore()
        self.layer = self.store.add_layer("fc1", (4, 6))

    def assertFails(self, message, call, *args, **kwargs):
        with self.assertRaises(mx.MemoryXError) as caught:
            call(*args, **kwargs)
        self.assertEqual(str(caught.exception), message)

    def test_error_class(self):
        self.assertTrue(issubclass(mx.MemoryXError, ValueError))

    def test_add_layer(self):
        add = self.store.add_layer
        w = np.zeros((4, 6), np.float32)
        self.assertFails("the store already has a layer 'fc1'", add, "fc1",
                         (4, 6))
        self.assertFails("layer name is empty", add, "", (4, 6))
        self.assertFails("layer name must be a str, got int", add, 7, (4, 6))
        self.assertFails("layer 'e' has an empty shape 0x4", add, "e", (0, 4))
        self.assertFails("layer 'big' of 65536x65536 has 4294967296 weights, "
                         "more than 2147483648", add, "big", (65536, 65536))
        self.assertFails("layer 'n': shape must be two integers in "
                         "[0, 4294967295], got (-1, 4)", add, "n", (-1, 4))
        self.assertFails("layer 'n': shape must be two integers in "
                         "[0, 4294967295], got (4, 2.5)", add, "n", (4, 2.5))
        self.assertFails("layer 'n': shape must be two integers in "
                         "[0, 4294967295], got (4, 5, 6)", add, "n", (4, 5, 6))
        self.assertFails("layer 'n' needs a shape or initial weights", add,
                         "n")
        self.assertFails("layer 'n': weights must be 2-D, got shape (24,)",
                         add, "n", weights=w.ravel())
        self.assertFails("layer 'n': weights must be float32, got float64",
                         add, "n", weights=w.astype(np.float64))
        self.assertFails("layer 'n' is 6x4, the weights are 4x6", add, "n",
                         (6, 4), weights=w)
        self.assertFails("layer 'n': weight mask must be bool, got int64",
                         add, "n", weights=w, mask=np.ones((4, 6), np.int64))
        self.assertFails("layer 'n' is 4x6, the weight mask is 4x5", add, "n",
                         weights=w, mask=np.ones((4, 5), bool))
        self.assertFails("layer 'n' is 4x6, the gradient-request mask has "
                         "shape (24,)", add, "n", weights=w,
                         gradient_mask=np.ones(24, bool))
        self.assertFails("layer 'n': optimizer must be SGD, Momentum or "
                         "Adam, got str", add, "n", (4, 6), optimizer="adam")
        # Nothing was added by the failures.
        self.assertEqual(self.store.names, ["fc1"])

    def test_layer_arrays(self):
        layer = self.layer
        self.assertFails("layer 'fc1' is 4x6, the weights are 6x4",
                         layer.set_master, np.zeros((6, 4), np.float32))
        self.assertFails("layer 'fc1': weights must be float32, got float16",
                         layer.set_master, np.zeros((4, 6), np.float16))
        self.assertFails("layer 'fc1': weights must be float32, got float64",
                         layer.set_master, [[0.0] * 6] * 4)
        self.assertFails("layer 'fc1' is 4x6, the weight mask is 6x4",
                         layer.set_weight_mask, np.ones((6, 4), bool))
        self.assertFails("layer 'fc1': gradient-request mask must be bool, "
                         "got float32", layer.set_gradient_mask,
                         np.ones((4, 6), np.float32))
        self.assertFails("layer 'fc1' is 4x6, the gradient-request mask is "
                         "4x7", layer.set_gradient_mask, np.ones((4, 7), bool))
        # A transposed view is not C-contiguous; it is accepted as it is.
        weights = np.arange(24, dtype=np.float32).reshape(6, 4).T
        layer.set_master(weights)
        np.testing.assert_array_equal(layer.master, weights)

    def test_gradients(self):
        layer = self.layer
        before = layer.master
        self.layer.set_gradient_mask(np.eye(4, 6, dtype=bool))
        self.assertFails("layer 'fc1': gradient must be float32, got float64",
                         layer.apply_gradient, np.zeros((4, 6)))
        self.assertFails("layer 'fc1' is 4x6, the gradient is 6x4",
                         layer.apply_gradient, np.zeros((6, 4), np.float32))
        self.assertFails("layer 'fc1' is 4x6, the gradient has shape "
                         "(2, 2, 6)", layer.apply_gradient,
                         np.zeros((2, 2, 6), np.float32))
        self.assertFails("layer 'fc1': 5 gradients for a gradient-request "
                         "mask of 4 weights", layer.apply_gradient,
                         np.zeros(5, np.float32))
        self.assertEqual(layer.steps, 0)
        np.testing.assert_array_equal(layer.master, before)

    def test_optimizers(self):
        self.assertFails("sgd: learning rate must be finite and not "
                         "negative, got -1", mx.SGD, lr=-1)
        self.assertFails("sgd: learning rate must be finite and not "
                         "negative, got nan", mx.SGD, lr=float("nan"))
        self.assertFails("momentum: momentum must be in [0, 1), got 1",
                         mx.Momentum, momentum=1)
        self.assertFails("adam: beta1 must be in [0, 1), got -0.5", mx.Adam,
                         beta1=-0.5)
        self.assertFails("adam: beta2 must be in [0, 1), got 1.5", mx.Adam,
                         beta2=1.5)
        self.assertFails("adam: epsilon must be finite and positive, got 0",
                         mx.Adam, epsilon=0)
        self.assertFails("adam: lr must be a real number, got str", mx.Adam,
                         lr="fast")
        self.assertFails("layer 'fc1' keeps sgd state; cannot apply adam",
                         self.layer.set_optimizer, mx.Adam())
        self.assertFails("layer 'fc1': optimizer must be SGD, Momentum or "
                         "Adam, got NoneType", self.layer.set_optimizer, None)
        self.assertEqual(self.layer.optimizer, mx.SGD())

    def test_streams(self):
        layer = self.layer
        self.assertFails("layer 'fc1': rows 2 to 9 are not within 0 to 4",
                         layer.forward, 2, 9)
        self.assertFails("layer 'fc1': rows 3 to 2 are not within 0 to 4",
                         layer.forward, 3, 2)
        self.assertFails("layer 'fc1': columns -1 to 6 are not within 0 to "
                         "6", layer.transposed, -1)
        self.assertFails("layer 'fc1': lines per chunk must be an integer of "
                         "at least 1, got 0", layer.stream_forward, 0)
        self.assertFails("unknown index stream 'backward' (expected forward, "
                         "transposed or gradient)", layer.index_stream,
                         "backward")
        with self.assertRaises(KeyError) as caught:
            self.store["fc2"]
        self.assertEqual(caught.exception.args[0],
                         "the store has no layer 'fc2'")


class NativeInputTest(unittest.TestCase):
    """The native module refuses what the wrapper would never pass."""

    def setUp(self):
        self.native = mx._memoryx.WeightStore()
        self.native.add_layer("fc1", 4, 6, "sgd")

    def test_refusals(self):
        native = self.native
        with self.assertRaises(IndexError) as caught:
            native.master(1)
        self.assertEqual(str(caught.exception),
                         "layer index 1 is out of range for 1 layers")
        for call, array in ((native.set_master, np.zeros((4, 6))),
                            (native.set_master,
                             np.zeros((6, 4), np.float32).T),
                            (native.set_weight_mask,
                             np.ones((4, 6), np.uint8))):
            with self.assertRaises(TypeError):
                call(0, array)
        cases = [
            ("layer 'fc1' has 24 weights, got 5",
             native.set_master, 0, np.zeros(5, np.float32)),
            ("a mask has 2 dimensions, got 1",
             native.set_weight_mask, 0, np.ones(24, bool)),
            ("layer 'fc1' is 4x6, the weight mask is 6x4",
             native.set_weight_mask, 0, np.ones((6, 4), bool)),
            ("lines 0 to 5 are not within 0 to 4", native.forward, 0, 0, 5),
            ("cannot gather 5 values through a 4x6 index stream: expected 24",
             native.gather, 0, np.zeros(5, np.float32)),
            ("unknown optimizer 'lamb' (expected sgd, momentum or adam)",
             native.add_layer, "fc2", 1, 1, "lamb"),
        ]
        for message, call, *args in cases:
            with self.subTest(message=message):
                with self.assertRaises(mx.MemoryXError) as caught:
                    call(*args)
                self.assertEqual(str(caught.exception), message)
        self.assertEqual(native.layer_count(), 1)
        self.assertEqual(native.steps(0), 0)


if __name__ == "__main__":
    unittest.main()
