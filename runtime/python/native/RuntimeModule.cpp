//===- RuntimeModule.cpp - the tessera._runtime extension -----------------===//
//
// Binds the C++ host runtime (docs/HostRuntime.md) for tessera/runtime.py,
// which gives it the SDK's Python surface. Arrays cross as numpy arrays of
// 32-bit words without a copy; HostError becomes tessera.runtime's
// SdkRuntimeError.
//
//===----------------------------------------------------------------------===//

#include "tessera/Host/Ranks.h"
#include "tessera/Host/SdkRuntime.h"

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

namespace py = pybind11;
using namespace tessera;
using namespace tessera::host;

namespace {

using Words = py::array_t<uint32_t, py::array::c_style>;
using Halves = py::array_t<uint16_t, py::array::c_style>;

std::span<const uint32_t> wordsOf(const Words &words) {
  return {words.data(), static_cast<size_t>(words.size())};
}

/// The exports as (name, is_function, element type name, parameter type
/// names), for the Python side's checks and argument packing.
py::list describeExports(const SdkRuntime &runtime) {
  auto name = [](pe::ElemType t) {
    return std::string(pe::getElemTypeName(t));
  };
  py::list result;
  for (const emulator::ExportInfo &e : runtime.getOutput().metadata.exports) {
    py::list params;
    for (pe::ElemType p : e.params)
      params.append(name(p));
    result.append(py::make_tuple(e.name, e.kind == pe::SymbolKind::Function,
                                 name(e.type), e.isMutable, params));
  }
  return result;
}

/// The RankLink in a capsule of tessera._mpi.link().
emulator::RankLink &linkOf(const py::capsule &capsule) {
  if (std::string(capsule.name() ? capsule.name() : "") != "tessera.RankLink")
    throw py::type_error("expected the capsule of tessera._mpi.link()");
  return *capsule.get_pointer<emulator::RankLink>();
}

} // namespace

PYBIND11_MODULE(_runtime, m) {
  m.doc() = "Tessera's host runtime over the fabric emulator";
  // Translates HostError thrown anywhere below into this Python class.
  py::register_exception<HostError>(m, "HostError", PyExc_RuntimeError);

  // docs/Scaling.md "Host programs on ranks" (tessera/ranks.py).
  py::class_<RankServers, std::shared_ptr<RankServers>>(m, "RankServers")
      .def(py::init([](const py::capsule &link) {
             return std::make_shared<RankServers>(linkOf(link));
           }),
           py::keep_alive<1, 2>())
      .def("stop", &RankServers::stop)
      .def_property_readonly("size", &RankServers::getSize);
  m.def("serve", [](const py::capsule &link) {
    emulator::RankLink &ranks = linkOf(link);
    py::gil_scoped_release release;
    serveRanks(ranks);
  });

  py::class_<SdkRuntime>(m, "Runtime")
      .def(py::init([](const std::string &directory, uint64_t maxCycles,
                       const std::string &simLog, bool simprintToTerminal,
                       const std::string &trace, const std::string &stats,
                       unsigned threads, bool progress, double progressInterval,
                       const std::string &record,
                       std::optional<std::array<uint64_t, 4>> recordRegion,
                       std::optional<std::array<uint64_t, 2>> recordCycles,
                       std::optional<uint32_t> recordColors,
                       const std::string &coreDump,
                       std::optional<std::array<uint64_t, 4>> coreRegion,
                       std::shared_ptr<RankServers> ranks) {
             RuntimeOptions options;
             options.ranks = std::move(ranks);
             options.recordDirectory = record;
             if (!record.empty()) {
               emulator::RecordOptions what;
               if (recordRegion) {
                 what.x0 = unsigned((*recordRegion)[0]);
                 what.y0 = unsigned((*recordRegion)[1]);
                 what.x1 = unsigned((*recordRegion)[2]);
                 what.y1 = unsigned((*recordRegion)[3]);
               }
               if (recordCycles) {
                 what.firstCycle = (*recordCycles)[0];
                 what.endCycle = (*recordCycles)[1];
               }
               if (recordColors)
                 what.waveletColors = *recordColors;
               options.emulator.record = what;
             }
             options.coreDumpDirectory = coreDump;
             options.coreDumpRegion = coreRegion;
             options.emulator.threads = threads;
             options.progress = progress;
             options.emulator.progressSeconds = progressInterval;
             options.maxCyclesPerCommand = maxCycles;
             options.simLogPath = simLog;
             options.simprintToTerminal = simprintToTerminal;
             options.tracePath = trace;
             options.statsPath = stats;
             return std::make_unique<SdkRuntime>(directory, options);
           }),
           py::arg("directory"), py::arg("max_cycles"), py::arg("sim_log"),
           py::arg("simprint_to_terminal"), py::arg("trace"), py::arg("stats"),
           py::arg("threads"), py::arg("progress"),
           py::arg("progress_interval"), py::arg("record"),
           py::arg("record_region"), py::arg("record_cycles"),
           py::arg("record_colors"), py::arg("core_dump"),
           py::arg("core_dump_region"), py::arg("ranks") = nullptr)
      .def("get_id", &SdkRuntime::getId)
      .def("load", &SdkRuntime::load)
      .def("run", &SdkRuntime::run)
      .def("stop", &SdkRuntime::stop)
      .def("exports", &describeExports)
      .def("params",
           [](const SdkRuntime &r) { return r.getOutput().metadata.params; })
      .def("cycle", &SdkRuntime::getCycle)
      .def("memcpy_h2d",
           [](SdkRuntime &r, uint32_t id, const Words &data, int64_t x,
              int64_t y, int64_t w, int64_t h, uint64_t elements, bool bits32,
              bool rowMajor) {
             py::gil_scoped_release release;
             return r
                 .memcpyH2D(
                     id, wordsOf(data), Region{x, y, w, h}, elements,
                     bits32 ? MemcpyDataType::Bits32 : MemcpyDataType::Bits16,
                     rowMajor ? MemcpyOrder::RowMajor : MemcpyOrder::ColMajor)
                 .id;
           })
      .def("memcpy_d2h",
           [](SdkRuntime &r, Words &data, uint32_t id, int64_t x, int64_t y,
              int64_t w, int64_t h, uint64_t elements, bool bits32,
              bool rowMajor) {
             std::span<uint32_t> out(data.mutable_data(),
                                     static_cast<size_t>(data.size()));
             py::gil_scoped_release release;
             return r
                 .memcpyD2H(
                     out, id, Region{x, y, w, h}, elements,
                     bits32 ? MemcpyDataType::Bits32 : MemcpyDataType::Bits16,
                     rowMajor ? MemcpyOrder::RowMajor : MemcpyOrder::ColMajor)
                 .id;
           })
      .def("memcpy_h2d_stream",
           [](SdkRuntime &r, unsigned color, const Words &data, int64_t x,
              int64_t y, int64_t w, int64_t h, uint64_t elements,
              bool rowMajor) {
             py::gil_scoped_release release;
             return r
                 .memcpyH2DStream(
                     color, wordsOf(data), Region{x, y, w, h}, elements,
                     rowMajor ? MemcpyOrder::RowMajor : MemcpyOrder::ColMajor)
                 .id;
           })
      .def("memcpy_d2h_stream",
           [](SdkRuntime &r, Words &data, unsigned color, int64_t x, int64_t y,
              int64_t w, int64_t h, uint64_t elements, bool rowMajor) {
             std::span<uint32_t> out(data.mutable_data(),
                                     static_cast<size_t>(data.size()));
             py::gil_scoped_release release;
             return r
                 .memcpyD2HStream(out, color, Region{x, y, w, h}, elements,
                                  rowMajor ? MemcpyOrder::RowMajor
                                           : MemcpyOrder::ColMajor)
                 .id;
           })
      .def("launch",
           [](SdkRuntime &r, const std::string &name, const Words &args) {
             py::gil_scoped_release release;
             return r.launch(name, wordsOf(args)).id;
           })
      .def("read_symbol",
           [](const SdkRuntime &r, unsigned x, unsigned y,
              const std::string &name) {
             pe::ElemType type = pe::ElemType::None;
             std::vector<uint8_t> bytes = r.readSymbol(x, y, name, &type);
             return py::make_tuple(
                 py::bytes(reinterpret_cast<const char *>(bytes.data()),
                           bytes.size()),
                 std::string(pe::getElemTypeName(type)));
           })
      .def("write_symbol",
           [](SdkRuntime &r, unsigned x, unsigned y, const std::string &name,
              const py::bytes &data) {
             std::string bytes = data;
             r.writeSymbol(x, y, name,
                           std::span<const uint8_t>(
                               reinterpret_cast<const uint8_t *>(bytes.data()),
                               bytes.size()));
           })
      .def("is_task_done",
           [](const SdkRuntime &r, uint64_t handle) {
             return r.isTaskDone(TaskHandle{handle});
           })
      .def("task_wait",
           [](SdkRuntime &r, uint64_t handle) {
             py::gil_scoped_release release;
             r.taskWait(TaskHandle{handle});
           })
      .def("num_streams", &SdkRuntime::getNumStreams)
      .def(
          "send",
          [](SdkRuntime &r, uint32_t stream, const Words &words,
             bool nonblock) {
            py::gil_scoped_release release;
            return r.send(stream, wordsOf(words), nonblock).id;
          },
          py::arg("stream"), py::arg("words").noconvert(), py::arg("nonblock"))
      // The receives write into the caller's array: noconvert, so that a
      // wrong array is an error rather than a silently filled copy.
      .def(
          "receive32",
          [](SdkRuntime &r, uint32_t stream, Words &out, bool nonblock) {
            std::span<uint32_t> words(out.mutable_data(),
                                      static_cast<size_t>(out.size()));
            py::gil_scoped_release release;
            return r.receive(stream, words, nonblock).id;
          },
          py::arg("stream"), py::arg("out").noconvert(), py::arg("nonblock"))
      .def(
          "receive16",
          [](SdkRuntime &r, uint32_t stream, Halves &out, bool nonblock) {
            std::span<uint16_t> halves(out.mutable_data(),
                                       static_cast<size_t>(out.size()));
            py::gil_scoped_release release;
            return r.receive(stream, halves, nonblock).id;
          },
          py::arg("stream"), py::arg("out").noconvert(), py::arg("nonblock"));
}
