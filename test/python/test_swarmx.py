"""tessera.swarmx with fake systems: the tree's shapes for several sizes and
fan-outs, broadcasts that reach every system unchanged, reductions in the
documented order, direct per-system traffic, nonblocking tasks and every
error message. The end-to-end run on emulated systems is in
test_weight_streaming.py."""

import unittest

import numpy as np

from tessera.swarmx import (Node, SwarmTask, SwarmX, SwarmXError,
                            build_tree, tree_sum)

f32 = np.float32


class FakeTask:
    def __init__(self, fill=None):
        self.fill = fill
        self.done = False

    def finish(self):
        if not self.done:
            self.done = True
            if self.fill:
                self.fill()


class FakeSystem:
    """Records what it is sent; answers receives from queued words. A
    nonblocking receive fills its array only when waited for (or at stop),
    as a device that has not run yet would."""

    def __init__(self, outputs=None, fail=None, cycles=0):
        self.sent = []
        self.outputs = {k: list(v) for k, v in (outputs or {}).items()}
        self.fail = fail or {}
        self.cycles = cycles
        self.tasks = []
        self.calls = []

    def _maybe_fail(self, call):
        self.calls.append(call)
        if call in self.fail:
            raise RuntimeError(self.fail[call])

    def load(self):
        self._maybe_fail("load")

    def run(self):
        self._maybe_fail("run")

    def send(self, stream, array, nonblock=False):
        self._maybe_fail("send")
        self.sent.append((stream, array.copy(), nonblock))
        task = FakeTask()
        task.done = not nonblock
        return task

    def receive(self, stream, array, count, nonblock=False):
        self._maybe_fail("receive")
        queue = self.outputs.get(getattr(stream, "id", stream), [])
        if len(queue) < count:
            raise RuntimeError(
                f"receive on stream {stream} cannot finish: "
                f"{count - len(queue)} of {count} words not yet arrived")
        words = [queue.pop(0) for _ in range(count)]

        def fill():
            array.reshape(-1)[:count] = np.array(words, dtype=array.dtype)

        task = FakeTask(fill)
        if nonblock:
            self.tasks.append(task)
        else:
            task.finish()
        return task

    def task_wait(self, task):
        self._maybe_fail("task_wait")
        task.finish()

    def is_task_done(self, task):
        return task.done

    def stop(self):
        self._maybe_fail("stop")
        for task in self.tasks:
            task.finish()


class Stream:
    """An SdkLayout-style stream object: messages name its id."""

    def __init__(self, sid):
        self.id = sid


# The tree for each (systems, fan-out), as nested tuples, and its levels.
SHAPES = {
    (1, 2): ((0,), 1), (1, 3): ((0,), 1),
    (2, 2): ((0, 1), 1), (2, 3): ((0, 1), 1),
    (3, 2): (((0, 1), (2,)), 2), (3, 3): ((0, 1, 2), 1),
    (5, 2): ((((0, 1), (2, 3)), ((4,),)), 3),
    (5, 3): (((0, 1, 2), (3, 4)), 2),
}


# The documented sum for each tree, written out: left to right per node.
def expected_sum(s, n, fanout):
    return {
        (1, 2): lambda: s[0], (1, 3): lambda: s[0],
        (2, 2): lambda: s[0] + s[1], (2, 3): lambda: s[0] + s[1],
        (3, 2): lambda: (s[0] + s[1]) + s[2],
        (3, 3): lambda: (s[0] + s[1]) + s[2],
        (5, 2): lambda: ((s[0] + s[1]) + (s[2] + s[3])) + s[4],
        (5, 3): lambda: ((s[0] + s[1]) + s[2]) + (s[3] + s[4]),
    }[(n, fanout)]()


def spread_values(n, size, seed):
    """float32 values over many magnitudes, so that the order of addition
    shows in the last bits."""
    rng = np.random.default_rng(seed)
    return [(rng.normal(0, 1, size) * 10.0 ** rng.integers(-4, 5, size))
            .astype(f32) for _ in range(n)]


class TreeTest(unittest.TestCase):
    def test_shapes_and_levels(self):
        for (n, fanout), (shape, depth) in SHAPES.items():
            with self.subTest(systems=n, fanout=fanout):
                root = build_tree(n, fanout)
                self.assertEqual(root.shape, shape)
                swarm = SwarmX([FakeSystem() for _ in range(n)], fanout)
                self.assertEqual(swarm.root.shape, shape)
                self.assertEqual(swarm.depth, depth)
                self.assertEqual(root.systems, list(range(n)))
                # No node has more children than the fan-out, and the
                # names say level and place.
                for level, nodes in zip(range(depth, 0, -1), swarm.levels):
                    for i, node in enumerate(nodes):
                        self.assertLessEqual(len(node.children), fanout)
                        self.assertEqual(node.name, f"{level}.{i}")

    def test_default_fanout_is_two(self):
        swarm = SwarmX([FakeSystem() for _ in range(5)])
        self.assertEqual(swarm.fanout, 2)
        self.assertEqual(swarm.root.shape, SHAPES[(5, 2)][0])
        self.assertEqual(repr(build_tree(2)), "Node('1.0', (0, 1))")

    def test_sum_order(self):
        for (n, fanout) in SHAPES:
            with self.subTest(systems=n, fanout=fanout):
                values = spread_values(n, 4096, seed=n * 10 + fanout)
                want = expected_sum(values, n, fanout)
                swarm = SwarmX([FakeSystem() for _ in range(n)], fanout)
                got = swarm.reduce(values)
                self.assertEqual(got.dtype, f32)
                np.testing.assert_array_equal(got.view(np.uint32),
                                              want.view(np.uint32))
                np.testing.assert_array_equal(
                    tree_sum(values, fanout).view(np.uint32),
                    want.view(np.uint32))
                # The inputs are left untouched.
                np.testing.assert_array_equal(
                    values[0], spread_values(n, 4096, n * 10 + fanout)[0])

    def test_order_matters_and_is_the_trees(self):
        # 1 + 2^-24 rounds back to 1, so ((1 + e) + e) = 1 while
        # (1 + (e + e)) = 1 + 2^-23: the tree's grouping shows.
        e = f32(2.0 ** -24)
        values = [np.array([1.0], f32), np.array([e], f32),
                  np.array([e], f32)]
        self.assertEqual(tree_sum(values, 2)[0], f32(1.0))
        self.assertEqual(tree_sum([values[1], values[2], values[0]], 2)[0],
                         f32(1.0 + 2.0 ** -23))
        # Five systems: fan-out 2 pairs (s2 + s3) first, fan-out 3 does not.
        values = [np.array([v], f32) for v in (1.0, 0.0, e, e, 0.0)]
        self.assertEqual(tree_sum(values, 2)[0], f32(1.0 + 2.0 ** -23))
        self.assertEqual(tree_sum(values, 3)[0], f32(1.0))

    def test_repeatable(self):
        values = spread_values(5, 1000, seed=3)
        first = tree_sum(values, 2)
        for _ in range(3):
            np.testing.assert_array_equal(tree_sum(values, 2), first)


class SwarmTest(unittest.TestCase):
    def swarm(self, n, fanout=2, **kwargs):
        systems = [FakeSystem(**kwargs) for _ in range(n)]
        return SwarmX(systems, fanout), systems

    def test_broadcast_reaches_every_system_unchanged(self):
        for (n, fanout) in SHAPES:
            with self.subTest(systems=n, fanout=fanout):
                swarm, systems = self.swarm(n, fanout)
                words = np.arange(10, dtype=np.uint32) * 0x01010101
                halves = np.arange(6, dtype=np.float16)
                self.assertIsNone(swarm.send(3, words))
                task = swarm.send(Stream(4), halves, nonblock=True)
                self.assertIsInstance(task, SwarmTask)
                swarm.task_wait(task)
                for system in systems:
                    self.assertEqual(len(system.sent), 2)
                    (s1, a1, nb1), (s2, a2, nb2) = system.sent
                    self.assertEqual((s1, nb1), (3, False))
                    self.assertEqual(s2.id, 4)
                    self.assertTrue(nb2)
                    self.assertEqual(a1.dtype, words.dtype)
                    np.testing.assert_array_equal(a1, words)
                    self.assertEqual(a2.dtype, halves.dtype)
                    np.testing.assert_array_equal(a2, halves)
                # MemoryX's words go through every node once, as to one
                # system.
                for node in swarm.nodes:
                    self.assertEqual(node.words_down, 16)

    def test_reduced_receive(self):
        for (n, fanout) in SHAPES:
            with self.subTest(systems=n, fanout=fanout):
                values = spread_values(n, 6, seed=n + fanout)
                systems = [FakeSystem({7: list(v)}) for v in values]
                swarm = SwarmX(systems, fanout)
                out = np.full(8, -1.0, dtype=f32)
                self.assertIsNone(swarm.receive(7, out, 4))
                want = expected_sum([v[:4] for v in values], n, fanout)
                np.testing.assert_array_equal(out[:4], want)
                np.testing.assert_array_equal(out[4:], [-1.0] * 4)
                # The next words follow on the same stream.
                swarm.receive(7, out, 2)
                np.testing.assert_array_equal(
                    out[:2], expected_sum([v[4:] for v in values], n,
                                          fanout))
                self.assertEqual(swarm.root.words_up, 6)

    def test_nonblocking_receive_sums_when_waited(self):
        values = spread_values(3, 5, seed=9)
        systems = [FakeSystem({1: list(v)}) for v in values]
        swarm = SwarmX(systems)
        out = np.zeros((5,), dtype=f32)
        task = swarm.receive(Stream(1), out, 5, nonblock=True)
        self.assertFalse(swarm.is_task_done(task))
        np.testing.assert_array_equal(out, 0)
        swarm.task_wait(task)
        self.assertTrue(swarm.is_task_done(task))
        np.testing.assert_array_equal(out, expected_sum(values, 3, 2))
        # is_task_done completes a task whose systems are done.
        systems = [FakeSystem({1: list(v)}) for v in values]
        swarm = SwarmX(systems)
        out2 = np.zeros(5, dtype=f32)
        task = swarm.receive(1, out2, 5, nonblock=True)
        for system in systems:
            for t in system.tasks:
                t.finish()
        self.assertTrue(swarm.is_task_done(task))
        np.testing.assert_array_equal(out2, out)

    def test_stop_finishes_pending_sums(self):
        values = spread_values(2, 3, seed=4)
        systems = [FakeSystem({2: list(v)}) for v in values]
        swarm = SwarmX(systems)
        out = np.zeros(3, dtype=f32)
        swarm.receive(2, out, 3, nonblock=True)
        swarm.stop()
        np.testing.assert_array_equal(out, values[0] + values[1])

    def test_direct_traffic_skips_the_tree(self):
        systems = [FakeSystem({5: [float(i), 10.0 + i]}) for i in range(3)]
        swarm = SwarmX(systems)
        shard = np.array([1.5, 2.5], dtype=f32)
        swarm.send_to(1, 6, shard)
        self.assertEqual([len(s.sent) for s in systems], [0, 1, 0])
        np.testing.assert_array_equal(systems[1].sent[0][1], shard)
        got = np.zeros(2, dtype=np.uint32)  # any dtype: nothing is summed
        task = swarm.receive_from(2, 5, got, 2, nonblock=True)
        swarm.task_wait(task)
        np.testing.assert_array_equal(got, [2, 12])
        # The other systems' queues are untouched.
        self.assertEqual(systems[0].outputs[5], [0.0, 10.0])
        self.assertEqual(swarm.root.words_down, 0)
        self.assertEqual(swarm.root.words_up, 0)

    def test_cycles_are_the_slowest_systems(self):
        systems = [FakeSystem(cycles=c) for c in (30, 70, 50)]
        swarm = SwarmX(systems)
        self.assertEqual(swarm.system_cycles, [30, 70, 50])
        self.assertEqual(swarm.cycles, 70)
        self.assertEqual(len(swarm), 3)

    def test_load_run_stop_reach_every_system(self):
        swarm, systems = self.swarm(3)
        swarm.load()
        swarm.run()
        swarm.stop()
        for system in systems:
            self.assertEqual(system.calls, ["load", "run", "stop"])


class ErrorTest(unittest.TestCase):
    def assertRaisesMessage(self, message, call, *args, **kwargs):
        with self.assertRaises(SwarmXError) as caught:
            call(*args, **kwargs)
        self.assertEqual(str(caught.exception), message)
        return caught.exception

    def test_construction(self):
        self.assertRaisesMessage("SwarmX needs at least one system, got 0",
                                 SwarmX, [])
        self.assertRaisesMessage("SwarmX needs at least one system, got 0",
                                 build_tree, 0)
        self.assertRaisesMessage("SwarmX needs a sequence of systems, got "
                                 "int", SwarmX, 5)
        for fanout in (1, 0, -2, 2.5, True, "2", None):
            self.assertRaisesMessage(
                f"fan-out must be an integer of at least 2, got {fanout!r}",
                SwarmX, [FakeSystem()], fanout)
        self.assertRaisesMessage(
            "system 1 (object) has no 'send' method", SwarmX,
            [FakeSystem(), object()])

        class NoReceive:
            def send(self, *args):
                pass

        self.assertRaisesMessage(
            "system 0 (NoReceive) has no 'receive' method", SwarmX,
            [NoReceive()])

    def test_mismatched_systems(self):
        swarm = SwarmX([FakeSystem() for _ in range(3)])
        a = np.zeros(4, dtype=f32)
        self.assertRaisesMessage(
            "reduce: system 2 sent 3 words, system 0 sent 4", swarm.reduce,
            [a, a, np.zeros(3, dtype=f32)])
        self.assertRaisesMessage(
            "reduce: expected 3 arrays, one per system, got 2", swarm.reduce,
            [a, a])
        self.assertRaisesMessage(
            "reduce: system 1 sent float64 words; a reduction sums float32",
            swarm.reduce, [a, np.zeros(4), a])
        self.assertRaisesMessage(
            "reduce: system 1 sent shape (2, 2), system 0 sent shape (4,)",
            swarm.reduce, [a, np.zeros((2, 2), dtype=f32), a])
        self.assertRaisesMessage(
            "reduce: system 0 sent a list, not a numpy array",
            swarm.reduce, [[0.0] * 4, a, a])
        self.assertRaisesMessage(
            "reduce: system 1 sent 5 words, system 0 sent 4", tree_sum,
            [a, np.zeros(5, dtype=f32)])
        # A system whose stream is short fails its receive: the swarm names
        # it and keeps the system's error as the cause.
        systems = [FakeSystem({4: [1.0] * 4}), FakeSystem({4: [1.0] * 4}),
                   FakeSystem({4: [1.0] * 3})]
        swarm = SwarmX(systems)
        error = self.assertRaisesMessage(
            "system 2 failed in receive on stream 4: receive on stream 4 "
            "cannot finish: 1 of 4 words not yet arrived", swarm.receive,
            4, a, 4)
        self.assertIsInstance(error.__cause__, RuntimeError)
        np.testing.assert_array_equal(a, 0)

    def test_a_failing_system(self):
        systems = [FakeSystem(), FakeSystem(fail={"send": "link down"}),
                   FakeSystem()]
        swarm = SwarmX(systems)
        error = self.assertRaisesMessage(
            "system 1 failed in send on stream 3: link down", swarm.send,
            Stream(3), np.zeros(2, dtype=np.uint32))
        self.assertEqual(str(error.__cause__), "link down")
        # The broadcast stops at the failure.
        self.assertEqual([len(s.sent) for s in systems], [1, 0, 0])
        for call in ("load", "run"):
            swarm = SwarmX([FakeSystem(), FakeSystem(fail={call: "no"})])
            self.assertRaisesMessage(f"system 1 failed in {call}: no",
                                     getattr(swarm, call))
        swarm = SwarmX([FakeSystem({1: [1.0]}),
                        FakeSystem({1: [2.0]}, fail={"task_wait": "hung"})])
        out = np.zeros(1, dtype=f32)
        task = swarm.receive(1, out, 1, nonblock=True)
        self.assertRaisesMessage(
            "system 1 failed in task_wait (receive on stream 1): hung",
            swarm.task_wait, task)
        np.testing.assert_array_equal(out, 0)

    def test_stop_stops_every_system_and_reports_the_first_failure(self):
        systems = [FakeSystem(fail={"stop": "first"}), FakeSystem(),
                   FakeSystem(fail={"stop": "second"})]
        swarm = SwarmX(systems)
        self.assertRaisesMessage("system 0 failed in stop: first",
                                 swarm.stop)
        for system in systems:
            self.assertEqual(system.calls, ["stop"])

    def test_arguments(self):
        swarm = SwarmX([FakeSystem(), FakeSystem()])
        self.assertRaisesMessage(
            "send: the array must be a numpy array, not list", swarm.send,
            0, [1, 2])
        self.assertRaisesMessage(
            "receive: a reduced stream needs a float32 numpy array, not "
            "uint32", swarm.receive, 0, np.zeros(2, dtype=np.uint32), 2)
        self.assertRaisesMessage(
            "receive: a reduced stream needs a float32 numpy array, not "
            "list", swarm.receive, 0, [0.0], 1)
        self.assertRaisesMessage(
            "receive: count 9 is not within 0 to the array's 8 elements",
            swarm.receive, 0, np.zeros(8, dtype=f32), 9)
        self.assertRaisesMessage(
            "receive: count -1 is not within 0 to the array's 8 elements",
            swarm.receive, 0, np.zeros(8, dtype=f32), -1)
        self.assertRaisesMessage(
            "receive: count must be an integer, not float", swarm.receive,
            0, np.zeros(8, dtype=f32), 2.0)
        read_only = np.zeros(4, dtype=f32)
        read_only.flags.writeable = False
        for bad in (read_only, np.zeros((4, 2), dtype=f32)[:, 0]):
            self.assertRaisesMessage(
                "receive: the array must be writable and C-contiguous (the "
                "sum is written into it)", swarm.receive, 0, bad, 2)
        self.assertRaisesMessage("send_to: no system 2 (there are 2, from 0)",
                                 swarm.send_to, 2, 0, np.zeros(1, f32))
        self.assertRaisesMessage(
            "receive_from: no system -1 (there are 2, from 0)",
            swarm.receive_from, -1, 0, np.zeros(1, f32), 1)
        self.assertRaisesMessage(
            "send_to: no system True (there are 2, from 0)", swarm.send_to,
            True, 0, np.zeros(1, f32))
        self.assertRaisesMessage("task_wait: not a SwarmX task: int",
                                 swarm.task_wait, 3)
        self.assertRaisesMessage("is_task_done: not a SwarmX task: NoneType",
                                 swarm.is_task_done, None)
        # Nothing reached a system.
        for system in swarm.systems:
            self.assertEqual(system.calls, [])

    def test_node_is_exported(self):
        self.assertIsInstance(build_tree(3).children[0], Node)


if __name__ == "__main__":
    unittest.main()
