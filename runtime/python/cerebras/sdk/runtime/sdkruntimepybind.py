"""`cerebras.sdk.runtime.sdkruntimepybind` as SDK scripts import it: Tessera's
host runtime over its emulator (tessera.runtime, docs/HostRuntime.md) and
its SdkLayout (tessera.sdklayout, docs/SdkLayout.md)."""

from tessera.runtime import (MemcpyDataType, MemcpyOrder, SdkRuntime,
                             SdkRuntimeError, Task)
from tessera.sdklayout import (CodeRegion, Color, Edge, Platform, Route,
                               RoutingPosition, SdkLayout, SdkLayoutError,
                               SdkTarget, SimfabConfig, Stream,
                               get_edge_routing, get_platform)

__all__ = ["SdkRuntime", "MemcpyDataType", "MemcpyOrder", "SdkRuntimeError",
           "Task", "CodeRegion", "Color", "Edge", "Platform", "Route",
           "RoutingPosition", "SdkLayout", "SdkLayoutError", "SdkTarget",
           "SimfabConfig", "Stream", "get_edge_routing", "get_platform"]
