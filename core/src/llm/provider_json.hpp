#pragma once
// Small readers for provider answers, which are JSON of a known shape that may still be missing
// anything. Internal to the providers.
#include "krino/core/llm/judge_request.hpp"

#include <boost/json.hpp>
#include <krino/json_parse.hpp>
#include <krino/event/values.hpp>
#include <krino/json_text.hpp>

#include <cstdint>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace krino::core::provider_json {

// Whether any message says "json" in any letter case (OpenAI's JSON mode answers 400 unless the prompt
// does). ASCII folding by hand: boost::algorithm::ifind_first consulted the locale's ctype facet per
// character, about 100,000 instructions per judge call on a short prompt, a third of the call's CPU.
inline bool mentions_json(const std::vector<JudgeMessage>& messages) {
  // memchr finds each candidate first letter at memory speed; a prompt of a few KB has few of them.
  for (const auto& message : messages) {
    const char* const end = message.content.data() + message.content.size();
    for (const char first : {'j', 'J'}) {
      const char* at = message.content.data();
      while (end - at >= 4) {
        at = static_cast<const char*>(std::memchr(at, first, static_cast<std::size_t>(end - at - 3)));
        if (at == nullptr) break;
        if ((at[1] | 0x20) == 's' && (at[2] | 0x20) == 'o' && (at[3] | 0x20) == 'n') return true;
        ++at;
      }
    }
  }
  return false;
}

// `memory`: where the reply's nodes go. The readers parse into a stack arena (ReplyArena) since
// a reply's values live only while the reader copies out what it needs.
inline std::optional<boost::json::value> parse(std::string_view body, boost::json::storage_ptr memory = {}) {
  boost::system::error_code error;
  auto value = krino::json::parse(body, error, std::move(memory));
  if (error) return std::nullopt;
  return value;
}

// A reply's nodes in one stack buffer instead of a malloc each (about 10,000 instructions of a
// 300-byte chat completion's 15,000 were the allocator's); larger replies spill to the heap.
struct ReplyArena {
  unsigned char buffer[4096];
  boost::json::monotonic_resource resource{buffer, sizeof buffer};
  boost::json::storage_ptr storage() { return &resource; }
};

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

// wire_number's value as json::serialize writes it, for a body written as text.
inline void append_wire_number(std::string& out, double value) {
  const boost::json::value number = wire_number(value);
  if (number.is_int64()) krino::event::append_integer(out, number.get_int64());
  else out += boost::json::serialize(number);
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
