#!/usr/bin/env cs_python
"""Host program of hello: launch compute on every PE, read the results back."""

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

runner = SdkRuntime(args.name, cmaddr=args.cmaddr)
runner.load()
runner.run()

runner.launch("compute", nonblock=False)

result_symbol = runner.get_id("result")
result = np.zeros(width * size, dtype=np.float32)
runner.memcpy_d2h(result, result_symbol, 0, 0, width, 1, size,
                  streaming=False, order=MemcpyOrder.ROW_MAJOR,
                  data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
runner.stop()

columns = np.arange(width, dtype=np.float32).reshape(width, 1)
expected = ((columns + 1) * np.arange(size, dtype=np.float32) + 0.5).ravel()
np.testing.assert_array_equal(result, expected)
print("result per PE:")
print(result.reshape(width, size))
print("SUCCESS!")
