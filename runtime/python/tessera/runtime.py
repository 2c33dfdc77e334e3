"""The host runtime: the SDK's SdkRuntime API over Tessera's fabric emulator.

    runner = SdkRuntime("out")          # a `cslc -o out` directory
    runner.load(); runner.run()
    runner.memcpy_h2d(runner.get_id("A"), a, 0, 0, 4, 1, 8,
                      streaming=False, order=MemcpyOrder.ROW_MAJOR,
                      data_type=MemcpyDataType.MEMCPY_32BIT, nonblock=False)
    runner.launch("compute", np.float32(2.0), nonblock=False)
    runner.stop()

docs/HostRuntime.md describes what each call does on the emulator.
"""

import enum
import numbers
import os
import sys

import numpy as np

from tessera import _runtime

SdkRuntimeError = _runtime.HostError

__all__ = ["SdkRuntime", "MemcpyDataType", "MemcpyOrder", "SdkRuntimeError",
           "Task", "runtime_for"]


class MemcpyDataType(enum.Enum):
    MEMCPY_16BIT = 16
    MEMCPY_32BIT = 32


class MemcpyOrder(enum.Enum):
    ROW_MAJOR = 0
    COL_MAJOR = 1


class Task:
    """A command's handle; on the emulator a command is done when it returns."""

    def __init__(self, runtime, handle):
        self._runtime = runtime
        self._handle = handle

    def __repr__(self):
        return f"Task({self._handle})"


# The 32-bit word a launch argument of each parameter type becomes.
def _f16_bits(value):
    return int(np.array(value, dtype=np.float16).view(np.uint16))


_ARG_WORD = {
    "f32": lambda v: int(np.array(v, dtype=np.float32).view(np.uint32)),
    "f16": _f16_bits,
    "bf16": lambda v: int(np.array(v, dtype=np.float32).view(np.uint32)) >> 16,
    "i8": lambda v: int(v) & 0xFF,
    "u8": lambda v: int(v) & 0xFF,
    "i16": lambda v: int(v) & 0xFFFF,
    "u16": lambda v: int(v) & 0xFFFF,
    "i32": lambda v: int(v) & 0xFFFFFFFF,
    "u32": lambda v: int(v) & 0xFFFFFFFF,
    "bool": lambda v: 1 if v else 0,
}


# With `cs_python -m tessera.ranks`, rank 0's end of the ranks that serve
# every SdkRuntime's fabric (docs/Scaling.md "Host programs on ranks").
_RANKS = None


def _use_ranks(servers):
    """Makes every SdkRuntime created from now on split its fabric among
    the ranks behind `servers` (a tessera._runtime.RankServers)."""
    global _RANKS
    _RANKS = servers


# The runtime most recently created for each output directory, so that
# debugging tools given only the directory (cerebras.sdk.debug.debug_util)
# can read the device's memory after the run.
_LATEST = {}


def runtime_for(bindir):
    """The SdkRuntime last created for output directory `bindir`, or None."""
    return _LATEST.get(os.path.realpath(str(bindir)))


def _as_words(array, what):
    """The array's 32-bit words, without a copy where it is contiguous."""
    array = np.asarray(array)
    if array.dtype.itemsize != 4:
        raise SdkRuntimeError(
            f"{what}: the host array must hold 32-bit elements "
            f"(float32, int32 or uint32), not {array.dtype}")
    return np.ascontiguousarray(array).reshape(-1).view(np.uint32)


# Element types a host stream carries: 32-bit ones are the words, 16-bit
# ones the low halves (zero-extended on the way in).
_STREAM_KINDS = "iuf"


def _stream_array(array, what):
    """Checks a host stream's array; returns its element size in bytes."""
    if not isinstance(array, np.ndarray):
        raise SdkRuntimeError(
            f"{what}: the array must be a numpy array, not "
            f"{type(array).__name__}")
    if array.dtype.kind not in _STREAM_KINDS or \
            array.dtype.itemsize not in (2, 4):
        raise SdkRuntimeError(
            f"{what}: the array must hold 32-bit elements (float32, int32 or "
            f"uint32) or 16-bit ones (float16, int16 or uint16), not "
            f"{array.dtype}")
    return array.dtype.itemsize


class SdkRuntime:
    """SdkRuntime(bindir, cmaddr=None, **options).

    `bindir` is the output directory: a str or any os.PathLike (SdkLayout's
    compile artifacts). `cmaddr` (a real system's address, or SdkLayout's
    platform object) is accepted and ignored: Tessera always runs on its
    emulator, as is `memcpy_required` (nothing memcpy-specific is checked
    at load either way). `max_cycles` bounds each command
    (default 10^9 cycles); the SDK's simulator options (`simfab_numthreads`,
    `suppress_simfab_trace`, `msg_level`) are accepted and change nothing.

    simprint lines go to `sim_log` (default `sim.log` in the current
    directory, as with the SDK's simulator; "" for none) and, with
    `simprint_to_terminal` (default: environment variable
    TESSERA_SIMPRINT=terminal), to standard output too. `trace` names a file
    for the emulator's task trace (default: environment variable
    TESSERA_TRACE), so that unchanged SDK scripts can be traced too.
    `stats` names a file that stop() appends the run's figures to, one JSON
    line (default: environment variable TESSERA_STATS). `threads` (1 to
    256) steps the fabric on that many threads (docs/Scaling.md); results
    and cycle counts are the same for any number. Default: environment
    variable TESSERA_THREADS, else the SDK's `simfab_numthreads`, else 1.
    `progress` shows how far the device has run on standard error while a
    command runs it (default: environment variable TESSERA_PROGRESS=1 or 0,
    else whether standard error is a terminal), a report at most every
    `progress_interval` seconds (default 0.5). `record` names a directory
    that stop() writes the run record to (run.json, for tessera-viz and
    tessera.viz; default: environment variable TESSERA_RECORD), keeping
    events only of the PEs in `record_region` (x0, y0, x1, y1), starting in
    `record_cycles` (first, end) and, for wavelets, of `record_colors`.
    `core_dump` names a directory for core dumps (tessera-core) written
    when a command ends in a fault or a deadlock: of every PE, or of those
    in `core_dump_region` (x0, y0, x1, y1), and of the faulting PE (default:
    environment variable TESSERA_CORE_DUMP). Under `mpirun -np N cs_python
    -m tessera.ranks` the fabric's rows are split among the N MPI ranks,
    with the same results (docs/Scaling.md "Host programs on ranks").
    """

    _IGNORED = {"suppress_simfab_trace", "msg_level"}
    _MAX_THREADS = 256

    def __init__(self, bindir, cmaddr=None, max_cycles=1_000_000_000,
                 sim_log="sim.log", simprint_to_terminal=None, trace=None,
                 stats=None, memcpy_required=True, threads=None,
                 simfab_numthreads=None, progress=None,
                 progress_interval=0.5, record=None, record_region=None,
                 record_cycles=None, record_colors=None, core_dump=None,
                 core_dump_region=None, **options):
        try:
            bindir = os.fsdecode(os.fspath(bindir))
        except TypeError:
            raise TypeError(
                f"SdkRuntime: the output directory must be a path (str or "
                f"os.PathLike), not {type(bindir).__name__}") from None
        unknown = sorted(set(options) - self._IGNORED)
        if unknown:
            raise TypeError(
                f"SdkRuntime: unknown option {', '.join(unknown)}")
        if simprint_to_terminal is None:
            simprint_to_terminal = (
                os.environ.get("TESSERA_SIMPRINT", "") == "terminal")
        if trace is None:
            trace = os.environ.get("TESSERA_TRACE", "")
        if stats is None:
            stats = os.environ.get("TESSERA_STATS", "")
        threads = self._thread_count(threads, simfab_numthreads)
        record_dir = self._record_dir(record, "record", "TESSERA_RECORD")
        for name, value in (("record_region", record_region),
                            ("record_cycles", record_cycles),
                            ("record_colors", record_colors)):
            if value is not None and not record_dir:
                raise ValueError(f"SdkRuntime: {name} needs record=DIR")
        if progress is None:
            setting = os.environ.get("TESSERA_PROGRESS", "")
            progress = (setting == "1" if setting in ("0", "1")
                        else sys.stderr.isatty())
        self._native = _runtime.Runtime(
            str(bindir), int(max_cycles), str(sim_log or ""),
            bool(simprint_to_terminal), str(trace), str(stats), threads,
            bool(progress), self._interval(progress_interval),
            record_dir, self._region(record_region, "record_region"),
            self._cycles(record_cycles), self._colors(record_colors),
            self._record_dir(core_dump, "core_dump", "TESSERA_CORE_DUMP"),
            self._region(core_dump_region, "core_dump_region"), _RANKS)
        self._exports = {name: (is_fn, elem, mutable, params)
                         for name, is_fn, elem, mutable, params
                         in self._native.exports()}
        self.bindir = str(bindir)
        # Arrays of nonblocking receives, kept alive until they are filled.
        self._receiving = []
        _LATEST[os.path.realpath(self.bindir)] = self

    @staticmethod
    def _record_dir(value, name, variable):
        if value is None:
            return os.environ.get(variable, "")
        try:
            return os.fsdecode(os.fspath(value))
        except TypeError:
            raise TypeError(
                f"SdkRuntime: {name} must be a directory path (str or "
                f"os.PathLike), not {type(value).__name__}") from None

    @staticmethod
    def _cycles(cycles):
        if cycles is None:
            return None
        try:
            first, end = cycles
            valid = all(isinstance(c, numbers.Integral)
                        and not isinstance(c, bool) and c >= 0
                        for c in (first, end)) and first < end
        except (TypeError, ValueError):
            valid = False
        if not valid:
            raise ValueError(f"SdkRuntime: record_cycles must be (first, end) "
                             f"with 0 <= first < end, not {cycles!r}")
        return [int(first), int(end)]

    @staticmethod
    def _colors(colors):
        if colors is None:
            return None
        try:
            values = list(colors)
        except TypeError:
            values = None
        if values is None or not values or any(
                isinstance(c, bool) or not isinstance(c, numbers.Integral)
                or not 0 <= c <= 23 for c in values):
            raise ValueError(f"SdkRuntime: record_colors must be colors 0 to "
                             f"23, not {colors!r}")
        mask = 0
        for c in values:
            mask |= 1 << int(c)
        return mask

    @staticmethod
    def _region(region, name):
        if region is None:
            return None
        try:
            corners = [int(c) for c in region
                       if isinstance(c, numbers.Integral)
                       and not isinstance(c, bool)]
        except TypeError:
            corners = []
        if (len(corners) != 4 or len(corners) != len(list(region))
                or any(not 0 <= c <= 65535 for c in corners)
                or corners[0] > corners[2] or corners[1] > corners[3]):
            raise ValueError(f"SdkRuntime: {name} must be (x0, y0, x1, y1) "
                             f"with x0 <= x1 and y0 <= y1, not {region!r}")
        return corners

    @staticmethod
    def _interval(seconds):
        if (isinstance(seconds, bool)
                or not isinstance(seconds, numbers.Real)
                or not 0 <= seconds <= 3600):
            raise ValueError(f"SdkRuntime: progress_interval must be seconds "
                             f"from 0 to 3600, not {seconds!r}")
        return float(seconds)

    @classmethod
    def _thread_count(cls, threads, simfab_numthreads):
        if threads is not None:
            where, value = "threads", threads
        elif os.environ.get("TESSERA_THREADS"):
            where, value = "TESSERA_THREADS", os.environ["TESSERA_THREADS"]
            if value.isdigit():
                value = int(value)
        elif simfab_numthreads is not None:
            where, value = "simfab_numthreads", simfab_numthreads
        else:
            return 1
        if (not isinstance(value, numbers.Integral)
                or isinstance(value, bool)
                or not 1 <= value <= cls._MAX_THREADS):
            raise ValueError(
                f"SdkRuntime: {where} must be a whole number from 1 to "
                f"{cls._MAX_THREADS}, not {value!r}")
        return int(value)

    def get_id(self, name):
        return self._native.get_id(name)

    def load(self):
        self._native.load()
        # SdkLayout's set_symbol_all values (docs/SdkLayout.md).
        symbols = os.path.join(self.bindir, "sdklayout_symbols.npz")
        if os.path.exists(symbols):
            with np.load(symbols) as arrays:
                for key in arrays.files:
                    x, y, name = key.split("_", 2)
                    self.write_symbol(int(x), int(y), name, arrays[key])

    def write_symbol(self, x, y, name, array):
        """Overwrites data `name` of PE (x, y) with the bytes of `array`,
        which must have exactly its size (after load(), before run())."""
        data = np.ascontiguousarray(array)
        self._native.write_symbol(int(x), int(y), name, data.tobytes())

    def run(self):
        self._native.run()

    def stop(self):
        try:
            self._native.stop()
        finally:
            self._receiving = []

    @property
    def cycles(self):
        """The emulated cycles so far."""
        return self._native.cycle()

    @staticmethod
    def _flags(data_type, order, what):
        if not isinstance(data_type, MemcpyDataType):
            raise SdkRuntimeError(f"{what}: data_type must be a MemcpyDataType")
        if not isinstance(order, MemcpyOrder):
            raise SdkRuntimeError(f"{what}: order must be a MemcpyOrder")
        return (data_type == MemcpyDataType.MEMCPY_32BIT,
                order == MemcpyOrder.ROW_MAJOR)

    def memcpy_h2d(self, dest, src, px, py, w, h, elem_per_pe,
                   streaming=False, data_type=MemcpyDataType.MEMCPY_32BIT,
                   order=MemcpyOrder.ROW_MAJOR, nonblock=False):
        bits32, row_major = self._flags(data_type, order, "memcpy_h2d")
        words = _as_words(src, "memcpy_h2d")
        if streaming:
            # `dest` is the color; every 32-bit word becomes a payload.
            return Task(self, self._native.memcpy_h2d_stream(
                int(dest), words, int(px), int(py), int(w), int(h),
                int(elem_per_pe), row_major))
        return Task(self, self._native.memcpy_h2d(
            int(dest), words, int(px), int(py), int(w), int(h),
            int(elem_per_pe), bits32, row_major))

    def _broadcast(self, what, dest, src, px, py, w, h, elem_per_pe, rows,
                   streaming, data_type, order):
        """H2D of one set of elements per row (or column), replicated along
        it: `src` is (h, 1, E) (or (1, w, E)) in `order`."""
        words = _as_words(src, what)
        count = int(h) if rows else int(w)
        if words.size != count * int(elem_per_pe):
            raise SdkRuntimeError(
                f"{what}: the host array has {words.size} elements; "
                f"{count} {'rows' if rows else 'columns'} of {elem_per_pe} "
                f"need {count * int(elem_per_pe)}")
        self._flags(data_type, order, what)
        fortran = "F" if order == MemcpyOrder.COL_MAJOR else "C"
        shape = (int(h), 1, int(elem_per_pe)) if rows else \
            (1, int(w), int(elem_per_pe))
        part = words.reshape(shape, order=fortran)
        full = np.broadcast_to(part, (int(h), int(w), int(elem_per_pe)))
        return self.memcpy_h2d(dest, full.ravel(order=fortran), px, py, w, h,
                               elem_per_pe, streaming=streaming,
                               data_type=data_type, order=order)

    def memcpy_h2d_rowbcast(self, dest, src, px, py, w, h, elem_per_pe,
                            streaming=False,
                            data_type=MemcpyDataType.MEMCPY_32BIT,
                            order=MemcpyOrder.ROW_MAJOR, nonblock=False):
        """Every PE of row r of the region gets the row's elements."""
        return self._broadcast("memcpy_h2d_rowbcast", dest, src, px, py, w,
                               h, elem_per_pe, True, streaming, data_type,
                               order)

    def memcpy_h2d_colbcast(self, dest, src, px, py, w, h, elem_per_pe,
                            streaming=False,
                            data_type=MemcpyDataType.MEMCPY_32BIT,
                            order=MemcpyOrder.ROW_MAJOR, nonblock=False):
        """Every PE of column c of the region gets the column's elements."""
        return self._broadcast("memcpy_h2d_colbcast", dest, src, px, py, w,
                               h, elem_per_pe, False, streaming, data_type,
                               order)

    def memcpy_d2h(self, dest, src, px, py, w, h, elem_per_pe,
                   streaming=False, data_type=MemcpyDataType.MEMCPY_32BIT,
                   order=MemcpyOrder.ROW_MAJOR, nonblock=False):
        bits32, row_major = self._flags(data_type, order, "memcpy_d2h")
        if not isinstance(dest, np.ndarray) or dest.dtype.itemsize != 4:
            raise SdkRuntimeError(
                "memcpy_d2h: the destination must be a numpy array of 32-bit "
                "elements (float32, int32 or uint32)")
        if not dest.flags.writeable:
            raise SdkRuntimeError("memcpy_d2h: the destination is read-only")
        direct = dest.flags.c_contiguous
        words = (dest.reshape(-1).view(np.uint32) if direct
                 else np.empty(dest.size, dtype=np.uint32))
        if streaming:
            # `src` is the color the PEs send on.
            handle = self._native.memcpy_d2h_stream(
                words, int(src), int(px), int(py), int(w), int(h),
                int(elem_per_pe), row_major)
        else:
            handle = self._native.memcpy_d2h(
                words, int(src), int(px), int(py), int(w), int(h),
                int(elem_per_pe), bits32, row_major)
        if not direct:
            dest[...] = words.view(dest.dtype).reshape(dest.shape)
        return Task(self, handle)

    def launch(self, name, *args, nonblock=False):
        export = self._exports.get(name)
        if export is None or not export[0]:
            # The native side names what is wrong.
            return Task(self, self._native.launch(
                name, np.array([], dtype=np.uint32)))
        params = export[3]
        if len(args) != len(params):
            raise SdkRuntimeError(
                f"launch: '{name}' takes {len(params)} argument"
                f"{'' if len(params) == 1 else 's'}, not {len(args)}")
        words = np.array([_ARG_WORD[p](a) for p, a in zip(params, args)],
                         dtype=np.uint32)
        return Task(self, self._native.launch(name, words))

    def call(self, name, args, nonblock=False):
        """The raw form of launch: `args` are the 32-bit words themselves."""
        words = np.asarray(args, dtype=np.uint32).reshape(-1)
        return Task(self, self._native.launch(name, words))

    _DTYPES = {"i8": np.int8, "u8": np.uint8, "i16": np.int16,
               "u16": np.uint16, "i32": np.int32, "u32": np.uint32,
               "f16": np.float16, "f32": np.float32, "bool": np.bool_}

    def read_symbol(self, x, y, name, dtype=None):
        """Data `name` of PE (x, y) as a numpy array of `dtype`, by default
        its own element type (also after stop(), for debugging): an
        exported symbol, else any global variable of the PE's program
        unless it was compiled with -g0."""
        raw, elem = self._native.read_symbol(int(x), int(y), name)
        if dtype is None:
            export = self._exports.get(name)
            dtype = self._DTYPES.get(export[1] if export else elem, np.uint8)
        dtype = np.dtype(dtype)
        if len(raw) % dtype.itemsize:
            raise SdkRuntimeError(
                f"read_symbol: '{name}' has {len(raw)} bytes, not a whole "
                f"number of {dtype} elements")
        return np.frombuffer(raw, dtype=dtype).copy()

    def is_task_done(self, task):
        return self._native.is_task_done(task._handle)

    def task_wait(self, task):
        self._native.task_wait(task._handle)

    def _stream_id(self, stream, what):
        """An int stream ID, or an object's integer `id` (SdkLayout's
        streams)."""
        sid = stream
        if not isinstance(stream, (int, np.integer)):
            sid = getattr(stream, "id", None)
        if isinstance(sid, bool) or not isinstance(sid, (int, np.integer)):
            raise SdkRuntimeError(
                f"{what}: the stream must be an integer ID or an object with "
                f"an integer 'id', not {type(stream).__name__}")
        sid = int(sid)
        if not 0 <= sid <= 0xFFFFFFFF:
            count = self._native.num_streams()
            known = (f"there are {count} host streams, IDs from 0" if count
                     else "the program declares no host streams")
            raise SdkRuntimeError(f"{what}: no stream has ID {sid} ({known})")
        return sid

    def send(self, stream, array, nonblock=False):
        """Sends the array's elements, in C order, on input host stream
        `stream`, one wavelet each: a 32-bit element is the payload, a
        16-bit one its low half (zero-extended). Nonblocking sends copy the
        array and complete while later commands or stop() run the device.
        """
        sid = self._stream_id(stream, "send")
        size = _stream_array(array, "send")
        flat = np.ascontiguousarray(
            array, dtype=array.dtype.newbyteorder("=")).reshape(-1)
        words = (flat.view(np.uint32) if size == 4
                 else flat.view(np.uint16).astype(np.uint32))
        return Task(self, self._native.send(sid, words, bool(nonblock)))

    def receive(self, stream, array, count, nonblock=False):
        """Receives `count` wavelets from output host stream `stream` into
        the first `count` elements of `array` (in C order; a 16-bit element
        gets the payload's low half). A nonblocking receive has filled them
        once a later blocking call, task_wait or stop() returns."""
        sid = self._stream_id(stream, "receive")
        size = _stream_array(array, "receive")
        if isinstance(count, bool) or not isinstance(count, (int, np.integer)):
            raise SdkRuntimeError(
                f"receive: count must be an integer, not "
                f"{type(count).__name__}")
        count = int(count)
        if count < 0:
            raise SdkRuntimeError(f"receive: count {count} is negative")
        if count > array.size:
            raise SdkRuntimeError(
                f"receive: count {count} is larger than the array's "
                f"{array.size} elements")
        if not (array.flags.writeable and array.flags.c_contiguous and
                array.dtype.isnative):
            raise SdkRuntimeError(
                "receive: the array must be writable, C-contiguous and in "
                "the machine's byte order (the words are written into it)")
        flat = array.reshape(-1).view(np.uint32 if size == 4 else np.uint16)
        receive = (self._native.receive32 if size == 4
                   else self._native.receive16)
        task = Task(self, receive(sid, flat[:count], bool(nonblock)))
        if nonblock:
            self._receiving = [(t, a) for t, a in self._receiving
                               if not self.is_task_done(t)]
            self._receiving.append((task, array))
        return task
