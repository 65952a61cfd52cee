// Finding the JSON value a language model was asked for in the text it actually wrote. Models wrap
// it in code fences, open with "Here is my evaluation:" or close with a remark; none of that should
// cost a usable answer. Header-only, C++17; used by the host's judge service and by judge plugins,
// so both read a reply the same way.
#ifndef KRINO_JSON_EXTRACT_HPP
#define KRINO_JSON_EXTRACT_HPP

#include <krino/json_parse.hpp>
#include <krino/utf8.hpp>

#include <boost/json.hpp>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace krino::json {

enum class JsonShape { object, array, object_or_array };

struct JsonExtraction {
  std::optional<boost::json::value> value;
  std::string failure;  // when there is no value: why, in words fit for an error message
};

namespace detail {


// Each candidate is parsed from its opening bracket; a reply full of stray braces must not make this
// quadratic without bound.
inline constexpr int kMaxCandidates = 64;

inline std::string_view shape_name(JsonShape shape) {
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

inline std::string_view kind_name(const boost::json::value& v) {
  switch (v.kind()) {
    case boost::json::kind::object:
      return "a JSON object";
    case boost::json::kind::array:
      return "a JSON array";
    case boost::json::kind::string:
      return "a JSON string";
    case boost::json::kind::bool_:
      return "a JSON boolean";
    case boost::json::kind::null:
      return "JSON null";
    default:
      return "a JSON number";
  }
}

inline bool has_shape(const boost::json::value& v, JsonShape shape) {
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

inline bool is_opener(char c, JsonShape shape) {
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

inline std::string_view trim(std::string_view s) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

inline std::optional<boost::json::value> parse_lenient(std::string_view text, boost::system::error_code* error = nullptr) {
  boost::json::parse_options options;
  options.allow_comments = true;
  options.allow_trailing_commas = true;
  boost::system::error_code ec;
  boost::json::value v = krino::json::parse(text, ec, {}, options);
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
  std::optional<boost::json::value> parse(std::string_view text) {
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
  std::optional<boost::json::value> scan(std::string_view text) {
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
inline std::vector<std::string_view> fenced_blocks(std::string_view text) {
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

}  // namespace detail

// The JSON value in `reply`, tried in this order: the whole reply; each ``` fenced block (with or
// without a language tag); the first balanced top-level value of the wanted shape in the text,
// respecting strings and escapes. Comments and trailing commas are tolerated. Only a value of the
// wanted shape counts.
inline JsonExtraction extract_json(std::string_view reply, JsonShape shape = JsonShape::object) {
  detail::Attempts attempts(shape);
  std::string_view whole = detail::trim(reply);
  if (!whole.empty()) {
    // Plain JSON first. A reply that is JSON of another shape (a bare number, say) is remembered as
    // the reason only if nothing of the right shape turns up around it.
    std::optional<std::string> wrong_shape;
    if (auto v = detail::parse_lenient(whole)) {
      if (detail::has_shape(*v, shape)) return {std::move(v), {}};
      wrong_shape = "the reply is " + std::string(detail::kind_name(*v)) + ", not a " + std::string(detail::shape_name(shape));
    }
    for (std::string_view block : detail::fenced_blocks(whole)) {
      if (auto v = attempts.parse(detail::trim(block))) return {std::move(v), {}};
    }
    for (std::string_view block : detail::fenced_blocks(whole)) {
      if (auto v = attempts.scan(block)) return {std::move(v), {}};
    }
    if (auto v = attempts.scan(whole)) return {std::move(v), {}};
    if (!attempts.failed() && wrong_shape) return {std::nullopt, *wrong_shape};
  }
  return {std::nullopt, attempts.failure(reply)};
}


// The start of `reply` for an error message: at most `limit` bytes, cut on a UTF-8 boundary, made
// valid UTF-8, with "..." when cut (utf8::excerpt).
inline std::string reply_excerpt(std::string_view reply, std::size_t limit = 200) { return utf8::excerpt(reply, limit); }

}  // namespace krino::json

#endif  // KRINO_JSON_EXTRACT_HPP
