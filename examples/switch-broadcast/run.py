#!/usr/bin/env cs_python
"""Host program of switch-broadcast: two rounds, each receiver's chunk checked."""

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
size = int(params["size"])
receivers = width - 1

runner = SdkRuntime(args.name, cmaddr=args.cmaddr)
runner.load()
runner.run()

got_id = runner.get_id("got")
for base in (0, 1000):
    runner.launch("broadcast", np.uint32(base), nonblock=False)
    got = np.zeros(receivers * size, dtype=np.uint32)
    runner.memcpy_d2h(got, got_id, 1, 0, receivers, 1, size,
                      streaming=False, order=MemcpyOrder.ROW_MAJOR,
                      data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
    got = got.reshape(receivers, size)
    # PE k + 1 gets chunk k: base + 100 * (k + 1) + i.
    expected = (base + 100 * np.arange(1, receivers + 1, dtype=np.uint32).reshape(receivers, 1)
                + np.arange(size, dtype=np.uint32)).astype(np.uint32)
    np.testing.assert_array_equal(got, expected)
    print(f"round with base {base}, chunk per receiving PE:")
    print(got)
runner.stop()
print("SUCCESS!")
