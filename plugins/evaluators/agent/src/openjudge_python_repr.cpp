#include "openjudge_python_repr.h"

#include <charconv>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>
#include <system_error>

namespace krino::agent::openjudge {

namespace {

// Code points Python's str.isprintable() rejects beyond the ASCII controls: the C1 controls and
// the separators and format characters a JSON payload may plausibly carry. Python also escapes
// unassigned code points; those are printed as they are here (see docs/plugins/agent-openjudge.md).
struct CodePointRange {
  char32_t first;
  char32_t last;
};
constexpr CodePointRange kNonPrintable[] = {
    {0x80, 0xA0},     {0xAD, 0xAD},     {0x600, 0x605},   {0x61C, 0x61C},   {0x6DD, 0x6DD},
    {0x70F, 0x70F},   {0x1680, 0x1680}, {0x180E, 0x180E}, {0x2000, 0x200F}, {0x2028, 0x202F},
    {0x205F, 0x2064}, {0x2066, 0x206F}, {0x3000, 0x3000}, {0xE000, 0xF8FF}, {0xFEFF, 0xFEFF},
    {0xFFF9, 0xFFFB}, {0x110BD, 0x110BD}, {0x110CD, 0x110CD}, {0x13430, 0x1343F}, {0x1BCA0, 0x1BCA3},
    {0x1D173, 0x1D17A}, {0xE0001, 0xE0001}, {0xE0020, 0xE007F}, {0xF0000, 0x10FFFF}};

bool printable(char32_t c) {
  if (c < 0x20 || c == 0x7F) return false;
  for (const auto& range : kNonPrintable)
    if (c >= range.first && c <= range.last) return false;
  return true;
}

// Decodes one UTF-8 sequence at text[i] (Boost.JSON has validated the text) and advances i.
char32_t next_code_point(std::string_view text, std::size_t& i) {
  const auto lead = static_cast<unsigned char>(text[i]);
  const int length = lead < 0x80 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4;
  char32_t c = length == 1 ? lead : length == 2 ? (lead & 0x1F) : length == 3 ? (lead & 0x0F) : (lead & 0x07);
  for (int k = 1; k < length && i + k < text.size(); ++k) c = (c << 6) | (static_cast<unsigned char>(text[i + k]) & 0x3F);
  i += static_cast<std::size_t>(length);
  return c;
}

void append_escaped(std::string& out, char32_t c) {
  char buffer[12];
  if (c <= 0xFF) std::snprintf(buffer, sizeof(buffer), "\\x%02x", static_cast<unsigned>(c));
  else if (c <= 0xFFFF) std::snprintf(buffer, sizeof(buffer), "\\u%04x", static_cast<unsigned>(c));
  else std::snprintf(buffer, sizeof(buffer), "\\U%08x", static_cast<unsigned>(c));
  out += buffer;
}

void append_string_repr(std::string& out, std::string_view text) {
  const bool has_single = text.find('\'') != std::string_view::npos;
  const bool has_double = text.find('"') != std::string_view::npos;
  const char quote = has_single && !has_double ? '"' : '\'';
  out += quote;
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t start = i;
    const char32_t c = next_code_point(text, i);
    if (c == static_cast<char32_t>(quote) || c == U'\\') {
      out += '\\';
      out += static_cast<char>(c);
    } else if (c == U'\n') {
      out += "\\n";
    } else if (c == U'\r') {
      out += "\\r";
    } else if (c == U'\t') {
      out += "\\t";
    } else if (!printable(c)) {
      append_escaped(out, c);
    } else {
      out.append(text, start, i - start);
    }
  }
  out += quote;
}

void append_repr(std::string& out, const boost::json::value& value) {
  switch (value.kind()) {
    case boost::json::kind::null:
      out += "None";
      break;
    case boost::json::kind::bool_:
      out += value.get_bool() ? "True" : "False";
      break;
    case boost::json::kind::int64:
      out += std::to_string(value.get_int64());
      break;
    case boost::json::kind::uint64:
      out += std::to_string(value.get_uint64());
      break;
    case boost::json::kind::double_:
      out += python_float_repr(value.get_double());
      break;
    case boost::json::kind::string:
      append_string_repr(out, value.get_string());
      break;
    case boost::json::kind::array: {
      out += '[';
      bool first = true;
      for (const auto& item : value.get_array()) {
        if (!first) out += ", ";
        first = false;
        append_repr(out, item);
      }
      out += ']';
      break;
    }
    case boost::json::kind::object: {
      out += '{';
      bool first = true;
      for (const auto& member : value.get_object()) {
        if (!first) out += ", ";
        first = false;
        append_string_repr(out, member.key());
        out += ": ";
        append_repr(out, member.value());
      }
      out += '}';
      break;
    }
  }
}

}  // namespace

std::string python_float_repr(double value) {
  if (value != value) return "nan";
  if (value - value != 0.0) return value > 0 ? "inf" : "-inf";
  // The shortest round-trip digits in exponent form, e.g. "-1.2345e+17", then laid out the way
  // Python's float_repr_style 'short' does.
  char buffer[64];
  const auto [end, ec] = std::to_chars(buffer, buffer + sizeof(buffer), value, std::chars_format::scientific);
  const std::string_view text(buffer, static_cast<std::size_t>(end - buffer));
  const bool negative = text.front() == '-';
  const std::size_t e_at = text.find('e');
  std::string digits;
  for (char c : text.substr(negative ? 1 : 0, e_at - (negative ? 1 : 0)))
    if (c != '.') digits += c;
  const int exponent = std::atoi(std::string(text.substr(e_at + 1)).c_str());

  std::string out = negative ? "-" : "";
  if (exponent < -4 || exponent >= 16) {
    out += digits.front();
    if (digits.size() > 1) out += "." + digits.substr(1);
    char exponent_text[16];
    std::snprintf(exponent_text, sizeof(exponent_text), "e%c%02d", exponent < 0 ? '-' : '+', std::abs(exponent));
    return out + exponent_text;
  }
  if (exponent < 0) return out + "0." + std::string(static_cast<std::size_t>(-exponent - 1), '0') + digits;
  const auto integer_digits = static_cast<std::size_t>(exponent) + 1;
  if (digits.size() <= integer_digits) return out + digits + std::string(integer_digits - digits.size(), '0') + ".0";
  return out + digits.substr(0, integer_digits) + "." + digits.substr(integer_digits);
}

std::string python_repr(const boost::json::value& value) {
  std::string out;
  append_repr(out, value);
  return out;
}

std::string python_str(const boost::json::value& value) {
  if (value.is_string()) return std::string(value.get_string());
  return python_repr(value);
}

bool python_truthy(const boost::json::value& value) {
  switch (value.kind()) {
    case boost::json::kind::null:
      return false;
    case boost::json::kind::bool_:
      return value.get_bool();
    case boost::json::kind::int64:
      return value.get_int64() != 0;
    case boost::json::kind::uint64:
      return value.get_uint64() != 0;
    case boost::json::kind::double_:
      return value.get_double() != 0.0;
    case boost::json::kind::string:
      return !value.get_string().empty();
    case boost::json::kind::array:
      return !value.get_array().empty();
    case boost::json::kind::object:
      return !value.get_object().empty();
  }
  return false;
}

}  // namespace krino::agent::openjudge
