#pragma once
// The host's one error convention (docs/architecture.md, "Errors"):
//  - while configuring (reading the experiment, loading plugins, creating components), a problem
//    throws KrinoError (common/error.hpp): nothing has run, and the command exits with its kind;
//  - while running, an operation that can fail returns a Status (done, or a krino_status code and a
//    message) or a StatusOr<T> (the value, or why there is none). An item's failure is a StatusOr
//    whose error is an ItemError (common/item_error.hpp): the same code and message, plus where.
// The codes are the ABI's (krino_status), so a plugin's status passes through unchanged.
#include <krino/plugin.h>

#include <string>
#include <utility>
#include <variant>

namespace krino::core {

struct Status {
  krino_status code = KRINO_OK;
  std::string message;  // empty when ok

  static Status ok_status() { return Status{}; }
  bool ok() const { return code == KRINO_OK; }
};

inline Status error_status(krino_status code, std::string message) { return Status{code, std::move(message)}; }

// The value, or the error that stopped it. It is a std::variant<T, E>, so std::get_if and
// std::holds_alternative work on it as well as the members below.
template <class T, class E = Status>
class StatusOr : public std::variant<T, E> {
 public:
  using std::variant<T, E>::variant;

  bool ok() const { return this->index() == 0; }
  T& value() & { return std::get<0>(*this); }
  const T& value() const& { return std::get<0>(*this); }
  T&& value() && { return std::get<0>(std::move(*this)); }
  E& error() & { return std::get<1>(*this); }
  const E& error() const& { return std::get<1>(*this); }
  E&& error() && { return std::get<1>(std::move(*this)); }
};

}  // namespace krino::core
