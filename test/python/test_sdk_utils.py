"""The SDK helper modules: cerebras.sdk.sdk_utils and
cerebras.sdk.debug.debug_util (docs/HostRuntime.md, "SDK helper modules").

debug_util is tested against a stand-in for the runtime that holds the
words lib/csl/debug.csl would have written; test/Runtime/debug-util.test
runs it on the emulator.
"""

import json
import os
import tempfile
import unittest
from unittest import mock

import numpy as np

import tessera.runtime
from cerebras.sdk import sdk_utils
from cerebras.sdk.debug import debug_util as debug_module
from cerebras.sdk.debug.debug_util import DebugUtilError, debug_util
from cerebras.sdk.sdk_utils import (calculate_cycles, input_array_to_u32,
                                    memcpy_view)


def u32(*words):
    return np.array(words, dtype=np.uint32)


class MemcpyViewTest(unittest.TestCase):
    WORDS = (0x0001002A, 0xFFFFFFFE, 0x12348000, 0xABCD3C00)

    def test_16bit_types_take_the_low_half(self):
        words = u32(*self.WORDS)
        np.testing.assert_array_equal(
            memcpy_view(words, np.dtype(np.int16)),
            np.array([42, -2, -32768, 0x3C00], dtype=np.int16))
        np.testing.assert_array_equal(
            memcpy_view(words, np.uint16),
            np.array([42, 0xFFFE, 0x8000, 0x3C00], dtype=np.uint16))
        halves = memcpy_view(words, "float16")
        self.assertEqual(halves.dtype, np.float16)
        self.assertEqual(halves[3], 1.0)  # 0x3C00
        self.assertEqual(halves[1].view(np.uint16), 0xFFFE)

    def test_32bit_types_reinterpret_the_word(self):
        words = u32(0x3F800000, 0xFFFFFFFF)
        np.testing.assert_array_equal(memcpy_view(words, np.float32),
                                      np.array([1.0, np.nan], np.float32))
        np.testing.assert_array_equal(memcpy_view(words, np.int32), [1065353216, -1])
        same = memcpy_view(words, np.uint32)
        self.assertEqual(same.dtype, np.uint32)
        np.testing.assert_array_equal(same, [0x3F800000, 0xFFFFFFFF])

    def test_accepts_int32_and_float32_containers(self):
        np.testing.assert_array_equal(
            memcpy_view(u32(*self.WORDS).view(np.int32), np.int16),
            [42, -2, -32768, 0x3C00])
        np.testing.assert_array_equal(
            memcpy_view(u32(0x00003C00).view(np.float32), np.float16), [1.0])

    def test_view_shares_memory_and_keeps_the_shape(self):
        container = np.full((2, 3), 0xABCD0000, dtype=np.uint32)
        view = memcpy_view(container, np.int16)
        self.assertEqual(view.shape, (2, 3))
        view[...] = [[1, -1, 2], [3, 4, -32768]]
        # Writes fill the low halves; the high halves stay as they were.
        np.testing.assert_array_equal(
            container,
            [[0xABCD0001, 0xABCDFFFF, 0xABCD0002],
             [0xABCD0003, 0xABCD0004, 0xABCD8000]])

    def test_strided_writes_as_fft_does(self):
        container = np.zeros(4, dtype=np.uint32)
        twiddle = memcpy_view(container, np.float16)
        twiddle[0::2] = np.array([1.0, -2.0], np.float16)
        twiddle[1::2] = np.array([0.5, 0.0], np.float16)
        np.testing.assert_array_equal(container,
                                      [0x3C00, 0x3800, 0xC000, 0x0000])
        words = memcpy_view(container, np.float32)
        words[3] = np.float32(1.0)
        self.assertEqual(container[3], 0x3F800000)

    def test_non_contiguous_and_0d_arrays(self):
        base = np.arange(12, dtype=np.uint32).reshape(3, 4) | 0x55550000
        columns = base[:, ::2]
        view = memcpy_view(columns, np.uint16)
        np.testing.assert_array_equal(view, [[0, 2], [4, 6], [8, 10]])
        transposed = memcpy_view(base.T, np.int16)
        np.testing.assert_array_equal(transposed, np.arange(12).reshape(3, 4).T)
        view[2, 1] = 0xBEEF
        self.assertEqual(base[2, 2], 0x5555BEEF)
        self.assertEqual(transposed[2, 2], -16657)  # 0xBEEF, seen through .T
        scalar = memcpy_view(np.array(0xFFFF0007, dtype=np.uint32), np.int16)
        self.assertEqual(scalar.shape, ())
        self.assertEqual(scalar, 7)

    def test_errors(self):
        cases = [
            (TypeError, lambda: memcpy_view([1, 2], np.int16),
             "memcpy_view: expected a numpy array of 32-bit elements, not list"),
            (ValueError, lambda: memcpy_view(np.zeros(2), np.int16),
             "memcpy_view: the array must hold 32-bit elements (uint32, "
             "int32 or float32), not float64"),
            (ValueError, lambda: memcpy_view(np.zeros(2, np.uint16), np.int16),
             "memcpy_view: the array must hold 32-bit elements (uint32, "
             "int32 or float32), not uint16"),
            (ValueError,
             lambda: memcpy_view(np.zeros(2, np.dtype(np.uint32).newbyteorder("S")),
                                 np.int16),
             "memcpy_view: the array must be in the machine's byte order"),
            (ValueError, lambda: memcpy_view(u32(1), np.int8),
             "memcpy_view: dtype must be a 16-bit or 32-bit number type "
             "(float16, int16, uint16, float32, int32 or uint32), not int8"),
            (ValueError, lambda: memcpy_view(u32(1), np.complex64),
             "memcpy_view: dtype must be a 16-bit or 32-bit number type "
             "(float16, int16, uint16, float32, int32 or uint32), not complex64"),
            (TypeError, lambda: memcpy_view(u32(1), "nonsense"),
             "memcpy_view: 'nonsense' is not a numpy data type"),
        ]
        for error, call, message in cases:
            with self.subTest(message=message):
                with self.assertRaises(error) as caught:
                    call()
                self.assertEqual(str(caught.exception), message)


class InputArrayToU32Test(unittest.TestCase):
    def test_zero_extension(self):
        values = np.array([42, -2, -32768, 7], dtype=np.int16)
        expected = u32(42, 0xFFFE, 0x8000, 7)
        for sentinel in (None, 0):
            with self.subTest(sentinel=sentinel):
                words = input_array_to_u32(values, sentinel, 2)
                self.assertEqual(words.dtype, np.uint32)
                np.testing.assert_array_equal(words, expected)

    def test_index_in_the_high_half(self):
        values = np.arange(100, 107, dtype=np.uint16)
        words = input_array_to_u32(values, 1, 3)
        np.testing.assert_array_equal(
            words, u32(0x00000064, 0x00010065, 0x00020066, 0x00000067,
                       0x00010068, 0x00020069, 0x0000006A))

    def test_keyword_arguments_and_float16(self):
        values = np.array([1.0, -2.0, 0.5], dtype=np.float16)
        words = input_array_to_u32(np_arr=values, sentinel=1, fast_dim_sz=3)
        np.testing.assert_array_equal(words, u32(0x3C00, 0x1C000, 0x23800))

    def test_shape_is_kept_and_the_index_follows_c_order(self):
        values = np.arange(6, dtype=np.int16).reshape(2, 3)
        expected = np.array([[0x00000, 0x10001, 0x00002],
                             [0x10003, 0x00004, 0x10005]], dtype=np.uint32)
        np.testing.assert_array_equal(input_array_to_u32(values, 1, 2), expected)
        # Memory layout does not matter: only the elements' positions do.
        fortran = np.asfortranarray(values)
        np.testing.assert_array_equal(input_array_to_u32(fortran, 1, 2), expected)
        strided = np.arange(12, dtype=np.int16).reshape(2, 6)[:, ::2]
        np.testing.assert_array_equal(
            input_array_to_u32(strided, 1, 3),
            [[0x00000, 0x10002, 0x20004], [0x00006, 0x10008, 0x2000A]])

    def test_foreign_byte_order(self):
        values = np.array([1, -2], dtype=">i2")
        np.testing.assert_array_equal(input_array_to_u32(values, 1, 2),
                                      u32(0x00001, 0x1FFFE))

    def test_largest_fast_dimension(self):
        values = np.zeros(65537, dtype=np.uint16)
        words = input_array_to_u32(values, 1, 65536)
        self.assertEqual(words[65535], 0xFFFF0000)
        self.assertEqual(words[65536], 0)
        # Without the index, the fast dimension can be anything positive.
        self.assertEqual(input_array_to_u32(values, 0, 65537)[65536], 0)

    def test_round_trip_through_memcpy_view(self):
        rng = np.random.default_rng(7)
        bits = rng.integers(0, 1 << 16, size=257, dtype=np.uint16)
        for dtype in (np.int16, np.uint16, np.float16):
            for sentinel in (None, 0, 1):
                with self.subTest(dtype=dtype, sentinel=sentinel):
                    values = bits.view(dtype)
                    words = input_array_to_u32(values, sentinel, 16)
                    back = memcpy_view(words, dtype)
                    self.assertEqual(back.dtype, dtype)
                    np.testing.assert_array_equal(back.view(np.uint16), bits)
                    high = words >> 16
                    np.testing.assert_array_equal(
                        high, np.arange(257) % 16 if sentinel else 0)

    def test_errors(self):
        values = np.zeros(4, dtype=np.int16)
        cases = [
            (TypeError, lambda: input_array_to_u32([1, 2], 0, 1),
             "input_array_to_u32: expected a numpy array of 16-bit elements, "
             "not list"),
            (ValueError,
             lambda: input_array_to_u32(np.zeros(2, np.int32), 0, 1),
             "input_array_to_u32: the array must hold 16-bit elements "
             "(int16, uint16 or float16), not int32"),
            (ValueError, lambda: input_array_to_u32(values, 2, 4),
             "input_array_to_u32: sentinel must be None, 0 (zero high halves) "
             "or 1 (the index in the high halves), not 2"),
            (TypeError, lambda: input_array_to_u32(values, "1", 4),
             "input_array_to_u32: sentinel must be None, 0 or 1, not str"),
            (ValueError, lambda: input_array_to_u32(values, 1, 0),
             "input_array_to_u32: fast_dim_sz must be at least 1, not 0"),
            (TypeError, lambda: input_array_to_u32(values, 1, 1.5),
             "input_array_to_u32: fast_dim_sz must be an integer, not float"),
            (ValueError, lambda: input_array_to_u32(values, 1, 65537),
             "input_array_to_u32: with sentinel 1, fast_dim_sz must be at "
             "most 65536 so that every index fits in 16 bits, not 65537"),
        ]
        for error, call, message in cases:
            with self.subTest(message=message):
                with self.assertRaises(error) as caught:
                    call()
                self.assertEqual(str(caught.exception), message)


class CalculateCyclesTest(unittest.TestCase):
    def test_one_timestamp_low_word_first(self):
        cycles = calculate_cycles(np.array([0x1234, 0x5678, 0x9ABC], np.uint16))
        self.assertIs(type(cycles), int)
        self.assertEqual(cycles, 0x9ABC56781234)
        self.assertEqual(calculate_cycles([1, 2, 3]), 1 + (2 << 16) + (3 << 32))

    def test_words_as_a_16bit_d2h_returned_them(self):
        container = u32(0xFFFF, 0x0001, 0x0002)
        self.assertEqual(calculate_cycles(container), 0x00020001FFFF)
        self.assertEqual(calculate_cycles(memcpy_view(container, np.uint16)),
                         0x00020001FFFF)
        # int16 words are bit patterns.
        self.assertEqual(calculate_cycles(memcpy_view(container, np.int16)),
                         0x00020001FFFF)
        self.assertEqual(calculate_cycles(np.array([-1, -1, -1], np.int16)),
                         (1 << 48) - 1)

    def test_many_timestamps(self):
        words = np.array([[[1, 0, 0], [0, 1, 0]], [[0, 0, 1], [5, 6, 7]]],
                         dtype=np.uint32)
        cycles = calculate_cycles(words)
        self.assertEqual(cycles.dtype, np.int64)
        np.testing.assert_array_equal(
            cycles, [[1, 1 << 16], [1 << 32, 5 + (6 << 16) + (7 << 32)]])

    def test_difference_of_two_timestamps(self):
        start = calculate_cycles(np.array([0xFFF0, 0xFFFF, 0], np.uint16))
        finish = calculate_cycles(np.array([0x0010, 0x0000, 1], np.uint16))
        self.assertEqual(finish - start, 0x20)

    def test_errors(self):
        cases = [
            (lambda: calculate_cycles(np.array([1.0, 2.0, 3.0])),
             "calculate_cycles: timestamps must be integers, not float64"),
            (lambda: calculate_cycles([1, 2, 3, 4]),
             "calculate_cycles: a timestamp is 3 16-bit words along the last "
             "axis; the shape is (4,)"),
            (lambda: calculate_cycles(5),
             "calculate_cycles: a timestamp is 3 16-bit words along the last "
             "axis; the shape is ()"),
            (lambda: calculate_cycles(u32(1, 70000, 2)),
             "calculate_cycles: timestamp words are 16-bit (0 to 65535); "
             "found 70000"),
            (lambda: calculate_cycles(np.array([1, -1, 2], np.int32)),
             "calculate_cycles: timestamp words are 16-bit (0 to 65535); "
             "found -1"),
        ]
        for call, message in cases:
            with self.subTest(message=message):
                with self.assertRaises(ValueError) as caught:
                    call()
                self.assertEqual(str(caught.exception), message)

    def test_module_exports(self):
        self.assertEqual(sorted(sdk_utils.__all__),
                         ["calculate_cycles", "input_array_to_u32", "memcpy_view"])


class FakeRuntime:
    """read_symbol as tessera.runtime.SdkRuntime has it, over fixed bytes."""

    def __init__(self, symbols, failure=None):
        self.symbols = symbols  # {(x, y): {name: bytes}}
        self.failure = failure
        self.reads = []

    def read_symbol(self, x, y, name, dtype=np.uint32):
        self.reads.append((x, y, name))
        if self.failure:
            raise tessera.runtime.SdkRuntimeError(self.failure)
        data = self.symbols.get((x, y), {}).get(name)
        if data is None:
            raise RuntimeError(f"read_symbol: PE ({x}, {y}) ('pe') has no "
                               f"data named '{name}' (an exported symbol, or "
                               f"a global variable of a program compiled "
                               f"without -g0)")
        return np.frombuffer(data, dtype=dtype).copy()


def trace(key, words, size, dropped=0):
    """The three symbols of a <debug> instance holding `words`."""
    buffer = np.full(size, 0xDEADBEEF, dtype=np.uint32)  # unused words
    buffer[:len(words)] = words
    return {f"debug.{key}.buffer": buffer.tobytes(),
            f"debug.{key}.length": np.uint16(len(words)).tobytes(),
            f"debug.{key}.dropped": np.uint16(dropped).tobytes()}


# One record of each kind, encoded as docs/Library.md says.
ALL_RECORDS = [
    0x00010003, 5, 0x72617453, 0x74,  # "Start": 5 bytes, 4 per word
    0x00010001, 0,                    # ""
    0x00020001, 0xFFFF,               # trace_u16(65535)
    0x00030001, 0xFFFD,               # trace_i16(-3)
    0x00040001, 0xFFFFFFFF,           # trace_u32(4294967295)
    0x00050001, 0xFFFFFFFB,           # trace_i32(-5)
    0x00060001, 0x3E00,               # trace_f16(1.5)
    0x00070001, 0xC0200000,           # trace_f32(-2.5)
    0x00080001, 1,                    # trace_bool(true)
    0x00080001, 0,                    # trace_bool(false)
    0x00090002, 0x89ABCDEF, 0x0123,   # trace_timestamp()
    0x00010002, 2, 0xA9C3,            # "\u00e9": UTF-8 bytes C3 A9
]


class DebugUtilTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.addCleanup(self.tmp.cleanup)
        self.dir = os.path.join(self.tmp.name, "out")
        os.mkdir(self.dir)
        self.write_metadata({"fabric_offsets": [4, 1], "rectangle": [2, 3],
                             "fabric_dims": [9, 5]})
        self.runtimes = {}
        patcher = mock.patch.object(tessera.runtime, "runtime_for",
                                    lambda d: self.runtimes.get(d))
        patcher.start()
        self.addCleanup(patcher.stop)

    def write_metadata(self, metadata):
        with open(os.path.join(self.dir, "out.json"), "w",
                  encoding="utf-8") as file:
            file.write(metadata if isinstance(metadata, str)
                       else json.dumps(metadata))

    def install(self, symbols, **kwargs):
        runtime = FakeRuntime(symbols, **kwargs)
        self.runtimes[self.dir] = runtime
        return runtime

    def assert_error(self, call, message, error=DebugUtilError):
        with self.assertRaises(error) as caught:
            call()
        self.assertEqual(str(caught.exception), message)

    def test_decodes_every_record_kind(self):
        runtime = self.install({(1, 2): trace("trace", ALL_RECORDS, 40)})
        records = debug_util(self.dir, cmaddr=None).read_trace(5, 3, "trace")
        self.assertEqual(records, ["Start", "", 65535, -3, 4294967295, -5,
                                   1.5, -2.5, True, False, 0x012389ABCDEF,
                                   "\u00e9"])
        types = [type(r) for r in records]
        self.assertEqual(types, [str, str, int, int, int, int, np.float16,
                                 np.float32, bool, bool, int, str])
        # Fabric (5, 3) is rectangle (1, 2): offsets (4, 1).
        self.assertEqual(runtime.reads, [(1, 2, "debug.trace.buffer"),
                                         (1, 2, "debug.trace.length"),
                                         (1, 2, "debug.trace.dropped")])

    def test_topic_12_shape(self):
        # A receiver's 'trace': a string and a u32 per task, as topic-12
        # reads it with trace_output[1::2].
        words = []
        for value in (0, 2, 6):
            words += [0x00010005, 15, 0x72617453, 0x65722074, 0x745F7663,
                      0x006B7361, 0x00040001, value]
        self.install({(0, 0): trace("trace", words, 100),
                      (0, 1): trace("times", [0x00090002, 70000, 1], 4)})
        dbg = debug_util(self.dir)
        records = dbg.read_trace(4, 1, "trace")
        self.assertEqual(records, ["Start recv_task", 0, "Start recv_task", 2,
                                   "Start recv_task", 6])
        self.assertEqual(records[1::2], [0, 2, 6])
        self.assertEqual(dbg.read_trace(np.int64(4), 2, "times"),
                         [70000 + (1 << 32)])

    def test_empty_trace(self):
        self.install({(0, 0): trace("t", [], 2)})
        self.assertEqual(debug_util(self.dir).read_trace(4, 1, "t"), [])

    def test_invalid_utf8_is_escaped(self):
        self.install({(0, 0): trace("t", [0x00010002, 2, 0xFF41], 4)})
        self.assertEqual(debug_util(self.dir).read_trace(4, 1, "t"),
                         ["A\\xff"])

    def test_dropped_records_warn(self):
        self.install({(0, 0): trace("t", [0x00020001, 7], 3, dropped=2),
                      (1, 0): trace("t", [], 3, dropped=1)})
        dbg = debug_util(self.dir)
        with self.assertWarns(RuntimeWarning) as caught:
            records = dbg.read_trace(4, 1, "t")
        self.assertEqual(records, [7])
        self.assertEqual(str(caught.warning),
                         "read_trace: trace 't' of PE (4, 1) dropped 2 records "
                         "that did not fit in its 3 words (.buffer_size)")
        with self.assertWarns(RuntimeWarning) as caught:
            dbg.read_trace(5, 1, "t")
        self.assertEqual(str(caught.warning),
                         "read_trace: trace 't' of PE (5, 1) dropped 1 record "
                         "that did not fit in its 3 words (.buffer_size)")

    def test_malformed_traces(self):
        cases = [
            ([0x000A0001, 1], "unknown record tag 10"),
            ([0x00020001, 1, 0x00040002, 5],
             "a record of 2 payload words runs past the 4 words in use"),
            ([0x00020002, 1, 2], "a record with tag 2 has 2 payload words, not 1"),
            ([0x00090001, 1], "a record with tag 9 has 1 payload words, not 2"),
            ([0x00010000], "a string record has no byte count"),
            ([0x00010002, 5, 0x41414141],
             "a string of 5 bytes has 1 words of bytes, not 2"),
        ]
        for words, why in cases:
            with self.subTest(why=why):
                self.install({(0, 0): trace("t", words, 8)})
                position = 2 if words[0] == 0x00020001 else 0
                self.assert_error(
                    lambda: debug_util(self.dir).read_trace(4, 1, "t"),
                    f"read_trace: trace 't' of PE (4, 1) is malformed at word "
                    f"{position}: {why}")

    def test_length_beyond_the_buffer(self):
        symbols = trace("t", [0x00020001, 1], 2)
        symbols["debug.t.length"] = np.uint16(3).tobytes()
        self.install({(0, 0): symbols})
        self.assert_error(lambda: debug_util(self.dir).read_trace(4, 1, "t"),
                          "read_trace: trace 't' of PE (4, 1) claims 3 words "
                          "in use; its buffer has 2")

    def test_unknown_trace(self):
        self.install({(0, 0): trace("trace", [], 4)})
        self.assert_error(
            lambda: debug_util(self.dir).read_trace(4, 1, "nope"),
            "read_trace: PE (4, 1) has no trace named 'nope': its program "
            "exports no 'debug.nope.buffer', 'debug.nope.length' and "
            "'debug.nope.dropped' (no <debug> import with .key = \"nope\")")

    def test_pe_outside_the_rectangle(self):
        self.install({})
        dbg = debug_util(self.dir)
        for x, y in ((3, 1), (6, 1), (4, 0), (5, 4), (0, 0)):
            with self.subTest(x=x, y=y):
                self.assert_error(
                    lambda: dbg.read_trace(x, y, "t"),
                    f"read_trace: PE ({x}, {y}) is outside the program "
                    f"rectangle, which spans fabric PEs (4, 1) to (5, 3) "
                    f"(coordinates are the fabric's, from its north-west "
                    f"corner)")
        self.assert_error(lambda: dbg.get_symbol(6, 1, "a", np.uint32),
                          "get_symbol: PE (6, 1) is outside the program "
                          "rectangle, which spans fabric PEs (4, 1) to (5, 3) "
                          "(coordinates are the fabric's, from its north-west "
                          "corner)")
        self.assert_error(lambda: dbg.read_trace(4.0, 1, "t"),
                          "read_trace: PE coordinates must be integers, not "
                          "float and int", TypeError)

    def test_no_runtime_for_the_directory(self):
        self.runtimes["elsewhere"] = FakeRuntime({})
        self.assert_error(
            lambda: debug_util(self.dir).read_trace(4, 1, "t"),
            f"read_trace: no SdkRuntime was created for '{self.dir}' in this "
            f"process; debug_util reads the memory of the one that ran the "
            f"program")

    def test_runtime_errors_are_passed_on(self):
        self.install({}, failure="read_symbol: the runtime is not loaded")
        self.assert_error(
            lambda: debug_util(self.dir).read_trace(4, 1, "t"),
            "read_trace: cannot read PE (4, 1): read_symbol: the runtime is "
            "not loaded")

    def test_get_symbol(self):
        values = np.array([1.5, -2.0, 0.25], dtype=np.float16)
        self.install({(1, 1): {"y": values.tobytes(),
                               "n": np.int16(-4).tobytes()}})
        dbg = debug_util(self.dir)
        got = dbg.get_symbol(5, 2, "y", np.float16)
        self.assertEqual(got.dtype, np.float16)
        np.testing.assert_array_equal(got, values)
        np.testing.assert_array_equal(dbg.get_symbol(5, 2, "n", np.int16), [-4])
        np.testing.assert_array_equal(dbg.get_symbol(5, 2, "y", np.uint16),
                                      [0x3E00, 0xC000, 0x3400])
        self.assert_error(lambda: dbg.get_symbol(5, 2, "y", np.uint32),
                          "get_symbol: 'y' on PE (5, 2) is 6 bytes, not a "
                          "whole number of uint32 elements")
        self.assert_error(lambda: dbg.get_symbol(5, 2, "x_temp", np.float16),
                          "get_symbol: PE (5, 2) has no data named 'x_temp' "
                          "(an exported symbol, or a global variable of a "
                          "program compiled without -g0)")

    def test_metadata_errors(self):
        path = os.path.join(self.dir, "out.json")
        self.write_metadata("{")
        self.assert_error(
            lambda: debug_util(self.dir),
            f"debug_util: '{path}' is not valid JSON: Expecting property name "
            f"enclosed in double quotes: line 1 column 2 (char 1)")
        self.write_metadata({"rectangle": [1, 1]})
        self.assert_error(lambda: debug_util(self.dir),
                          f"debug_util: '{path}' lacks 'fabric_offsets' or "
                          f"'rectangle'")
        missing = os.path.join(self.tmp.name, "missing")
        self.assert_error(
            lambda: debug_util(missing),
            f"debug_util: cannot read '{os.path.join(missing, 'out.json')}': "
            f"No such file or directory")

    def test_symbol_names(self):
        self.assertEqual(debug_module.trace_symbols("times"),
                         ("debug.times.buffer", "debug.times.length",
                          "debug.times.dropped"))


if __name__ == "__main__":
    unittest.main()
