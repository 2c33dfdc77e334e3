"""Launches hello's compute with progress shown at every check ("on") or
as the environment says ("default"), then tries bad intervals."""
import sys

from cerebras.sdk.runtime.sdkruntimepybind import SdkRuntime

progress = True if sys.argv[2] == "on" else None
runner = SdkRuntime(sys.argv[1], progress=progress, progress_interval=0,
                    sim_log="")
runner.load()
runner.run()
runner.launch("compute", nonblock=False)
print("launched", flush=True)
runner.stop()
for bad in (-1, "x", True):
    try:
        SdkRuntime(sys.argv[1], progress_interval=bad)
    except ValueError as error:
        print(error)
