#include "krino/core/judge/reply_parsing.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/parse_options.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <vector>

namespace krino::core {
namespace {

namespace json = boost::json;

// Each candidate is parsed from its opening bracket; a reply full of stray braces must not make this
// quadratic without bound.
constexpr int kMaxCandidates = 64;

std::string_view shape_name(JsonShape shape) {
  switch (shape) {
    case JsonShape::object:
      return "JSON object";
    case JsonShape::array:
      return "JSON array";
    case JsonShape::object_or_array:
      break;
  }
  return "JSON object or array";
}

std::string_view kind_name(const json::value& v) {
  switch (v.kind()) {
    case json::kind::object:
      return "a JSON object";
    case json::kind::array:
      return "a JSON array";
    case json::kind::string:
      return "a JSON string";
    case json::kind::bool_:
      return "a JSON boolean";
    case json::kind::null:
      return "JSON null";
    default:
      return "a JSON number";
  }
}

bool has_shape(const json::value& v, JsonShape shape) {
  switch (shape) {
    case JsonShape::object:
      return v.is_object();
    case JsonShape::array:
      return v.is_array();
    case JsonShape::object_or_array:
      break;
  }
  return v.is_object() || v.is_array();
}

bool is_opener(char c, JsonShape shape) {
  switch (shape) {
    case JsonShape::object:
      return c == '{';
    case JsonShape::array:
      return c == '[';
    case JsonShape::object_or_array:
      break;
  }
  return c == '{' || c == '[';
}

std::string_view trim(std::string_view s) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

std::optional<json::value> parse_lenient(std::string_view text, boost::system::error_code* error = nullptr) {
  json::parse_options options;
  options.allow_comments = true;
  options.allow_trailing_commas = true;
  boost::system::error_code ec;
  json::value v = json::parse(text, ec, {}, options);
  if (ec) {
    if (error) *error = ec;
    return std::nullopt;
  }
  return v;
}

// Remembers the first thing that went wrong, which best explains a failure.
class Attempts {
 public:
  explicit Attempts(JsonShape shape) : shape_(shape) {}

  // The value in `text` if all of it is JSON of the wanted shape.
  std::optional<json::value> parse(std::string_view text) {
    boost::system::error_code ec;
    auto v = parse_lenient(text, &ec);
    if (!v) {
      note("the " + std::string(shape_name(shape_)) + " in the reply does not parse (" + ec.message() + ")");
      return std::nullopt;
    }
    if (!has_shape(*v, shape_)) {
      note("the reply is " + std::string(kind_name(*v)) + ", not a " + std::string(shape_name(shape_)));
      return std::nullopt;
    }
    return v;
  }

  // The first balanced value of the wanted shape in `text` that parses.
  std::optional<json::value> scan(std::string_view text) {
    for (size_t start = 0; start < text.size() && candidates_ < kMaxCandidates; ++start) {
      if (!is_opener(text[start], shape_)) continue;
      ++candidates_;
      auto end = balanced_end(text, start);
      if (!end) {
        note("the " + std::string(shape_name(shape_)) + " in the reply is cut off before its end");
        continue;
      }
      if (auto v = parse(text.substr(start, *end - start))) return v;
    }
    return std::nullopt;
  }

  bool failed() const { return !first_failure_.empty(); }

  std::string failure(std::string_view reply) const {
    if (!first_failure_.empty()) return first_failure_;
    if (trim(reply).empty()) return "the reply is empty";
    return "the reply holds no " + std::string(shape_name(shape_));
  }

 private:
  // One past the bracket that closes the one at `start`, skipping brackets inside strings.
  static std::optional<size_t> balanced_end(std::string_view text, size_t start) {
    int depth = 0;
    bool in_string = false;
    for (size_t i = start; i < text.size(); ++i) {
      char c = text[i];
      if (in_string) {
        if (c == '\\') ++i;
        else if (c == '"') in_string = false;
      } else if (c == '"') {
        in_string = true;
      } else if (c == '{' || c == '[') {
        ++depth;
      } else if (c == '}' || c == ']') {
        if (--depth == 0) return i + 1;
      }
    }
    return std::nullopt;
  }

  void note(std::string why) {
    if (first_failure_.empty()) first_failure_ = std::move(why);
  }

  JsonShape shape_;
  int candidates_ = 0;
  std::string first_failure_;
};

// The bodies of ``` fenced blocks, in order; an unclosed fence (a truncated reply) runs to the end.
std::vector<std::string_view> fenced_blocks(std::string_view text) {
  std::vector<std::string_view> blocks;
  size_t pos = 0;
  while ((pos = text.find("```", pos)) != std::string_view::npos) {
    size_t body = pos + 3;
    // A language tag ("json", "JSON", "jsonc") is a word right after the fence.
    while (body < text.size() && (std::isalnum(static_cast<unsigned char>(text[body])) || text[body] == '_' ||
                                  text[body] == '-' || text[body] == '+'))
      ++body;
    size_t close = text.find("```", body);
    if (close == std::string_view::npos) {
      blocks.push_back(text.substr(body));
      break;
    }
    blocks.push_back(text.substr(body, close - body));
    pos = close + 3;
  }
  return blocks;
}

}  // namespace

JsonExtraction extract_json(std::string_view reply, JsonShape shape) {
  Attempts attempts(shape);
  std::string_view whole = trim(reply);
  if (!whole.empty()) {
    // Plain JSON first. A reply that is JSON of another shape (a bare number, say) is remembered as
    // the reason only if nothing of the right shape turns up around it.
    std::optional<std::string> wrong_shape;
    if (auto v = parse_lenient(whole)) {
      if (has_shape(*v, shape)) return {std::move(v), {}};
      wrong_shape = "the reply is " + std::string(kind_name(*v)) + ", not a " + std::string(shape_name(shape));
    }
    for (std::string_view block : fenced_blocks(whole)) {
      if (auto v = attempts.parse(trim(block))) return {std::move(v), {}};
    }
    for (std::string_view block : fenced_blocks(whole)) {
      if (auto v = attempts.scan(block)) return {std::move(v), {}};
    }
    if (auto v = attempts.scan(whole)) return {std::move(v), {}};
    if (!attempts.failed() && wrong_shape) return {std::nullopt, *wrong_shape};
  }
  return {std::nullopt, attempts.failure(reply)};
}

std::string repair_instruction(std::string_view failure, JsonShape shape) {
  std::string message = "I could not read your last reply: ";
  message += failure;
  message += ". Please answer again with the ";
  message += shape_name(shape);
  message += " you were asked for and nothing else: no code fences, no text before or after it.";
  return message;
}

std::optional<std::string> validate_score_range(const ScoreRange& range) {
  if (!std::isfinite(range.min) || !std::isfinite(range.max)) return "the score range must be finite";
  if (range.max <= range.min) return "the score range's max must be greater than its min";
  return std::nullopt;
}

std::optional<double> normalize_score(double raw, const ScoreRange& range) {
  if (!std::isfinite(raw) || validate_score_range(range)) return std::nullopt;
  return std::clamp((raw - range.min) / (range.max - range.min), 0.0, 1.0);
}

}  // namespace krino::core
