//===- MemoryXModule.cpp - the tessera._memoryx extension -----------------===//
//
// Binds the MemoryX weight store (docs/MemoryX.md) for tessera/memoryx.py,
// which checks arguments and gives it a numpy surface. Layers are named by
// their index in the store, so that no Python object points into a store
// that may be gone. Every library Error becomes MemoryXError with the
// library's message. Calls keep the GIL: a WeightStore is not thread-safe,
// and holding the GIL serialises callers that share one.
//
//===----------------------------------------------------------------------===//

#include "tessera/MemoryX/Optimizer.h"
#include "tessera/MemoryX/WeightStore.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace py = pybind11;
using namespace tessera::memoryx;

// A WeightStore owns its layers through unique_ptr; pybind11's trait sees
// an implicit copy constructor and would instantiate it.
template <>
struct pybind11::detail::is_copy_constructible<WeightStore> : std::false_type {
};

namespace {

/// Carries a library message to Python as MemoryXError.
struct MemoryXFailure : std::runtime_error {
  using std::runtime_error::runtime_error;
};

void check(Status status) {
  if (!status)
    throw MemoryXFailure(status.error());
}

template <typename T> T take(Expected<T> value) {
  if (!value)
    throw MemoryXFailure(value.error());
  return std::move(*value);
}

// Array parameters are bound with noconvert: a wrong dtype or a
// non-contiguous array is a TypeError, never a silent copy.
using Floats = py::array_t<float, py::array::c_style>;
using Bools = py::array_t<bool, py::array::c_style>;

LayerStore &layerAt(WeightStore &store, size_t index) {
  if (index >= store.layerCount())
    throw py::index_error("layer index " + std::to_string(index) +
                          " is out of range for " +
                          std::to_string(store.layerCount()) + " layers");
  return store.layer(index);
}

std::span<const float> floatsOf(const Floats &array) {
  return {array.data(), static_cast<size_t>(array.size())};
}

/// A read-only (rows, cols) float32 copy: writing to it could not reach the
/// store, so numpy refuses instead of silently dropping the write.
py::array_t<float> frozenCopy(std::span<const float> values, uint32_t rows,
                              uint32_t cols) {
  py::array_t<float> result({size_t(rows), size_t(cols)});
  if (!values.empty())
    std::memcpy(result.mutable_data(), values.data(),
                values.size() * sizeof(float));
  result.attr("flags").attr("writeable") = false;
  return result;
}

py::array_t<bool> maskToArray(const Mask &mask) {
  py::array_t<bool> result({size_t(mask.rows()), size_t(mask.cols())});
  bool *out = result.mutable_data();
  for (uint32_t row = 0; row < mask.rows(); ++row) {
    std::span<const uint64_t> words = mask.rowWords(row);
    for (uint32_t col = 0; col < mask.cols(); ++col)
      *out++ = (words[col / 64] >> (col % 64)) & 1;
  }
  result.attr("flags").attr("writeable") = false;
  return result;
}

/// A 2-D bool array as a Mask of the array's shape; the layer then reports
/// a shape that differs from its own in the library's words.
Mask arrayToMask(const Bools &array) {
  if (array.ndim() != 2)
    throw MemoryXFailure("a mask has 2 dimensions, got " +
                         std::to_string(array.ndim()));
  uint64_t rows = array.shape(0), cols = array.shape(1);
  if (rows > UINT32_MAX || cols > UINT32_MAX)
    throw MemoryXFailure("a mask of " + std::to_string(rows) + "x" +
                         std::to_string(cols) +
                         " has a dimension above 4294967295");
  size_t perRow = Mask::wordsForRow(uint32_t(cols));
  std::vector<uint64_t> words(rows * perRow);
  const bool *in = array.data();
  uint64_t *out = words.data();
  // Branch-free: a random mask would mispredict every other bit.
  for (uint64_t row = 0; row < rows; ++row)
    for (uint64_t first = 0; first < cols; first += 64) {
      uint64_t bits = std::min<uint64_t>(64, cols - first), word = 0;
      for (uint64_t j = 0; j < bits; ++j)
        word |= uint64_t(in[j]) << j;
      in += bits;
      *out++ = word;
    }
  return take(
      Mask::fromWords(uint32_t(rows), uint32_t(cols), std::move(words)));
}

/// Entries of lines [first, last) of `index`, escapes excluded.
size_t entriesIn(const IndexStream &index, uint32_t first, uint32_t last) {
  std::span<const uint32_t> offsets = index.offsets();
  if (!index.hasEscapes())
    return offsets[last] - offsets[first];
  size_t entries = 0;
  std::span<const uint16_t> deltas = index.deltas();
  for (uint32_t k = offsets[first]; k < offsets[last]; ++k)
    entries += deltas[k] != EscapeWord;
  return entries;
}

/// Lines [first, last) of one order of the sparse copy as CSR arrays
/// (indptr int64, indices int32, data float16), filled in one pass of the
/// library's own walk. `visitLine(line, sink)` is forEachInRow or
/// forEachInColumn; `positionOf(row, col)` picks the index to store.
template <typename VisitLine, typename PositionOf>
py::tuple decodeLines(const IndexStream &index, uint32_t first, uint32_t last,
                      VisitLine visitLine, PositionOf positionOf) {
  if (first > last || last > index.lineCount())
    throw MemoryXFailure("lines " + std::to_string(first) + " to " +
                         std::to_string(last) + " are not within 0 to " +
                         std::to_string(index.lineCount()));
  size_t entries = entriesIn(index, first, last);
  py::array_t<int64_t> indptr(size_t(last - first) + 1);
  py::array_t<int32_t> indices(entries);
  py::array data(py::dtype("float16"),
                 std::vector<py::ssize_t>{static_cast<py::ssize_t>(entries)});
  int64_t *lineStart = indptr.mutable_data();
  int32_t *position = indices.mutable_data();
  uint16_t *halves = static_cast<uint16_t *>(data.mutable_data());
  size_t k = 0;
  lineStart[0] = 0;
  for (uint32_t line = first; line < last; ++line) {
    visitLine(line, [&](uint32_t row, uint32_t col, uint16_t bits) {
      position[k] = static_cast<int32_t>(positionOf(row, col));
      halves[k++] = bits;
    });
    lineStart[line - first + 1] = static_cast<int64_t>(k);
  }
  return py::make_tuple(indptr, indices, data);
}

template <typename T> py::array_t<T> copyOf(std::span<const T> values) {
  py::array_t<T> result(values.size());
  if (!values.empty())
    std::memcpy(result.mutable_data(), values.data(),
                values.size() * sizeof(T));
  return result;
}

/// The library checks hyper-parameters when a step runs. A step on a 1x1
/// scratch layer that requests no gradient runs exactly those checks and
/// nothing else, so bad values fail when they are set, in its words.
template <typename Params, typename Apply>
void checkParams(OptimizerKind kind, const Params &params, Apply apply) {
  LayerStore scratch = take(LayerStore::create({"check", 1, 1, kind}));
  check(scratch.setGradientMask(Mask(1, 1, false)));
  check(apply(scratch, std::span<const float>(), params));
}

OptimizerKind kindNamed(const std::string &name) {
  for (OptimizerKind kind :
       {OptimizerKind::SGD, OptimizerKind::Momentum, OptimizerKind::Adam})
    if (optimizerName(kind) == name)
      return kind;
  throw MemoryXFailure("unknown optimizer '" + name +
                       "' (expected sgd, momentum or adam)");
}

/// The library's message for a step of the wrong kind, raised when the
/// hyper-parameters are set rather than at the first step.
void checkKind(const LayerStore &layer, const std::string &name) {
  OptimizerKind kind = kindNamed(name);
  if (layer.optimizer() != kind)
    throw MemoryXFailure("layer '" + layer.name() + "' keeps " +
                         std::string(optimizerName(layer.optimizer())) +
                         " state; cannot apply " + name);
}

void bindLayerQueries(py::class_<WeightStore> &store) {
  store.def("layer_count", &WeightStore::layerCount)
      .def("index_of",
           [](WeightStore &s, const std::string &name) -> int64_t {
             for (size_t i = 0; i < s.layerCount(); ++i)
               if (s.layer(i).name() == name)
                 return static_cast<int64_t>(i);
             return -1;
           })
      .def("name",
           [](WeightStore &s, size_t i) { return layerAt(s, i).name(); })
      .def("shape",
           [](WeightStore &s, size_t i) {
             LayerStore &l = layerAt(s, i);
             return py::make_tuple(l.rows(), l.cols());
           })
      .def("optimizer",
           [](WeightStore &s, size_t i) {
             return std::string(optimizerName(layerAt(s, i).optimizer()));
           })
      .def("check_optimizer",
           [](WeightStore &s, size_t i, const std::string &name) {
             checkKind(layerAt(s, i), name);
           })
      .def("steps",
           [](WeightStore &s, size_t i) { return layerAt(s, i).steps(); })
      .def("nonzeros",
           [](WeightStore &s, size_t i) {
             return layerAt(s, i).sparse().nonzeroCount();
           })
      .def("requested", [](WeightStore &s, size_t i) {
        return layerAt(s, i).gradientStream().nonzeroCount();
      });
}

void bindLayerArrays(py::class_<WeightStore> &store) {
  store
      .def("master",
           [](WeightStore &s, size_t i) {
             LayerStore &l = layerAt(s, i);
             return frozenCopy(l.master(), l.rows(), l.cols());
           })
      .def(
          "set_master",
          [](WeightStore &s, size_t i, const Floats &weights) {
            check(layerAt(s, i).setMaster(floatsOf(weights)));
          },
          py::arg("index"), py::arg("weights").noconvert())
      .def("optimizer_state",
           [](WeightStore &s, size_t i) {
             LayerStore &l = layerAt(s, i);
             py::list states;
             for (unsigned k = 0; k < optimizerStateCount(l.optimizer()); ++k)
               states.append(
                   frozenCopy(l.optimizerState(k), l.rows(), l.cols()));
             return py::tuple(states);
           })
      .def("weight_mask",
           [](WeightStore &s, size_t i) {
             return maskToArray(layerAt(s, i).weightMask());
           })
      .def("gradient_mask",
           [](WeightStore &s, size_t i) {
             return maskToArray(layerAt(s, i).gradientMask());
           })
      .def(
          "set_weight_mask",
          [](WeightStore &s, size_t i, const Bools &mask) {
            LayerStore &l = layerAt(s, i);
            check(l.setWeightMask(arrayToMask(mask)));
          },
          py::arg("index"), py::arg("mask").noconvert())
      .def(
          "set_gradient_mask",
          [](WeightStore &s, size_t i, const Bools &mask) {
            LayerStore &l = layerAt(s, i);
            check(l.setGradientMask(arrayToMask(mask)));
          },
          py::arg("index"), py::arg("mask").noconvert());
}

void bindStreams(py::class_<WeightStore> &store) {
  store
      .def("forward",
           [](WeightStore &s, size_t i, uint32_t first, uint32_t last) {
             const SparseMatrix &m = layerAt(s, i).sparse();
             return decodeLines(
                 m.forwardIndex(), first, last,
                 [&](uint32_t row, auto &&sink) { m.forEachInRow(row, sink); },
                 [](uint32_t, uint32_t col) { return col; });
           })
      .def("transposed",
           [](WeightStore &s, size_t i, uint32_t first, uint32_t last) {
             const SparseMatrix &m = layerAt(s, i).sparse();
             return decodeLines(
                 m.transposedIndex(), first, last,
                 [&](uint32_t col, auto &&sink) {
                   m.forEachInColumn(col, sink);
                 },
                 [](uint32_t row, uint32_t) { return row; });
           })
      .def("index_stream", [](WeightStore &s, size_t i,
                              const std::string &which) {
        LayerStore &l = layerAt(s, i);
        const IndexStream *index = nullptr;
        if (which == "forward")
          index = &l.sparse().forwardIndex();
        else if (which == "transposed")
          index = &l.sparse().transposedIndex();
        else if (which == "gradient")
          index = &l.gradientStream();
        else
          throw MemoryXFailure("unknown index stream '" + which +
                               "' (expected forward, transposed or gradient)");
        return py::make_tuple(copyOf(index->offsets()),
                              copyOf(index->deltas()));
      });
}

void bindSteps(py::class_<WeightStore> &store) {
  store
      .def(
          "gather",
          [](WeightStore &s, size_t i, const Floats &dense) {
            std::vector<float> stream =
                take(layerAt(s, i).gradientStream().gather(floatsOf(dense)));
            return copyOf(std::span<const float>(stream));
          },
          py::arg("index"), py::arg("dense").noconvert())
      .def(
          "apply_sgd",
          [](WeightStore &s, size_t i, const Floats &gradients, float lr) {
            check(applySGD(layerAt(s, i), floatsOf(gradients), {lr}));
          },
          py::arg("index"), py::arg("gradients").noconvert(), py::arg("lr"))
      .def(
          "apply_momentum",
          [](WeightStore &s, size_t i, const Floats &gradients, float lr,
             float momentum) {
            check(applyMomentum(layerAt(s, i), floatsOf(gradients),
                                {lr, momentum}));
          },
          py::arg("index"), py::arg("gradients").noconvert(), py::arg("lr"),
          py::arg("momentum"))
      .def(
          "apply_adam",
          [](WeightStore &s, size_t i, const Floats &gradients, float lr,
             float beta1, float beta2, float epsilon) {
            check(applyAdam(layerAt(s, i), floatsOf(gradients),
                            {lr, beta1, beta2, epsilon}));
          },
          py::arg("index"), py::arg("gradients").noconvert(), py::arg("lr"),
          py::arg("beta1"), py::arg("beta2"), py::arg("epsilon"));
}

} // namespace

PYBIND11_MODULE(_memoryx, m) {
  m.doc() = "MemoryX, the weight store of weight streaming";
  // A ValueError, so that callers catching bad values catch these too.
  py::register_exception<MemoryXFailure>(m, "MemoryXError", PyExc_ValueError);

  py::class_<WeightStore> store(m, "WeightStore");
  store.def(py::init<>())
      .def_static("read",
                  [](const std::string &path) {
                    return std::make_unique<WeightStore>(
                        take(WeightStore::readCheckpoint(path)));
                  })
      .def("save",
           [](const WeightStore &s, const std::string &path) {
             check(s.saveCheckpoint(path));
           })
      .def("load",
           [](WeightStore &s, const std::string &path) {
             check(s.loadCheckpoint(path));
           })
      .def("add_layer",
           [](WeightStore &s, const std::string &name, uint32_t rows,
              uint32_t cols, const std::string &optimizer) {
             take(s.addLayer({name, rows, cols, kindNamed(optimizer)}));
             return s.layerCount() - 1;
           });
  bindLayerQueries(store);
  bindLayerArrays(store);
  bindStreams(store);
  bindSteps(store);

  m.def("check_sgd", [](float lr) {
    checkParams(OptimizerKind::SGD, SGDParams{lr}, applySGD);
  });
  m.def("check_momentum", [](float lr, float momentum) {
    checkParams(OptimizerKind::Momentum, MomentumParams{lr, momentum},
                applyMomentum);
  });
  m.def("check_adam", [](float lr, float beta1, float beta2, float epsilon) {
    checkParams(OptimizerKind::Adam, AdamParams{lr, beta1, beta2, epsilon},
                applyAdam);
  });
}
