"""SdkRuntime's thread-count errors, one line each."""
import sys

from cerebras.sdk.runtime.sdkruntimepybind import SdkRuntime

for label, kwargs in [("threads=0", dict(threads=0)),
                      ("threads=257", dict(threads=257)),
                      ("threads='2'", dict(threads="2")),
                      ("threads=1.5", dict(threads=1.5)),
                      ("simfab_numthreads=0", dict(simfab_numthreads=0)),
                      ("threads=2", dict(threads=2)),
                      ("default", {})]:
    try:
        SdkRuntime(sys.argv[1], **kwargs)
        print(f"{label}: ok")
    except ValueError as error:
        print(f"{label}: {error}")
