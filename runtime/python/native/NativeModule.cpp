//===- NativeModule.cpp - the tessera._native extension -------------------===//
//
// Binds Tessera's C++ libraries for Python. Array functions take numpy arrays
// of any shape and return arrays of the same shape.
//
//===----------------------------------------------------------------------===//

#include "tessera/Placement/RegionPlacer.h"
#include "tessera/Support/Float16.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;

namespace {

/// Applies `convert` elementwise from an array of `From` to a new array of
/// `To` with the same shape.
template <typename To, typename From, typename Fn>
py::array_t<To> mapArray(py::array_t<From, py::array::c_style |
                                               py::array::forcecast>
                             input,
                         Fn convert) {
  py::buffer_info in = input.request();
  py::array_t<To> output(in.shape);
  const From *src = static_cast<const From *>(in.ptr);
  To *dst = static_cast<To *>(output.request().ptr);
  {
    py::gil_scoped_release release;
    for (py::ssize_t i = 0; i < in.size; ++i)
      dst[i] = convert(src[i]);
  }
  return output;
}

} // namespace

PYBIND11_MODULE(_native, m) {
  m.doc() = "Tessera's native extension";
  m.attr("__version__") = TESSERA_VERSION;

  m.def(
      "float32_to_f16_bits",
      [](py::array_t<float, py::array::c_style | py::array::forcecast> a) {
        return mapArray<uint16_t, float>(a, tessera::floatToHalfBits);
      },
      py::arg("values"),
      "Round float32 values to IEEE binary16 (ties to even); returns uint16 "
      "bit patterns.");
  m.def(
      "f16_bits_to_float32",
      [](py::array_t<uint16_t, py::array::c_style | py::array::forcecast> a) {
        return mapArray<float, uint16_t>(a, tessera::halfBitsToFloat);
      },
      py::arg("bits"), "The float32 values of IEEE binary16 bit patterns.");
  m.def(
      "float32_to_bf16_bits",
      [](py::array_t<float, py::array::c_style | py::array::forcecast> a) {
        return mapArray<uint16_t, float>(a, tessera::floatToBFloat16Bits);
      },
      py::arg("values"),
      "Round float32 values to bfloat16 (ties to even); returns uint16 bit "
      "patterns.");
  m.def(
      "bf16_bits_to_float32",
      [](py::array_t<uint16_t, py::array::c_style | py::array::forcecast> a) {
        return mapArray<float, uint16_t>(a, tessera::bfloat16BitsToFloat);
      },
      py::arg("bits"), "The float32 values of bfloat16 bit patterns.");

  // SdkLayout's placement of code regions (docs/SdkLayout.md): regions are
  // (name, width, height, origin or None), connections (from, to, from_x,
  // from_y, to_x, to_y, weight), blocked PEs (x, y).
  m.def(
      "place_regions",
      [](int width, int height,
         const std::vector<std::tuple<std::string, int, int,
                                      std::optional<std::pair<int, int>>>>
             &regions,
         const std::vector<std::tuple<int, int, int, int, int, int, int>>
             &connections,
         const std::vector<std::pair<int, int>> &blocked) {
        tessera::placement::RegionProblem problem;
        problem.width = width;
        problem.height = height;
        for (const auto &[name, w, h, origin] : regions) {
          tessera::placement::CodeRegion region{name, w, h, std::nullopt};
          if (origin)
            region.origin = tessera::placement::RegionPoint{origin->first,
                                                            origin->second};
          problem.regions.push_back(region);
        }
        for (const auto &[from, to, fx, fy, tx, ty, weight] : connections)
          problem.connections.push_back(
              {from, to, {fx, fy}, {tx, ty}, weight});
        for (const auto &[x, y] : blocked)
          problem.blocked.push_back({x, y});
        tessera::placement::RegionPlacement result =
            tessera::placement::placeRegions(problem);
        if (!result.succeeded())
          throw py::value_error(result.errors.front());
        std::vector<std::pair<int, int>> origins;
        for (const auto &origin : result.origins)
          origins.push_back({origin.x, origin.y});
        return py::make_tuple(origins, result.wireLength);
      },
      py::arg("width"), py::arg("height"), py::arg("regions"),
      py::arg("connections"), py::arg("blocked"));
}
