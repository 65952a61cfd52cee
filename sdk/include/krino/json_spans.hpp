// Finding values inside JSON text without building a document. Header-only, C++17.
//
// For text already known to be valid JSON (the host validates every example and builds every test
// case from validated bytes): the scanner tracks only strings and nesting, so it runs at memchr
// speed. On text that is not valid JSON it never reads out of bounds, but what it finds is
// unspecified; parse a span before trusting its contents.
#ifndef KRINO_JSON_SPANS_HPP
#define KRINO_JSON_SPANS_HPP

#include <krino/json_parse.hpp>
#include <boost/json.hpp>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace krino::json {

namespace detail {

inline bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// Index just past the string token that starts at `i` (its opening quote). A quote ends the string
// when an even number of backslashes precedes it.
inline std::size_t skip_string(std::string_view t, std::size_t i) {
  std::size_t from = i + 1;
  while (from < t.size()) {
    const void* hit = std::memchr(t.data() + from, '"', t.size() - from);
    if (hit == nullptr) return t.size();
    const std::size_t quote = static_cast<std::size_t>(static_cast<const char*>(hit) - t.data());
    std::size_t backslashes = 0;
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
inline constexpr StructuralBytes kStructural{};

// Index just past the value that starts at `i`.
inline std::size_t skip_value(std::string_view t, std::size_t i) {
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

}  // namespace detail

// Walks the members of the object that starts at or after t[i] (at its first '{'), for readers that
// read some values in place so that no byte is scanned twice: visit(key_token, at) gets the index
// of a value's first byte and returns the index just past the value (detail::skip_value(t, at)
// when it does not read it), or npos to stop. Returns the index just past the object (t.size()
// when the text ends first), or npos when visit stopped. `key_token` is the key's raw string
// token, quotes included (use key_equals to compare it).
template <class Visit>
std::size_t walk_members(std::string_view t, std::size_t i, Visit&& visit) {
  while (i < t.size() && t[i] != '{') ++i;
  ++i;
  while (i < t.size()) {
    while (i < t.size() && (detail::is_space(t[i]) || t[i] == ',')) ++i;
    if (i >= t.size()) break;
    if (t[i] != '"') return t[i] == '}' ? i + 1 : i;
    const std::size_t key_end = detail::skip_string(t, i);
    const std::string_view key_token = t.substr(i, key_end - i);
    i = key_end;
    while (i < t.size() && (detail::is_space(t[i]) || t[i] == ':')) ++i;
    const std::size_t value_end = visit(key_token, i);
    if (value_end == std::string_view::npos) return value_end;
    i = std::max(i, std::min(value_end, t.size()));
  }
  return t.size();
}

// The same for the elements of the array whose '[' is t[i]: visit(at) gets the index of an
// element's first byte and returns the index just past it. Returns the index just past the array.
template <class Visit>
std::size_t walk_elements(std::string_view t, std::size_t i, Visit&& visit) {
  ++i;
  while (i < t.size()) {
    while (i < t.size() && (detail::is_space(t[i]) || t[i] == ',')) ++i;
    if (i >= t.size()) break;
    if (t[i] == ']') return i + 1;
    const std::size_t value_end = visit(i);
    i = std::max(i + 1, std::min(value_end, t.size()));
  }
  return t.size();
}

// Calls visit(key_token, value) for each top-level member of the object in `object_text`, in
// order, until visit returns false. `key_token` is the key's raw string token, quotes included
// (use key_equals to compare it); `value` is the exact bytes of the value.
// The same walk as walk_members, written out: it is the scanner under every find_member, and the
// wrapped form cost the agent evaluators' lookups more than it saved.
template <class Visit>
void for_each_member(std::string_view t, Visit&& visit) {
  std::size_t i = 0;
  while (i < t.size() && t[i] != '{') ++i;
  ++i;
  while (i < t.size()) {
    while (i < t.size() && (detail::is_space(t[i]) || t[i] == ',')) ++i;
    if (i >= t.size() || t[i] != '"') return;  // '}' ends the object
    const std::size_t key_end = detail::skip_string(t, i);
    const std::string_view key_token = t.substr(i, key_end - i);
    i = key_end;
    while (i < t.size() && (detail::is_space(t[i]) || t[i] == ':')) ++i;
    const std::size_t value_end = detail::skip_value(t, i);
    if (!visit(key_token, t.substr(i, value_end - i))) return;
    i = value_end;
  }
}

// The text a raw string token spells (a key or a value, quotes included), escapes decoded.
inline std::string string_token_text(std::string_view token) {
  if (token.size() < 2) return {};
  if (token.find('\\') == std::string_view::npos) return std::string(token.substr(1, token.size() - 2));
  boost::system::error_code ec;
  const boost::json::value decoded = krino::json::parse(token, ec);
  return !ec && decoded.is_string() ? std::string(decoded.get_string()) : std::string();
}

// The key a raw string token spells, escapes decoded.
inline std::string key_text(std::string_view key_token) { return string_token_text(key_token); }

// The JSON text `value` (valid JSON) without the white space between its tokens: every number
// and string exactly as written, so a value shown this way is the value the dataset holds
// (parsing and writing it again would turn a 30-digit integer into a double).
inline std::string compact_text(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  std::size_t i = 0;
  while (i < value.size()) {
    const char c = value[i];
    if (c == '"') {
      const std::size_t end = detail::skip_string(value, i);
      out.append(value.substr(i, end - i));
      i = end;
    } else {
      if (!detail::is_space(c)) out += c;
      ++i;
    }
  }
  return out;
}

namespace detail {

// The rare case of key_equals, kept out of line so the common one inlines into every reader.
[[gnu::noinline]] inline bool escaped_key_equals(std::string_view key_token, std::string_view key) {
  return key_token.find('\\') != std::string_view::npos && key_text(key_token) == key;
}

}  // namespace detail

// Whether the raw key token `key_token` spells `key` (plain text: no backslash, no quote). Readers
// compare every key of every event against a dozen names, so the usual answer comes from the
// sizes alone: an escape is always longer than the character it stands for, so a token shorter
// than the quoted key never matches, one of the same size matches only byte for byte, and only a
// longer token that holds a backslash is decoded.
// Inlined where it is called, the key is a constant and the comparison a few instructions.
[[gnu::always_inline]] inline bool key_equals(std::string_view key_token, std::string_view key) {
  const std::size_t quoted = key.size() + 2;
  if (key_token.size() < quoted) return false;
  if (key_token.size() == quoted)
    return key.empty() || (key_token[1] == key[0] && std::memcmp(key_token.data() + 1, key.data(), key.size()) == 0);
  // An escaped spelling starts with the key's first letter or with an escape.
  if (!key.empty() && key_token[1] != key[0] && key_token[1] != '\\') return false;
  return detail::escaped_key_equals(key_token, key);
}

// Whether some key of the object in `object_text` (its top level only) is written twice, spelt
// the same way. For the checks that refuse {"a": 1, "a": 2} without parsing: quadratic in the
// number of keys, which is small in the objects it is used on (an example's sections).
inline bool has_repeated_key(std::string_view object_text) {
  constexpr std::size_t kOnStack = 32;
  std::string_view on_stack[kOnStack];
  std::vector<std::string_view> more;
  std::size_t count = 0;
  bool repeated = false;
  for_each_member(object_text, [&](std::string_view key_token, std::string_view) {
    for (std::size_t i = 0; i < count && !repeated; ++i)
      repeated = (i < kOnStack ? on_stack[i] : more[i - kOnStack]) == key_token;
    if (count < kOnStack) on_stack[count] = key_token;
    else more.push_back(key_token);
    ++count;
    return !repeated;
  });
  return repeated;
}

// The bytes of member `key` of the object in `object_text`: the last one when the key repeats, as
// a JSON parser keeps it. nullopt when absent.
inline std::optional<std::string_view> find_member(std::string_view object_text, std::string_view key) {
  std::optional<std::string_view> found;
  for_each_member(object_text, [&](std::string_view key_token, std::string_view value) {
    if (key_equals(key_token, key)) found = value;
    return true;
  });
  return found;
}

// Whether a value of `size` bytes at the start of `rest` (text from an object member's value to
// the end of the object) is followed, after white space, by what ends a member: ',' or '}'. For a
// `measure` of find_member_measured that recognises a value by its first bytes: "12" is a complete
// value at the start of "12," but not at the start of "123,".
inline bool value_ends_member(std::string_view rest, std::size_t size) {
  std::size_t i = size;
  while (i < rest.size() && detail::is_space(rest[i])) ++i;
  return i < rest.size() && (rest[i] == ',' || rest[i] == '}');
}

// find_member for a caller that reads the value it looks for anyway (a parser that stops after one
// value): when the key matches, `measure(rest)` gets the text from the value's first byte to the
// end of `object_text` and returns the value's size, having read it, so the value's bytes are not
// walked twice; npos means "not measured", and skip_value measures it then. `measure` runs for
// every member spelt `key` (a repeated key: each time; the last one is what counts).
template <class Measure>
std::optional<std::string_view> find_member_measured(std::string_view t, std::string_view key, Measure&& measure) {
  std::optional<std::string_view> found;
  std::size_t i = 0;
  while (i < t.size() && t[i] != '{') ++i;
  ++i;
  while (i < t.size()) {
    while (i < t.size() && (detail::is_space(t[i]) || t[i] == ',')) ++i;
    if (i >= t.size() || t[i] != '"') break;  // '}' ends the object
    const std::size_t key_end = detail::skip_string(t, i);
    const bool wanted = key_equals(t.substr(i, key_end - i), key);
    i = key_end;
    while (i < t.size() && (detail::is_space(t[i]) || t[i] == ':')) ++i;
    std::size_t value_end = std::string_view::npos;
    if (wanted) {
      const std::size_t size = measure(t.substr(i));
      if (size != std::string_view::npos && size <= t.size() - i) value_end = i + size;
    }
    if (value_end == std::string_view::npos) value_end = detail::skip_value(t, i);
    if (wanted) found = t.substr(i, value_end - i);
    i = value_end;
  }
  return found;
}

}  // namespace krino::json

#endif  // KRINO_JSON_SPANS_HPP
