//===- SolutionReader.h - read a solution file back -------------*- C++ -*-===//
//
// The checker's reader of the format writeSolution prints. It only checks
// the syntax and resolves kernel names against the graph; what the values
// mean is the checker's business.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_PLACEMENT_SOLUTIONREADER_H
#define TESSERA_PLACEMENT_SOLUTIONREADER_H

#include "tessera/Placement/KernelGraph.h"

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::placement {

/// `kN = kind(name=value ...)`: values are numbers or lists of numbers.
struct SolutionDefinition {
  std::string label, kind;
  std::map<std::string, std::vector<int64_t>> arguments;
  std::map<std::string, bool> isList;
  int line = 0;
};

/// `kN : place(x y R0|R90)`.
struct SolutionPlacement {
  std::string label;
  int64_t x = 0, y = 0;
  bool rotated = false;
  int line = 0;
};

struct SolutionText {
  std::vector<SolutionDefinition> definitions;
  std::vector<SolutionPlacement> placements;
};

struct SolutionTextOrError {
  std::optional<SolutionText> solution;
  std::string error; ///< `FILE:LINE: error: MESSAGE`.
};

SolutionTextOrError parseSolutionText(std::string_view text,
                                      std::string_view fileName);

} // namespace tessera::placement

#endif // TESSERA_PLACEMENT_SOLUTIONREADER_H
