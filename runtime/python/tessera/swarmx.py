"""SwarmX: data parallelism over N systems behind one MemoryX.

    from tessera.swarmx import SwarmX

    systems = [SdkRuntime(artifacts, platform, memcpy_required=False)
               for _ in range(4)]           # N systems, one compiled program
    swarm = SwarmX(systems, fanout=2)
    swarm.load(); swarm.run()
    swarm.send(w_stream, weights)           # broadcast: every system
    swarm.send_to(2, d_stream, shard2)      # one system's own data
    swarm.receive(g_stream, grads, count)   # float32 sum over the systems
    swarm.stop()

A SwarmX stands between MemoryX and N systems, each an SdkRuntime (or any
object with the same send / receive / task_wait / is_task_done calls). It
is a tree of broadcast/reduce nodes with a fixed fan-out: what goes down is
replicated unchanged at every node, what comes up is summed at every node.
MemoryX calls `send` and `receive` as it would on one system and sees one
system; data that belongs to one system (its shard of the batch, its
activations) bypasses the tree with `send_to` and `receive_from`.

The tree. Level 1 groups the systems 0..N-1 into runs of `fanout`
consecutive ones, each run under one node (the last run may be shorter);
each further level groups the nodes of the level below the same way, until
one node, the root, is left. There is always at least one level, so for
N = 1 the root has one child. Node "L.i" is the i-th node of level L.

The reduction order. Every node adds its children's values left to right
in float32, ((c0 + c1) + c2) + ..., a child node's value being its own sum.
For N = 5 and fan-out 2 this is ((s0 + s1) + (s2 + s3)) + s4. The order
depends only on N and the fan-out, so results are deterministic;
`tree_sum` computes the same sum for a reference.

Every failure raises SwarmXError; a failure inside system i names it and
chains the system's own exception. After a system failed, the systems may
disagree about what they have been sent, so the swarm should be stopped.
"""

import numbers

import numpy as np

__all__ = ["SwarmX", "SwarmXError", "SwarmTask", "Node", "build_tree",
           "tree_sum"]


class SwarmXError(RuntimeError):
    """Every failure of a SwarmX: bad arguments, mismatched systems, or a
    system that failed (then chained as __cause__)."""


def _check_fanout(fanout):
    if isinstance(fanout, bool) or not isinstance(fanout, numbers.Integral) \
            or fanout < 2:
        raise SwarmXError(
            f"fan-out must be an integer of at least 2, got {fanout!r}")
    return int(fanout)


class Node:
    """One broadcast/reduce node. Its children are nodes or system indices
    (ints), in order. The counters are in words: `words_down` came from
    the parent (or MemoryX) and went to each child, `words_up` went to the
    parent (or MemoryX) after the children's words were summed."""

    def __init__(self, name, children):
        self.name = name
        self.children = tuple(children)
        self.words_down = 0
        self.words_up = 0

    @property
    def systems(self):
        """The systems below this node, in order."""
        out = []
        for child in self.children:
            out.extend(child.systems if isinstance(child, Node) else [child])
        return out

    @property
    def shape(self):
        """The subtree as nested tuples of system indices."""
        return tuple(c.shape if isinstance(c, Node) else c
                     for c in self.children)

    def broadcast(self, array, deliver):
        """Replicates `array` to every child: deliver(system, array) for
        each system below, in system order."""
        self.words_down += array.size
        for child in self.children:
            if isinstance(child, Node):
                child.broadcast(array, deliver)
            else:
                deliver(child, array)

    def reduce(self, values):
        """The float32 sum of the children's values, left to right;
        `values[i]` is system i's array."""
        total = None
        for child in self.children:
            value = (child.reduce(values) if isinstance(child, Node)
                     else values[child])
            if total is None:
                # A copy, so that adding never writes into a system's array.
                total = np.array(value, dtype=np.float32, copy=True)
            else:
                np.add(total, value, out=total)
        self.words_up += total.size
        return total

    def __repr__(self):
        return f"Node({self.name!r}, {self.shape})"


def build_tree(systems, fanout=2):
    """The root node of the tree over `systems` systems (module docstring:
    runs of `fanout` consecutive children per node, at least one level)."""
    if isinstance(systems, bool) or not isinstance(systems, numbers.Integral) \
            or systems < 1:
        raise SwarmXError(f"SwarmX needs at least one system, got {systems!r}")
    fanout = _check_fanout(fanout)
    level, depth = list(range(int(systems))), 0
    while depth == 0 or len(level) > 1:
        depth += 1
        level = [Node(f"{depth}.{i // fanout}", level[i:i + fanout])
                 for i in range(0, len(level), fanout)]
    return level[0]


def _levels(root):
    """The nodes level by level, from the root down, each left to right."""
    levels, level = [], [root]
    while level:
        levels.append(level)
        level = [c for node in level for c in node.children
                 if isinstance(c, Node)]
    return levels


def _check_arrays(arrays, count):
    """The per-system arrays of a reduction: one per system, float32, all
    of one shape."""
    arrays = list(arrays)
    if len(arrays) != count:
        raise SwarmXError(f"reduce: expected {count} arrays, one per system, "
                          f"got {len(arrays)}")
    for i, array in enumerate(arrays):
        if not isinstance(array, np.ndarray):
            raise SwarmXError(f"reduce: system {i} sent a "
                              f"{type(array).__name__}, not a numpy array")
        if array.dtype != np.float32:
            raise SwarmXError(f"reduce: system {i} sent {array.dtype} words; "
                              f"a reduction sums float32")
        first = arrays[0]
        if array.size != first.size:
            raise SwarmXError(f"reduce: system {i} sent {array.size} words, "
                              f"system 0 sent {first.size}")
        if array.shape != first.shape:
            raise SwarmXError(f"reduce: system {i} sent shape {array.shape}, "
                              f"system 0 sent shape {first.shape}")
    return arrays


def tree_sum(arrays, fanout=2):
    """The float32 sum of `arrays` (one per system) in the order a SwarmX
    of len(arrays) systems and this fan-out reduces them."""
    arrays = list(arrays)
    root = build_tree(len(arrays), fanout)
    return root.reduce(_check_arrays(arrays, len(arrays)))


def _stream_label(stream):
    """How a message names a stream: its ID, or SdkLayout's stream id."""
    return getattr(stream, "id", stream)


class SwarmTask:
    """A nonblocking SwarmX command: the systems' own tasks and, for a
    reduced receive, the sum still to be written into the array."""

    def __init__(self, what, parts, finish=None):
        self.what = what
        self._parts = parts          # [(system index, its task)]
        self._finish = finish
        self.done = False

    def __repr__(self):
        state = "done" if self.done else "pending"
        return f"SwarmTask({self.what}, {len(self._parts)} systems, {state})"


class SwarmX:
    """SwarmX(systems, fanout=2): a broadcast/reduce tree over `systems`.

    Down the tree (`send`): the array reaches every system unchanged, in
    system order. Up the tree (`receive`): every system's next `count`
    words of the stream are summed, node by node, in float32, into the
    caller's array. Around the tree (`send_to`, `receive_from`): one
    system's own data. Every call takes SdkRuntime's arguments; tasks of
    nonblocking calls are SwarmTasks for this object's `task_wait` and
    `is_task_done`.

    `cycles` is the largest of the systems' clocks: the systems run side by
    side, so the swarm's time is that of the slowest. The tree itself is
    host code and adds no emulated cycles.
    """

    _CALLS = ("send", "receive")

    def __init__(self, systems, fanout=2):
        try:
            systems = tuple(systems)
        except TypeError:
            raise SwarmXError(
                f"SwarmX needs a sequence of systems, got "
                f"{type(systems).__name__}") from None
        self.root = build_tree(len(systems), fanout)
        self.fanout = int(fanout)
        for i, system in enumerate(systems):
            for call in self._CALLS:
                if not callable(getattr(system, call, None)):
                    raise SwarmXError(
                        f"system {i} ({type(system).__name__}) has no "
                        f"'{call}' method")
        self.systems = systems
        # Reduced receives whose sums wait for their systems' words.
        self._pending = []

    def __len__(self):
        return len(self.systems)

    @property
    def levels(self):
        """The nodes level by level, from the root down."""
        return _levels(self.root)

    @property
    def depth(self):
        """Nodes between MemoryX and a system (the tree's levels)."""
        return len(self.levels)

    @property
    def nodes(self):
        return [node for level in self.levels for node in level]

    # Every call into a system goes through here, so that a failure names
    # the system and the operation.
    def _call(self, i, what, method, *args, **kwargs):
        try:
            return getattr(self.systems[i], method)(*args, **kwargs)
        except Exception as error:
            raise SwarmXError(
                f"system {i} failed in {what}: {error}") from error

    def _call_all(self, calls, keep_going=False):
        """Makes calls [(system, what, method, args, kwargs)] and returns
        their values in order. Systems that can post a call and complete it
        later (RankSystem, swarmx_ranks.py) get every call before any is
        waited for, so that they run side by side. After a failure no
        further call is made unless `keep_going` (calls already posted are
        still completed); the first failure is raised."""
        started, failure = [], None
        for i, what, method, args, kwargs in calls:
            if failure is not None and not keep_going:
                break
            post = getattr(self.systems[i], "post", None)
            try:
                if callable(post):
                    started.append((True, post(method, *args, **kwargs)))
                else:
                    started.append(
                        (False, getattr(self.systems[i], method)(*args,
                                                                 **kwargs)))
            except Exception as error:
                started.append((False, None))
                failure = failure or SwarmXError(
                    f"system {i} failed in {what}: {error}")
                failure.__cause__ = failure.__cause__ or error
        values = []
        for (i, what, method, args, kwargs), (posted, value) in zip(
                calls, started):
            if posted:
                try:
                    value = self.systems[i].complete(value)
                except Exception as error:
                    if failure is None:
                        failure = SwarmXError(
                            f"system {i} failed in {what}: {error}")
                        failure.__cause__ = error
            values.append(value)
        if failure is not None:
            raise failure
        return values

    def _each(self, method, keep_going=False):
        self._call_all([(i, method, method, (), {})
                        for i in range(len(self.systems))], keep_going)

    def _cycles_of(self, i):
        try:
            return self.systems[i].cycles
        except Exception as error:
            raise SwarmXError(
                f"system {i} failed in cycles: {error}") from error

    def load(self):
        self._each("load")

    def run(self):
        self._each("run")

    @property
    def system_cycles(self):
        """Each system's emulated clock."""
        if all(callable(getattr(system, "post", None))
               for system in self.systems):
            return self._call_all([(i, "cycles", "cycles", (), {})
                                   for i in range(len(self.systems))])
        return [self._cycles_of(i) for i in range(len(self.systems))]

    @property
    def cycles(self):
        return max(self.system_cycles)

    def _check_system(self, system, what):
        if isinstance(system, bool) or \
                not isinstance(system, numbers.Integral) or \
                not 0 <= system < len(self.systems):
            raise SwarmXError(
                f"{what}: no system {system!r} (there are "
                f"{len(self.systems)}, from 0)")
        return int(system)

    def send(self, stream, array, nonblock=False):
        """Broadcasts `array` on input stream `stream` of every system."""
        what = f"send on stream {_stream_label(stream)}"
        calls = []

        def deliver(i, words):
            calls.append((i, what, "send", (stream, words),
                          {"nonblock": nonblock}))

        if not isinstance(array, np.ndarray):
            raise SwarmXError(f"send: the array must be a numpy array, not "
                              f"{type(array).__name__}")
        self.root.broadcast(array, deliver)
        tasks = self._call_all(calls)
        parts = [(call[0], task) for call, task in zip(calls, tasks)]
        return SwarmTask(what, parts) if nonblock else None

    def send_to(self, system, stream, array, nonblock=False):
        """Sends `array` on stream `stream` of one system only."""
        i = self._check_system(system, "send_to")
        what = f"send on stream {_stream_label(stream)}"
        task = self._call(i, what, "send", stream, array, nonblock=nonblock)
        return SwarmTask(what, [(i, task)]) if nonblock else None

    def receive_from(self, system, stream, array, count, nonblock=False):
        """Receives `count` words of one system's stream into `array`."""
        i = self._check_system(system, "receive_from")
        what = f"receive on stream {_stream_label(stream)}"
        task = self._call(i, what, "receive", stream, array, count,
                          nonblock=nonblock)
        return SwarmTask(what, [(i, task)]) if nonblock else None

    def receive(self, stream, array, count, nonblock=False):
        """Receives the next `count` words of output stream `stream` from
        every system and writes their float32 sum (reduced up the tree)
        into the first `count` elements of `array`. Nonblocking, the sum
        is written when task_wait (or an is_task_done that returns True)
        or stop() finds every system's words arrived."""
        if not isinstance(array, np.ndarray) or array.dtype != np.float32:
            kind = (array.dtype if isinstance(array, np.ndarray)
                    else type(array).__name__)
            raise SwarmXError(f"receive: a reduced stream needs a float32 "
                              f"numpy array, not {kind}")
        if isinstance(count, bool) or not isinstance(count, numbers.Integral):
            raise SwarmXError(f"receive: count must be an integer, not "
                              f"{type(count).__name__}")
        count = int(count)
        if not 0 <= count <= array.size:
            raise SwarmXError(f"receive: count {count} is not within 0 to "
                              f"the array's {array.size} elements")
        if not (array.flags.writeable and array.flags.c_contiguous):
            raise SwarmXError("receive: the array must be writable and "
                              "C-contiguous (the sum is written into it)")
        what = f"receive on stream {_stream_label(stream)}"
        # Each system fills a buffer of its own; only the sum reaches the
        # caller's array.
        buffers = [np.zeros(count, dtype=np.float32) for _ in self.systems]
        tasks = self._call_all([(i, what, "receive",
                                 (stream, buffers[i], count),
                                 {"nonblock": nonblock})
                                for i in range(len(self.systems))])
        parts = list(enumerate(tasks))

        def finish():
            array.reshape(-1)[:count] = self.reduce(buffers)

        if not nonblock:
            finish()
            return None
        task = SwarmTask(what, parts, finish)
        self._pending.append(task)
        return task

    def reduce(self, arrays):
        """The float32 sum of one array per system, in this tree's order
        (module docstring). The arrays must have one shape."""
        return self.root.reduce(_check_arrays(arrays, len(self.systems)))

    def _complete(self, task):
        if not task.done:
            task.done = True
            if task._finish is not None:
                self._pending.remove(task)
                task._finish()

    def _check_task(self, task, what):
        if not isinstance(task, SwarmTask):
            raise SwarmXError(f"{what}: not a SwarmX task: "
                              f"{type(task).__name__}")

    def task_wait(self, task):
        """Runs each system (in order) until its part of the task is done,
        then writes a reduced receive's sum."""
        self._check_task(task, "task_wait")
        self._call_all([(i, f"task_wait ({task.what})", "task_wait", (part,),
                         {}) for i, part in task._parts])
        self._complete(task)

    def is_task_done(self, task):
        self._check_task(task, "is_task_done")
        if not task.done and all(
                self._call(i, f"is_task_done ({task.what})", "is_task_done",
                           part) for i, part in task._parts):
            self._complete(task)
        return task.done

    def stop(self):
        """Stops every system, also after one failed (the first failure is
        raised), and writes the sums of pending reduced receives."""
        failure = None
        try:
            self._each("stop", keep_going=True)
        except SwarmXError as error:
            failure = error
        pending, self._pending = self._pending, []
        if failure is not None:
            raise failure
        # A stopped system has received all its words.
        for task in pending:
            task.done = True
            task._finish()
