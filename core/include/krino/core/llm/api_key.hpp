#pragma once
// A judge's API key. It is a type of its own, with no stream operator and no conversion to a string,
// so it cannot be formatted into a message by accident; code that sends it asks for reveal() by name.
// redact() removes it from text that came back from elsewhere (a provider echoing request headers).
#include <string>
#include <string_view>

namespace krino::core {

class ApiKey {
 public:
  ApiKey() = default;
  explicit ApiKey(std::string value) : value_(std::move(value)) {}

  bool empty() const noexcept { return value_.empty(); }
  // Only for building the request that carries it.
  const std::string& reveal() const noexcept { return value_; }
  // `text` with every occurrence of the key, and the value of every "Bearer" or "x-api-key" in it
  // (a provider or proxy echoing request headers), replaced by "[redacted]". Redact before cutting
  // text for a message: a cut through the key leaves a start that no longer matches.
  std::string redact(std::string_view text) const;

 private:
  std::string value_;
};

}  // namespace krino::core
