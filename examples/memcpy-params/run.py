#!/usr/bin/env cs_python
"""Host program of memcpy-params: 16- and 32-bit copies in both orders."""

import argparse
import json

import numpy as np

from cerebras.sdk.runtime.sdkruntimepybind import (  # pylint: disable=no-name-in-module
    MemcpyDataType,
    MemcpyOrder,
    SdkRuntime,
)

parser = argparse.ArgumentParser()
parser.add_argument("--name", default="out", help="the compile output directory")
parser.add_argument("--cmaddr", help="IP:port of a CS system (ignored by Tessera)")
args = parser.parse_args()

# The layout's defaults, unless the compile overrode them with --params.
with open(f"{args.name}/out.json", encoding="utf-8") as f:
    params = json.load(f)["params"]
width = int(params.get("width", 4))
size = int(params.get("size", 5))

# The per-PE parameters the layout gives each column.
columns = np.arange(width)
scale = (0.5 * (columns + 1)).astype(np.float32)
mult = (columns - 1).astype(np.int16)

# inp[c, e]: i16 values, some negative; offs[c, e]: f32.
inp = (np.arange(width * size).reshape(width, size) - 7).astype(np.int16)
offs = (np.arange(width * size).reshape(width, size) * 0.25).astype(np.float32)

runner = SdkRuntime(args.name, cmaddr=args.cmaddr)
runner.load()
runner.run()

# 16-bit, ROW_MAJOR: PE c's element e is host word c * size + e; the device
# element is the low half of each uint32 word.
inp_words = inp.ravel().view(np.uint16).astype(np.uint32)
runner.memcpy_h2d(runner.get_id("inp"), inp_words, 0, 0, width, 1, size,
                  streaming=False, order=MemcpyOrder.ROW_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_16BIT, nonblock=False)

# 32-bit, COL_MAJOR: PE c's element e is host word e * width + c.
offs_colmajor = np.ascontiguousarray(offs.T).ravel()
runner.memcpy_h2d(runner.get_id("offs"), offs_colmajor, 0, 0, width, 1, size,
                  streaming=False, order=MemcpyOrder.COL_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)

runner.launch("compute", nonblock=False)

# All f32 results, ROW_MAJOR.
out32 = np.zeros(width * size, dtype=np.float32)
runner.memcpy_d2h(out32, runner.get_id("out32"), 0, 0, width, 1, size,
                  streaming=False, order=MemcpyOrder.ROW_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)

# The f32 results of the region of PEs 1 .. width-1, COL_MAJOR.
sub = width - 1
out32_sub = np.zeros(sub * size, dtype=np.float32)
runner.memcpy_d2h(out32_sub, runner.get_id("out32"), 1, 0, sub, 1, size,
                  streaming=False, order=MemcpyOrder.COL_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)

# All i16 results, 16-bit ROW_MAJOR, read back zero-extended.
out16_words = np.zeros(width * size, dtype=np.uint32)
runner.memcpy_d2h(out16_words, runner.get_id("out16"), 0, 0, width, 1, size,
                  streaming=False, order=MemcpyOrder.ROW_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_16BIT, nonblock=False)
runner.stop()

expected32 = scale[:, None] * inp.astype(np.float32) + offs
expected16 = (mult[:, None] * inp + columns[:, None]).astype(np.int16)

np.testing.assert_array_equal(out32.reshape(width, size), expected32)
np.testing.assert_array_equal(out32_sub.reshape(size, sub), expected32[1:].T)
np.testing.assert_array_equal(out16_words >> 16, 0)
out16 = out16_words.astype(np.uint16).view(np.int16).reshape(width, size)
np.testing.assert_array_equal(out16, expected16)

print("out32, ROW_MAJOR (one row per PE):")
print(out32.reshape(width, size))
print(f"out32 of PEs 1..{width - 1}, COL_MAJOR (one row per element):")
print(out32_sub.reshape(size, sub))
print("out16, 16-bit (one row per PE):")
print(out16)
print("SUCCESS!")
