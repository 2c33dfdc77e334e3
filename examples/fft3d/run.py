#!/usr/bin/env cs_python
"""Host program of fft3d: a 3-D FFT with <kernels/fft/fft3d_layout>.

The host writes the twiddle factors to every PE, scatters a random complex
N x N x N cube A[y][x][z] over the W x W PEs, runs the forward transform on
the device (csfftExecC2C) and compares it with numpy.fft.fftn. Then, without
copying anything in, it runs the inverse transform on what the device holds
and checks it against numpy.fft.ifftn and against the input. f32 and f16
builds of layout.csl (param FP) both work; memcpy moves f16 values as the
low halves of 32-bit words (MEMCPY_16BIT).
"""

import argparse
import json

import numpy as np

from cerebras.sdk.runtime.sdkruntimepybind import (  # pylint: disable=no-name-in-module
    MemcpyDataType,
    MemcpyOrder,
    SdkRuntime,
)
from cerebras.sdk import sdk_utils  # pylint: disable=no-name-in-module

parser = argparse.ArgumentParser()
parser.add_argument("--name", default="out", help="the compile output directory")
parser.add_argument("--cmaddr", help="IP:port of a CS system (ignored by Tessera)")
args = parser.parse_args()

with open(f"{args.name}/out.json", encoding="utf-8") as f:
    compile_params = json.load(f)["params"]
# The defaults are those of layout.csl.
N = int(compile_params.get("N", 8))
T = int(compile_params.get("pencils", 4))
FP = int(compile_params.get("FP", 1))
W = N // T                 # PEs along x and along y
ELEMS = T * T * N          # complex values per PE
LEN = 2 * ELEMS            # real and imaginary parts

dtype = np.float32 if FP == 1 else np.float16
memcpy_type = MemcpyDataType.MEMCPY_32BIT if FP == 1 else MemcpyDataType.MEMCPY_16BIT
# Largest error allowed, relative to the largest magnitude of the values
# compared. The kernel's errors at N = 8 are about 1e-7 in f32 and 1e-3 in
# f16 (10 bits of mantissa); the bounds leave room for larger N.
tolerance = 1e-5 if FP == 1 else 1e-2
# The kernel's `norm` argument as numpy's norm="backward": the forward
# transform is not scaled, the inverse is scaled by 1/N per axis.
BACKWARD = 0


def to_words(values):
    """Device elements as the 32-bit words memcpy moves."""
    if FP == 1:
        return np.ascontiguousarray(values, dtype=np.float32).view(np.uint32)
    return sdk_utils.input_array_to_u32(values.astype(np.float16), 0, values.shape[-1])


def from_words(words):
    """The device elements in the 32-bit words a memcpy_d2h returned."""
    return sdk_utils.memcpy_view(words, dtype).astype(np.float64)


def scatter(cube):
    """The complex cube A[y][x][z] as the X arrays of the PEs, (W, W, LEN).

    PE (px, py) is row py, column px of the host array (ROW_MAJOR); it holds
    (x, y, z) with x // T == px and y // T == py at complex index
    z*T*T + (y % T)*T + x % T, the real part first.
    """
    blocks = cube.reshape(W, T, W, T, N)             # [py, y%T, px, x%T, z]
    local = blocks.transpose(0, 2, 4, 1, 3)          # [py, px, z, y%T, x%T]
    local = local.reshape(W, W, ELEMS)
    return np.stack([local.real, local.imag], axis=-1).reshape(W, W, LEN)


def gather(local):
    """The inverse of scatter: (W, W, LEN) real values to a complex cube."""
    pairs = local.reshape(W, W, N, T, T, 2)          # [py, px, z, y%T, x%T, re/im]
    values = pairs[..., 0] + 1j * pairs[..., 1]
    return values.transpose(0, 3, 1, 4, 2).reshape(N, N, N)


def show(label, values, decimals):
    """One line of rounded complex values."""
    text = "  ".join(f"{v.real:+.{decimals}f}{v.imag:+.{decimals}f}j"
                     for v in np.round(values, decimals))
    print(f"{label + ':':<27}{text}")


# The input, rounded to the device's precision so that numpy transforms
# exactly what the device does.
rng = np.random.default_rng(seed=3)
cube = (rng.uniform(-1.0, 1.0, (N, N, N)) + 1j * rng.uniform(-1.0, 1.0, (N, N, N)))
cube = (cube.real.astype(dtype).astype(np.float64)
        + 1j * cube.imag.astype(dtype).astype(np.float64))

# cos(2*pi*k/N), sin(2*pi*k/N) interleaved for k < N/2, the same on every PE.
angles = 2.0 * np.pi * np.arange(N // 2) / N
twiddles = np.empty(N)
twiddles[0::2] = np.cos(angles)
twiddles[1::2] = np.sin(angles)

runner = SdkRuntime(args.name, cmaddr=args.cmaddr)
runner.load()
runner.run()

X_id = runner.get_id("X")
every_pe_twiddles = np.tile(twiddles, (W, W, 1))
runner.memcpy_h2d(runner.get_id("twiddle_array"), to_words(every_pe_twiddles).ravel(),
                  0, 0, W, W, N, streaming=False, order=MemcpyOrder.ROW_MAJOR,
                  data_type=memcpy_type, nonblock=False)
runner.memcpy_h2d(X_id, to_words(scatter(cube)).ravel(), 0, 0, W, W, LEN,
                  streaming=False, order=MemcpyOrder.ROW_MAJOR,
                  data_type=memcpy_type, nonblock=False)


def read_result():
    """The cube the device holds in X."""
    words = np.zeros((W, W, LEN), dtype=np.uint32)
    runner.memcpy_d2h(words.ravel(), X_id, 0, 0, W, W, LEN, streaming=False,
                      order=MemcpyOrder.ROW_MAJOR, data_type=memcpy_type,
                      nonblock=False)
    return gather(from_words(words))


# Forward transform, compared with numpy.
runner.launch("csfftExecC2C", np.int16(BACKWARD), np.int16(0), nonblock=False)
spectrum = read_result()

# The cycles of the forward transform on each PE: fft_time is two u32 words,
# i.e. four u16 words of which the first three are a <time> timestamp count.
time_words = np.zeros((W, W, 2), dtype=np.uint32)
runner.memcpy_d2h(time_words.ravel(), runner.get_id("fft_time"), 0, 0, W, W, 2,
                  streaming=False, order=MemcpyOrder.ROW_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
cycles = sdk_utils.calculate_cycles(time_words.view(np.uint16).reshape(W, W, 4)[..., :3])

# Inverse transform of the spectrum still on the device: the cube again.
runner.launch("csfftExecC2C", np.int16(BACKWARD), np.int16(1), nonblock=False)
round_trip = read_result()
runner.stop()

expected = np.fft.fftn(cube)
np.testing.assert_allclose(spectrum, expected, rtol=0,
                           atol=tolerance * np.abs(expected).max())
# The inverse on its own: numpy's ifftn of what the device produced...
np.testing.assert_allclose(round_trip, np.fft.ifftn(spectrum), rtol=0,
                           atol=tolerance * np.abs(cube).max())
# ... and the round trip: the input again.
np.testing.assert_allclose(round_trip, cube, rtol=0,
                           atol=tolerance * np.abs(cube).max())
assert (cycles > 0).all(), f"fft_time holds no cycle count: {cycles}"

type_name = "f32" if FP == 1 else "f16"
decimals = 3 if FP == 1 else 1
print(f"{N}x{N}x{N} complex {type_name} FFT on {W}x{W} PEs, {T}x{T} pencils each")
# (y, x, z) of one value away from the axes (any N).
y, x, z = 1 % N, 2 % N, 3 % N
show("sum of the input", [cube.sum()], decimals)
show("fftn(A)[0, 0, 0:2]", spectrum[0, 0, 0:2], decimals)
show(f"fftn(A)[{y}, {x}, {z}]", [spectrum[y, x, z]], decimals)
show("input A[0, 0, 0:2]", cube[0, 0, 0:2], decimals)
show("ifftn(fftn(A))[0, 0, 0:2]", round_trip[0, 0, 0:2], decimals)
print("SUCCESS!")
