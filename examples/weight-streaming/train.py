#!/usr/bin/env cs_python
"""Trains a small MLP on scikit-learn's digits by weight streaming on the
emulated wafer (README.md).

The weights live in a tessera.memoryx.WeightStore (FP32 master, FP16 sparse
copy, momentum). Each step streams the layers' FP16 weights into the
emulator, gets the gradients back in request order and applies them in
MemoryX. Every step is checked against a numpy model of the same arithmetic
(reference.py).

With --systems N, N emulated systems train together behind a SwarmX
(tessera.swarmx): each gets 1/N of every batch, MemoryX's weight streams are
broadcast to all, and their gradients come back summed, which MemoryX
applies as it would one system's.

    cs_python train.py --sparsity 0.5 --epochs 5
    cs_python train.py --systems 4
"""

import argparse
import os
import sys
import tempfile
import time

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import reference  # noqa: E402
from wafer import Geometry, Wafer  # noqa: E402
from tessera import memoryx as mx  # noqa: E402

# The largest difference allowed between the emulator and the reference,
# relative to the largest reference magnitude of the array. Both run the same
# float32 operations in the same order, so the results are in fact equal.
TOLERANCE = 1e-6

# With several systems, the same bound against the whole batch's run on one
# system: the gradients' sums over samples are then added in another order
# (per shard, then up the tree), so they differ in the last bits. Logits
# and dZ do not: each sample's arithmetic is the same on any system.
SWARM_TOLERANCE = 1e-5


def parse_args(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--sparsity", type=float, default=0.0,
                   help="fraction of weights left out of the mask (0, 0.5, "
                   "0.9, ...)")
    p.add_argument("--head-sparsity", type=float, default=None,
                   help="sparsity of the output layer (default: --sparsity)")
    p.add_argument("--epochs", type=int, default=None)
    p.add_argument("--batch", type=int, default=None)
    p.add_argument("--hidden", type=int, default=None)
    p.add_argument("--cols", type=int, default=None, help="PE columns")
    p.add_argument("--rows", type=int, default=None, help="PE rows")
    p.add_argument("--lr", type=float, default=0.1)
    p.add_argument("--momentum", type=float, default=0.9)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--systems", type=int, default=1,
                   help="emulated systems behind a SwarmX; each takes "
                   "batch / systems samples (which must divide)")
    p.add_argument("--fanout", type=int, default=2,
                   help="children per SwarmX node")
    p.add_argument("--ranks", action="store_true",
                   help="each system in its own MPI rank: run with "
                   "mpirun -np SYSTEMS+1 (tessera.swarmx_ranks)")
    p.add_argument("--steps", type=int, default=None,
                   help="stop after this many steps in all")
    p.add_argument("--log-steps", action="store_true",
                   help="print each step's cycles per system")
    p.add_argument("--small", action="store_true",
                   help="a tiny configuration (for tests): 160 training "
                   "samples, 64-16-10, batch 16, 2x2 PEs, 3 epochs")
    p.add_argument("--out", default=None,
                   help="compile directory (default: a temporary one)")
    p.add_argument("--quiet", action="store_true")
    args = p.parse_args(argv)
    small = dict(epochs=3, batch=16, hidden=16, cols=2, rows=2)
    full = dict(epochs=5, batch=32, hidden=16, cols=4, rows=2)
    for key, value in (small if args.small else full).items():
        if getattr(args, key) is None:
            setattr(args, key, value)
    if args.head_sparsity is None:
        args.head_sparsity = args.sparsity
    if not (0 <= args.sparsity < 1 and 0 <= args.head_sparsity < 1):
        p.error("sparsities must be in [0, 1)")
    if args.systems < 1:
        p.error(f"--systems must be at least 1, got {args.systems}")
    if args.fanout < 2:
        p.error(f"--fanout must be at least 2, got {args.fanout}")
    if args.steps is not None and args.steps < 1:
        p.error(f"--steps must be at least 1, got {args.steps}")
    # Shards are equal: an uneven split would need a program per shard size
    # and weighted sums, so it is refused rather than padded or trimmed.
    if args.batch % args.systems:
        p.error(f"--batch {args.batch} does not split evenly over "
                f"{args.systems} systems")
    if (args.batch // args.systems) % args.rows:
        p.error(f"each system's shard of {args.batch // args.systems} "
                f"samples does not split over {args.rows} PE rows")
    return args


def load_data(small, seed):
    from sklearn.datasets import load_digits
    digits = load_digits()
    x = (digits.data / 16.0).astype(np.float32)
    y = digits.target.astype(np.int64)
    order = np.random.default_rng(seed).permutation(len(y))
    x, y = x[order], y[order]
    n_test = 360
    x_test, y_test, x, y = x[:n_test], y[:n_test], x[n_test:], y[n_test:]
    if small:
        x, y = x[:160], y[:160]
    return x, y, x_test, y_test


def make_store(n_in, n_hid, n_out, sparsity, head_sparsity, lr, momentum,
               seed):
    """Two layers with He-style initial weights and a random mask of the
    given sparsity; the gradient-request mask is the weight mask."""
    rng = np.random.default_rng(seed + 1)
    store = mx.WeightStore()
    for name, rows, cols, sparse in (("fc1", n_hid, n_in, sparsity),
                                     ("fc2", n_out, n_hid, head_sparsity)):
        density = 1.0 - sparse
        w = rng.normal(0, np.sqrt(2.0 / (cols * density)),
                       (rows, cols)).astype(np.float32)
        mask = rng.random((rows, cols)) < density
        store.add_layer(name, weights=w, mask=mask, gradient_mask=mask,
                        optimizer=mx.Momentum(lr=lr, momentum=momentum))
    return store


def host_accuracy(store, x, y):
    """Accuracy of the streamed (FP16) weights, computed on the host."""
    w1 = store["fc1"].forward().to_dense().astype(np.float32)
    w2 = store["fc2"].forward().to_dense().astype(np.float32)
    logits = np.maximum(x @ w1.T, 0) @ w2.T
    return float(np.mean(logits.argmax(axis=1) == y))


def relative_error(got, want):
    scale = max(float(np.max(np.abs(want), initial=0.0)), 1e-30)
    return float(np.max(np.abs(got - want), initial=0.0)) / scale


def check_step(args, xb, yb, w1, w2, w2t, m1, m2, got):
    """Compares a step's logits and gradients with the reference. Returns
    the largest relative difference from the model of the same arithmetic
    and, with several systems, from the whole batch on one system."""
    def error(want):
        return max(relative_error(a, b) for a, b in
                   ((got[0], want[0]), (got[1], want[2]),
                    (got[2], want[3])))

    whole = reference.step(xb, yb, w1, w2, w2t, m1, m2, args.cols,
                           args.rows)
    if args.systems == 1:
        return error(whole), None
    same = reference.swarm_step(xb, yb, w1, w2, w2t, m1, m2, args.cols,
                                args.rows, args.systems, args.fanout)
    return error(same), error(whole)


def run(args, log=print):
    """Trains; returns a dict of per-epoch and per-step figures and the
    final master weights."""
    x, y, x_test, y_test = load_data(args.small, args.seed)
    n_in, n_hid, n_out = x.shape[1], args.hidden, 10
    store = make_store(n_in, n_hid, n_out, args.sparsity,
                       args.head_sparsity, args.lr, args.momentum, args.seed)
    fc1, fc2 = store["fc1"], store["fc2"]
    n = args.systems
    # One system's geometry: its shard of the batch.
    geo = Geometry(n_in, n_hid, n_out, args.batch // n, args.cols,
                   args.rows)
    history = dict(epoch_loss=[], epoch_train_acc=[], epoch_test_acc=[],
                   step_cycles=[], step_cycles_total=[], system_cycles=[],
                   phase_cycles=[], step_error=[], whole_batch_error=[],
                   weight_words=[], steps_checked=0)
    with tempfile.TemporaryDirectory() as tmp:
        wafer = Wafer(geo, args.out or os.path.join(tmp, "out"), n,
                      args.fanout, args.ranks)
        try:
            rng = np.random.default_rng(args.seed + 2)
            steps = len(y) // args.batch
            limit = args.steps or args.epochs * steps
            swarm = ""
            if n > 1:
                swarm = (f", {n} systems of {args.batch // n} samples "
                         f"behind a SwarmX of fan-out {args.fanout} "
                         f"({wafer.swarm.depth} level"
                         f"{'s' if wafer.swarm.depth > 1 else ''})")
            log(f"{n_in}-{n_hid}-{n_out} MLP, sparsity {args.sparsity:g} "
                f"(head {args.head_sparsity:g}) "
                f"({fc1.nonzeros + fc2.nonzeros} of "
                f"{n_in * n_hid + n_hid * n_out} weights), batch "
                f"{args.batch}, {args.cols}x{args.rows} PEs{swarm}, "
                f"{steps} steps per epoch")
            for epoch in range(args.epochs):
                if history["steps_checked"] >= limit:
                    break
                order = rng.permutation(len(y))
                losses, correct = [], 0
                t0 = time.time()
                for s in range(steps):
                    if history["steps_checked"] >= limit:
                        break
                    batch = order[s * args.batch:(s + 1) * args.batch]
                    xb, yb = x[batch], y[batch]
                    w1, w2, w2t = fc1.forward(), fc2.forward(), \
                        fc2.transposed()
                    m1, m2 = fc1.gradient_mask, fc2.gradient_mask
                    # Each system's dZ is divided by the whole batch, so
                    # that the tree's plain sum is the batch mean.
                    logits, g1, g2 = wafer.step(
                        xb, w1, w2, w2t, m1, m2,
                        lambda rows, z: reference.softmax_cross_entropy(
                            z, yb[rows], batch=len(yb))[1])
                    cycles = wafer.system_cycles
                    history["system_cycles"].append(cycles)
                    history["step_cycles"].append(max(cycles))
                    history["step_cycles_total"].append(sum(cycles))
                    history["phase_cycles"].append(wafer.phase_cycles)
                    # Weights cross the fabric twice (forward, transposed).
                    history["weight_words"].append(
                        len(w1.data) + 2 * len(w2.data))
                    error, whole = check_step(args, xb, yb, w1, w2, w2t,
                                              m1, m2, (logits, g1, g2))
                    history["step_error"].append(error)
                    history["steps_checked"] += 1
                    if error > TOLERANCE:
                        raise AssertionError(
                            f"epoch {epoch} step {s}: the emulator differs "
                            f"from the reference by {error:.3g} (relative)")
                    if whole is not None:
                        history["whole_batch_error"].append(whole)
                        if whole > SWARM_TOLERANCE:
                            raise AssertionError(
                                f"epoch {epoch} step {s}: {n} systems "
                                f"differ from the whole batch on one by "
                                f"{whole:.3g} (relative)")
                    if args.log_steps:
                        log(f"  step {history['steps_checked']}: cycles "
                            f"{max(cycles):,} slowest, {sum(cycles):,} "
                            f"total ({', '.join(f'{c:,}' for c in cycles)})")
                    loss, _ = reference.softmax_cross_entropy(logits, yb)
                    losses.append(loss)
                    correct += int(np.sum(logits.argmax(axis=1) == yb))
                    fc1.apply_gradient(g1)
                    fc2.apply_gradient(g2)
                history["epoch_loss"].append(float(np.mean(losses)))
                history["epoch_train_acc"].append(correct /
                                                  (len(losses) * args.batch))
                history["epoch_test_acc"].append(
                    host_accuracy(store, x_test, y_test))
                done = len(losses)
                cycles = history["step_cycles"][-done:]
                total = ""
                if n > 1:
                    everyone = history["step_cycles_total"][-done:]
                    total = (f" slowest system, {np.mean(everyone):,.0f} "
                             f"all systems")
                log(f"epoch {epoch + 1}: loss {history['epoch_loss'][-1]:.4f}"
                    f"  train acc {history['epoch_train_acc'][-1]:.3f}"
                    f"  test acc {history['epoch_test_acc'][-1]:.3f}"
                    f"  cycles/step {np.mean(cycles):,.0f}{total}"
                    f"  ({time.time() - t0:.1f} s)")
            root = wafer.swarm.root
            history["root_words"] = (root.words_down, root.words_up)
        finally:
            wafer.stop()
    history["master"] = {layer.name: layer.master for layer in store}
    log(f"checked {history['steps_checked']} steps against the reference: "
        f"largest relative difference {max(history['step_error']):.3g} "
        f"(tolerance {TOLERANCE:g})")
    if n > 1:
        log(f"against the whole batch on one system: largest relative "
            f"difference {max(history['whole_batch_error']):.3g} "
            f"(tolerance {SWARM_TOLERANCE:g})")
    forward, backward = np.mean(history["phase_cycles"], axis=0)
    slowest = " of the slowest system" if n > 1 else ""
    log(f"mean cycles per step{slowest} "
        f"{np.mean(history['step_cycles']):,.0f} "
        f"(forward to the logits {forward:,.0f}, backward and gradients "
        f"{backward:,.0f}), weight wavelets per step "
        f"{np.mean(history['weight_words']):,.0f}")
    if n > 1:
        down, up = history["root_words"]
        done = history["steps_checked"]
        log(f"all {n} systems: {np.mean(history['step_cycles_total']):,.0f} "
            f"cycles per step; through the SwarmX root per step: "
            f"{down / done:,.0f} words down to each system, "
            f"{up / done:,.0f} summed words up")
    return history


def main(argv=None):
    args = parse_args(argv)
    run(args, log=(lambda *a: None) if args.quiet else print)


if __name__ == "__main__":
    main()
