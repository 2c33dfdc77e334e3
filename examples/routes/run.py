#!/usr/bin/env cs_python
"""Host program of routes: give every PE an array, sum them along the row."""

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
    compile_data = json.load(f)
width = int(compile_data["params"]["width"])
size = int(compile_data["params"]["size"])

# PE x contributes (x + 1) * 10 + i at index i.
columns = np.arange(width, dtype=np.float32).reshape(width, 1)
values = ((columns + 1) * 10 + np.arange(size, dtype=np.float32)).astype(np.float32)

runner = SdkRuntime(args.name, cmaddr=args.cmaddr)
runner.load()
runner.run()

runner.memcpy_h2d(runner.get_id("values"), values.ravel(), 0, 0, width, 1, size,
                  streaming=False, order=MemcpyOrder.ROW_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
runner.launch("compute", nonblock=False)

total = np.zeros(size, dtype=np.float32)
runner.memcpy_d2h(total, runner.get_id("total"), width - 1, 0, 1, 1, size,
                  streaming=False, order=MemcpyOrder.ROW_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
runner.stop()

expected = values.sum(axis=0)
np.testing.assert_array_equal(total, expected)
print(f"sum over {width} PEs:")
print(total)
print("SUCCESS!")
