#pragma once
// Reading a request's query parameters (internal to server_api).
#include "krino/core/http_server/http_exchange.hpp"

#include <charconv>
#include <cstddef>
#include <optional>
#include <string>

namespace krino::core::server_api {

// The whole number `name` in the query, `fallback` when absent; when it is not a whole number from
// `min` to `max`, sets `refusal` to a 400 saying so and returns nullopt.
inline std::optional<std::size_t> whole_query(const http_server::Request& request, const std::string& name, std::size_t fallback,
                                              std::size_t min, std::size_t max, std::optional<http_server::Response>& refusal) {
  const auto text = request.query_value(name);
  if (!text) return fallback;
  std::size_t value = 0;
  const auto [end, ec] = std::from_chars(text->data(), text->data() + text->size(), value);
  if (ec != std::errc() || end != text->data() + text->size() || value < min || value > max) {
    refusal = http_server::error_response(http_server::Status::bad_request, "invalid_request",
                                          name + " must be a whole number from " + std::to_string(min) + " to " + std::to_string(max));
    return std::nullopt;
  }
  return value;
}

}  // namespace krino::core::server_api
