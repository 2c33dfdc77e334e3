#!/usr/bin/env cs_python
"""Host program of teardown-reroute: three rounds, east, west and east again."""

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
arm = int(params["arm"])
size = int(params["size"])
width = 2 * arm + 1
sender = arm
east_end = width - 1
west_end = 0
rounds = 3

np.random.seed(11)
messages = np.random.randint(-99, 100, size=(rounds, size)).astype(np.float32)

runner = SdkRuntime(args.name, cmaddr=args.cmaddr)
runner.load()
runner.run()


def copy_to(symbol, x, array):
    """Copy array into symbol of PE (x, 0)."""
    runner.memcpy_h2d(runner.get_id(symbol), array, x, 0, 1, 1, array.size,
                      streaming=False, order=MemcpyOrder.ROW_MAJOR,
                      data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)


def copy_from(symbol, x, count, dtype):
    """The first count elements of symbol of PE (x, 0)."""
    array = np.zeros(count, dtype=dtype)
    runner.memcpy_d2h(array, runner.get_id(symbol), x, 0, 1, 1, count,
                      streaming=False, order=MemcpyOrder.ROW_MAJOR,
                      data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
    return array


# What each end should hold: the last message routed its way (zeros before).
expected = {east_end: np.zeros(size, np.float32), west_end: np.zeros(size, np.float32)}
for r in range(rounds):
    copy_to("message", sender, messages[r])
    runner.launch("send", nonblock=False)
    # The sender's router starts east and turns at every teardown.
    end = east_end if r % 2 == 0 else west_end
    expected[end] = messages[r]
    got = {x: copy_from("received", x, size, np.float32) for x in (west_end, east_end)}
    for x in (west_end, east_end):
        np.testing.assert_array_equal(got[x], expected[x])
    way = "east" if end == east_end else "west"
    print(f"round {r + 1} went {way} to PE {end}: {got[end]}")

logs = np.stack([copy_from("teardown_log", x, 2, np.uint32) for x in range(width)])
runner.stop()

# Teardowns: the sender's router sees every round's; an arm's routers see the
# rounds that went their way (rounds 1 and 3 east, round 2 west).
east_rounds = (rounds + 1) // 2
west_rounds = rounds // 2
expected_counts = np.array([west_rounds] * arm + [rounds] + [east_rounds] * arm, np.uint32)
np.testing.assert_array_equal(logs[:, 0], expected_counts)

# Route bits the handlers left: tx mask W=1 E=2 RAMP=16, rx the same << 5.
# The sender's route has turned once per round.
W, E, RAMP = 1, 2, 16
sender_tx = E if rounds % 2 == 0 else W
expected_routes = np.array([E << 5 | RAMP] + [E << 5 | W] * (arm - 1) + [RAMP << 5 | sender_tx]
                           + [W << 5 | E] * (arm - 1) + [W << 5 | RAMP], np.uint32)
np.testing.assert_array_equal(logs[:, 1], expected_routes)

print(f"teardowns handled per PE: {logs[:, 0]}")
print(f"route bits per PE after them: {[hex(v) for v in logs[:, 1]]}")
print("SUCCESS!")
