"""SwarmX systems as MPI ranks: each system emulated in its own process.

    # mpirun -np 3 cs_python train.py ...   (MemoryX + 2 systems)
    from tessera.swarmx_ranks import first_rank, systems_on_ranks

    artifacts = first_rank(lambda: layout.compile(out_prefix="out"))
    systems = systems_on_ranks(
        lambda: SdkRuntime(artifacts, platform, memcpy_required=False), 2)
    swarm = SwarmX(systems, fanout=2)        # on rank 0 only

Rank 0 runs the script's MemoryX and SwarmX; ranks 1..N each make one
system with the factory and serve it: `systems_on_ranks` never returns on
them (they exit once the system is stopped). On rank 0 it returns one
RankSystem per system, which SwarmX uses as it uses an SdkRuntime. A
RankSystem can post a call and complete it later, so SwarmX starts a call
on every system before it waits for any, and the systems run side by side
(docs/MemoryX.md, "SwarmX systems as ranks").

What travels: each call with its arguments (pickled by mpi4py); a receive
sends only its array's size and type, and the words come back with the
reply of the call that completes it (the receive itself, task_wait, an
is_task_done that is true, or stop), into the caller's array. Results are
those of the systems in one process: the tree still sums on rank 0 in its
fixed order.
"""

import sys

import numpy as np

__all__ = ["RankSystem", "RankTask", "first_rank", "systems_on_ranks"]

_REQUEST, _REPLY = 1, 2


def _world():
    try:
        from mpi4py import MPI
    except ImportError as error:
        raise RuntimeError(
            "SwarmX systems as ranks need mpi4py (Debian's python3-mpi4py, "
            "scripts/install-deps.sh)") from error
    return MPI.COMM_WORLD


def first_rank(make, comm=None):
    """`make()` on rank 0 only, its result sent to every rank (for work
    that must happen once, such as compiling into one directory)."""
    comm = comm or _world()
    value = make() if comm.Get_rank() == 0 else None
    return comm.bcast(value, root=0)


def systems_on_ranks(make_system, count, comm=None):
    """On rank 0, `count` RankSystems (system i on rank i + 1); on the other
    ranks, serves `make_system()` until it is stopped and exits. The job
    must have count + 1 ranks."""
    comm = comm or _world()
    size = comm.Get_size()
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        raise ValueError(f"systems_on_ranks: count must be a positive "
                         f"integer, not {count!r}")
    if size != count + 1:
        raise ValueError(
            f"systems_on_ranks: {count} systems need {count + 1} MPI ranks "
            f"(rank 0 for MemoryX and the SwarmX, one per system); this job "
            f"has {size}")
    rank = comm.Get_rank()
    if rank == 0:
        return [RankSystem(comm, r) for r in range(1, size)]
    _serve(comm, make_system)
    sys.exit(0)


class RankTask:
    """A nonblocking call on a RankSystem: its number on that rank."""

    def __init__(self, number, what):
        self.number = number
        self.what = what

    def __repr__(self):
        return f"RankTask({self.number}, {self.what})"


class RankSystem:
    """Rank 0's side of a system served on another rank: SdkRuntime's calls
    (load, run, send, receive, task_wait, is_task_done, stop, cycles) and
    `post`/`complete`, the same calls split in two. Replies complete in
    the order the calls were posted."""

    def __init__(self, comm, rank):
        self.comm = comm
        self.rank = rank
        # Arrays of receives waiting for their words, by number.
        self._arrays = {}
        self._next_array = 0
        self._posted = 0

    def __repr__(self):
        return f"RankSystem(rank {self.rank})"

    def post(self, method, *args, **kwargs):
        """Sends the call; returns a ticket for complete()."""
        if method == "receive":
            stream, array, count = args
            if not isinstance(array, np.ndarray):
                raise TypeError(f"receive: the array must be a numpy array, "
                                f"not {type(array).__name__}")
            number = self._next_array
            self._next_array += 1
            self._arrays[number] = array
            args = (stream, (number, array.size, array.dtype.str), count)
        elif method in ("task_wait", "is_task_done"):
            task = args[0]
            if not isinstance(task, RankTask):
                raise TypeError(f"{method}: not a task of this system: "
                                f"{type(task).__name__}")
            args = (task.number,)
        self.comm.send((method, args, kwargs), dest=self.rank, tag=_REQUEST)
        self._posted += 1
        return (method, args, kwargs)

    def complete(self, ticket):
        """Waits for the reply to the call `ticket` posted; fills the arrays
        of receives it completed; returns the call's value or raises its
        error."""
        method, args, kwargs = ticket
        reply = self.comm.recv(source=self.rank, tag=_REPLY)
        self._posted -= 1
        for number, words in reply.get("filled", ()):
            array = self._arrays.pop(number)
            array.reshape(-1)[:words.size] = words
        if "error" in reply:
            raise RuntimeError(reply["error"])
        value = reply.get("value")
        if isinstance(value, int) and kwargs.get("nonblock"):
            return RankTask(value, f"{method} on rank {self.rank}")
        return value

    def _call(self, method, *args, **kwargs):
        return self.complete(self.post(method, *args, **kwargs))

    def load(self):
        return self._call("load")

    def run(self):
        return self._call("run")

    def send(self, stream, array, nonblock=False):
        return self._call("send", stream, array, nonblock=nonblock)

    def receive(self, stream, array, count, nonblock=False):
        return self._call("receive", stream, array, count, nonblock=nonblock)

    def task_wait(self, task):
        return self._call("task_wait", task)

    def is_task_done(self, task):
        return self._call("is_task_done", task)

    def stop(self):
        return self._call("stop")

    @property
    def cycles(self):
        return self._call("cycles")


def _serve(comm, make_system):
    """A system's rank: answers rank 0's calls in order until stop. A
    failure goes back as the reply's error (the system made by the factory
    failing too), so that rank 0 raises it where the call was made."""
    try:
        system, failure = make_system(), None
    except Exception as error:
        system, failure = None, error
    tasks = {}      # number: (the system's task, receive number or None)
    buffers = {}    # receive number: (buffer, count)
    next_task = 0
    while True:
        method, args, kwargs = comm.recv(source=0, tag=_REQUEST)
        reply = {}
        filled = []

        def fill(number):
            buffer, count = buffers.pop(number)
            filled.append((number, buffer[:count]))

        try:
            if failure is not None:
                raise failure
            if method == "receive":
                stream, (number, size, dtype), count = args
                buffer = np.zeros(size, dtype=np.dtype(dtype))
                buffers[number] = (buffer, count)
                task = system.receive(stream, buffer, count, **kwargs)
                if kwargs.get("nonblock"):
                    tasks[next_task] = (task, number)
                    reply["value"], next_task = next_task, next_task + 1
                else:
                    fill(number)
            elif method == "send":
                task = system.send(*args, **kwargs)
                if kwargs.get("nonblock"):
                    tasks[next_task] = (task, None)
                    reply["value"], next_task = next_task, next_task + 1
            elif method in ("task_wait", "is_task_done"):
                task, number = tasks[args[0]]
                done = getattr(system, method)(task)
                if method == "is_task_done":
                    reply["value"] = bool(done)
                if method == "task_wait" or done:
                    del tasks[args[0]]
                    if number is not None:
                        fill(number)
            elif method == "stop":
                system.stop()
                # A stopped system has received everything it was asked.
                for number in list(buffers):
                    fill(number)
            elif method == "cycles":
                reply["value"] = system.cycles
            elif method in ("load", "run"):
                getattr(system, method)()
            else:
                raise RuntimeError(f"no call named {method!r}")
        except Exception as error:
            reply["error"] = str(error)
        if filled:
            reply["filled"] = filled
        comm.send(reply, dest=0, tag=_REPLY)
        if method == "stop":
            return
