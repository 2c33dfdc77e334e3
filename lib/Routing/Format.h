//===- Format.h - pieces of the routing library's messages ------*- C++ -*-===//

#ifndef TESSERA_LIB_ROUTING_FORMAT_H
#define TESSERA_LIB_ROUTING_FORMAT_H

#include <string>
#include <vector>

namespace tessera::routing {

/// "'a'", "'a' and 'b'", "'a', 'b' and 'c'".
inline std::string quoteNames(const std::vector<std::string> &names) {
  std::string text;
  for (size_t i = 0; i < names.size(); ++i) {
    if (i > 0)
      text += i + 1 == names.size() ? " and " : ", ";
    text += "'" + names[i] + "'";
  }
  return text;
}

/// "flow 'a'", "flows 'a' and 'b'".
inline std::string formatFlowNames(const std::vector<std::string> &names) {
  return (names.size() == 1 ? "flow " : "flows ") + quoteNames(names);
}

/// "1 flow", "3 flows".
inline std::string formatCount(long count, const std::string &noun) {
  return std::to_string(count) + " " + noun + (count == 1 ? "" : "s");
}

/// "the 4x3 mesh".
inline std::string formatMesh(int width, int height) {
  return "the " + std::to_string(width) + "x" + std::to_string(height) +
         " mesh";
}

} // namespace tessera::routing

#endif // TESSERA_LIB_ROUTING_FORMAT_H
