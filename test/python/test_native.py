"""The native extension imports from the built package and matches numpy."""

import os
import unittest

import numpy as np

import tessera
from tessera import _native


class NativeModuleTest(unittest.TestCase):
    def test_imported_from_build_tree(self):
        build_python = os.environ["PYTHONPATH"].split(os.pathsep)[0]
        self.assertTrue(_native.__file__.startswith(build_python), _native.__file__)

    def test_version_matches_package(self):
        self.assertRegex(tessera.__version__, r"^\d+\.\d+\.\d+$")
        self.assertEqual(tessera.__version__, _native.__version__)


class Float16Test(unittest.TestCase):
    def test_every_f16_pattern_decodes_like_numpy(self):
        bits = np.arange(1 << 16, dtype=np.uint16)
        ours = _native.f16_bits_to_float32(bits)
        ref = bits.view(np.float16).astype(np.float32)
        self.assertEqual(ours.dtype, np.float32)
        nan = np.isnan(ref)
        np.testing.assert_array_equal(np.isnan(ours), nan)
        np.testing.assert_array_equal(ours[~nan].view(np.uint32),
                                      ref[~nan].view(np.uint32))

    def test_float32_rounds_to_f16_like_numpy(self):
        rng = np.random.default_rng(12345)
        # Random bit patterns cover every exponent, including the ones that
        # overflow or underflow binary16; add exact halfway points around
        # every binary16 value to exercise ties-to-even.
        random_bits = rng.integers(0, 1 << 32, size=1 << 20, dtype=np.uint64)
        values = random_bits.astype(np.uint32).view(np.float32)
        halves = np.arange(1 << 16, dtype=np.uint16).view(np.float16)
        finite = halves[np.isfinite(halves)].astype(np.float32)
        ulp = np.spacing(finite.astype(np.float16)).astype(np.float32)
        ties = finite + ulp / 2
        values = np.concatenate([values, ties, -ties, np.nextafter(ties, 0)])
        values = values[np.isfinite(values)]
        ours = _native.float32_to_f16_bits(values)
        ref = values.astype(np.float16).view(np.uint16)
        self.assertEqual(ours.dtype, np.uint16)
        np.testing.assert_array_equal(ours, ref)

    def test_nan_and_shape(self):
        values = np.array([[np.nan, np.inf], [-np.inf, 0.5]], dtype=np.float32)
        out = _native.float32_to_f16_bits(values)
        self.assertEqual(out.shape, (2, 2))
        back = _native.f16_bits_to_float32(out)
        self.assertTrue(np.isnan(back[0, 0]))
        np.testing.assert_array_equal(back[0, 1:], [np.inf])
        np.testing.assert_array_equal(back[1], [-np.inf, 0.5])

    def test_bf16_is_truncated_float32_with_rounding(self):
        values = np.array([1.0, 1.00390625, 1.01171875, 3.0e38], dtype=np.float32)
        bits = _native.float32_to_bf16_bits(values)
        np.testing.assert_array_equal(bits, [0x3F80, 0x3F80, 0x3F82, 0x7F62])
        np.testing.assert_array_equal(_native.bf16_bits_to_float32(bits)[:1], [1.0])

    def test_rejects_non_numeric_input(self):
        with self.assertRaises(TypeError):
            _native.float32_to_f16_bits(["a", "b"])


if __name__ == "__main__":
    unittest.main()
