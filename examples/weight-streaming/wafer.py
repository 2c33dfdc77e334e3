"""The wafer side of the weight-streaming example: the SdkLayout of the PE
grid and the host protocol that drives it (README.md describes both).

A 2-layer MLP step runs as: load the input block, stream W1 (forward), ReLU,
stream W2 (forward), gather the logits to the host, load the loss gradient,
stream W2 transposed (backward), ReLU', then the gradient-request masks of
W2 and W1, whose gradients come back on the output streams.

Several systems (README.md, "SwarmX") all load the one compiled layout and
sit behind a tessera.swarmx.SwarmX: the weight and command streams are
broadcast, each system gets its shard of the batch and its own dZ, and the
gradient streams come back summed.
"""

import os

import numpy as np

from cerebras.geometry.geometry import IntVector
from cerebras.sdk.runtime.sdkruntimepybind import (
    Color, Edge, Route, RoutingPosition, SdkLayout, SdkRuntime, SdkTarget,
    SimfabConfig, get_platform)
from tessera.swarmx import SwarmX

HERE = os.path.dirname(os.path.abspath(__file__))
KERNEL = os.path.join(HERE, "ws_pe.csl")

# Opcodes of command words (ws_pe.csl).
SET_LEN, SET_SRC, SET_DST, LOAD, MATMUL, GRAD, END_LINE = 1, 2, 3, 4, 5, 6, 7
RELU, RELU_GRAD, SEND = 8, 9, 10


def cmd(op, arg=0):
    """A command word: 0xFF00 | op in the high half, the argument below."""
    return np.uint32(((0xFF00 | op) << 16) | (arg & 0xFFFF))


def position(inputs, outputs):
    return RoutingPosition().set_input(inputs).set_output(outputs)


class Geometry:
    """Sizes and the memory map of every PE.

    Input features of layer 1 are spread over the columns (feature j on
    column j % ncols, slot j // ncols); hidden and output features are
    replicated on every column, because each line's reduction ends with a
    broadcast along the row. Samples are spread over the rows (sample b on
    row b // bq)."""

    def __init__(self, n_in, n_hid, n_out, batch, ncols, nrows):
        if batch % nrows:
            raise ValueError(f"batch {batch} does not split over {nrows} rows")
        self.n_in, self.n_hid, self.n_out = n_in, n_hid, n_out
        self.batch, self.ncols, self.nrows = batch, ncols, nrows
        self.bq = batch // nrows
        self.slots = -(-n_in // ncols)
        bq = self.bq
        self.off_x = 0
        self.off_h = self.off_x + self.slots * bq
        self.off_z = self.off_h + n_hid * bq
        self.off_dz = self.off_z + n_out * bq
        self.off_dh = self.off_dz + n_out * bq
        self.mem_len = self.off_dh + n_hid * bq
        self.max_line = max(self.slots, -(-n_hid // ncols),
                            -(-n_out // ncols))
        if self.mem_len >= 1 << 15:
            raise ValueError("activations do not fit a PE's offsets")


def build_layout(geo, arch=SdkTarget.WSE3):
    """One 1 x nrows code region per column, placed side by side. Returns
    the layout, the platform and the streams (weights in, dense data in and
    results out, one of each per column)."""
    platform = get_platform(None, SimfabConfig(), arch)
    layout = SdkLayout(platform)
    P, Q = geo.ncols, geo.nrows
    # Row chains alternate two colors so that a router never receives and
    # sends one color; the same holds down the columns.
    east = [Color("east_a"), Color("east_b")]
    down = [Color("down_a"), Color("down_b")]
    bcast = Color("bcast")
    w_streams, d_streams, out_streams = [], [], []
    for c in range(P):
        region = layout.create_code_region(KERNEL, f"col{c}", 1, Q)
        region.place(c, 1)
        w, d, g = region.color("w"), region.color("d"), region.color("g")
        for name, value in (("col", c), ("ncols", P), ("nrows", Q),
                            ("bq", geo.bq), ("mem_len", geo.mem_len),
                            ("max_line", geo.max_line)):
            region.set_param_all(name, value)
        region.set_param_all("w_in", w)
        region.set_param_all("d_in", d)
        region.set_param_all("bcast", bcast)
        region.set_param_all("east_rx", east[(c + 1) % 2])
        region.set_param_all("east_tx", east[c % 2])
        for r in range(Q):
            at = IntVector(0, r)
            region.set_param(at, "row", r)
            region.set_param(at, "down_rx", down[(r + 1) % 2])
            region.set_param(at, "down_tx", down[r % 2] if r < Q - 1 else g)
            # Weights and data come down the column from the top PE.
            fan = [Route.RAMP] + ([Route.SOUTH] if r < Q - 1 else [])
            region.paint(at, w, [position([Route.NORTH], fan)])
            region.paint(at, d, [position([Route.NORTH], fan)])
            if P > 1:
                if c > 0:
                    region.paint(at, east[(c + 1) % 2],
                                 [position([Route.WEST], [Route.RAMP])])
                if c < P - 1:
                    region.paint(at, east[c % 2],
                                 [position([Route.RAMP], [Route.EAST])])
                    west = [Route.WEST] if c > 0 else []
                    region.paint(at, bcast,
                                 [position([Route.EAST], [Route.RAMP] + west)])
                else:
                    region.paint(at, bcast,
                                 [position([Route.RAMP], [Route.WEST])])
            if r > 0:
                region.paint(at, down[(r + 1) % 2],
                             [position([Route.NORTH], [Route.RAMP])])
            if r < Q - 1:
                region.paint(at, down[r % 2],
                             [position([Route.RAMP], [Route.SOUTH])])
        w_port = region.create_input_port(w, Edge.TOP, [], 1)
        d_port = region.create_input_port(d, Edge.TOP, [], 1)
        g_port = region.create_output_port(
            g, Edge.BOTTOM, [RoutingPosition().set_input([Route.RAMP])], 1)
        w_streams.append(layout.create_input_stream(w_port))
        d_streams.append(layout.create_input_stream(d_port))
        out_streams.append(layout.create_output_stream(g_port))
    return layout, platform, (w_streams, d_streams, out_streams)


def line_words(indptr, indices, data, column_of, local_of, ncols):
    """The words of a product's lines for each column: each column's
    entries of a line (value | local index << 16), then END_LINE. Every
    column ends every line, also one without entries there."""
    lines = len(indptr) - 1
    line_of = np.repeat(np.arange(lines), np.diff(indptr))
    cols = column_of(indices)
    words = (data.view(np.uint16).astype(np.uint32)
             | (local_of(indices).astype(np.uint32) << 16))
    out = []
    for c in range(ncols):
        mine = cols == c
        ends = np.cumsum(np.bincount(line_of[mine], minlength=lines))
        out.append(np.insert(words[mine], ends, cmd(END_LINE)))
    return out


class Wafer:
    """Compiles the layout into `out_dir` once and loads it into `systems`
    emulated systems behind a SwarmX of the given fan-out (one system is a
    swarm of one). `geo` is one system's geometry: its batch is a shard."""

    def __init__(self, geo, out_dir, systems=1, fanout=2, ranks=False):
        self.geo = geo
        layout, platform, streams = build_layout(geo)
        self.w_streams, self.d_streams, self.out_streams = streams
        runtimes = []

        def make_system():
            return SdkRuntime(self.artifacts, platform,
                              memcpy_required=False, sim_log="")

        if ranks:
            # Each system in its own MPI rank (README.md, "SwarmX"): rank 0
            # compiles once; ranks 1.. serve their system and end there.
            from tessera.swarmx_ranks import first_rank, systems_on_ranks
            self.artifacts = first_rank(
                lambda: layout.compile(out_prefix=out_dir))
            runtimes = systems_on_ranks(make_system, systems)
        else:
            self.artifacts = layout.compile(out_prefix=out_dir)
        try:
            while len(runtimes) < systems:
                runtimes.append(make_system())
            self.swarm = SwarmX(runtimes, fanout)
            self.swarm.load()
            self.swarm.run()
        except BaseException:
            # Stop the systems made before the failure, and keep its error
            # rather than one from a system that never ran.
            for runtime in runtimes:
                try:
                    runtime.stop()
                except Exception:
                    pass
            raise

    def stop(self):
        self.swarm.stop()

    @property
    def systems(self):
        return len(self.swarm)

    @property
    def cycles(self):
        """The slowest system's clock."""
        return self.swarm.cycles

    # Where each layer's indices live: layer 1's inputs are spread over the
    # columns, every other operand is replicated (global index = local).
    def _spread(self):
        P = self.geo.ncols
        return (lambda j: j % P), (lambda j: j // P)

    def _replicated(self):
        P = self.geo.ncols
        return (lambda i: i % P), (lambda i: i)

    def _grad_lines(self, mask, where):
        rows, cols = np.nonzero(mask)
        indptr = np.concatenate([[0], np.cumsum(np.bincount(
            rows, minlength=mask.shape[0]))])
        zeros = np.zeros(len(cols), dtype=np.float16)
        return line_words(indptr, cols, zeros, *where, self.geo.ncols), cols

    def step(self, x, w1, w2, w2t, mask1, mask2, loss_grad):
        """One training step on every system. x: (batch, n_in) float32,
        the whole batch: system i gets samples [i * shard, (i + 1) *
        shard) of it, shard = geo.batch. w1, w2: forward CSRs of the FP16
        copies; w2t: W2's transposed CSR; mask1, mask2: gradient-request
        masks (bool, dense). loss_grad(rows, logits) -> dZ: the loss head
        of the shard of samples `rows` (a slice of the batch), both
        (shard, n_out) float32. Returns the whole batch's logits and the
        gradients of W1 and W2, summed over the systems by the SwarmX, in
        request (row-major) order."""
        g, swarm = self.geo, self.swarm
        P, Q, bq, n = g.ncols, g.nrows, g.bq, len(self.swarm)
        if len(x) != n * g.batch:
            raise ValueError(f"a batch of {len(x)} is not {n} shards of "
                             f"{g.batch}")
        start = swarm.system_cycles
        fwd1 = line_words(w1.indptr, w1.indices, w1.data, *self._spread(), P)
        fwd2 = line_words(w2.indptr, w2.indices, w2.data,
                          *self._replicated(), P)
        bwd2 = line_words(w2t.indptr, w2t.indices, w2t.data,
                          *self._replicated(), P)
        grad2, cols2 = self._grad_lines(mask2, self._replicated())
        grad1, cols1 = self._grad_lines(mask1, self._spread())
        # MemoryX's streams: the same for every system, so broadcast.
        for c in range(P):
            words = [
                cmd(SET_LEN, g.slots * bq), cmd(LOAD, g.off_x),
                cmd(SET_SRC, g.off_x), cmd(SET_DST, g.off_h), cmd(MATMUL),
                fwd1[c],
                cmd(SET_LEN, g.n_hid * bq), cmd(RELU, g.off_h),
                cmd(SET_SRC, g.off_h), cmd(SET_DST, g.off_z), cmd(MATMUL),
                fwd2[c]]
            if c == 0:
                words += [cmd(SET_LEN, g.n_out * bq), cmd(SEND, g.off_z)]
            words += [
                cmd(SET_LEN, g.n_out * bq), cmd(LOAD, g.off_dz),
                cmd(SET_SRC, g.off_dz), cmd(SET_DST, g.off_dh), cmd(MATMUL),
                bwd2[c],
                cmd(SET_SRC, g.off_h), cmd(SET_DST, g.off_dh),
                cmd(SET_LEN, g.n_hid * bq), cmd(RELU_GRAD),
                cmd(SET_SRC, g.off_h), cmd(SET_DST, g.off_dz), cmd(GRAD),
                grad2[c],
                cmd(SET_SRC, g.off_x), cmd(SET_DST, g.off_dh), cmd(GRAD),
                grad1[c]]
            stream = np.concatenate([np.atleast_1d(w) for w in words])
            swarm.send(self.w_streams[c], stream.astype(np.uint32),
                       nonblock=True)
        # Each system's input block: column c's slots, for each row's
        # samples of its shard. Shards bypass the tree.
        shards = [slice(i * g.batch, (i + 1) * g.batch) for i in range(n)]
        for i, rows in enumerate(shards):
            xt = np.zeros((g.slots * P, g.batch), dtype=np.float32)
            xt[:g.n_in] = x[rows].T
            for c in range(P):
                block = xt[c::P].reshape(g.slots, Q, bq).transpose(1, 0, 2)
                swarm.send_to(i, self.d_streams[c],
                              np.ascontiguousarray(block), nonblock=True)
        # Each system's logits come back to its own loss head, whose dZ
        # goes back to that system alone.
        logits = np.zeros((n * g.batch, g.n_out), dtype=np.float32)
        forward = []
        for i, rows in enumerate(shards):
            got = np.zeros(Q * g.n_out * bq, dtype=np.float32)
            swarm.receive_from(i, self.out_streams[0], got, got.size)
            forward.append(swarm.system_cycles[i])
            logits[rows] = got.reshape(Q, g.n_out, bq).transpose(
                0, 2, 1).reshape(g.batch, g.n_out)
            dz = np.ascontiguousarray(loss_grad(rows, logits[rows]),
                                      dtype=np.float32)
            block = np.ascontiguousarray(
                dz.reshape(Q, bq, g.n_out).transpose(0, 2, 1))
            for c in range(P):
                swarm.send_to(i, self.d_streams[c], block, nonblock=True)
        # The gradients: summed over the systems up the tree.
        per_col = [np.zeros(np.count_nonzero(cols2 % P == c)
                            + np.count_nonzero(cols1 % P == c),
                            dtype=np.float32) for c in range(P)]
        tasks = [swarm.receive(self.out_streams[c], per_col[c],
                               per_col[c].size, nonblock=True)
                 for c in range(P)]
        for task in tasks:
            swarm.task_wait(task)
        end = swarm.system_cycles
        # Per system: the cycles of the step, and its split at the moment
        # its logits reached the host.
        self.system_cycles = [e - s for s, e in zip(start, end)]
        self.system_phase_cycles = [(f - s, e - f)
                                    for s, f, e in zip(start, forward, end)]
        slowest = int(np.argmax(self.system_cycles))
        self.phase_cycles = self.system_phase_cycles[slowest]
        grads2 = np.zeros(len(cols2), dtype=np.float32)
        grads1 = np.zeros(len(cols1), dtype=np.float32)
        for c in range(P):
            n2 = np.count_nonzero(cols2 % P == c)
            grads2[cols2 % P == c] = per_col[c][:n2]
            grads1[cols1 % P == c] = per_col[c][n2:]
        return logits, grads1, grads2
