//===- StatementCursor.h - read position in one line of a text file -*- C++
//-*-===//
//
// Internal to TesseraPlacement: the kgraph parser and the solution reader
// both read line-oriented statements of words, punctuation and numbers, and
// report the first problem with its line.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_LIB_PLACEMENT_STATEMENTCURSOR_H
#define TESSERA_LIB_PLACEMENT_STATEMENTCURSOR_H

#include <cctype>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace tessera::placement {

/// Thrown inside a reader only and caught where it turns into the reader's
/// error value, so nothing escapes the library.
struct SyntaxError {
  int line;
  std::string message;
};

[[noreturn]] inline void failAt(int line, std::string message) {
  throw SyntaxError{line, std::move(message)};
}

inline bool isWordChar(char c) {
  return std::isalnum(static_cast<unsigned char>(c)) || c == '_';
}

/// The text of one statement with a read position.
class StatementCursor {
public:
  /// Numbers larger than this are refused with a message naming `what`.
  StatementCursor(std::string_view text, int line, int64_t maxNumber)
      : text(text), line(line), maxNumber(maxNumber) {}

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
  /// `context` completes "expected 'token' ..., found ...".
  void expect(std::string_view token, std::string_view context) {
    if (!consume(token))
      failAt(line, "expected '" + std::string(token) + "' " +
                       std::string(context) + ", found " + describeNext());
  }
  void expectAfter(std::string_view token, std::string_view previous) {
    expect(token, "after '" + std::string(previous) + "'");
  }
  /// Letters, digits and underscores; empty when none follow.
  std::string_view word() {
    skipSpace();
    size_t start = pos;
    while (pos < text.size() && isWordChar(text[pos]))
      ++pos;
    return text.substr(start, pos - start);
  }
  /// A decimal number, negative only when `allowNegative`.
  int64_t number(std::string_view what, bool allowNegative = false) {
    skipSpace();
    size_t start = pos;
    bool negative = allowNegative && pos < text.size() && text[pos] == '-';
    if (negative)
      ++pos;
    size_t digits = pos;
    while (pos < text.size() &&
           std::isdigit(static_cast<unsigned char>(text[pos])))
      ++pos;
    if (digits == pos || (pos < text.size() && isWordChar(text[pos]))) {
      pos = start;
      failAt(line, "expected a number for " + std::string(what) + ", found " +
                       describeNext());
    }
    std::string_view magnitude = text.substr(digits, pos - digits);
    if (magnitude.size() > 18 ||
        std::stoll(std::string(magnitude)) > maxNumber) {
      std::string range = allowNegative
                              ? ", outside the supported range -" +
                                    std::to_string(maxNumber) + ".." +
                                    std::to_string(maxNumber)
                              : ", more than the largest supported value " +
                                    std::to_string(maxNumber);
      failAt(line, std::string(what) + " is " +
                       std::string(text.substr(start, pos - start)) + range);
    }
    int64_t value = std::stoll(std::string(magnitude));
    return negative ? -value : value;
  }
  /// The next word of the text (or its next character), quoted, for
  /// messages.
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
  /// The text up to the next `'`, which is consumed; nullopt without one.
  std::optional<std::string> untilQuote() {
    size_t end = text.find('\'', pos);
    if (end == std::string_view::npos)
      return std::nullopt;
    std::string result(text.substr(pos, end - pos));
    pos = end + 1;
    return result;
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
  int64_t maxNumber;
};

} // namespace tessera::placement

#endif // TESSERA_LIB_PLACEMENT_STATEMENTCURSOR_H
