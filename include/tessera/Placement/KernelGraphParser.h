//===- KernelGraphParser.h - read a kgraph file -----------------*- C++ -*-===//
//
// Malformed input gets one message `FILE:LINE: error: MESSAGE` naming the
// first problem; the parser never asserts or throws on bad text.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PLACEMENT_KERNELGRAPHPARSER_H
#define TESSERA_PLACEMENT_KERNELGRAPHPARSER_H

#include "tessera/Placement/KernelGraph.h"

#include <optional>
#include <string>
#include <string_view>

namespace tessera::placement {

/// Either a graph or the message that says why there is none.
struct GraphOrError {
  std::optional<KernelGraph> graph;
  std::string error;
};

/// Parses the text of a kgraph; `fileName` only appears in messages.
GraphOrError parseKernelGraph(std::string_view text, std::string_view fileName);

/// Reads and parses the file at `path`.
GraphOrError readKernelGraph(const std::string &path);

/// Formal arguments and execution parameters are at most this large, so
/// that every cost fits in 64 bits.
constexpr int64_t MaxArgument = 1'000'000'000;

} // namespace tessera::placement

#endif // TESSERA_PLACEMENT_KERNELGRAPHPARSER_H
