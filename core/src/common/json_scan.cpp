#include "krino/core/common/json_scan.hpp"

#include <boost/json.hpp>
#include <boost/json/basic_parser_impl.hpp>

#include <cstdint>
#include <cstring>

namespace krino::core {
namespace {

using boost::json::error_code;
using boost::json::string_view;

// Accepts everything; the parser itself checks the syntax. Records whether the root is an object.
struct ValidatingHandler {
  static constexpr std::size_t max_object_size = std::size_t(-1);
  static constexpr std::size_t max_array_size = std::size_t(-1);
  static constexpr std::size_t max_key_size = std::size_t(-1);
  static constexpr std::size_t max_string_size = std::size_t(-1);
  bool root_seen = false;
  bool root_is_object = false;

  void value_start(bool object) {
    if (!root_seen) {
      root_seen = true;
      root_is_object = object;
    }
  }
  bool on_document_begin(error_code&) { return true; }
  bool on_document_end(error_code&) { return true; }
  bool on_object_begin(error_code&) { value_start(true); return true; }
  bool on_object_end(std::size_t, error_code&) { return true; }
  bool on_array_begin(error_code&) { value_start(false); return true; }
  bool on_array_end(std::size_t, error_code&) { return true; }
  bool on_key_part(string_view, std::size_t, error_code&) { return true; }
  bool on_key(string_view, std::size_t, error_code&) { return true; }
  bool on_string_part(string_view, std::size_t, error_code&) { return true; }
  bool on_string(string_view, std::size_t, error_code&) { value_start(false); return true; }
  bool on_number_part(string_view, error_code&) { return true; }
  bool on_int64(std::int64_t, string_view, error_code&) { value_start(false); return true; }
  bool on_uint64(std::uint64_t, string_view, error_code&) { value_start(false); return true; }
  bool on_double(double, string_view, error_code&) { value_start(false); return true; }
  bool on_bool(bool, error_code&) { value_start(false); return true; }
  bool on_null(error_code&) { value_start(false); return true; }
  bool on_comment_part(string_view, error_code&) { return true; }
  bool on_comment(string_view, error_code&) { return true; }
};

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Index just past the string token that starts at `i` (at its opening quote). A quote ends the
// string when an even number of backslashes precedes it.
size_t skip_string(std::string_view t, size_t i) {
  size_t from = i + 1;
  while (from < t.size()) {
    const void* hit = std::memchr(t.data() + from, '"', t.size() - from);
    if (hit == nullptr) return t.size();
    const size_t quote = static_cast<size_t>(static_cast<const char*>(hit) - t.data());
    size_t backslashes = 0;
    while (quote - backslashes > i + 1 && t[quote - backslashes - 1] == '\\') ++backslashes;
    if (backslashes % 2 == 0) return quote + 1;
    from = quote + 1;
  }
  return t.size();
}

// Bytes that matter when skipping a container: quotes and brackets.
struct StructuralBytes {
  bool table[256] = {};
  constexpr StructuralBytes() {
    for (unsigned char c : {'"', '{', '}', '[', ']'}) table[c] = true;
  }
};
constexpr StructuralBytes kStructural;

// Index just past the value that starts at `i`.
size_t skip_value(std::string_view t, size_t i) {
  if (i >= t.size()) return i;
  const char first = t[i];
  if (first == '"') return skip_string(t, i);
  if (first == '{' || first == '[') {
    int depth = 0;
    while (i < t.size()) {
      const char c = t[i];
      if (!kStructural.table[static_cast<unsigned char>(c)]) {
        ++i;
      } else if (c == '"') {
        i = skip_string(t, i);
      } else if (c == '{' || c == '[') {
        ++depth;
        ++i;
      } else {
        ++i;
        if (--depth == 0) return i;
      }
    }
    return t.size();
  }
  while (i < t.size() && t[i] != ',' && t[i] != '}' && t[i] != ']' && !is_space(t[i])) ++i;
  return i;
}

}  // namespace

bool is_json_object(std::string_view text, size_t max_depth) {
  boost::json::parse_options options;
  options.max_depth = max_depth;
  boost::json::basic_parser<ValidatingHandler> parser(options);
  error_code ec;
  const size_t used = parser.write_some(false, text.data(), text.size(), ec);
  if (ec || !parser.done() || !parser.handler().root_is_object) return false;
  for (size_t i = used; i < text.size(); ++i) {
    if (!is_space(text[i])) return false;
  }
  return true;
}

std::vector<JsonMember> top_level_members(std::string_view t) {
  std::vector<JsonMember> members;
  size_t i = 0;
  while (i < t.size() && t[i] != '{') ++i;
  ++i;
  while (i < t.size()) {
    while (i < t.size() && (is_space(t[i]) || t[i] == ',')) ++i;
    if (i >= t.size() || t[i] != '"') break;  // '}' ends the object
    const size_t key_end = skip_string(t, i);
    std::string_view key_token = t.substr(i, key_end - i);
    JsonMember m;
    if (key_token.find('\\') == std::string_view::npos) {
      m.key.assign(key_token.substr(1, key_token.size() - 2));
    } else {
      m.key = boost::json::value_to<std::string>(boost::json::parse(key_token));
    }
    i = key_end;
    while (i < t.size() && (is_space(t[i]) || t[i] == ':')) ++i;
    const size_t value_end = skip_value(t, i);
    m.value = t.substr(i, value_end - i);
    members.push_back(std::move(m));
    i = value_end;
  }
  return members;
}

std::optional<std::string_view> member(const std::vector<JsonMember>& members, std::string_view key) {
  for (auto it = members.rbegin(); it != members.rend(); ++it) {
    if (it->key == key) return it->value;
  }
  return std::nullopt;
}

}  // namespace krino::core
