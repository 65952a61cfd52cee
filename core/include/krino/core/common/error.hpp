#pragma once
// Errors raised inside core. The kind decides the process exit code (docs/cli.md).
#include <stdexcept>
#include <string>

namespace krino::core {

enum class ErrorKind {
  usage,          // bad command line
  configuration,  // bad experiment file, unknown component, invalid options
  runtime         // the run could not proceed (dataset unreadable, reporter failed)
};

class KrinoError : public std::runtime_error {
 public:
  KrinoError(ErrorKind kind, const std::string& message) : std::runtime_error(message), kind_(kind) {}
  ErrorKind kind() const noexcept { return kind_; }

 private:
  ErrorKind kind_;
};

inline KrinoError config_error(const std::string& message) { return KrinoError(ErrorKind::configuration, message); }
inline KrinoError runtime_error(const std::string& message) { return KrinoError(ErrorKind::runtime, message); }
inline KrinoError usage_error(const std::string& message) { return KrinoError(ErrorKind::usage, message); }

}  // namespace krino::core
