"""A numpy model of what the wafer computes in one step, with the same
float32 operations in the same order: FP16 weights widened exactly, each
AXPY's product rounded before its sum, per-column partial sums added west to
east, dot products summed sample by sample and then row by row. With
several systems (swarm_step), each shard runs that model and the gradients
are summed in the SwarmX's tree order."""

import numpy as np

from tessera.swarmx import tree_sum

f32 = np.float32


def chain(parts):
    """Sum of partial results in chain order: ((p0 + p1) + p2) + ..."""
    total = parts[0]
    for part in parts[1:]:
        total = (total + part).astype(f32)
    return total


def product(csr, act, column_of, ncols):
    """The lines of `csr` (indices are features of `act`, shape (features,
    batch)) times `act`: each column accumulates its own entries in stream
    order (increasing index), then the row chain adds the columns."""
    lines, width = len(csr.indptr) - 1, act.shape[0]
    dense = np.zeros((lines, width), dtype=f32)
    rows = np.repeat(np.arange(lines), np.diff(csr.indptr))
    dense[rows, csr.indices] = csr.data.astype(f32)
    parts = []
    for c in range(ncols):
        acc = np.zeros((lines, act.shape[1]), dtype=f32)
        for j in range(width):
            if column_of(j) == c:
                # A weight off the mask adds an exact zero.
                acc = (acc + dense[:, j:j + 1] * act[j]).astype(f32)
        parts.append(acc)
    return chain(parts)


def weight_gradient(dy, x, mask, nrows):
    """sum_b dy[i, b] * x[j, b] for the requested (i, j), in request order:
    each row of PEs sums its samples in order, the column chain adds the
    rows from the top."""
    bq = dy.shape[1] // nrows
    parts = []
    for r in range(nrows):
        s = np.zeros((dy.shape[0], x.shape[0]), dtype=f32)
        for b in range(r * bq, (r + 1) * bq):
            s = (s + np.outer(dy[:, b], x[:, b])).astype(f32)
        parts.append(s)
    return chain(parts)[mask]


def softmax_cross_entropy(logits, labels, batch=None):
    """Mean loss and its gradient with respect to the logits (float32).
    The gradient is divided by `batch`, the whole batch (default: these
    samples): a shard's rows then equal the whole batch's rows, and the
    shards' weight gradients add up to the whole batch's mean."""
    z = logits.astype(np.float64)
    z -= z.max(axis=1, keepdims=True)
    p = np.exp(z)
    p /= p.sum(axis=1, keepdims=True)
    n = len(labels)
    loss = -np.mean(np.log(p[np.arange(n), labels]))
    p[np.arange(n), labels] -= 1.0
    return loss, (p / (n if batch is None else batch)).astype(f32)


def step(x, labels, w1, w2, w2t, mask1, mask2, ncols, nrows, batch=None):
    """The reference of Wafer.step on one system: logits, loss and the
    gradients of W1 and W2 in request order. x is (samples, n_in) float32;
    `batch` is the whole batch that dZ is divided by (default: x's)."""
    P = ncols
    xt = np.ascontiguousarray(x.T, dtype=f32)
    h = product(w1, xt, lambda j: j % P, P)
    h = np.maximum(h, f32(0))
    z = product(w2, h, lambda i: i % P, P)
    logits = np.ascontiguousarray(z.T)
    loss, dz = softmax_cross_entropy(logits, labels, batch)
    dzt = np.ascontiguousarray(dz.T)
    dh = product(w2t, dzt, lambda k: k % P, P)
    dh = np.where(h > 0, dh, f32(0)).astype(f32)
    g2 = weight_gradient(dzt, h, mask2, nrows)
    g1 = weight_gradient(dh, xt, mask1, nrows)
    return logits, loss, g1, g2


def swarm_step(x, labels, w1, w2, w2t, mask1, mask2, ncols, nrows, systems,
               fanout):
    """The reference of Wafer.step on `systems` systems: each runs `step` on
    its shard (dZ divided by the whole batch), and the gradients are summed
    in the SwarmX tree's order. Returns the whole batch's logits, loss and
    gradients."""
    shard = len(x) // systems
    parts = [step(x[i * shard:(i + 1) * shard],
                  labels[i * shard:(i + 1) * shard], w1, w2, w2t, mask1,
                  mask2, ncols, nrows, batch=len(x))
             for i in range(systems)]
    logits = np.concatenate([p[0] for p in parts])
    loss, _ = softmax_cross_entropy(logits, labels)
    return (logits, loss, tree_sum([p[2] for p in parts], fanout),
            tree_sum([p[3] for p in parts], fanout))
