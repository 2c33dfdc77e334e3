"""MemoryX, the weight store of weight streaming, with a numpy interface.

    import numpy as np
    from tessera import memoryx as mx

    store = mx.WeightStore()
    w = np.random.default_rng(0).normal(0, 0.05, (256, 512)).astype(np.float32)
    fc1 = store.add_layer("fc1", weights=w, mask=np.abs(w) > 0.02,
                          optimizer=mx.Adam(lr=1e-3))
    csr = fc1.forward()             # the streamed FP16 copy, as CSR
    fc1.apply_gradient(grad)        # one Adam step; the FP16 copy follows
    store.save("step100.tsmx")

A layer is rows x cols: rows are output features, cols input features. It
keeps dense FP32 master weights, a weight mask (which weights are active and
streamed), a gradient-request mask (which gradients the wafer computes; a
requested weight outside the weight mask still trains, so it can regrow) and
the optimizer's state. The sparse FP16 copy is derived from the master and
the weight mask and is current after every call.

Arrays cross as numpy arrays of exactly the documented dtype: float32 for
weights and gradients, bool for masks. Nothing is converted silently. The
master, the masks and the optimizer state come back as read-only copies,
because writing to them could not reach the store.

Every failure raises MemoryXError (a ValueError); only a missing name in
store[name] is a KeyError. A failure of the C++ library carries its message
unchanged (docs/MemoryX.md lists them). Arguments this module checks itself
get messages in the same style.
"""

import dataclasses
import numbers
import operator
import os
from typing import ClassVar, NamedTuple

import numpy as np

from tessera import _memoryx

MemoryXError = _memoryx.MemoryXError

#: The index word that moves the cursor 65535 positions and is no entry.
ESCAPE_WORD = 0xFFFF

__all__ = ["WeightStore", "Layer", "SGD", "Momentum", "Adam", "CSR",
           "IndexStream", "MemoryXError", "ESCAPE_WORD"]

_MAX_DIMENSION = 0xFFFFFFFF


def _check_numbers(optimizer):
    """Hyper-parameters are real numbers; the library checks their values
    (rounded to float32, which is what it computes with)."""
    for field in dataclasses.fields(optimizer):
        value = getattr(optimizer, field.name)
        if isinstance(value, bool) or not isinstance(value, numbers.Real):
            raise MemoryXError(f"{optimizer.kind}: {field.name} must be a "
                               f"real number, got {type(value).__name__}")


@dataclasses.dataclass(frozen=True)
class SGD:
    """w <- w - lr * g. Creating it checks the values (MemoryXError)."""

    lr: float = 0.01
    kind: ClassVar[str] = "sgd"

    def __post_init__(self):
        _check_numbers(self)
        _memoryx.check_sgd(self.lr)

    def _apply(self, native, index, gradients):
        native.apply_sgd(index, gradients, self.lr)


@dataclasses.dataclass(frozen=True)
class Momentum:
    """v <- momentum * v + g; w <- w - lr * v. momentum is in [0, 1)."""

    lr: float = 0.01
    momentum: float = 0.9
    kind: ClassVar[str] = "momentum"

    def __post_init__(self):
        _check_numbers(self)
        _memoryx.check_momentum(self.lr, self.momentum)

    def _apply(self, native, index, gradients):
        native.apply_momentum(index, gradients, self.lr, self.momentum)


@dataclasses.dataclass(frozen=True)
class Adam:
    """Adam with bias correction; t counts the layer's steps from 1.

    m <- beta1 * m + (1 - beta1) * g;  v <- beta2 * v + (1 - beta2) * g^2
    w <- w - lr * (m / (1 - beta1^t)) / (sqrt(v / (1 - beta2^t)) + epsilon)
    """

    lr: float = 0.001
    beta1: float = 0.9
    beta2: float = 0.999
    epsilon: float = 1e-8
    kind: ClassVar[str] = "adam"

    def __post_init__(self):
        _check_numbers(self)
        _memoryx.check_adam(self.lr, self.beta1, self.beta2, self.epsilon)

    def _apply(self, native, index, gradients):
        native.apply_adam(index, gradients, self.lr, self.beta1, self.beta2,
                          self.epsilon)


_DEFAULT_OPTIMIZER = {"sgd": SGD, "momentum": Momentum, "adam": Adam}


class CSR(NamedTuple):
    """Compressed sparse rows, as scipy.sparse.csr_matrix takes them.

    Line i's entries are indices[indptr[i]:indptr[i + 1]] (int32 positions
    within the line, ascending) with values data[...] (float16). A weight
    the mask keeps is an entry even when its FP16 value is zero.
    """

    indptr: np.ndarray
    indices: np.ndarray
    data: np.ndarray
    shape: tuple

    def to_dense(self):
        """The float16 matrix with zeros where there is no entry."""
        dense = np.zeros(self.shape, dtype=np.float16)
        lines = np.repeat(np.arange(self.shape[0]), np.diff(self.indptr))
        dense[lines, self.indices] = self.data
        return dense


class IndexStream(NamedTuple):
    """An index stream in MemoryX's wire format (docs/MemoryX.md).

    Line i is deltas[offsets[i]:offsets[i + 1]] (uint16): each word below
    ESCAPE_WORD is an entry at the line's cursor plus the word, and every
    word, escapes included, advances the cursor by its value.
    """

    offsets: np.ndarray
    deltas: np.ndarray


def _shape_text(shape):
    return "x".join(str(n) for n in shape)


def _check_array(layer_name, shape, array, what, dtype):
    """`array` as a C-contiguous ndarray of `dtype` and `shape`; the
    messages follow the library's ("layer 'fc1' is 4x6, the weight mask is
    6x4")."""
    array = np.asarray(array)
    if array.dtype != dtype:
        raise MemoryXError(f"layer '{layer_name}': {what} must be "
                           f"{np.dtype(dtype).name}, got {array.dtype.name}")
    if array.shape != tuple(shape):
        plural = what == "weights"
        if array.ndim == 2:
            found = f"{'are' if plural else 'is'} {_shape_text(array.shape)}"
        else:
            found = f"{'have' if plural else 'has'} shape {array.shape}"
        raise MemoryXError(f"layer '{layer_name}' is {_shape_text(shape)}, "
                           f"the {what} {found}")
    return np.ascontiguousarray(array)


def _check_optimizer(layer_name, optimizer):
    if not isinstance(optimizer, (SGD, Momentum, Adam)):
        raise MemoryXError(f"layer '{layer_name}': optimizer must be SGD, "
                           f"Momentum or Adam, got {type(optimizer).__name__}")


def _check_shape(layer_name, shape):
    try:
        rows, cols = (operator.index(n) for n in shape)
    except (TypeError, ValueError):
        rows = cols = -1
    if not (0 <= rows <= _MAX_DIMENSION and 0 <= cols <= _MAX_DIMENSION):
        raise MemoryXError(f"layer '{layer_name}': shape must be two integers "
                           f"in [0, {_MAX_DIMENSION}], got {shape!r}")
    return rows, cols


def _check_range(layer_name, start, stop, count, lines):
    """[start, stop) within [0, count); stop None means count."""
    stop = count if stop is None else stop
    try:
        start, stop = operator.index(start), operator.index(stop)
        valid = 0 <= start <= stop <= count
    except TypeError:
        valid = False
    if not valid:
        raise MemoryXError(f"layer '{layer_name}': {lines} {start!r} to "
                           f"{stop!r} are not within 0 to {count}")
    return start, stop


class Layer:
    """One layer of a WeightStore, as returned by add_layer or store[name].

    It stays valid for the store's lifetime, across load() too.
    """

    def __init__(self, store, index, optimizer):
        self._store = store
        self._index = index
        self._optimizer = optimizer

    @property
    def _native(self):
        return self._store._native

    def __repr__(self):
        return (f"Layer('{self.name}', {_shape_text(self.shape)}, "
                f"{self._optimizer!r}, {self.nonzeros} active, "
                f"{self.requested} requested, {self.steps} steps)")

    @property
    def name(self):
        return self._native.name(self._index)

    @property
    def shape(self):
        """(rows, cols): output features, input features."""
        return self._native.shape(self._index)

    @property
    def steps(self):
        """Optimizer steps applied so far (Adam's t before the next step)."""
        return self._native.steps(self._index)

    @property
    def nonzeros(self):
        """Weights in the weight mask: the entries the sparse copy streams."""
        return self._native.nonzeros(self._index)

    @property
    def requested(self):
        """Weights in the gradient-request mask: the gradients a step takes."""
        return self._native.requested(self._index)

    @property
    def master(self):
        """The dense FP32 master weights, (rows, cols), read-only copy."""
        return self._native.master(self._index)

    def set_master(self, weights):
        """Replaces the master weights (float32, (rows, cols)) and re-rounds
        the sparse copy; the masks and optimizer state stay."""
        weights = _check_array(self.name, self.shape, weights, "weights",
                               np.float32)
        self._native.set_master(self._index, weights)

    @property
    def weight_mask(self):
        """Which weights are active and streamed, bool (rows, cols)."""
        return self._native.weight_mask(self._index)

    def set_weight_mask(self, mask):
        """Replaces the weight mask (bool, (rows, cols)) and rebuilds the
        sparse copy's structure. Weights outside it keep their master value."""
        mask = _check_array(self.name, self.shape, mask, "weight mask",
                            np.bool_)
        self._native.set_weight_mask(self._index, mask)

    @property
    def gradient_mask(self):
        """Which gradients a step takes, bool (rows, cols)."""
        return self._native.gradient_mask(self._index)

    def set_gradient_mask(self, mask):
        """Replaces the gradient-request mask (bool, (rows, cols)).

        It may include weights outside the weight mask: they train too, so
        they have a value when the weight mask admits them."""
        mask = _check_array(self.name, self.shape, mask,
                            "gradient-request mask", np.bool_)
        self._native.set_gradient_mask(self._index, mask)

    @property
    def optimizer(self):
        """The SGD, Momentum or Adam whose hyper-parameters steps use."""
        return self._optimizer

    def set_optimizer(self, optimizer):
        """Sets the hyper-parameters for the following steps.

        The kind is fixed when the layer is made, because it decides which
        state the layer keeps; another kind raises MemoryXError."""
        _check_optimizer(self.name, optimizer)
        self._native.check_optimizer(self._index, optimizer.kind)
        self._optimizer = optimizer

    @property
    def optimizer_state(self):
        """The optimizer's FP32 arrays, (rows, cols) each, read-only copies:
        () for SGD, (velocity,) for momentum, (m, v) for Adam."""
        return self._native.optimizer_state(self._index)

    def forward(self, start=0, stop=None):
        """Rows [start, stop) of the sparse FP16 copy in forward order (the
        order the wafer receives it), as a CSR of shape (stop - start, cols).

        One C++ pass decodes the stream into the three arrays, 14 bytes per
        entry (int32 index, float16 value, int64 indptr per row); use
        stream_forward to bound the memory of a large layer."""
        rows, cols = self.shape
        start, stop = _check_range(self.name, start, stop, rows, "rows")
        indptr, indices, data = self._native.forward(self._index, start, stop)
        return CSR(indptr, indices, data, (stop - start, cols))

    def transposed(self, start=0, stop=None):
        """Columns [start, stop) in transposed order (the backward pass):
        the CSR of the transposed matrix, shape (stop - start, rows), whose
        indices are rows. Same values as forward(), no second copy."""
        rows, cols = self.shape
        start, stop = _check_range(self.name, start, stop, cols, "columns")
        indptr, indices, data = self._native.transposed(self._index, start,
                                                        stop)
        return CSR(indptr, indices, data, (stop - start, rows))

    def stream_forward(self, lines=4096):
        """Yields (first row, CSR of up to `lines` rows) in forward order."""
        return self._stream(self.forward, self.shape[0], lines)

    def stream_transposed(self, lines=4096):
        """Yields (first column, CSR of up to `lines` columns), transposed."""
        return self._stream(self.transposed, self.shape[1], lines)

    def _stream(self, decode, count, lines):
        try:
            valid = operator.index(lines) >= 1
        except TypeError:
            valid = False
        if not valid:
            raise MemoryXError(f"layer '{self.name}': lines per chunk must "
                               f"be an integer of at least 1, got {lines!r}")

        def chunks():
            for first in range(0, count, lines):
                yield first, decode(first, min(first + lines, count))
        return chunks()

    def index_stream(self, which="forward"):
        """The raw IndexStream 'forward', 'transposed' or 'gradient' (the
        gradient-request mask, whose order gradients come back in)."""
        return IndexStream(*self._native.index_stream(self._index, which))

    def apply_gradient(self, gradient):
        """One optimizer step with this layer's hyper-parameters.

        `gradient` is float32, either dense (rows, cols), of which the
        requested weights are taken, or 1-D with one value per requested
        weight in row-major order (gradient[mask] for mask =
        gradient_mask), as the wafer returns them. Only requested weights
        and their state change; the sparse copy is re-rounded as they are
        stored, so no separate rebuild is needed."""
        name, shape = self.name, self.shape
        gradient = np.asarray(gradient)
        if gradient.ndim == 1:
            # The library checks the count against the request mask.
            gradient = _check_array(name, gradient.shape, gradient, "gradient",
                                    np.float32)
        else:
            gradient = _check_array(name, shape, gradient, "gradient",
                                    np.float32)
            gradient = self._native.gather(self._index, gradient)
        self._optimizer._apply(self._native, self._index, gradient)


class WeightStore:
    """MemoryX's layers, in order, with unique names, and their checkpoints.

    Not thread-safe; each call holds the GIL, which serialises threads that
    share a store."""

    def __init__(self):
        self._native = _memoryx.WeightStore()
        self._layers = []

    @classmethod
    def read(cls, path):
        """A new store with exactly the checkpoint's layers.

        The checkpoint keeps each layer's optimizer kind and state but not
        its hyper-parameters: each layer gets its kind's defaults; call
        set_optimizer to change them."""
        store = cls.__new__(cls)
        store._native = _memoryx.WeightStore.read(os.fspath(path))
        store._layers = [
            Layer(store, i, _DEFAULT_OPTIMIZER[store._native.optimizer(i)]())
            for i in range(store._native.layer_count())]
        return store

    def save(self, path):
        """Writes every layer to `path`, atomically: the file is always the
        previous checkpoint or the new one, whole."""
        self._native.save(os.fspath(path))

    def load(self, path):
        """Replaces every layer's contents with the checkpoint's, which must
        have the same layers (names, shapes, optimizer kinds) in the same
        order. On failure nothing changes. Hyper-parameters stay."""
        self._native.load(os.fspath(path))

    def add_layer(self, name, shape=None, *, weights=None, mask=None,
                  gradient_mask=None, optimizer=None):
        """Adds and returns a layer.

        shape      (rows, cols); optional when `weights` is given
        weights    initial master weights, float32 (rows, cols); default 0
        mask       the weight mask, bool (rows, cols); default all active
        gradient_mask  the gradient-request mask; default all requested
        optimizer  SGD(), Momentum() or Adam() with hyper-parameters;
                   default SGD()

        Every argument is checked before the layer is made, so a failure
        leaves the store unchanged."""
        if not isinstance(name, str):
            raise MemoryXError(
                f"layer name must be a str, got {type(name).__name__}")
        if shape is None:
            if weights is None:
                raise MemoryXError(
                    f"layer '{name}' needs a shape or initial weights")
            weights = np.asarray(weights)
            if weights.ndim != 2:
                raise MemoryXError(f"layer '{name}': weights must be 2-D, got "
                                   f"shape {weights.shape}")
            shape = weights.shape
        shape = _check_shape(name, shape)
        if weights is not None:
            weights = _check_array(name, shape, weights, "weights",
                                   np.float32)
        if mask is not None:
            mask = _check_array(name, shape, mask, "weight mask", np.bool_)
        if gradient_mask is not None:
            gradient_mask = _check_array(name, shape, gradient_mask,
                                         "gradient-request mask", np.bool_)
        optimizer = SGD() if optimizer is None else optimizer
        _check_optimizer(name, optimizer)

        index = self._native.add_layer(name, shape[0], shape[1],
                                       optimizer.kind)
        # The mask first: its structure rebuild then rounds zeros, and the
        # weights only refresh the values.
        if mask is not None:
            self._native.set_weight_mask(index, mask)
        if gradient_mask is not None:
            self._native.set_gradient_mask(index, gradient_mask)
        if weights is not None:
            self._native.set_master(index, weights)
        layer = Layer(self, index, optimizer)
        self._layers.append(layer)
        return layer

    def __len__(self):
        return len(self._layers)

    def __iter__(self):
        return iter(self._layers)

    def __contains__(self, name):
        return isinstance(name, str) and self._native.index_of(name) >= 0

    def __getitem__(self, key):
        """The layer at an index or with a name."""
        if isinstance(key, str):
            index = self._native.index_of(key)
            if index < 0:
                raise KeyError(f"the store has no layer '{key}'")
            return self._layers[index]
        return self._layers[key]

    @property
    def names(self):
        """The layers' names, in order."""
        return [layer.name for layer in self._layers]
