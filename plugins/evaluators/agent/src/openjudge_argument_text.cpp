#include "openjudge_argument_text.h"

#include <krino/json_parse.hpp>

#include <limits>
#include <string>
#include <vector>

namespace krino::agent::openjudge {

namespace {

constexpr std::string_view kNan = "NaN";
constexpr std::string_view kInfinity = "Infinity";
constexpr std::string_view kNegativeInfinity = "-Infinity";

bool python_constant(std::string_view token) {
  return token == kNan || token == kInfinity || token == kNegativeInfinity;
}

// The text with each of Python's constants NaN, Infinity and -Infinity outside strings, which
// json.loads() accepts and JSON does not, replaced by a placeholder double of the same token
// count, and the number tokens of the original (constants included), in document order. A
// constant glued to other characters ("-NaN", "NaNx") is left alone, so the text stays invalid
// as it is for Python.
struct NumberTokens {
  std::string text;  // empty when nothing was replaced: parse the original
  std::vector<std::string_view> tokens;
};

bool word_character(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '+' || c == '.'; }

NumberTokens number_tokens(std::string_view text) {
  NumberTokens out;
  std::size_t copied = 0;  // of `text`, into out.text (once a constant was seen)
  const auto constant_at = [&](std::size_t i) -> std::string_view {
    for (std::string_view constant : {kNegativeInfinity, kInfinity, kNan}) {
      if (text.compare(i, constant.size(), constant) != 0) continue;
      const std::size_t after = i + constant.size();
      const bool glued_before = i > 0 && word_character(text[i - 1]);
      const bool glued_after = after < text.size() && word_character(text[after]);
      if (!glued_before && !glued_after) return text.substr(i, constant.size());
    }
    return {};
  };
  for (std::size_t i = 0; i < text.size();) {
    const char c = text[i];
    if (c == '"') {
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
      ++i;
    } else if (const std::string_view constant = constant_at(i); !constant.empty()) {
      out.text.append(text.substr(copied, i - copied)).append("0.0");
      copied = i + constant.size();
      out.tokens.push_back(constant);
      i = copied;
    } else if (c == '-' || (c >= '0' && c <= '9')) {
      const std::size_t start = i;
      while (i < text.size() && (text[i] == '-' || text[i] == '+' || text[i] == '.' || text[i] == 'e' ||
                                 text[i] == 'E' || (text[i] >= '0' && text[i] <= '9')))
        ++i;
      out.tokens.push_back(text.substr(start, i - start));
    } else {
      ++i;
    }
  }
  if (copied > 0) out.text.append(text.substr(copied));
  return out;
}

double constant_value(std::string_view token) {
  if (token == kNan) return std::numeric_limits<double>::quiet_NaN();
  return token == kInfinity ? std::numeric_limits<double>::infinity() : -std::numeric_limits<double>::infinity();
}

// Walks `value` in document order alongside the number tokens of the original text and puts each
// Python constant back where its placeholder 0.0 was read. Returns false when the tokens and the
// numbers do not line up (duplicate keys).
bool restore_constants(boost::json::value& value, const std::vector<std::string_view>& tokens, std::size_t& next) {
  switch (value.kind()) {
    case boost::json::kind::int64:
    case boost::json::kind::uint64:
      return next++ < tokens.size();
    case boost::json::kind::double_: {
      if (next >= tokens.size()) return false;
      const std::string_view token = tokens[next++];
      if (python_constant(token)) value = constant_value(token);
      return true;
    }
    case boost::json::kind::array:
      for (auto& item : value.get_array())
        if (!restore_constants(item, tokens, next)) return false;
      return true;
    case boost::json::kind::object:
      for (auto& member : value.get_object())
        if (!restore_constants(member.value(), tokens, next)) return false;
      return true;
    default:
      return true;
  }
}

bool has_python_constant(const std::vector<std::string_view>& tokens) {
  for (std::string_view token : tokens)
    if (python_constant(token)) return true;
  return false;
}

}  // namespace

std::optional<boost::json::value> parse_argument_text(std::string_view text) {
  boost::system::error_code ec;
  // Without an N or an I there is no NaN or Infinity to put back: one parse, no token scan.
  if (text.find_first_of("NI") == std::string_view::npos) {
    boost::json::value value = krino::json::parse(text, ec);
    if (ec) return std::nullopt;
    return value;
  }
  const NumberTokens numbers = number_tokens(text);
  boost::json::value value = krino::json::parse(numbers.text.empty() ? text : std::string_view(numbers.text), ec);
  if (ec) return std::nullopt;
  if (!has_python_constant(numbers.tokens)) return value;
  std::size_t next = 0;
  if (restore_constants(value, numbers.tokens, next) && next == numbers.tokens.size()) return value;
  // Tokens and values out of step (duplicate keys): the placeholders cannot be told apart, so a
  // text with constants is refused rather than read with a 0.0 where Python has NaN.
  return std::nullopt;
}

}  // namespace krino::agent::openjudge
