//===- Expected.h - errors as returned values -------------------*- C++ -*-===//
//
// The visualisation library reports bad input as a value carrying the whole
// message a user reads, never as an exception or an assert.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_VIZ_EXPECTED_H
#define TESSERA_VIZ_EXPECTED_H

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace tessera::viz {

/// A failure: the message (lowercase, no trailing period).
class Error {
public:
  explicit Error(std::string message) : text(std::move(message)) {}
  const std::string &message() const { return text; }

private:
  std::string text;
};

/// A value or the Error that prevented it; test it before dereferencing.
template <typename T> class [[nodiscard]] Expected {
public:
  Expected(T value) : storage(std::in_place_index<0>, std::move(value)) {}
  Expected(Error failure)
      : storage(std::in_place_index<1>, std::move(failure)) {}

  explicit operator bool() const { return storage.index() == 0; }

  T &operator*() { return *std::get_if<0>(&storage); }
  const T &operator*() const { return *std::get_if<0>(&storage); }
  T *operator->() { return std::get_if<0>(&storage); }
  const T *operator->() const { return std::get_if<0>(&storage); }

  /// The failure's message; empty on success.
  const std::string &error() const {
    static const std::string none;
    const Error *failure = std::get_if<1>(&storage);
    return failure ? failure->message() : none;
  }

private:
  std::variant<T, Error> storage;
};

/// What an operation without a result returns.
class [[nodiscard]] Status {
public:
  Status() = default;
  Status(Error failure) : failure(std::move(failure)) {}

  explicit operator bool() const { return !failure; }

  const std::string &error() const {
    static const std::string none;
    return failure ? failure->message() : none;
  }

private:
  std::optional<Error> failure;
};

} // namespace tessera::viz

#endif // TESSERA_VIZ_EXPECTED_H
