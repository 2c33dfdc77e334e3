"""`debug_util`: read what a program left in PE memory, after the run.

    runner = SdkRuntime("out"); ...; runner.stop()
    dbg = debug_util("out")
    dbg.read_trace(4, 1, "trace")   # ['Start recv_task', 0, ...]
    dbg.get_symbol(4, 1, "y", np.float16)

As in the SDK, PEs are named by fabric coordinates (from the fabric's
north-west corner); out.json's `fabric_offsets` give the rectangle's corner.
The memory is that of the SdkRuntime last created in this process for the
same directory (tessera.runtime.runtime_for), also after its stop().

A `<debug>` import with `.key = K` keeps its trace in three data symbols it
exports as `debug.K.buffer` ([buffer_size]u32), `debug.K.length` (u16, the
words used) and `debug.K.dropped` (u16, records that did not fit);
docs/Library.md gives the record encoding and docs/HostRuntime.md ("SDK
helper modules") the decoded values.
"""

import json
import operator
import os
import warnings

import numpy as np

from tessera import runtime as _runtime

__all__ = ["debug_util", "DebugUtilError", "trace_symbols"]


class DebugUtilError(RuntimeError):
    """A debug_util call that cannot be answered; the message says why."""


# Record tags of lib/csl/debug.csl.
_STRING, _U16, _I16, _U32, _I32, _F16, _F32, _BOOL, _TIMESTAMP = range(1, 10)

# The payload words of each fixed-size record.
_PAYLOAD_WORDS = {_U16: 1, _I16: 1, _U32: 1, _I32: 1, _F16: 1, _F32: 1,
                  _BOOL: 1, _TIMESTAMP: 2}


def trace_symbols(key):
    """The names under which `<debug>` exports the trace with `key`: buffer,
    length and dropped count."""
    return (f"debug.{key}.buffer", f"debug.{key}.length",
            f"debug.{key}.dropped")


def _signed(value, bits):
    """Two's complement: the payload holds signed values as their bits."""
    return value - (1 << bits) if value >> (bits - 1) else value


def _decode_value(tag, payload):
    if tag == _U16:
        return payload[0] & 0xFFFF
    if tag == _I16:
        return _signed(payload[0] & 0xFFFF, 16)
    if tag == _U32:
        return payload[0]
    if tag == _I32:
        return _signed(payload[0], 32)
    if tag == _F16:
        return np.uint16(payload[0] & 0xFFFF).view(np.float16)
    if tag == _F32:
        return np.uint32(payload[0]).view(np.float32)
    if tag == _BOOL:
        return payload[0] != 0
    # _TIMESTAMP: the counter's low 32 bits, then its high 16.
    return payload[0] | (payload[1] & 0xFFFF) << 32


def _decode_string(payload, corrupt):
    count = payload[0]
    if len(payload) != 1 + (count + 3) // 4:
        corrupt(f"a string of {count} bytes has {len(payload) - 1} words "
                f"of bytes, not {(count + 3) // 4}")
    data = b"".join(int(word).to_bytes(4, "little") for word in payload[1:])
    # Device strings are comptime bytes; a byte that is not UTF-8 shows as
    # an escape rather than failing the whole trace.
    return data[:count].decode("utf-8", errors="backslashreplace")


def _decode_trace(words, where="the trace"):
    """The records of a trace buffer's used words, as Python values.

    `where` names the trace in the error a malformed buffer raises.
    """
    words = [int(w) for w in words]
    records = []
    position = 0

    def corrupt(why):
        raise DebugUtilError(
            f"read_trace: {where} is malformed at word {position}: {why}")

    while position < len(words):
        tag, size = words[position] >> 16, words[position] & 0xFFFF
        if tag != _STRING and tag not in _PAYLOAD_WORDS:
            corrupt(f"unknown record tag {tag}")
        if position + 1 + size > len(words):
            corrupt(f"a record of {size} payload words runs past the "
                    f"{len(words)} words in use")
        payload = words[position + 1:position + 1 + size]
        if tag == _STRING:
            if size < 1:
                corrupt("a string record has no byte count")
            records.append(_decode_string(payload, corrupt))
        else:
            if size != _PAYLOAD_WORDS[tag]:
                corrupt(f"a record with tag {tag} has {size} payload words, "
                        f"not {_PAYLOAD_WORDS[tag]}")
            records.append(_decode_value(tag, payload))
        position += 1 + size
    return records


class debug_util:  # pylint: disable=invalid-name  (the SDK's name)
    """debug_util(dirname, cmaddr=None): debugging views of the run of the
    program compiled into `dirname`.

    `cmaddr` (a real system's address) is accepted and ignored, as by
    SdkRuntime: Tessera always runs on its emulator.
    """

    def __init__(self, dirname, cmaddr=None):
        self.dirname = str(dirname)
        path = os.path.join(self.dirname, "out.json")
        try:
            with open(path, encoding="utf-8") as file:
                metadata = json.load(file)
        except OSError as error:
            raise DebugUtilError(
                f"debug_util: cannot read '{path}': {error.strerror}") \
                from None
        except ValueError as error:
            raise DebugUtilError(
                f"debug_util: '{path}' is not valid JSON: {error}") from None
        try:
            self._offset = tuple(int(v) for v in metadata["fabric_offsets"])
            self._rectangle = tuple(int(v) for v in metadata["rectangle"])
        except (KeyError, TypeError, ValueError):
            raise DebugUtilError(
                f"debug_util: '{path}' lacks 'fabric_offsets' or "
                f"'rectangle'") from None

    def _locate(self, what, x, y):
        """The runtime and the rectangle coordinates of fabric PE (x, y)."""
        try:
            x, y = operator.index(x), operator.index(y)
        except TypeError:
            raise TypeError(
                f"{what}: PE coordinates must be integers, not "
                f"{type(x).__name__} and {type(y).__name__}") from None
        (ox, oy), (w, h) = self._offset, self._rectangle
        if not (ox <= x < ox + w and oy <= y < oy + h):
            raise DebugUtilError(
                f"{what}: PE ({x}, {y}) is outside the program rectangle, "
                f"which spans fabric PEs ({ox}, {oy}) to "
                f"({ox + w - 1}, {oy + h - 1}) (coordinates are the "
                f"fabric's, from its north-west corner)")
        runner = _runtime.runtime_for(self.dirname)
        if runner is None:
            raise DebugUtilError(
                f"{what}: no SdkRuntime was created for '{self.dirname}' in "
                f"this process; debug_util reads the memory of the one that "
                f"ran the program")
        return runner, x - ox, y - oy

    @staticmethod
    def _read(what, runner, x, y, rx, ry, name, dtype):
        """Symbol `name` of rectangle PE (rx, ry) as `dtype`, or None if
        that PE exports no such data."""
        try:
            raw = runner.read_symbol(rx, ry, name, np.uint8)
        except RuntimeError as error:  # SdkRuntimeError is one
            if "has no data named" in str(error):
                return None
            raise DebugUtilError(
                f"{what}: cannot read PE ({x}, {y}): {error}") from None
        dtype = np.dtype(dtype)
        if raw.size % dtype.itemsize:
            raise DebugUtilError(
                f"{what}: '{name}' on PE ({x}, {y}) is {raw.size} bytes, "
                f"not a whole number of {dtype} elements")
        return raw.view(dtype)

    def read_trace(self, x, y, name):
        """The records the `<debug>` import with `.key = name` kept on fabric
        PE (x, y), oldest first: a str per trace_string, an int per integer
        or timestamp, a numpy float16/float32 per float and a bool per bool.

        Records that did not fit are missing; a RuntimeWarning says how
        many.
        """
        what = "read_trace"
        runner, rx, ry = self._locate(what, x, y)
        key = str(name)
        buffer_name, length_name, dropped_name = trace_symbols(key)
        buffer = self._read(what, runner, x, y, rx, ry, buffer_name,
                            np.uint32)
        length = self._read(what, runner, x, y, rx, ry, length_name,
                            np.uint16)
        dropped = self._read(what, runner, x, y, rx, ry, dropped_name,
                             np.uint16)
        if buffer is None or length is None or dropped is None:
            raise DebugUtilError(
                f"{what}: PE ({x}, {y}) has no trace named '{key}': its "
                f"program exports no '{buffer_name}', '{length_name}' and "
                f"'{dropped_name}' (no <debug> import with .key = \"{key}\")")
        used = int(length[0])
        where = f"trace '{key}' of PE ({x}, {y})"
        if used > buffer.size:
            raise DebugUtilError(
                f"{what}: {where} claims {used} words in use; its buffer has "
                f"{buffer.size}")
        records = _decode_trace(buffer[:used], where)
        if dropped[0]:
            warnings.warn(
                f"{what}: {where} dropped {int(dropped[0])} record"
                f"{'' if dropped[0] == 1 else 's'} that did not fit in its "
                f"{buffer.size} words (.buffer_size)", RuntimeWarning,
                stacklevel=2)
        return records

    def get_symbol(self, x, y, name, dtype=np.uint32):
        """Data `name` of fabric PE (x, y) as an array of `dtype` (a copy):
        an exported symbol, or any global variable unless the program was
        compiled with -g0."""
        what = "get_symbol"
        runner, rx, ry = self._locate(what, x, y)
        value = self._read(what, runner, x, y, rx, ry, str(name), dtype)
        if value is None:
            raise DebugUtilError(
                f"{what}: PE ({x}, {y}) has no data named '{name}' (an "
                f"exported symbol, or a global variable of a program "
                f"compiled without -g0)")
        return value
