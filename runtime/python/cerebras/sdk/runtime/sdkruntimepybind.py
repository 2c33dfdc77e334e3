"""`cerebras.sdk.runtime.sdkruntimepybind` as SDK scripts import it: Tessera's
host runtime over its emulator (tessera.runtime, docs/HostRuntime.md)."""

from tessera.runtime import (MemcpyDataType, MemcpyOrder, SdkRuntime,
                             SdkRuntimeError, Task)

__all__ = ["SdkRuntime", "MemcpyDataType", "MemcpyOrder", "SdkRuntimeError",
           "Task"]
