//===- ChromeTrace.cpp - Chrome trace-event JSON --------------------------===//

#include "tessera/Viz/ChromeTrace.h"

#include <nlohmann/json.hpp>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>

using namespace tessera::viz;
using ordered_json = nlohmann::ordered_json;

namespace {

struct TraceEvent {
  unsigned pid = 0;
  uint64_t ts = 0;
  unsigned tid = 0;
  /// Keeps events that tie on the above in record order.
  size_t sequence = 0;
  ordered_json body;
};

/// Collects the filtered events and the threads they use.
class TraceBuilder {
public:
  TraceBuilder(const RunRecord &record, const TraceFilter &filter)
      : record(record), filter(filter) {}

  void addTasks();
  void addDSDOperations();
  void addWavelets();
  void addPrints();
  std::string print();

private:
  bool keepsPE(unsigned x, unsigned y) const {
    return !filter.region || filter.region->contains(x, y);
  }
  bool keepsCycle(uint64_t cycle) const {
    return cycle >= filter.firstCycle &&
           (!filter.endCycle || cycle < *filter.endCycle);
  }
  /// The span cut to the window, or nullopt when outside it.
  std::optional<std::pair<uint64_t, uint64_t>> clip(uint64_t start,
                                                    uint64_t end) const;
  void addSpan(unsigned x, unsigned y, unsigned tid, std::string threadName,
               std::string name, const char *category, uint64_t start,
               uint64_t end, ordered_json args);
  void addInstant(unsigned x, unsigned y, unsigned tid, std::string threadName,
                  std::string name, const char *category, uint64_t cycle,
                  ordered_json args);
  void useThread(unsigned x, unsigned y, unsigned tid, std::string threadName);

  const RunRecord &record;
  const TraceFilter &filter;
  std::vector<TraceEvent> events;
  /// Per process: the PE, and the name of each thread used.
  std::map<unsigned, std::pair<std::pair<unsigned, unsigned>,
                               std::map<unsigned, std::string>>>
      processes;
};

std::optional<std::pair<uint64_t, uint64_t>>
TraceBuilder::clip(uint64_t start, uint64_t end) const {
  uint64_t first = std::max(start, filter.firstCycle);
  uint64_t last = filter.endCycle ? std::min(end, *filter.endCycle) : end;
  // An empty span survives only when its cycle is inside the window.
  if (start == end)
    return keepsCycle(start) ? std::optional(std::pair(start, end))
                             : std::nullopt;
  if (first >= last)
    return std::nullopt;
  return std::pair(first, last);
}

void TraceBuilder::useThread(unsigned x, unsigned y, unsigned tid,
                             std::string threadName) {
  auto &process = processes[getTraceProcessID(record, x, y)];
  process.first = {x, y};
  process.second.try_emplace(tid, std::move(threadName));
}

void TraceBuilder::addSpan(unsigned x, unsigned y, unsigned tid,
                           std::string threadName, std::string name,
                           const char *category, uint64_t start, uint64_t end,
                           ordered_json args) {
  std::optional<std::pair<uint64_t, uint64_t>> span = clip(start, end);
  if (!keepsPE(x, y) || !span)
    return;
  useThread(x, y, tid, std::move(threadName));
  unsigned pid = getTraceProcessID(record, x, y);
  ordered_json body = {{"ph", "X"},
                       {"name", std::move(name)},
                       {"cat", category},
                       {"pid", pid},
                       {"tid", tid},
                       {"ts", span->first},
                       {"dur", span->second - span->first}};
  if (!args.empty())
    body["args"] = std::move(args);
  events.push_back({pid, span->first, tid, events.size(), std::move(body)});
}

void TraceBuilder::addInstant(unsigned x, unsigned y, unsigned tid,
                              std::string threadName, std::string name,
                              const char *category, uint64_t cycle,
                              ordered_json args) {
  if (!keepsPE(x, y) || !keepsCycle(cycle))
    return;
  useThread(x, y, tid, std::move(threadName));
  unsigned pid = getTraceProcessID(record, x, y);
  ordered_json body = {{"ph", "i"},
                       {"s", "t"},
                       {"name", std::move(name)},
                       {"cat", category},
                       {"pid", pid},
                       {"tid", tid},
                       {"ts", cycle},
                       {"args", std::move(args)}};
  events.push_back({pid, cycle, tid, events.size(), std::move(body)});
}

void TraceBuilder::addTasks() {
  for (const TaskSpan &task : record.tasks) {
    std::string id = "task " + std::to_string(task.taskId);
    std::string threadName =
        task.taskName.empty() ? id : id + " (" + task.taskName + ")";
    addSpan(task.x, task.y, trace_threads::FirstTask + task.taskId, threadName,
            task.taskName.empty() ? id : task.taskName, "task", task.start,
            task.end, {{"task id", task.taskId}});
  }
}

void TraceBuilder::addDSDOperations() {
  for (const DSDSpan &span : record.dsdOperations) {
    unsigned tid = span.microthread
                       ? trace_threads::FirstMicrothreadDSD + *span.microthread
                       : trace_threads::MainThreadDSD;
    std::string threadName =
        span.microthread ? "microthread " + std::to_string(*span.microthread)
                         : "main thread";
    addSpan(span.x, span.y, tid, threadName, span.operation, "dsd", span.start,
            span.end, ordered_json::object());
  }
}

void TraceBuilder::addWavelets() {
  for (const WaveletEvent &event : record.wavelets) {
    if (filter.colors && !filter.colors->test(event.color))
      continue;
    std::string name =
        (event.kind == WaveletEventKind::Send ? "send color "
                                              : "receive color ") +
        std::to_string(event.color);
    addInstant(event.x, event.y, trace_threads::Wavelets, "wavelets", name,
               "wavelet", event.cycle, {{"color", event.color}});
  }
}

void TraceBuilder::addPrints() {
  for (const PrintEvent &print : record.prints)
    addInstant(print.x, print.y, trace_threads::Prints, "prints", print.text,
               "print", print.cycle, {{"text", print.text}});
}

std::string TraceBuilder::print() {
  std::sort(events.begin(), events.end(),
            [](const TraceEvent &a, const TraceEvent &b) {
              return std::tie(a.pid, a.ts, a.tid, a.sequence) <
                     std::tie(b.pid, b.ts, b.tid, b.sequence);
            });
  std::string out = "{\"traceEvents\": [";
  bool first = true;
  auto emit = [&](const ordered_json &event) {
    out += first ? "\n" : ",\n";
    first = false;
    out += event.dump(-1, ' ', false, ordered_json::error_handler_t::replace);
  };
  for (const auto &[pid, process] : processes) {
    const auto &[x, y] = process.first;
    std::string name =
        "PE (" + std::to_string(x) + ", " + std::to_string(y) + ")";
    emit({{"ph", "M"},
          {"name", "process_name"},
          {"pid", pid},
          {"tid", 0},
          {"args", {{"name", name}}}});
    emit({{"ph", "M"},
          {"name", "process_sort_index"},
          {"pid", pid},
          {"tid", 0},
          {"args", {{"sort_index", pid}}}});
    for (const auto &[tid, threadName] : process.second) {
      emit({{"ph", "M"},
            {"name", "thread_name"},
            {"pid", pid},
            {"tid", tid},
            {"args", {{"name", threadName}}}});
      emit({{"ph", "M"},
            {"name", "thread_sort_index"},
            {"pid", pid},
            {"tid", tid},
            {"args", {{"sort_index", tid}}}});
    }
  }
  for (const TraceEvent &event : events)
    emit(event.body);
  ordered_json otherData = {{"arch", getArchName(record.arch)},
                            {"width", record.width},
                            {"height", record.height},
                            {"cycles", record.cycles},
                            {"time unit", "1 us = 1 cycle"}};
  out +=
      "\n],\n\"otherData\": " +
      otherData.dump(-1, ' ', false, ordered_json::error_handler_t::replace) +
      "}\n";
  return out;
}

} // namespace

std::string tessera::viz::printChromeTrace(const RunRecord &record,
                                           const TraceFilter &filter) {
  TraceBuilder builder(record, filter);
  builder.addTasks();
  builder.addDSDOperations();
  builder.addWavelets();
  builder.addPrints();
  return builder.print();
}

Status tessera::viz::writeChromeTrace(const RunRecord &record,
                                      const TraceFilter &filter,
                                      const std::string &path) {
  std::ofstream stream(path, std::ios::binary);
  if (!stream)
    return Error("cannot write '" + path + "': " + std::strerror(errno));
  stream << printChromeTrace(record, filter);
  stream.flush();
  if (!stream)
    return Error("cannot write '" + path + "': " + std::strerror(errno));
  return {};
}
