//===- HostStreams.cpp - words through the fabric's edge ------------------===//
//
// docs/HostRuntime.md "Host streams": the host feeds each input stream's
// edge port one word per cycle and drains each output stream's edge exit
// every cycle, whatever command runs the device, so nonblocking sends and
// receives progress during later commands and complete by stop().
//
//===----------------------------------------------------------------------===//

#include "Runtime.h"

#include "tessera/Support/Format.h"

using namespace tessera;
using namespace tessera::host;

namespace {

std::string streamName(const StreamState &stream) {
  return "stream " + std::to_string(stream.id) + " ('" + stream.info->name +
         "')";
}

/// The stream `id` names, which must go the way `what` needs.
StreamState &streamOf(SdkRuntime::State &s, const char *what, uint32_t id,
                      bool output) {
  if (id >= s.streams.size())
    throw HostError(
        std::string(what) + ": no stream has ID " + std::to_string(id) +
        (s.streams.empty() ? " (the program declares no host streams)"
                           : " (there are " + std::to_string(s.streams.size()) +
                                 " host streams, IDs from 0)"));
  StreamState &stream = s.streams[id];
  if (stream.info->output != output)
    throw HostError(std::string(what) + ": " + streamName(stream) + " is " +
                    (stream.info->output ? "an output" : "an input") +
                    " stream; " + what + " needs " +
                    (output ? "an output" : "an input") + " stream");
  return stream;
}

/// Hands arrived words to the stream's receives, oldest first.
void fillReceives(StreamState &stream) {
  while (!stream.ops.empty() && !stream.arrived.empty()) {
    StreamOp &op = stream.ops.front();
    uint32_t word = stream.arrived.front();
    stream.arrived.pop_front();
    if (op.words32)
      op.words32[op.done] = word;
    else
      op.words16[op.done] = uint16_t(word);
    if (++op.done == op.count)
      stream.ops.pop_front();
  }
}

/// A blocking send or receive that failed is dropped, so that no word of
/// it is sent later and no array is written after its call returned. It is
/// the stream's last operation.
void waitOrDrop(SdkRuntime::State &s, StreamState &stream, uint64_t handle,
                const std::string &why) {
  try {
    s.waitFor(why, handle);
  } catch (const HostError &) {
    if (!stream.ops.empty() && stream.ops.back().handle == handle) {
      const StreamOp &op = stream.ops.back();
      if (!stream.info->output)
        stream.toSend.resize(stream.toSend.size() - (op.count - op.done));
      stream.ops.pop_back();
    }
    throw;
  }
}

template <typename T>
TaskHandle receiveInto(SdkRuntime::State &s, uint32_t id, std::span<T> out,
                       bool nonblock) {
  s.requireRunning("receive");
  StreamState &stream = streamOf(s, "receive", id, true);
  uint64_t handle = s.nextHandle++;
  if (out.empty())
    return {handle};
  StreamOp op;
  op.handle = handle;
  op.count = out.size();
  if constexpr (sizeof(T) == 4)
    op.words32 = out.data();
  else
    op.words16 = out.data();
  stream.ops.push_back(op);
  fillReceives(stream); // words that left before the receive was issued
  if (!nonblock)
    waitOrDrop(s, stream, handle, "receive on " + streamName(stream));
  return {handle};
}

} // namespace

emulator::RunOutcome
SdkRuntime::State::runDevice(uint64_t maxCycles,
                             const std::function<bool()> &until) {
  if (streams.empty())
    return device->run(maxCycles, until);
  // A condition disables the emulator's skipping of idle stretches, which
  // changes its speed but not a cycle count.
  bool serviced = false; // at this cycle boundary already
  auto step = [&] {
    if (!serviced)
      serviceStreams();
    serviced = false;
    return until && until();
  };
  emulator::RunOutcome total;
  while (true) {
    emulator::RunOutcome outcome = device->run(maxCycles - total.cycles, step);
    total.cycles += outcome.cycles;
    total.status = outcome.status;
    // The emulator calls a cycle without moves a stall, but the host may
    // still put a word in or take one out after it.
    if (outcome.status != emulator::RunStatus::Stalled || !serviceStreams())
      return total;
    serviced = true;
  }
}

bool SdkRuntime::State::serviceStreams() {
  // One request for every stream: a word into each input stream's port,
  // every word out of each output stream's exit.
  std::vector<EdgeInjection> injections;
  std::vector<StreamState *> sending;
  std::vector<EdgePoll> polls;
  std::vector<StreamState *> receiving;
  for (StreamState &stream : streams) {
    const emulator::HostStream &info = *stream.info;
    if (!info.output) {
      if (stream.toSend.empty())
        continue;
      injections.push_back({info.x,
                            info.y,
                            info.port,
                            {stream.toSend.front(), info.color, false, 0}});
      sending.push_back(&stream);
      continue;
    }
    // Drained whether or not a receive waits, so that a program may send
    // before the host asks.
    polls.push_back({info.x, info.y, info.port, info.color});
    receiving.push_back(&stream);
  }
  std::vector<uint8_t> injected;
  std::vector<std::vector<emulator::Wavelet>> polled;
  device->serviceEdges(injections, polls, injected, polled);
  bool moved = false;
  for (size_t i = 0; i < sending.size(); ++i) {
    if (!injected[i])
      continue;
    StreamState &stream = *sending[i];
    moved = true;
    stream.toSend.pop_front();
    StreamOp &op = stream.ops.front();
    if (++op.done == op.count)
      stream.ops.pop_front();
  }
  for (size_t i = 0; i < receiving.size(); ++i) {
    StreamState &stream = *receiving[i];
    for (const emulator::Wavelet &w : polled[i]) {
      moved = true;
      // Control wavelets steer routers on the way (a mux advancing its
      // switch, say); the host takes data only, as the SDK's streams do.
      if (!w.control)
        stream.arrived.push_back(w.payload);
    }
    fillReceives(stream);
  }
  return moved;
}

std::string
SdkRuntime::State::describePending(const StreamState &stream) const {
  uint64_t total = 0, left = 0;
  for (const StreamOp &op : stream.ops) {
    total += op.count;
    left += op.count - op.done;
  }
  return formatThousands(left) + " of " + formatThousands(total) +
         " words not yet " +
         (stream.info->output ? "arrived" : "taken by the fabric");
}

void SdkRuntime::State::waitFor(const std::string &why, uint64_t handle) {
  runUntil(
      why, [&] { return !isPending(handle); },
      [&] {
        std::string text;
        for (const StreamState &stream : streams)
          for (const StreamOp &op : stream.ops)
            if (op.handle == handle)
              text = describePending(stream);
        return text;
      });
}

std::string SdkRuntime::State::describeAllPending() const {
  std::string text;
  for (const StreamState &stream : streams)
    if (!stream.ops.empty())
      text += (text.empty() ? "" : "; ") +
              std::string(stream.info->output ? "receive on " : "send on ") +
              streamName(stream) + ": " + describePending(stream);
  return text;
}

void SdkRuntime::State::finishStreams() {
  if (describeAllPending().empty())
    return;
  try {
    runUntil(
        "stop", [&] { return describeAllPending().empty(); },
        [&] { return describeAllPending(); });
  } catch (const HostError &) {
    // Stopped all the same: no receive may write its array later.
    for (StreamState &stream : streams) {
      stream.ops.clear();
      stream.toSend.clear();
    }
    throw;
  }
}

bool SdkRuntime::State::isPending(uint64_t handle) const {
  for (const StreamState &stream : streams)
    for (const StreamOp &op : stream.ops)
      if (op.handle == handle)
        return true;
  return false;
}

TaskHandle SdkRuntime::send(uint32_t id, std::span<const uint32_t> words,
                            bool nonblock) {
  State &s = *state;
  s.requireRunning("send");
  StreamState &stream = streamOf(s, "send", id, false);
  uint64_t handle = s.nextHandle++;
  if (words.empty())
    return {handle};
  stream.toSend.insert(stream.toSend.end(), words.begin(), words.end());
  stream.ops.push_back({handle, words.size(), 0, nullptr, nullptr});
  if (!nonblock)
    waitOrDrop(s, stream, handle, "send on " + streamName(stream));
  return {handle};
}

TaskHandle SdkRuntime::receive(uint32_t id, std::span<uint32_t> out,
                               bool nonblock) {
  return receiveInto(*state, id, out, nonblock);
}

TaskHandle SdkRuntime::receive(uint32_t id, std::span<uint16_t> out,
                               bool nonblock) {
  return receiveInto(*state, id, out, nonblock);
}

size_t SdkRuntime::getNumStreams() const {
  return state->output.metadata.hostStreams.size();
}
