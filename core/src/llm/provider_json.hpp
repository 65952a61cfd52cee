#pragma once
// Small readers for provider answers, which are JSON of a known shape that may still be missing
// anything. Internal to the providers.
#include "krino/core/llm/judge_request.hpp"

#include <boost/json.hpp>
#include <krino/json_parse.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core::provider_json {

// Whether any message says "json" in any letter case (OpenAI's JSON mode answers 400 unless the prompt
// does). ASCII folding by hand: boost::algorithm::ifind_first consulted the locale's ctype facet per
// character, about 100,000 instructions per judge call on a short prompt, a third of the call's CPU.
inline bool mentions_json(const std::vector<JudgeMessage>& messages) {
  constexpr std::string_view word = "json";
  for (const auto& message : messages) {
    const std::string_view text = message.content;
    for (std::size_t at = 0; at + word.size() <= text.size(); ++at) {
      std::size_t i = 0;
      while (i < word.size() && (text[at + i] | 0x20) == word[i]) ++i;
      if (i == word.size()) return true;
    }
  }
  return false;
}

inline std::optional<boost::json::value> parse(std::string_view body) {
  boost::system::error_code error;
  auto value = krino::json::parse(body, error);
  if (error) return std::nullopt;
  return value;
}

inline const boost::json::value* field(const boost::json::value* value, std::string_view key) {
  if (value == nullptr || !value->is_object()) return nullptr;
  auto it = value->get_object().find(key);
  return it == value->get_object().end() ? nullptr : &it->value();
}

inline std::optional<std::string> text(const boost::json::value* value) {
  if (value == nullptr || !value->is_string()) return std::nullopt;
  return std::string(value->get_string());
}

inline std::optional<std::uint64_t> count(const boost::json::value* value) {
  if (value == nullptr) return std::nullopt;
  if (value->is_uint64()) return value->get_uint64();
  if (value->is_int64() && value->get_int64() >= 0) return static_cast<std::uint64_t>(value->get_int64());
  return std::nullopt;
}

// A whole number as an integer (0, not 0E0, which is how Boost.JSON writes a double): easier to read
// in recorded requests, and the same bytes whatever the config's number type was.
inline boost::json::value wire_number(double value) {
  if (value > -1e15 && value < 1e15 && value == static_cast<double>(static_cast<std::int64_t>(value))) return static_cast<std::int64_t>(value);
  return value;
}

// Puts the JSON instruction into the system prompt: appended to the first system message, or as a
// new first message when there is none.
inline void add_json_instruction(std::vector<JudgeMessage>& messages, std::string_view instruction) {
  for (auto& message : messages) {
    if (message.role == "system") {
      message.content += "\n\n";
      message.content += instruction;
      return;
    }
  }
  messages.insert(messages.begin(), JudgeMessage{"system", std::string(instruction)});
}

}  // namespace krino::core::provider_json
