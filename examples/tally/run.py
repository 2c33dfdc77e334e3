#!/usr/bin/env cs_python
"""Host program of tally: count the values above a threshold over a grid."""

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

with open(f"{args.name}/out.json", encoding="utf-8") as f:
    params = json.load(f)["params"]
width = int(params["width"])
height = int(params["height"])
first = int(params["first"])
second = int(params["second"])
top = int(params["top"])
h2d_color = int(params["h2d"])
d2h_color = int(params["d2h"])

# Distinct values (multiples of 1/4, exact in float32), shape
# (height, width, first + second): PE (x, y) holds values[y, x].
np.random.seed(2024)
n = height * width * (first + second)
values = (np.random.permutation(n) * 0.25 - 12.0).astype(np.float32)
values = values.reshape(height, width, first + second)
first_batch = np.ascontiguousarray(values[:, :, :first])
second_batch = np.ascontiguousarray(values[:, :, first:])

# Halfway between the top-th and the (top + 1)-th largest value: exactly
# `top` values lie above it.
ranked = np.sort(values.ravel())[::-1]
threshold = np.float32((ranked[top - 1] + ranked[top]) / 2)

runner = SdkRuntime(args.name, cmaddr=args.cmaddr)
runner.load()
runner.run()

runner.memcpy_h2d(runner.get_id("batch"), first_batch.ravel(), 0, 0, width, height, first,
                  streaming=False, order=MemcpyOrder.ROW_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
runner.launch("count_first_batch", threshold, nonblock=False)
runner.memcpy_h2d(h2d_color, second_batch.ravel(), 0, 0, width, height, second,
                  streaming=True, order=MemcpyOrder.ROW_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)

# The root sends its total only once it has reached `top`.
total = np.zeros(1, dtype=np.uint32)
runner.memcpy_d2h(total, d2h_color, width - 1, 0, 1, 1, 1,
                  streaming=True, order=MemcpyOrder.ROW_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
counts = np.zeros(height * width * 2, dtype=np.uint32)
runner.memcpy_d2h(counts, runner.get_id("counts"), 0, 0, width, height, 2,
                  streaming=False, order=MemcpyOrder.ROW_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
runner.stop()

counts = counts.reshape(height, width, 2)
expected_first = (first_batch > threshold).sum(axis=2).astype(np.uint32)
expected_second = (second_batch > threshold).sum(axis=2).astype(np.uint32)
np.testing.assert_array_equal(counts[:, :, 0], expected_first)
np.testing.assert_array_equal(counts[:, :, 1], expected_second)
assert int(total[0]) == top == int((values > threshold).sum())
assert int(counts.sum()) == top

print(f"threshold: {threshold}")
print(f"total at the root PE ({width - 1}, 0): {total[0]}")
print("values above it per PE, first batch:")
print(counts[:, :, 0])
print("values above it per PE, second batch:")
print(counts[:, :, 1])
print("SUCCESS!")
