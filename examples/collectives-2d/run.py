#!/usr/bin/env cs_python
"""Host program of collectives-2d: y = A x + b over a grid of PEs.

A goes to the PEs tile by tile; x and b go to PE (0, 0) only, and the
device spreads them with the 2-D collectives. y and the infinity norm of A
come back from the bottom-right PE.
"""

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
height = int(params.get("height", 3))
tile_rows = int(params.get("tile_rows", 4))
tile_cols = int(params.get("tile_cols", 3))
m = height * tile_rows
n = width * tile_cols

rng = np.random.default_rng(2024)
A = rng.uniform(-1.0, 1.0, size=(m, n)).astype(np.float32)
x = rng.uniform(-1.0, 1.0, size=n).astype(np.float32)
b = rng.uniform(-1.0, 1.0, size=m).astype(np.float32)

# memcpy's ROW_MAJOR order over the grid: PE (c, r)'s tile, itself row major,
# at ((r * width) + c) * tile_rows * tile_cols.
tiles = (A.reshape(height, tile_rows, width, tile_cols)
         .transpose(0, 2, 1, 3).ravel())

def h2d(name, data, px, py, w, h):
    """Copy data (ROW_MAJOR over the w x h region at (px, py)) to symbol name."""
    runner.memcpy_h2d(runner.get_id(name), data, px, py, w, h, data.size // (w * h),
                      streaming=False, order=MemcpyOrder.ROW_MAJOR,
                      data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)

def d2h(name, count, px, py):
    """Read count elements of symbol name from PE (px, py)."""
    out = np.zeros(count, dtype=np.float32)
    runner.memcpy_d2h(out, runner.get_id(name), px, py, 1, 1, count,
                      streaming=False, order=MemcpyOrder.ROW_MAJOR,
                      data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
    return out

runner = SdkRuntime(args.name, cmaddr=args.cmaddr)
runner.load()
runner.run()

h2d("A", tiles, 0, 0, width, height)
h2d("x", x, 0, 0, 1, 1)
h2d("b", b, 0, 0, 1, 1)
runner.launch("compute", nonblock=False)
y = d2h("y", m, width - 1, height - 1)
a_norm = d2h("a_norm", 1, width - 1, height - 1)[0]
runner.stop()

expected_y = A.astype(np.float64) @ x.astype(np.float64) + b
expected_norm = np.abs(A.astype(np.float64)).sum(axis=1).max()
np.testing.assert_allclose(y, expected_y, rtol=1e-5, atol=1e-5)
np.testing.assert_allclose(a_norm, expected_norm, rtol=1e-5)

print(f"y = A x + b, A {m}x{n} on a {width}x{height} grid of PEs")
for start in range(0, m, tile_rows):
    label = f"y[{start}:{start + tile_rows}]"
    values = " ".join(f"{v:7.3f}" for v in y[start:start + tile_rows])
    print(f"{label:8} ={values}")
print(f"||A||_inf = {a_norm:.3f}")
print("SUCCESS!")
