//===- SolutionReader.cpp - read a solution file back ---------------------===//

#include "tessera/Placement/SolutionReader.h"
#include "tessera/Placement/KernelGraphParser.h"

#include "StatementCursor.h"

#include <cctype>

namespace tessera::placement {
namespace {

/// One statement of a solution file; placements may be negative.
class LineCursor : public StatementCursor {
public:
  LineCursor(std::string_view text, int line)
      : StatementCursor(text, line, MaxArgument) {}
  int64_t number(std::string_view what) {
    return StatementCursor::number(what, /*allowNegative=*/true);
  }
};

SolutionDefinition parseDefinition(LineCursor &cursor, std::string label) {
  SolutionDefinition definition;
  definition.label = std::move(label);
  definition.line = cursor.getLine();
  definition.kind = cursor.word();
  if (definition.kind.empty())
    failAt(cursor.getLine(),
           "expected a kernel kind after '=', found " + cursor.describeNext());
  cursor.expect("(", "after '" + definition.kind + "'");
  while (!cursor.consume(")")) {
    if (cursor.atEnd())
      failAt(cursor.getLine(),
             "expected ')' to close the arguments of " + definition.label);
    std::string name(cursor.word());
    if (name.empty())
      failAt(cursor.getLine(),
             "expected an argument name, found " + cursor.describeNext());
    if (cursor.consume("'"))
      name += "'";
    cursor.expect("=", "after '" + name + "'");
    if (definition.arguments.count(name))
      failAt(cursor.getLine(), definition.label + " sets '" + name + "' twice");
    std::vector<int64_t> &values = definition.arguments[name];
    definition.isList[name] = cursor.consume("[");
    if (!definition.isList[name]) {
      values.push_back(cursor.number("'" + name + "'"));
      continue;
    }
    while (!cursor.consume("]")) {
      if (cursor.atEnd())
        failAt(cursor.getLine(),
               "expected ']' to close the list of '" + name + "'");
      values.push_back(cursor.number("an element of '" + name + "'"));
    }
  }
  if (!cursor.atEnd())
    failAt(cursor.getLine(), "unexpected " + cursor.describeNext() +
                                 " after the arguments of " + definition.label);
  return definition;
}

SolutionPlacement parsePlacement(LineCursor &cursor, std::string label) {
  SolutionPlacement placement;
  placement.label = std::move(label);
  placement.line = cursor.getLine();
  std::string keyword(cursor.word());
  if (keyword != "place")
    failAt(cursor.getLine(),
           "expected 'place' after ':', found '" + keyword + "'");
  cursor.expect("(", "after 'place'");
  placement.x = cursor.number("the column");
  placement.y = cursor.number("the row");
  std::string orientation(cursor.word());
  if (orientation != "R0" && orientation != "R90")
    failAt(cursor.getLine(), "expected R0 or R90, found '" + orientation + "'");
  placement.rotated = orientation == "R90";
  cursor.expect(")", "after the orientation");
  if (!cursor.atEnd())
    failAt(cursor.getLine(), "unexpected " + cursor.describeNext() +
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
      std::string label(cursor.word());
      if (label.empty())
        failAt(lineNumber,
               "expected a kernel name, found " + cursor.describeNext());
      if (cursor.consume("="))
        solution.definitions.push_back(
            parseDefinition(cursor, std::move(label)));
      else if (cursor.consume(":"))
        solution.placements.push_back(parsePlacement(cursor, std::move(label)));
      else
        failAt(lineNumber, "expected '=' or ':' after '" + label + "', found " +
                               cursor.describeNext());
    }
  } catch (const SyntaxError &error) {
    result.error = std::string(fileName) + ":" + std::to_string(error.line) +
                   ": error: " + error.message;
    return result;
  }
  result.solution = std::move(solution);
  return result;
}

} // namespace tessera::placement
