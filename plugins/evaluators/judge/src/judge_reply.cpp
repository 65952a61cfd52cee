#include "judge_reply.h"

#include <cctype>
#include <vector>

namespace krino::judge {
namespace {

namespace json = boost::json;

// Each candidate is parsed from its opening bracket; a reply full of stray braces must not make the
// scan quadratic without bound.
constexpr int kMaxCandidates = 64;

std::string_view trim(std::string_view s) {
  auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; };
  while (!s.empty() && space(s.front())) s.remove_prefix(1);
  while (!s.empty() && space(s.back())) s.remove_suffix(1);
  return s;
}

std::optional<json::value> parse_lenient(std::string_view text, boost::system::error_code& ec) {
  json::parse_options options;
  options.allow_comments = true;
  options.allow_trailing_commas = true;
  json::value v = json::parse(text, ec, {}, options);
  if (ec) return std::nullopt;
  return v;
}

// One past the bracket closing the one at `start`, skipping brackets inside strings.
std::optional<std::size_t> balanced_end(std::string_view text, std::size_t start) {
  int depth = 0;
  bool in_string = false;
  for (std::size_t i = start; i < text.size(); ++i) {
    const char c = text[i];
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

// The bodies of ``` fenced blocks, in order; an unclosed fence (a truncated reply) runs to the end.
std::vector<std::string_view> fenced_blocks(std::string_view text) {
  std::vector<std::string_view> blocks;
  std::size_t pos = 0;
  while ((pos = text.find("```", pos)) != std::string_view::npos) {
    std::size_t body = pos + 3;
    while (body < text.size() && (std::isalnum(static_cast<unsigned char>(text[body])) != 0 || text[body] == '_' ||
                                  text[body] == '-' || text[body] == '+'))
      ++body;  // a language tag: json, JSON, jsonc
    const std::size_t close = text.find("```", body);
    if (close == std::string_view::npos) {
      blocks.push_back(text.substr(body));
      break;
    }
    blocks.push_back(text.substr(body, close - body));
    pos = close + 3;
  }
  return blocks;
}

class Extraction {
 public:
  explicit Extraction(std::string_view array_key) : array_key_(array_key) {}

  // The value in `text` when all of it is JSON of a wanted shape.
  std::optional<json::object> whole(std::string_view text) {
    boost::system::error_code ec;
    std::optional<json::value> v = parse_lenient(text, ec);
    if (!v) {
      note("the JSON in the reply does not parse (" + ec.message() + ")");
      return std::nullopt;
    }
    return shaped(std::move(*v));
  }

  // The first balanced value of a wanted shape in `text` that parses.
  std::optional<json::object> scan(std::string_view text) {
    for (std::size_t start = 0; start < text.size() && candidates_ < kMaxCandidates; ++start) {
      if (text[start] != '{' && !(text[start] == '[' && !array_key_.empty())) continue;
      ++candidates_;
      const std::optional<std::size_t> end = balanced_end(text, start);
      if (!end) {
        note("the JSON in the reply is cut off before its end");
        continue;
      }
      if (std::optional<json::object> found = whole(text.substr(start, *end - start))) return found;
    }
    return std::nullopt;
  }

  std::string failure(std::string_view reply) const {
    if (!first_failure_.empty()) return first_failure_;
    if (trim(reply).empty()) return "the reply is empty";
    return "the reply holds no JSON object";
  }

 private:
  std::optional<json::object> shaped(json::value v) {
    if (v.is_object()) return std::move(v.as_object());
    if (v.is_array() && !array_key_.empty()) {
      json::object wrapped;
      wrapped[array_key_] = std::move(v);
      return wrapped;
    }
    note(v.is_array() ? "the reply is a JSON array, not an object" : "the reply is not a JSON object");
    return std::nullopt;
  }

  void note(std::string why) {
    if (first_failure_.empty()) first_failure_ = std::move(why);
  }

  std::string_view array_key_;
  int candidates_ = 0;
  std::string first_failure_;
};

}  // namespace

ReplyJson extract_reply_object(std::string_view reply, std::string_view array_key) {
  Extraction extraction(array_key);
  const std::string_view text = trim(reply);
  if (!text.empty()) {
    {
      // The plain reply first, without recording why it failed: prose around JSON is the common case.
      boost::system::error_code ec;
      if (std::optional<json::value> v = parse_lenient(text, ec)) {
        if (v->is_object()) return {std::move(v->as_object()), {}};
        if (v->is_array() && !array_key.empty()) {
          json::object wrapped;
          wrapped[array_key] = std::move(*v);
          return {std::move(wrapped), {}};
        }
      }
    }
    const std::vector<std::string_view> blocks = fenced_blocks(text);
    for (std::string_view block : blocks)
      if (std::optional<json::object> found = extraction.whole(trim(block))) return {std::move(found), {}};
    for (std::string_view block : blocks)
      if (std::optional<json::object> found = extraction.scan(block)) return {std::move(found), {}};
    if (std::optional<json::object> found = extraction.scan(text)) return {std::move(found), {}};
  }
  return {std::nullopt, extraction.failure(reply)};
}

std::string reply_excerpt(std::string_view reply, std::size_t limit) {
  if (reply.size() <= limit) return std::string(reply);
  std::size_t cut = limit;
  while (cut > 0 && (static_cast<unsigned char>(reply[cut]) & 0xC0) == 0x80) --cut;  // not inside a UTF-8 sequence
  return std::string(reply.substr(0, cut)) + "...";
}

}  // namespace krino::judge
