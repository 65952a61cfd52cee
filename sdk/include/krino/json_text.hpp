// Text forms of JSON values, for evaluators that compare or show values as text. Header-only.
//
// Boost.JSON serializes 5.0 as "5E0", which no user expects to read in a reason or to compare
// against. Here a double is written in its shortest round-trip form and always looks like a
// floating number ("5.0", "0.1", "1e+21"), so 5 and 5.0 keep distinct text forms.
#ifndef KRINO_JSON_TEXT_HPP
#define KRINO_JSON_TEXT_HPP

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>

namespace krino::json {

// Appends a double in its shortest round-trip form, with ".0" added when that form would read
// as an integer. An integer form of more than 17 digits (-104250770357852536832) spells digits no
// double holds, so such a value is written in the exponent form (-1.0425077035785254e+20), which is
// also shorter. Reading the text back (correctly rounded, as krino::json::parse does) gives the
// same double, bit for bit. Non-finite values (which JSON cannot hold) come out as "inf", "-inf" or
// "nan".
inline void append_double(std::string& out, double d) {
  // The two values most scores are, without the general shortest-form search (what it gives for them).
  if (d == 1.0) {
    out.append("1.0", 3);
    return;
  }
  if (d == 0.0 && !std::signbit(d)) {
    out.append("0.0", 3);
    return;
  }
  char buffer[64];
  auto result = std::to_chars(buffer, buffer + sizeof(buffer), d);
  std::string_view text(buffer, static_cast<std::size_t>(result.ptr - buffer));
  if (text.find_first_of(".eEin") != std::string_view::npos) {
    out += text;
    return;
  }
  if (text.size() - (d < 0 ? 1 : 0) > 17) {
    result = std::to_chars(buffer, buffer + sizeof(buffer), d, std::chars_format::scientific);
    out.append(buffer, static_cast<std::size_t>(result.ptr - buffer));
    return;
  }
  out += text;
  out += ".0";
}

namespace detail {
// Whether any of the 8 bytes in `w` needs escaping in a JSON string: a control character (< 0x20),
// a quote or a backslash. Bytes >= 0x80 (UTF-8) never do. May report a false positive in a byte
// above a true one (borrow), never a false negative; callers then look byte by byte.
inline bool needs_escape(uint64_t w) {
  constexpr uint64_t ones = 0x0101010101010101ULL;
  constexpr uint64_t highs = 0x8080808080808080ULL;
  const uint64_t control = (w - 0x20 * ones) & ~w & highs;
  const uint64_t q = w ^ (0x22 * ones);
  const uint64_t quote = (q - ones) & ~q & highs;
  const uint64_t b = w ^ (0x5C * ones);
  const uint64_t backslash = (b - ones) & ~b & highs;
  return (control | quote | backslash) != 0;
}

// Whether any byte of `text` needs escaping, eight bytes at a time; the tail is padded with spaces,
// which never do. Exact: needs_escape's false positives only sit above a true one.
inline bool any_needs_escape(std::string_view text) {
  const char* const data = text.data();
  const std::size_t size = text.size();
  std::size_t i = 0;
  for (; i + 8 <= size; i += 8) {
    uint64_t w;
    std::memcpy(&w, data + i, 8);
    if (needs_escape(w)) return true;
  }
  if (i == size) return false;
  uint64_t w = 0x2020202020202020ULL;
  std::memcpy(&w, data + i, size - i);
  return needs_escape(w);
}

// Appends `before`, `text` in quotes, then `after`, in one append when the whole fits a small buffer:
// for text that needs no escape (keys, names), where appending piece by piece cost more than the scan.
// False when `text` needs an escape or is too long, with nothing appended.
inline bool append_plain_string(std::string& out, std::string_view before, std::string_view text, std::string_view after) {
  constexpr std::size_t kBuffer = 96;
  const std::size_t size = before.size() + text.size() + after.size() + 2;
  if (size > kBuffer || any_needs_escape(text)) return false;
  char buffer[kBuffer];
  char* p = buffer;
  // (Each piece may be an empty view without data: copy only what is there.)
  const auto put = [&p](std::string_view piece) {
    if (!piece.empty()) std::memcpy(p, piece.data(), piece.size());
    p += piece.size();
  };
  put(before);
  *p++ = '"';
  put(text);
  *p++ = '"';
  put(after);
  out.append(buffer, size);
  return true;
}
}  // namespace detail

// Appends `text` as a JSON string literal, escaped as Boost.JSON escapes: quote, backslash and
// control characters; everything else (including UTF-8) verbatim. Clean text is found eight bytes
// at a time and copied in one go: this runs on every string of every report line.
inline void append_json_string(std::string& out, std::string_view text) {
  if (detail::append_plain_string(out, {}, text, {})) return;
  static constexpr char hex[] = "0123456789abcdef";
  out.reserve(out.size() + text.size() + 2);
  out += '"';
  const char* const data = text.data();
  const std::size_t size = text.size();
  std::size_t run = 0;
  std::size_t i = 0;
  while (i < size) {
    if (i + 8 <= size) {
      uint64_t w;
      std::memcpy(&w, data + i, 8);
      if (!detail::needs_escape(w)) {
        i += 8;
        continue;
      }
    }
    const std::size_t end = std::min(size, i + 8);
    for (; i < end; ++i) {
      const unsigned char c = static_cast<unsigned char>(data[i]);
      if (c >= 0x20 && c != '"' && c != '\\') continue;
      out.append(data + run, i - run);
      run = i + 1;
      switch (c) {
        case '"': out += "\\\""; break;
        case '\\': out += "\\\\"; break;
        case '\b': out += "\\b"; break;
        case '\f': out += "\\f"; break;
        case '\n': out += "\\n"; break;
        case '\r': out += "\\r"; break;
        case '\t': out += "\\t"; break;
        default: {
          const char escape[6] = {'\\', 'u', '0', '0', hex[c >> 4], hex[c & 0xF]};
          out.append(escape, 6);
        }
      }
    }
  }
  out.append(data + run, size - run);
  out += '"';
}

inline void append_compact_json(std::string& out, const boost::json::object& object);

// Appends `value` as compact JSON: no whitespace, object members in stored order, strings
// escaped as Boost.JSON escapes them, doubles as append_double writes them.
inline void append_compact_json(std::string& out, const boost::json::value& value) {
  switch (value.kind()) {
    case boost::json::kind::null:
      out += "null";
      return;
    case boost::json::kind::bool_:
      out += value.get_bool() ? "true" : "false";
      return;
    case boost::json::kind::int64:
    case boost::json::kind::uint64: {
      char buffer[24];
      const auto result = value.is_int64() ? std::to_chars(buffer, buffer + sizeof(buffer), value.get_int64())
                                           : std::to_chars(buffer, buffer + sizeof(buffer), value.get_uint64());
      out.append(buffer, static_cast<std::size_t>(result.ptr - buffer));
      return;
    }
    case boost::json::kind::double_:
      append_double(out, value.get_double());
      return;
    case boost::json::kind::string:
      append_json_string(out, value.get_string());
      return;
    case boost::json::kind::array: {
      out += '[';
      bool first = true;
      for (const auto& item : value.get_array()) {
        if (!first) out += ',';
        first = false;
        append_compact_json(out, item);
      }
      out += ']';
      return;
    }
    case boost::json::kind::object:
      append_compact_json(out, value.get_object());
      return;
  }
}

inline void append_compact_json(std::string& out, const boost::json::object& object) {
  out += '{';
  bool first = true;
  for (const auto& member : object) {
    if (!first) out += ',';
    first = false;
    append_json_string(out, member.key());
    out += ':';
    append_compact_json(out, member.value());
  }
  out += '}';
}

inline std::string to_compact_json(const boost::json::object& object) {
  std::string out;
  append_compact_json(out, object);
  return out;
}

inline std::string to_compact_json(const boost::json::value& value) {
  std::string out;
  append_compact_json(out, value);
  return out;
}

// Writes compact JSON into a string as it goes: the bytes append_compact_json writes for a value
// built with the same members in the same order (strings escaped by append_json_string, doubles by
// append_double). For output written on every case, such as a result's metadata, where building a
// boost::json::object first costs an allocation per key and a walk to serialize it. The caller
// keeps the nesting right (a key before each member's value, every begin closed); the writer places
// the commas.
class CompactWriter {
 public:
  explicit CompactWriter(std::string& out) : out_(out) {}

  CompactWriter& begin_object() { return open('{'); }
  CompactWriter& end_object() { return close('}'); }
  CompactWriter& begin_array() { return open('['); }
  CompactWriter& end_array() { return close(']'); }
  CompactWriter& key(std::string_view name) {
    // The comma, the quoted key and the colon in one append when the key needs no escape.
    if (!detail::append_plain_string(out_, first_ ? std::string_view() : std::string_view(",", 1), name, ":")) {
      separate();
      append_json_string(out_, name);
      out_ += ':';
    }
    first_ = true;  // the member's value follows without a comma
    return *this;
  }
  CompactWriter& string(std::string_view text) {
    if (!detail::append_plain_string(out_, first_ ? std::string_view() : std::string_view(",", 1), text, {})) {
      separate();
      append_json_string(out_, text);
    }
    first_ = false;
    return *this;
  }
  CompactWriter& count(std::uint64_t n) { return whole_number(n); }
  CompactWriter& integer(std::int64_t n) { return whole_number(n); }
  CompactWriter& number(double d) {
    separate();
    append_double(out_, d);
    return *this;
  }
  CompactWriter& boolean(bool b) {
    separate();
    if (b) out_.append("true", 4);
    else out_.append("false", 5);
    return *this;
  }
  CompactWriter& null() {
    separate();
    out_.append("null", 4);
    return *this;
  }
  CompactWriter& value(const boost::json::value& v) {
    separate();
    append_compact_json(out_, v);
    return *this;
  }
  CompactWriter& value(const boost::json::object& o) {
    separate();
    append_compact_json(out_, o);
    return *this;
  }
  // One whole value already written as compact JSON (another writer's output).
  CompactWriter& raw(std::string_view compact_json) {
    separate();
    out_.append(compact_json.data(), compact_json.size());
    return *this;
  }

 private:
  template <typename Integer>
  CompactWriter& whole_number(Integer n) {
    separate();
    char buffer[24];
    const auto result = std::to_chars(buffer, buffer + sizeof(buffer), n);
    out_.append(buffer, static_cast<std::size_t>(result.ptr - buffer));
    return *this;
  }
  CompactWriter& open(char bracket) {
    separate();
    out_ += bracket;
    first_ = true;
    return *this;
  }
  CompactWriter& close(char bracket) {
    out_ += bracket;
    first_ = false;
    return *this;
  }
  void separate() {
    if (!first_) out_ += ',';
    first_ = false;
  }

  std::string& out_;
  bool first_ = true;
};

namespace detail {
inline void append_pretty_json(std::string& out, const boost::json::value& value, int depth) {
  const auto indent = [&out](int level) { out.append(static_cast<std::size_t>(level) * 2, ' '); };
  if (value.is_object() && !value.get_object().empty()) {
    out += "{\n";
    bool first = true;
    for (const auto& member : value.get_object()) {
      if (!first) out += ",\n";
      first = false;
      indent(depth + 1);
      append_json_string(out, member.key());
      out += ": ";
      append_pretty_json(out, member.value(), depth + 1);
    }
    out += '\n';
    indent(depth);
    out += '}';
  } else if (value.is_array() && !value.get_array().empty()) {
    out += "[\n";
    bool first = true;
    for (const auto& element : value.get_array()) {
      if (!first) out += ",\n";
      first = false;
      indent(depth + 1);
      append_pretty_json(out, element, depth + 1);
    }
    out += '\n';
    indent(depth);
    out += ']';
  } else {
    append_compact_json(out, value);  // scalars, {} and []
  }
}
}  // namespace detail

// `value` as indented JSON for people to read (two spaces per level, one member or element per
// line, "key": value), with scalars written as append_compact_json writes them.
inline std::string to_pretty_json(const boost::json::value& value) {
  std::string out;
  detail::append_pretty_json(out, value, 0);
  return out;
}

// The "string form" of a value: a string is its own text (no quotes, no escaping); anything else
// is its compact JSON. So "5", 5 and 5.0 have the forms 5, 5 and 5.0.
inline std::string string_form(const boost::json::value& value) {
  if (value.is_string()) return std::string(value.get_string());
  return to_compact_json(value);
}

}  // namespace krino::json

#endif  // KRINO_JSON_TEXT_HPP
