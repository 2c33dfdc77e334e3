"""tessera.swarmx_ranks without MPI: RankSystems on rank 0 talk to systems
served on threads through an in-process stand-in for mpi4py's
communicator. A SwarmX over them gives what it gives over the systems
themselves (broadcasts, direct traffic, reduced and nonblocking receives
filled when waited for, is_task_done or stop), every call is posted to all
systems before any is waited for, and failures (of a call, of the factory)
come back with the system's own message. The run over real MPI ranks is
test/Runtime/swarmx-ranks.test."""

import queue
import threading
import unittest

import numpy as np

from test_swarmx import FakeSystem, Stream
from tessera.swarmx import SwarmX, SwarmXError
from tessera.swarmx_ranks import RankSystem, RankTask, _serve, \
    systems_on_ranks

f32 = np.float32


class Network:
    """Queues between rank 0 and the other ranks, (source, dest, tag)."""

    def __init__(self):
        self.queues = {}
        self.lock = threading.Lock()
        self.log = []  # rank 0's ("send", dest, method) and ("recv", source)

    def queue(self, key):
        with self.lock:
            return self.queues.setdefault(key, queue.Queue())


class Comm:
    """mpi4py's send/recv/size/rank, pickling-free, for one rank."""

    def __init__(self, network, rank, size):
        self.network, self.rank, self.size = network, rank, size

    def Get_rank(self):
        return self.rank

    def Get_size(self):
        return self.size

    def send(self, obj, dest, tag):
        if self.rank == 0:
            self.network.log.append(("send", dest, obj[0]))
        self.network.queue((self.rank, dest, tag)).put(obj)

    def recv(self, source, tag):
        if self.rank == 0:
            self.network.log.append(("recv", source))
        return self.network.queue((source, self.rank, tag)).get(timeout=10)


class Swarm:
    """`systems` served on threads, and a SwarmX over their RankSystems."""

    def __init__(self, systems, fanout=2, factory_error=None):
        self.network = Network()
        size = len(systems) + 1
        self.threads = []
        for r, system in enumerate(systems, start=1):
            def make(system=system):
                if factory_error:
                    raise RuntimeError(factory_error)
                return system
            thread = threading.Thread(
                target=_serve, args=(Comm(self.network, r, size), make))
            thread.start()
            self.threads.append(thread)
        comm = Comm(self.network, 0, size)
        self.proxies = [RankSystem(comm, r) for r in range(1, size)]
        self.swarm = SwarmX(self.proxies, fanout)

    def finish(self):
        try:
            self.swarm.stop()
        except SwarmXError:
            pass
        for thread in self.threads:
            thread.join(timeout=10)
            assert not thread.is_alive()


class RankSwarmTest(unittest.TestCase):
    def test_broadcast_direct_and_reduced(self):
        systems = [FakeSystem({5: [1.0, 2.0], 6: [7.0]}),
                   FakeSystem({5: [10.0, 20.0], 6: [8.0]}),
                   FakeSystem({5: [100.0, 200.0]})]
        s = Swarm(systems)
        try:
            s.swarm.load()
            s.swarm.run()
            words = np.arange(4, dtype=np.uint32)
            s.swarm.send(Stream(3), words)
            s.swarm.send_to(1, 4, np.array([9], dtype=np.uint32))
            out = np.zeros(3, dtype=f32)
            s.swarm.receive(5, out, 2)
            np.testing.assert_array_equal(out, [111.0, 222.0, 0.0])
            one = np.zeros(1, dtype=f32)
            s.swarm.receive_from(1, 6, one, 1)
            np.testing.assert_array_equal(one, [8.0])
        finally:
            s.finish()
        for system in systems:
            self.assertEqual(system.calls[:2], ["load", "run"])
            (stream, array, nonblock), = system.sent[:1]
            self.assertEqual(stream.id, 3)
            np.testing.assert_array_equal(array, words)
            self.assertFalse(nonblock)
        self.assertEqual(len(systems[1].sent), 2)
        self.assertEqual(systems[1].sent[1][0], 4)

    def test_calls_reach_every_system_before_any_reply(self):
        systems = [FakeSystem({5: [1.0]}), FakeSystem({5: [2.0]})]
        s = Swarm(systems)
        try:
            s.network.log.clear()
            out = np.zeros(1, dtype=f32)
            s.swarm.receive(5, out, 1)
            self.assertEqual(out[0], 3.0)
        finally:
            s.finish()
        # Both requests went out before rank 0 waited for either reply.
        self.assertEqual(s.network.log[:4],
                         [("send", 1, "receive"), ("send", 2, "receive"),
                          ("recv", 1), ("recv", 2)])

    def test_nonblocking_receives_fill_when_done(self):
        systems = [FakeSystem({5: [1.0, 2.0, 3.0]}),
                   FakeSystem({5: [4.0, 5.0, 6.0]})]
        s = Swarm(systems)
        try:
            a = np.zeros(1, dtype=f32)
            task = s.swarm.receive(5, a, 1, nonblock=True)
            self.assertEqual(a[0], 0.0)  # nothing ran yet
            s.swarm.task_wait(task)
            self.assertEqual(a[0], 5.0)
            b = np.zeros(1, dtype=f32)
            task = s.swarm.receive(5, b, 1, nonblock=True)
            self.assertFalse(s.swarm.is_task_done(task))
            proxy_task = task._parts[0][1]
            self.assertIsInstance(proxy_task, RankTask)
            c = np.zeros(1, dtype=f32)
            s.swarm.receive(5, c, 1, nonblock=True)
        finally:
            s.finish()
        # stop() completes what was pending, on the ranks and in the sums.
        self.assertEqual(b[0], 7.0)
        self.assertEqual(c[0], 9.0)

    def test_a_failing_call_names_the_system(self):
        systems = [FakeSystem(), FakeSystem(fail={"send": "link down"})]
        s = Swarm(systems)
        try:
            with self.assertRaises(SwarmXError) as caught:
                s.swarm.send(Stream(3), np.zeros(2, dtype=np.uint32))
            self.assertEqual(
                str(caught.exception),
                "system 1 failed in send on stream 3: link down")
            self.assertEqual(str(caught.exception.__cause__), "link down")
            # The ranks are still in step: the next calls work.
            s.swarm.send_to(0, Stream(4), np.ones(1, dtype=np.uint32))
            self.assertEqual(len(systems[0].sent), 2)
            s.swarm.load()
            self.assertEqual(systems[1].calls, ["send", "load"])
        finally:
            s.finish()

    def test_a_factory_failure_comes_back_on_every_call(self):
        s = Swarm([FakeSystem()], factory_error="no such directory")
        with self.assertRaises(SwarmXError) as caught:
            s.swarm.load()
        self.assertEqual(str(caught.exception),
                         "system 0 failed in load: no such directory")
        s.finish()

    def test_proxy_argument_errors(self):
        s = Swarm([FakeSystem()])
        proxy = s.proxies[0]
        try:
            with self.assertRaises(TypeError) as caught:
                proxy.receive(5, [0.0], 1)
            self.assertEqual(str(caught.exception),
                             "receive: the array must be a numpy array, "
                             "not list")
            with self.assertRaises(TypeError) as caught:
                proxy.task_wait(object())
            self.assertEqual(str(caught.exception),
                             "task_wait: not a task of this system: object")
        finally:
            s.finish()

    def test_rank_count_must_match(self):
        network = Network()
        for count, message in (
                (2, "systems_on_ranks: 2 systems need 3 MPI ranks (rank 0 "
                    "for MemoryX and the SwarmX, one per system); this job "
                    "has 2"),
                (0, "systems_on_ranks: count must be a positive integer, "
                    "not 0")):
            with self.assertRaises(ValueError) as caught:
                systems_on_ranks(FakeSystem, count, comm=Comm(network, 0, 2))
            self.assertEqual(str(caught.exception), message)


if __name__ == "__main__":
    unittest.main()
