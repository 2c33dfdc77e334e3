//===- SolutionReader.cpp - read a solution file back ---------------------===//

#include "tessera/Placement/SolutionReader.h"
#include "tessera/Placement/KernelGraphParser.h"

#include <cctype>

namespace tessera::placement {
namespace {

struct SolutionSyntaxError {
  int line;
  std::string message;
};

[[noreturn]] void fail(int line, std::string message) {
  throw SolutionSyntaxError{line, std::move(message)};
}

bool isWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

class LineCursor {
public:
  LineCursor(std::string_view text, int line) : text(text), line(line) {}

  bool atEnd() {
    skipSpace();
    return pos == text.size();
  }
  bool consume(std::string_view token) {
    skipSpace();
    if (text.substr(pos, token.size()) != token)
      return false;
    pos += token.size();
    return true;
  }
  void expect(std::string_view token, std::string_view context) {
    if (!consume(token))
      fail(line, "expected '" + std::string(token) + "' " +
                     std::string(context) + ", found " + describeNext());
  }
  std::string word() {
    skipSpace();
    size_t start = pos;
    while (pos < text.size() && isWordChar(text[pos]))
      ++pos;
    return std::string(text.substr(start, pos - start));
  }
  /// An optionally negative number of at most MaxArgument in magnitude.
  int64_t number(std::string_view what) {
    skipSpace();
    size_t start = pos;
    bool negative = pos < text.size() && text[pos] == '-';
    if (negative)
      ++pos;
    size_t digits = pos;
    while (pos < text.size() &&
           std::isdigit(static_cast<unsigned char>(text[pos])))
      ++pos;
    if (digits == pos || (pos < text.size() && isWordChar(text[pos]))) {
      pos = start;
      fail(line, "expected a number for " + std::string(what) + ", found " +
                     describeNext());
    }
    std::string_view value = text.substr(digits, pos - digits);
    if (value.size() > 10 || std::stoll(std::string(value)) > MaxArgument)
      fail(line, std::string(what) + " is " +
                     std::string(text.substr(start, pos - start)) +
                     ", beyond the largest supported value " +
                     std::to_string(MaxArgument));
    int64_t magnitude = std::stoll(std::string(value));
    return negative ? -magnitude : magnitude;
  }
  std::string describeNext() {
    skipSpace();
    if (pos >= text.size())
      return "the end of the line";
    size_t end = pos;
    if (isWordChar(text[end]))
      while (end < text.size() && isWordChar(text[end]))
        ++end;
    else
      ++end;
    return "'" + std::string(text.substr(pos, end - pos)) + "'";
  }
  int getLine() const { return line; }

private:
  void skipSpace() {
    while (pos < text.size() &&
           std::isspace(static_cast<unsigned char>(text[pos])))
      ++pos;
  }

  std::string_view text;
  size_t pos = 0;
  int line;
};

SolutionDefinition parseDefinition(LineCursor &cursor, std::string label) {
  SolutionDefinition definition;
  definition.label = std::move(label);
  definition.line = cursor.getLine();
  definition.kind = cursor.word();
  if (definition.kind.empty())
    fail(cursor.getLine(),
         "expected a kernel kind after '=', found " + cursor.describeNext());
  cursor.expect("(", "after '" + definition.kind + "'");
  while (!cursor.consume(")")) {
    if (cursor.atEnd())
      fail(cursor.getLine(),
           "expected ')' to close the arguments of " + definition.label);
    std::string name = cursor.word();
    if (name.empty())
      fail(cursor.getLine(),
           "expected an argument name, found " + cursor.describeNext());
    if (cursor.consume("'"))
      name += "'";
    cursor.expect("=", "after '" + name + "'");
    if (definition.arguments.count(name))
      fail(cursor.getLine(), definition.label + " sets '" + name + "' twice");
    std::vector<int64_t> &values = definition.arguments[name];
    definition.isList[name] = cursor.consume("[");
    if (!definition.isList[name]) {
      values.push_back(cursor.number("'" + name + "'"));
      continue;
    }
    while (!cursor.consume("]")) {
      if (cursor.atEnd())
        fail(cursor.getLine(),
             "expected ']' to close the list of '" + name + "'");
      values.push_back(cursor.number("an element of '" + name + "'"));
    }
  }
  if (!cursor.atEnd())
    fail(cursor.getLine(), "unexpected " + cursor.describeNext() +
                               " after the arguments of " + definition.label);
  return definition;
}

SolutionPlacement parsePlacement(LineCursor &cursor, std::string label) {
  SolutionPlacement placement;
  placement.label = std::move(label);
  placement.line = cursor.getLine();
  std::string keyword = cursor.word();
  if (keyword != "place")
    fail(cursor.getLine(),
         "expected 'place' after ':', found '" + keyword + "'");
  cursor.expect("(", "after 'place'");
  placement.x = cursor.number("the column");
  placement.y = cursor.number("the row");
  std::string orientation = cursor.word();
  if (orientation != "R0" && orientation != "R90")
    fail(cursor.getLine(), "expected R0 or R90, found '" + orientation + "'");
  placement.rotated = orientation == "R90";
  cursor.expect(")", "after the orientation");
  if (!cursor.atEnd())
    fail(cursor.getLine(), "unexpected " + cursor.describeNext() +
                               " after the placement of " + placement.label);
  return placement;
}

} // namespace

SolutionTextOrError parseSolutionText(std::string_view text,
                                      std::string_view fileName) {
  SolutionTextOrError result;
  SolutionText solution;
  int lineNumber = 0;
  try {
    size_t start = 0;
    while (start < text.size()) {
      size_t end = text.find('\n', start);
      if (end == std::string_view::npos)
        end = text.size();
      std::string_view line = text.substr(start, end - start);
      start = end + 1;
      ++lineNumber;
      LineCursor cursor(line, lineNumber);
      if (cursor.atEnd())
        continue;
      std::string label = cursor.word();
      if (label.empty())
        fail(lineNumber,
             "expected a kernel name, found " + cursor.describeNext());
      if (cursor.consume("="))
        solution.definitions.push_back(
            parseDefinition(cursor, std::move(label)));
      else if (cursor.consume(":"))
        solution.placements.push_back(parsePlacement(cursor, std::move(label)));
      else
        fail(lineNumber, "expected '=' or ':' after '" + label + "', found " +
                             cursor.describeNext());
    }
  } catch (const SolutionSyntaxError &error) {
    result.error = std::string(fileName) + ":" + std::to_string(error.line) +
                   ": error: " + error.message;
    return result;
  }
  result.solution = std::move(solution);
  return result;
}

} // namespace tessera::placement
