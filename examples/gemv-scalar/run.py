#!/usr/bin/env cs_python
"""Host program of gemv-scalar: copy A, x and b in, launch gemv, check y."""

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
rows = int(params.get("rows", 4))
cols = int(params.get("cols", 6))

# Small values that are exact in f32, so the device's sums match numpy's.
A = ((np.arange(rows * cols) % 7) - 3).astype(np.float32).reshape(rows, cols) * 0.5
x = np.linspace(-1.0, 1.5, cols, dtype=np.float32)
b = np.arange(1, rows + 1, dtype=np.float32) * 0.25

runner = SdkRuntime(args.name, cmaddr=args.cmaddr)
runner.load()
runner.run()

def h2d(name, array):
    runner.memcpy_h2d(runner.get_id(name), array.ravel(), 0, 0, 1, 1, array.size,
                      streaming=False, order=MemcpyOrder.ROW_MAJOR,
                      data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)

h2d("A", A)
h2d("x", x)
h2d("b", b)
runner.launch("gemv", nonblock=False)

y = np.zeros(rows, dtype=np.float32)
runner.memcpy_d2h(y, runner.get_id("y"), 0, 0, 1, 1, rows,
                  streaming=False, order=MemcpyOrder.ROW_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
runner.stop()

expected = A @ x + b
np.testing.assert_allclose(y, expected, rtol=1e-6, atol=1e-6)
print("x:", x)
print("y:", y)
print("SUCCESS!")
