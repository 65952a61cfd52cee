// Text forms of JSON values, for evaluators that compare or show values as text. Header-only.
//
// Boost.JSON serializes 5.0 as "5E0", which no user expects to read in a reason or to compare
// against. Here a double is written in its shortest round-trip form and always looks like a
// floating number ("5.0", "0.1", "1e+21"), so 5 and 5.0 keep distinct text forms.
#ifndef KRINO_JSON_TEXT_HPP
#define KRINO_JSON_TEXT_HPP

#include <boost/json/serialize.hpp>
#include <boost/json/value.hpp>

#include <charconv>
#include <string>
#include <string_view>

namespace krino::json {

// Appends a double in its shortest round-trip form, with ".0" added when that form would read
// as an integer. Non-finite values (which JSON cannot hold) come out as "inf", "-inf" or "nan".
inline void append_double(std::string& out, double d) {
  char buffer[64];
  const auto result = std::to_chars(buffer, buffer + sizeof(buffer), d);
  const std::string_view text(buffer, static_cast<std::size_t>(result.ptr - buffer));
  out += text;
  if (text.find_first_of(".eEin") == std::string_view::npos) out += ".0";
}

// Appends `text` as a JSON string literal, escaped as Boost.JSON escapes: quote, backslash and
// control characters; everything else (including UTF-8) verbatim. Copies clean runs in one go.
inline void append_json_string(std::string& out, std::string_view text) {
  static constexpr char hex[] = "0123456789abcdef";
  out += '"';
  std::size_t run = 0;
  for (std::size_t i = 0; i < text.size(); ++i) {
    const unsigned char c = static_cast<unsigned char>(text[i]);
    if (c >= 0x20 && c != '"' && c != '\\') continue;
    out.append(text.data() + run, i - run);
    run = i + 1;
    switch (c) {
      case '"': out += "\\\""; break;
      case '\\': out += "\\\\"; break;
      case '\b': out += "\\b"; break;
      case '\f': out += "\\f"; break;
      case '\n': out += "\\n"; break;
      case '\r': out += "\\r"; break;
      case '\t': out += "\\t"; break;
      default:
        out += "\\u00";
        out += hex[c >> 4];
        out += hex[c & 0xF];
    }
  }
  out.append(text.data() + run, text.size() - run);
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

// The "string form" of a value: a string is its own text (no quotes, no escaping); anything else
// is its compact JSON. So "5", 5 and 5.0 have the forms 5, 5 and 5.0.
inline std::string string_form(const boost::json::value& value) {
  if (value.is_string()) return std::string(value.get_string());
  return to_compact_json(value);
}

}  // namespace krino::json

#endif  // KRINO_JSON_TEXT_HPP
