#pragma once
// A number written as a whole token (a JSON number's bytes, a command-line count): the entire text
// must be the number, with nothing before or after it.
#include <charconv>
#include <optional>
#include <string_view>
#include <system_error>

namespace krino::core {

template <class Number>
std::optional<Number> parse_whole_number(std::string_view token) {
  Number value{};
  auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), value);
  if (ec != std::errc() || end != token.data() + token.size()) return std::nullopt;
  return value;
}

}  // namespace krino::core
