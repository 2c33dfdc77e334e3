"""The SDK's host-side helpers for 16-bit memcpy data and timestamps.

memcpy moves 32-bit words. With MEMCPY_16BIT the device element is the low
half of each word, so a host script packs 16-bit arrays into words before an
H2D copy (`input_array_to_u32`) and looks at the low halves of the words a
D2H copy returned (`memcpy_view`). `calculate_cycles` turns the three 16-bit
words of a `<time>` timestamp into a cycle count. docs/HostRuntime.md
("SDK helper modules") records each choice made where the SDK is silent.
"""

import operator
import sys

import numpy as np

__all__ = ["memcpy_view", "input_array_to_u32", "calculate_cycles"]

# Index, within the two 16-bit halves of a 32-bit word in memory, of the low
# half: the first on a little-endian host.
_LOW_HALF = 0 if sys.byteorder == "little" else 1

# Kinds of numpy types that are numbers memcpy can carry.
_NUMERIC_KINDS = "uif"


def _describe(value):
    """How an error message names what it was given."""
    if isinstance(value, np.ndarray):
        return f"an array of {value.dtype}"
    return type(value).__name__


def memcpy_view(arr, dtype):
    """`arr` (32-bit words) as elements of `dtype`, without a copy.

    A 16-bit dtype gives the low half of each word: what a MEMCPY_16BIT D2H
    copy returned. A 32-bit dtype reinterprets the whole word. The result
    has `arr`'s shape and shares its memory, so writing through it fills
    the words for a later H2D copy (the high halves stay as they were).
    """
    if not isinstance(arr, np.ndarray):
        raise TypeError(
            f"memcpy_view: expected a numpy array of 32-bit elements, "
            f"not {_describe(arr)}")
    if arr.dtype.itemsize != 4 or arr.dtype.kind not in _NUMERIC_KINDS:
        raise ValueError(
            f"memcpy_view: the array must hold 32-bit elements "
            f"(uint32, int32 or float32), not {arr.dtype}")
    if not arr.dtype.isnative:
        raise ValueError(
            "memcpy_view: the array must be in the machine's byte order")
    try:
        view_type = np.dtype(dtype)
    except TypeError:
        raise TypeError(
            f"memcpy_view: {dtype!r} is not a numpy data type") from None
    if view_type.itemsize not in (2, 4) or \
            view_type.kind not in _NUMERIC_KINDS or not view_type.isnative:
        raise ValueError(
            f"memcpy_view: dtype must be a 16-bit or 32-bit number type "
            f"(float16, int16, uint16, float32, int32 or uint32), "
            f"not {view_type}")
    # A trailing axis of length 1 is contiguous whatever arr's strides are,
    # so numpy can split it into the word's halves (or retype it whole);
    # indexing it away leaves arr's shape and strides.
    halves = arr[..., np.newaxis].view(view_type)
    return halves[..., _LOW_HALF if view_type.itemsize == 2 else 0]


def input_array_to_u32(np_arr, sentinel, fast_dim_sz):
    """The 16-bit elements of `np_arr` as 32-bit words for a 16-bit H2D copy.

    The low half of each word is the element's bits. The high half is 0 when
    `sentinel` is None or 0; when it is 1, it is the element's index along
    the fastest dimension, i.e. its position in `np_arr` (C order) modulo
    `fast_dim_sz`, which a streaming H2D delivers to a data task as the
    wavelet's index (`task t(data: u16, index: u16)`). The result is a new
    uint32 array of `np_arr`'s shape.
    """
    if not isinstance(np_arr, np.ndarray):
        raise TypeError(
            f"input_array_to_u32: expected a numpy array of 16-bit "
            f"elements, not {_describe(np_arr)}")
    if np_arr.dtype.itemsize != 2 or np_arr.dtype.kind not in _NUMERIC_KINDS:
        raise ValueError(
            f"input_array_to_u32: the array must hold 16-bit elements "
            f"(int16, uint16 or float16), not {np_arr.dtype}")
    with_index = _sentinel_mode(sentinel)
    try:
        fast = operator.index(fast_dim_sz)
    except TypeError:
        raise TypeError(
            f"input_array_to_u32: fast_dim_sz must be an integer, "
            f"not {_describe(fast_dim_sz)}") from None
    if fast < 1:
        raise ValueError(
            f"input_array_to_u32: fast_dim_sz must be at least 1, not {fast}")
    if with_index and fast > 1 << 16:
        raise ValueError(
            f"input_array_to_u32: with sentinel 1, fast_dim_sz must be at "
            f"most 65536 so that every index fits in 16 bits, not {fast}")
    # The element's bits as a native uint16 (astype fixes a foreign byte
    # order; a view of the same width works whatever the strides).
    native = np_arr.astype(np_arr.dtype.newbyteorder("="), copy=False)
    words = native.view(np.uint16).astype(np.uint32, order="C")
    if with_index:
        index = np.arange(words.size, dtype=np.uint32) % np.uint32(fast)
        words |= (index << np.uint32(16)).reshape(words.shape)
    return words


def _sentinel_mode(sentinel):
    """Whether `sentinel` asks for the index in the high halves."""
    if sentinel is None:
        return False
    try:
        value = operator.index(sentinel)
    except TypeError:
        raise TypeError(
            f"input_array_to_u32: sentinel must be None, 0 or 1, "
            f"not {_describe(sentinel)}") from None
    if value not in (0, 1):
        raise ValueError(
            f"input_array_to_u32: sentinel must be None, 0 (zero high "
            f"halves) or 1 (the index in the high halves), not {value}")
    return value == 1


def calculate_cycles(timestamps):
    """The cycle count of `<time>` timestamps: three 16-bit words, low first.

    `timestamps` has the three words along its last axis (for example the
    words `get_timestamp` stored, read back with MEMCPY_16BIT, through
    memcpy_view or not). One timestamp gives an int; more give an int64
    array of the leading shape. int16 words are taken as their bits.
    """
    words = np.asarray(timestamps)
    if words.dtype.kind not in "ui":
        raise ValueError(
            f"calculate_cycles: timestamps must be integers, "
            f"not {words.dtype}")
    if words.ndim == 0 or words.shape[-1] != 3:
        raise ValueError(
            f"calculate_cycles: a timestamp is 3 16-bit words along the last "
            f"axis; the shape is {words.shape}")
    if words.dtype.itemsize == 2:
        # A 16-bit word is its bits, whatever its sign.
        words = words.astype(words.dtype.newbyteorder("="), copy=False) \
            .view(np.uint16)
    elif words.size and (words.min() < 0 or words.max() > 0xFFFF):
        bad = words[(words < 0) | (words > 0xFFFF)].flat[0]
        raise ValueError(
            f"calculate_cycles: timestamp words are 16-bit (0 to 65535); "
            f"found {int(bad)}")
    words = words.astype(np.int64)
    cycles = words[..., 0] | (words[..., 1] << 16) | (words[..., 2] << 32)
    return int(cycles) if cycles.ndim == 0 else cycles
