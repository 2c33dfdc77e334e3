#!/usr/bin/env cs_python
"""Host program of fifo-pipeline: stream x in, get 2.5 * x + i back."""

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
count = int(params["count"])
h2d_color = int(params["h2d"])
d2h_color = int(params["d2h"])

x = (np.arange(count, dtype=np.float32) * 0.5 - 3.0).astype(np.float32)

runner = SdkRuntime(args.name, cmaddr=args.cmaddr)
runner.load()
runner.run()

runner.launch("start", nonblock=False)
runner.memcpy_h2d(h2d_color, x, 0, 0, 1, 1, count, streaming=True,
                  order=MemcpyOrder.ROW_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
y = np.zeros(count, dtype=np.float32)
runner.memcpy_d2h(y, d2h_color, 0, 0, 1, 1, count, streaming=True,
                  order=MemcpyOrder.ROW_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
finished = np.zeros(1, dtype=np.uint32)
runner.memcpy_d2h(finished, runner.get_id("finished"), 0, 0, 1, 1, 1,
                  streaming=False, order=MemcpyOrder.ROW_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
runner.stop()

expected = (np.float32(2.5) * x + np.arange(count, dtype=np.float32)).astype(np.float32)
np.testing.assert_array_equal(y, expected)
np.testing.assert_array_equal(finished, [1])
print(f"first 8 of {count}: {y[:8]}")
print(f"last 8 of {count}: {y[-8:]}")
print(f"finished: {finished[0]}")
print("SUCCESS!")
