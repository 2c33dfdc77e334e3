//===- RunRecordWriter.cpp - run records as JSON text ---------------------===//
//
// One array element per line, keys in the order of docs/RunRecord.md, so
// that records are readable and diff well.
//
//===----------------------------------------------------------------------===//

#include "tessera/Viz/RunRecordJSON.h"

#include <nlohmann/json.hpp>

#include <cerrno>
#include <cstring>
#include <fstream>

using namespace tessera::viz;
using ordered_json = nlohmann::ordered_json;

namespace {

ordered_json toJSON(const PERecord &pe) {
  ordered_json counters;
  for (unsigned m = 0; m < unsigned(PEMetric::MemoryBytesUsed); ++m)
    counters[std::string(getMetricKey(PEMetric(m)))] = pe.metrics[m];
  return ordered_json{{"x", pe.x},
                      {"y", pe.y},
                      {"program", pe.program},
                      {"counters", counters},
                      {"memoryBytesUsed", pe.get(PEMetric::MemoryBytesUsed)}};
}

ordered_json toJSON(const LinkRecord &link) {
  return ordered_json{{"x", link.x},
                      {"y", link.y},
                      {"direction", getDirectionName(link.direction)},
                      {"color", link.color},
                      {"wavelets", link.wavelets}};
}

ordered_json toJSON(const TaskSpan &task) {
  return ordered_json{{"x", task.x},         {"y", task.y},
                      {"id", task.taskId},   {"name", task.taskName},
                      {"start", task.start}, {"end", task.end}};
}

ordered_json toJSON(const DSDSpan &span) {
  ordered_json thread =
      span.microthread ? ordered_json(*span.microthread) : ordered_json("main");
  return ordered_json{{"x", span.x},         {"y", span.y},
                      {"thread", thread},    {"operation", span.operation},
                      {"start", span.start}, {"end", span.end}};
}

ordered_json toJSON(const WaveletEvent &event) {
  return ordered_json{
      {"cycle", event.cycle},
      {"x", event.x},
      {"y", event.y},
      {"color", event.color},
      {"event", event.kind == WaveletEventKind::Send ? "send" : "receive"}};
}

ordered_json toJSON(const PrintEvent &print) {
  return ordered_json{{"cycle", print.cycle},
                      {"x", print.x},
                      {"y", print.y},
                      {"text", print.text}};
}

template <typename T>
void printArray(std::string &out, const char *key,
                const std::vector<T> &elements) {
  out += ",\n  \"";
  out += key;
  out += "\": [";
  for (size_t i = 0; i < elements.size(); ++i) {
    out += i == 0 ? "\n    " : ",\n    ";
    // Invalid UTF-8 in printed text becomes U+FFFD rather than an exception.
    out += toJSON(elements[i])
               .dump(-1, ' ', false, ordered_json::error_handler_t::replace);
  }
  out += elements.empty() ? "]" : "\n  ]";
}

} // namespace

std::string tessera::viz::printRunRecord(const RunRecord &record) {
  std::string out = "{\n  \"version\": " + std::to_string(RunRecordVersion);
  out += ",\n  \"arch\": \"" + std::string(getArchName(record.arch)) + "\"";
  out += ",\n  \"width\": " + std::to_string(record.width);
  out += ",\n  \"height\": " + std::to_string(record.height);
  out += ",\n  \"cycles\": " + std::to_string(record.cycles);
  printArray(out, "pes", record.pes);
  printArray(out, "links", record.links);
  printArray(out, "tasks", record.tasks);
  printArray(out, "dsdOperations", record.dsdOperations);
  printArray(out, "wavelets", record.wavelets);
  printArray(out, "prints", record.prints);
  out += "\n}\n";
  return out;
}

Status tessera::viz::writeRunRecord(const RunRecord &record,
                                    const std::string &path) {
  std::ofstream stream(path, std::ios::binary);
  if (!stream)
    return Error("cannot write '" + path + "': " + std::strerror(errno));
  stream << printRunRecord(record);
  stream.flush();
  if (!stream)
    return Error("cannot write '" + path + "': " + std::strerror(errno));
  return {};
}
