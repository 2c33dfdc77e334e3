//===- Expected.h - errors as returned values -------------------*- C++ -*-===//
//
// Libraries that take user input (MemoryX, TesseraViz) report every failure
// as a value, never as an exception or an assert: an Error carries the whole
// message, Expected<T> holds a T or an Error, and Status is what an
// operation without a result returns.
//
//===----------------------------------------------------------------------===//
#ifndef TESSERA_SUPPORT_EXPECTED_H
#define TESSERA_SUPPORT_EXPECTED_H

#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace tessera {

/// A failure with the message a user reads (lowercase, no trailing period).
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

  /// The message of a failure; empty on success.
  const std::string &error() const {
    static const std::string none;
    const Error *failure = std::get_if<1>(&storage);
    return failure ? failure->message() : none;
  }

  /// Moves the failure out, to pass it up as another Expected's error.
  Error takeError() { return std::move(*std::get_if<1>(&storage)); }

private:
  std::variant<T, Error> storage;
};

/// The result of an operation that returns nothing but may fail.
template <> class [[nodiscard]] Expected<void> {
public:
  Expected() = default;
  Expected(Error failure) : failure(std::move(failure)) {}

  explicit operator bool() const { return !failure; }

  const std::string &error() const {
    static const std::string none;
    return failure ? failure->message() : none;
  }

  Error takeError() { return std::move(*failure); }

private:
  std::optional<Error> failure;
};

using Status = Expected<void>;

} // namespace tessera

#endif // TESSERA_SUPPORT_EXPECTED_H
