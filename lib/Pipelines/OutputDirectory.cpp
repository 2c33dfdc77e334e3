//===- OutputDirectory.cpp - write `cslc -o out`
//---------------------------===//
//
// out/out.json (what the host runtime and the examples' scripts read),
// out/fabric.tfab and out/bin/<program>.tpeb (docs/OutputDirectory.md).
//
//===----------------------------------------------------------------------===//

#include "tessera/Pipelines/Backend.h"

#include "tessera/Dialect/Fabric/IR/FabricOps.h"
#include "tessera/Version.h"
#include "llvm/ADT/StringSet.h"
#include "llvm/Support/FileSystem.h"
#include "llvm/Support/FormatVariadic.h"
#include "llvm/Support/JSON.h"
#include "llvm/Support/Path.h"
#include "llvm/Support/raw_ostream.h"

using namespace mlir;
using namespace tessera;
using namespace tessera::pipelines;

namespace {


std::string writeFile(const std::string &path,
                      const std::vector<uint8_t> &bytes) {
  std::error_code ec;
  llvm::raw_fd_ostream os(path, ec, llvm::sys::fs::OF_None);
  if (ec)
    return "cannot write '" + path + "': " + ec.message();
  os.write(reinterpret_cast<const char *>(bytes.data()), bytes.size());
  os.close();
  if (os.has_error())
    return "cannot write '" + path + "': " + os.error().message();
  return {};
}

llvm::json::Object describeExport(const std::string &name, bool isFunction,
                                  pe::ElemType type, bool isMutable,
                                  const std::vector<pe::ElemType> &params) {
  llvm::json::Object e{{"name", name}};
  if (isFunction) {
    e["kind"] = "function";
    llvm::json::Array list;
    for (pe::ElemType t : params)
      list.push_back(std::string(pe::getElemTypeName(t)));
    e["params"] = std::move(list);
  } else {
    e["kind"] = "data";
    e["type"] = std::string(pe::getElemTypeName(type));
    e["mutable"] = isMutable;
  }
  return e;
}

llvm::json::Array exportsOf(const CompiledFabric &compiled) {
  // The layout's @export_name says what the host sees; a name a program
  // exports that the layout does not declare is described from the first
  // program's symbol.
  llvm::json::Array exports;
  llvm::StringSet<> seen;
  for (const LayoutExport &e : compiled.exports) {
    seen.insert(e.name);
    // Writable only where every program's symbol is (a pointer to const
    // keeps the host out even if the layout allows it).
    bool isMutable = e.isMutable;
    for (const CompiledProgram &program : compiled.programs)
      for (const pe::Symbol &symbol : program.binary.symbols)
        if (symbol.name == e.name && !symbol.isMutable)
          isMutable = false;
    exports.push_back(
        describeExport(e.name, e.isFunction, e.type, isMutable, e.params));
  }
  for (const CompiledProgram &program : compiled.programs)
    for (const pe::Symbol &symbol : program.binary.symbols) {
      if (symbol.name.rfind("__", 0) == 0 || !seen.insert(symbol.name).second)
        continue; // taken, or the loader's own (teardown handlers)
      exports.push_back(describeExport(
          symbol.name, symbol.kind == pe::SymbolKind::Function,
          symbol.elemType, symbol.isMutable, symbol.params));
    }
  return exports;
}

} // namespace

std::string pipelines::writeOutputDirectory(const CompiledFabric &compiled,
                                            const OutputMetadata &metadata,
                                            const std::string &dir) {
  std::string bin = dir + "/bin";
  if (std::error_code ec = llvm::sys::fs::create_directories(bin))
    return "cannot create the output directory '" + bin + "': " + ec.message();
  for (const CompiledProgram &program : compiled.programs)
    if (std::string error = writeFile(dir + "/" + program.fileName,
                                      pe::writeProgram(program.binary));
        !error.empty())
      return error;
  if (std::string error =
          writeFile(dir + "/fabric.tfab", pe::writeFabric(compiled.fabric));
      !error.empty())
    return error;

  const pe::FabricFile &fabric = compiled.fabric;
  llvm::json::Object params, colors;
  // As the SDK writes them: every value a string.
  for (const auto &[name, value] : metadata.params)
    params[name] = std::to_string(value);
  for (const auto &[name, value] : metadata.colors)
    colors[name] = std::to_string(value);
  llvm::json::Array programs;
  for (const CompiledProgram &program : compiled.programs) {
    const pe::ProgramBinary &b = program.binary;
    llvm::json::Array instances;
    for (const std::string &instance : program.instances)
      instances.push_back(instance);
    programs.push_back(llvm::json::Object{
        {"name", program.symbol},
        {"instances", std::move(instances)},
        {"file", program.fileName},
        {"source", program.sourceFile},
        {"pes", program.numPEs},
        {"code_bytes", b.code.size() * 2},
        {"data_bytes", b.data.size()},
        {"bss_bytes", b.bssSize},
        {"stack_bytes", program.stackBytes},
        {"memory_bytes", b.getMemoryBytes() + program.stackBytes},
    });
  }
  llvm::json::Object out{
      {"compiler", std::string("tessera cslc ") + TESSERA_VERSION_STRING},
      {"format_version", std::to_string(pe::FormatMajorVersion) + "." +
                             std::to_string(pe::FormatMinorVersion)},
      {"arch", fabric.arch == target::Arch::WSE3 ? "wse3" : "wse2"},
      {"fabric_dims", llvm::json::Array{fabric.dimsWidth, fabric.dimsHeight}},
      {"fabric_offsets", llvm::json::Array{fabric.offsetX, fabric.offsetY}},
      {"rectangle", llvm::json::Array{fabric.rectWidth, fabric.rectHeight}},
      {"memcpy", fabric.memcpy},
      {"channels", fabric.channels},
      {"params", std::move(params)},
      {"colors", std::move(colors)},
      {"exports", exportsOf(compiled)},
      {"fabric_file", "fabric.tfab"},
      {"programs", std::move(programs)},
  };
  if (!metadata.hostStreams.empty()) {
    llvm::json::Array streams;
    for (const OutputMetadata::HostStream &stream : metadata.hostStreams)
      streams.push_back(llvm::json::Object{
          {"name", stream.name},
          {"direction", stream.isInput ? "in" : "out"},
          {"x", stream.x},
          {"y", stream.y},
          {"port", stream.port},
          {"color", stream.color},
      });
    out["host_streams"] = std::move(streams);
  }
  if (!metadata.regions.empty()) {
    llvm::json::Array regions;
    for (const OutputMetadata::Region &region : metadata.regions)
      regions.push_back(llvm::json::Object{
          {"name", region.name},
          {"origin", llvm::json::Array{region.x, region.y}},
          {"size", llvm::json::Array{region.width, region.height}},
          {"placed_by", region.placedByCompiler ? "compiler" : "layout"},
      });
    std::string text;
    llvm::raw_string_ostream os(text);
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(regions)))
       << "\n";
    std::string error =
        writeFile(dir + "/placement.json",
                  std::vector<uint8_t>(text.begin(), text.end()));
    if (!error.empty())
      return error;
  }
  if (!metadata.symbolicColors.empty()) {
    llvm::json::Object colorsJson;
    for (const auto &[name, color] : metadata.symbolicColors)
      colorsJson[name] = color;
    std::string text;
    llvm::raw_string_ostream os(text);
    os << llvm::formatv("{0:2}", llvm::json::Value(std::move(colorsJson)))
       << "\n";
    std::string error = writeFile(
        dir + "/colors.json", std::vector<uint8_t>(text.begin(), text.end()));
    if (!error.empty())
      return error;
  }
  std::string jsonPath =
      metadata.jsonPath.empty() ? dir + "/out.json" : metadata.jsonPath;
  std::string text;
  llvm::raw_string_ostream os(text);
  os << llvm::formatv("{0:2}", llvm::json::Value(std::move(out))) << "\n";
  return writeFile(jsonPath, std::vector<uint8_t>(text.begin(), text.end()));
}
