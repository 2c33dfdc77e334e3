#!/usr/bin/env cs_python
"""Host program of streaming: stream words to every PE, collect sum/min/max."""

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
count = int(params["count"])
h2d_color = int(params["h2d"])
d2h_color = int(params["d2h"])

# Signed words, different on every PE: shape (height, width, count).
index = np.arange(height * width * count, dtype=np.int64)
words = ((index * 7919) % 2001 - 1000).astype(np.int32).reshape(height, width, count)

runner = SdkRuntime(args.name, cmaddr=args.cmaddr)
runner.load()
runner.run()

runner.memcpy_h2d(h2d_color, words.ravel(), 0, 0, width, height, count,
                  streaming=True, order=MemcpyOrder.ROW_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
results = np.zeros(height * width * 3, dtype=np.int32)
runner.memcpy_d2h(results, d2h_color, 0, 0, width, height, 3,
                  streaming=True, order=MemcpyOrder.ROW_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
runner.stop()

results = results.reshape(height, width, 3)
expected = np.stack([words.sum(axis=2), words.min(axis=2), words.max(axis=2)],
                    axis=2).astype(np.int32)
np.testing.assert_array_equal(results, expected)
print("sum per PE:")
print(results[:, :, 0])
print("min per PE:")
print(results[:, :, 1])
print("max per PE:")
print(results[:, :, 2])
print("SUCCESS!")
