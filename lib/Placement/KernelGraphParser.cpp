//===- KernelGraphParser.cpp - read a kgraph file -------------------------===//
//
// A kgraph is line oriented: `(* ... *)` comments (the first one carries the
// header settings `key=value`, one a line), node definitions
// `kind[N] arg=value ...` and connections
// `kind[N]:port -> kind[M]:port, shape:[a][b][c]`.
//
//===----------------------------------------------------------------------===//

#include "tessera/Placement/KernelGraphParser.h"

#include "StatementCursor.h"

#include <cctype>
#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <sstream>

namespace tessera::placement {
namespace {

/// One statement of a kgraph file.
class Cursor : public StatementCursor {
public:
  Cursor(std::string_view text, int line)
      : StatementCursor(text, line, MaxArgument) {}
};

std::optional<NodeKind> parseKind(std::string_view word) {
  static const std::pair<std::string_view, NodeKind> kinds[] = {
      {"input", NodeKind::Input},   {"output", NodeKind::Output},
      {"conv", NodeKind::Conv},     {"dblock", NodeKind::DBlock},
      {"cblock", NodeKind::CBlock},
  };
  for (const auto &[name, kind] : kinds)
    if (word == name)
      return kind;
  return std::nullopt;
}

/// `kind[N]`: the kind and the number.
std::pair<NodeKind, int> parseNodeReference(Cursor &cursor) {
  std::string before = cursor.describeNext();
  std::string_view word = cursor.word();
  if (word.empty())
    failAt(cursor.getLine(),
           "expected a node definition or a connection, found " + before);
  std::optional<NodeKind> kind = parseKind(word);
  if (!kind)
    failAt(cursor.getLine(), "unknown node kind '" + std::string(word) +
                                 "' (expected input, output, conv, dblock or "
                                 "cblock)");
  cursor.expectAfter("[", word);
  int64_t id = cursor.number("the node number");
  cursor.expectAfter("]", std::to_string(id));
  return {*kind, static_cast<int>(id)};
}

class GraphParser {
public:
  explicit GraphParser(std::string_view fileName) : fileName(fileName) {}

  KernelGraph parse(std::string_view text) {
    int lineNumber = 0;
    bool inComment = false;
    int commentLine = 0;
    size_t start = 0;
    while (start <= text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string_view::npos)
        end = text.size();
      std::string_view line = text.substr(start, end - start);
      if (!line.empty() && line.back() == '\r')
        line.remove_suffix(1);
      ++lineNumber;
      std::string code =
          splitComments(line, lineNumber, inComment, commentLine);
      if (!Cursor(code, lineNumber).atEnd())
        parseStatement(code, lineNumber);
      if (end == text.size())
        break;
      start = end + 1;
    }
    if (inComment)
      failAt(commentLine, "unterminated comment: '(*' without '*)'");
    finish();
    return std::move(graph);
  }

private:
  /// Returns the code of `line` outside comments; header settings found
  /// inside comments are applied on the way.
  std::string splitComments(std::string_view line, int lineNumber,
                            bool &inComment, int &commentLine) {
    std::string code, comment;
    for (size_t i = 0; i < line.size(); ++i) {
      if (!inComment && line.substr(i, 2) == "(*") {
        inComment = true;
        commentLine = lineNumber;
        ++i;
      } else if (inComment && line.substr(i, 2) == "*)") {
        inComment = false;
        applySetting(comment, lineNumber);
        comment.clear();
        ++i;
      } else if (!inComment && line.substr(i, 2) == "*)") {
        failAt(lineNumber, "'*)' without '(*'");
      } else if (inComment) {
        comment += line[i];
      } else {
        code += line[i];
      }
    }
    if (inComment)
      applySetting(comment, lineNumber);
    return code;
  }

  /// `key=value` inside a comment sets a header field; other comment text
  /// is free.
  void applySetting(std::string_view text, int lineNumber) {
    while (!text.empty() && std::isspace(static_cast<unsigned char>(text[0])))
      text.remove_prefix(1);
    while (!text.empty() &&
           std::isspace(static_cast<unsigned char>(text.back())))
      text.remove_suffix(1);
    size_t equals = text.find('=');
    if (equals == std::string_view::npos || equals == 0)
      return;
    std::string key(text.substr(0, equals));
    std::string value(text.substr(equals + 1));
    for (char c : key)
      if (!isWordChar(c))
        return;
    if (key == "test") {
      graph.test = value;
      return;
    }
    static const std::set<std::string> integers = {"width", "height",
                                                   "memlimit"};
    static const std::set<std::string> weights = {"wdeltat", "wlength",
                                                  "wadapter"};
    if (!integers.count(key) && !weights.count(key))
      return;
    if (!seenSettings.insert(key).second)
      failAt(lineNumber, "the header sets '" + key + "' twice");
    if (integers.count(key)) {
      Cursor cursor(value, lineNumber);
      int64_t number = cursor.number("'" + key + "'");
      if (!cursor.atEnd() || number == 0)
        failAt(lineNumber, "expected a positive integer for '" + key +
                               "', found '" + value + "'");
      if (key == "memlimit")
        graph.memLimit = number;
      else if (number > MaxGridSide)
        failAt(lineNumber, "'" + key + "' is " + value +
                               ", more than the largest supported grid side " +
                               std::to_string(MaxGridSide));
      else
        (key == "width" ? graph.gridWidth : graph.gridHeight) = number;
      return;
    }
    double number = 0;
    std::istringstream stream(value);
    stream >> number;
    if (value.empty() || !stream.eof() || stream.fail() || number < 0 ||
        value.find_first_not_of("0123456789.") != std::string::npos)
      failAt(lineNumber, "expected a non-negative number for '" + key +
                             "', found '" + value + "'");
    (key == "wdeltat"   ? graph.weightDeltaT
     : key == "wlength" ? graph.weightLength
                        : graph.weightAdapter) = number;
  }

  void parseStatement(std::string_view code, int lineNumber) {
    Cursor cursor(code, lineNumber);
    auto [kind, id] = parseNodeReference(cursor);
    if (cursor.consume(":"))
      parseConnection(cursor, kind, id);
    else
      parseNode(cursor, kind, id);
  }

  void parseConnection(Cursor &cursor, NodeKind fromKind, int fromId) {
    PendingConnection pending;
    pending.line = cursor.getLine();
    pending.fromKind = fromKind;
    pending.fromId = fromId;
    pending.fromPort = parsePort(cursor);
    cursor.expectAfter("->", pending.fromPort);
    std::tie(pending.toKind, pending.toId) = parseNodeReference(cursor);
    cursor.expectAfter(":", std::to_string(pending.toId) + "]");
    pending.toPort = parsePort(cursor);
    cursor.expectAfter(",", pending.toPort);
    cursor.expectAfter("shape", ",");
    cursor.expectAfter(":", "shape");
    do {
      cursor.expectAfter("[", pending.shape.empty() ? std::string("shape:")
                                                    : std::string("]"));
      pending.shape.push_back(cursor.number("a tensor dimension"));
      cursor.expectAfter("]", std::to_string(pending.shape.back()));
    } while (!cursor.atEnd());
    pending.connection.shape = pending.shape;
    pendingConnections.push_back(std::move(pending));
  }

  std::string parsePort(Cursor &cursor) {
    std::string before = cursor.describeNext();
    std::string port(cursor.word());
    if (port.empty())
      failAt(cursor.getLine(), "expected a port name, found " + before);
    return port;
  }

  void parseNode(Cursor &cursor, NodeKind kind, int id) {
    Node node;
    node.id = id;
    node.kind = kind;
    node.line = cursor.getLine();
    std::string label =
        std::string(getNodeKindName(kind)) + "[" + std::to_string(id) + "]";
    auto previous = nodeLines.find(id);
    if (previous != nodeLines.end())
      failAt(node.line, "node " + std::to_string(id) +
                            " is defined twice (first at line " +
                            std::to_string(previous->second) + ")");
    std::map<std::string, int64_t> numbers;
    while (!cursor.atEnd()) {
      std::string before = cursor.describeNext();
      std::string key(cursor.word());
      if (key.empty())
        failAt(node.line, "expected an argument name, found " + before);
      cursor.expectAfter("=", key);
      if (key == "name") {
        node.name = parseQuoted(cursor);
        continue;
      }
      if (!isKnownArgument(kind, key))
        failAt(node.line, "unknown argument '" + key + "' for " + label +
                              " (expected " +
                              std::string(getExpectedArguments(kind)) + ")");
      if (numbers.count(key) || (key == "n" && !node.dims.empty()))
        failAt(node.line, label + " sets '" + key + "' twice");
      if (key == "n") {
        node.dims = parseList(cursor);
        continue;
      }
      int64_t value = cursor.number("'" + key + "'");
      if (value == 0)
        failAt(node.line, "'" + key + "' of " + label + " must be positive");
      numbers[key] = value;
    }
    for (std::string_view key : getRequiredArguments(kind))
      if (!numbers.count(std::string(key)))
        failAt(node.line,
               label + " lacks the argument '" + std::string(key) + "'");
    auto get = [&](const char *key) { return numbers[key]; };
    if (kind == NodeKind::Conv) {
      node.conv = {get("H"), get("W"), get("R"), get("S"),
                   get("C"), get("K"), get("T")};
      node.hasUnused = numbers.count("U") != 0;
      node.unused = node.hasUnused ? get("U") : 0;
    } else if (kind == NodeKind::DBlock || kind == NodeKind::CBlock) {
      node.F = get("f");
      node.H = get("h");
      node.W = get("w");
      if (node.F % 4 != 0)
        failAt(node.line, label + ": f=" + std::to_string(node.F) +
                              " is not a multiple of 4");
      if (kind == NodeKind::CBlock && (node.H % 2 != 0 || node.W % 2 != 0))
        failAt(node.line, label + ": h=" + std::to_string(node.H) +
                              " and w=" + std::to_string(node.W) +
                              " must be even (the block halves them)");
    }
    nodeLines[id] = node.line;
    graph.nodes.push_back(std::move(node));
  }

  std::string parseQuoted(Cursor &cursor) {
    if (!cursor.consume("'"))
      failAt(cursor.getLine(), "expected a quoted name after 'name=', found " +
                                   cursor.describeNext());
    std::optional<std::string> text = cursor.untilQuote();
    if (!text)
      failAt(cursor.getLine(), "the name has no closing quote");
    return *text;
  }

  std::vector<int64_t> parseList(Cursor &cursor) {
    cursor.expectAfter("[", "n=");
    std::vector<int64_t> values;
    while (!cursor.consume("]")) {
      if (cursor.atEnd())
        failAt(cursor.getLine(), "expected ']' to close the list of 'n'");
      values.push_back(cursor.number("an element of 'n'"));
    }
    return values;
  }

  static bool isKnownArgument(NodeKind kind, std::string_view key) {
    if (key == "name")
      return true;
    switch (kind) {
    case NodeKind::Input:
    case NodeKind::Output:
      return key == "n";
    case NodeKind::Conv:
      return key.size() == 1 && std::string_view("HWRSCKTU").find(key[0]) !=
                                    std::string_view::npos;
    case NodeKind::DBlock:
    case NodeKind::CBlock:
      return key == "f" || key == "h" || key == "w";
    }
    return false;
  }

  static std::string_view getExpectedArguments(NodeKind kind) {
    switch (kind) {
    case NodeKind::Input:
    case NodeKind::Output:
      return "n, name";
    case NodeKind::Conv:
      return "H, W, R, S, C, K, T, U, name";
    case NodeKind::DBlock:
    case NodeKind::CBlock:
      return "f, h, w, name";
    }
    return "";
  }

  static std::vector<std::string_view> getRequiredArguments(NodeKind kind) {
    switch (kind) {
    case NodeKind::Input:
    case NodeKind::Output:
      return {};
    case NodeKind::Conv:
      return {"H", "W", "R", "S", "C", "K", "T"};
    case NodeKind::DBlock:
    case NodeKind::CBlock:
      return {"f", "h", "w"};
    }
    return {};
  }

  /// Resolves connections (they may name nodes defined later) and checks
  /// that the header gave every setting.
  void finish() {
    for (const char *key :
         {"width", "height", "memlimit", "wdeltat", "wlength", "wadapter"})
      if (!seenSettings.count(key))
        failAt(1, std::string("the header does not set '") + key + "'");
    std::map<int, int> indexOf;
    for (int i = 0, e = static_cast<int>(graph.nodes.size()); i < e; ++i)
      indexOf[graph.nodes[i].id] = i;
    for (PendingConnection &pending : pendingConnections) {
      pending.connection.from =
          resolve(indexOf, pending.fromKind, pending.fromId, pending.line);
      pending.connection.to =
          resolve(indexOf, pending.toKind, pending.toId, pending.line);
      pending.connection.fromPort = pending.fromPort;
      pending.connection.toPort = pending.toPort;
      pending.connection.line = pending.line;
      graph.connections.push_back(std::move(pending.connection));
    }
  }

  int resolve(const std::map<int, int> &indexOf, NodeKind kind, int id,
              int line) {
    std::string label =
        std::string(getNodeKindName(kind)) + "[" + std::to_string(id) + "]";
    auto found = indexOf.find(id);
    if (found == indexOf.end())
      failAt(line, "the connection names " + label + ", but no node " +
                       std::to_string(id) + " is defined");
    const Node &node = graph.nodes[found->second];
    if (node.kind != kind)
      failAt(line, "the connection names " + label + ", but node " +
                       std::to_string(id) + " is a " +
                       std::string(getNodeKindName(node.kind)) + " (line " +
                       std::to_string(node.line) + ")");
    return found->second;
  }

  static constexpr int64_t MaxGridSide = 10000;

  struct PendingConnection {
    Connection connection;
    NodeKind fromKind = NodeKind::Input, toKind = NodeKind::Input;
    int fromId = 0, toId = 0;
    std::string fromPort, toPort;
    std::vector<int64_t> shape;
    int line = 0;
  };

  std::string_view fileName;
  KernelGraph graph;
  std::set<std::string> seenSettings;
  std::map<int, int> nodeLines;
  std::vector<PendingConnection> pendingConnections;
};

} // namespace

GraphOrError parseKernelGraph(std::string_view text,
                              std::string_view fileName) {
  GraphOrError result;
  try {
    result.graph = GraphParser(fileName).parse(text);
  } catch (const SyntaxError &error) {
    result.error = std::string(fileName) + ":" + std::to_string(error.line) +
                   ": error: " + error.message;
  }
  return result;
}

GraphOrError readKernelGraph(const std::string &path) {
  std::ifstream stream(path, std::ios::binary);
  if (!stream) {
    GraphOrError result;
    result.error = "cannot read '" + path + "': " + std::strerror(errno);
    return result;
  }
  std::stringstream buffer;
  buffer << stream.rdbuf();
  return parseKernelGraph(buffer.str(), path);
}

} // namespace tessera::placement
