#!/usr/bin/env cs_python
"""Host program of multi-pe: scatter a matrix over a grid, launch, gather."""

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
width = int(params.get("width", 3))
height = int(params.get("height", 2))
block_rows = int(params.get("block_rows", 2))
block_cols = int(params.get("block_cols", 3))
per_pe = block_rows * block_cols

alpha = np.float32(2.5)
matrix = (np.arange(height * block_rows * width * block_cols, dtype=np.float32)
          .reshape(height * block_rows, width * block_cols) * 0.5 - 4.0)

def to_pes(m):
    """(grid rows, grid cols) matrix -> memcpy ROW_MAJOR order: PE (c, r)'s
    block, row major, at ((r * width) + c) * per_pe."""
    return (m.reshape(height, block_rows, width, block_cols)
            .transpose(0, 2, 1, 3).ravel())

def from_pes(a):
    """The inverse of to_pes."""
    return (a.reshape(height, width, block_rows, block_cols)
            .transpose(0, 2, 1, 3).reshape(height * block_rows, width * block_cols))

runner = SdkRuntime(args.name, cmaddr=args.cmaddr)
runner.load()
runner.run()

runner.memcpy_h2d(runner.get_id("block"), to_pes(matrix), 0, 0, width, height,
                  per_pe, streaming=False, order=MemcpyOrder.ROW_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
runner.launch("compute", alpha, nonblock=False)
out = np.zeros(width * height * per_pe, dtype=np.float32)
runner.memcpy_d2h(out, runner.get_id("out"), 0, 0, width, height, per_pe,
                  streaming=False, order=MemcpyOrder.ROW_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
runner.stop()

# The expected result, block by block.
expected = np.empty_like(matrix)
for r in range(height):
    for c in range(width):
        rs = slice(r * block_rows, (r + 1) * block_rows)
        cs = slice(c * block_cols, (c + 1) * block_cols)
        blk = matrix[rs, cs]
        expected[rs, cs] = alpha * blk + blk.sum(axis=1, keepdims=True)

result = from_pes(out)
np.testing.assert_allclose(result, expected, rtol=1e-6)
print("input matrix:")
print(matrix)
print(f"result (alpha = {alpha}):")
print(result)
print("SUCCESS!")
