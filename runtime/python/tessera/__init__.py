"""Tessera: a toolchain for CSL programs on wafer-scale processing-element meshes.

The native extension `tessera._native` holds the C++ parts (number formats
now; the host runtime and emulator bindings as they arrive).
"""

from tessera._native import __version__

__all__ = ["__version__"]
