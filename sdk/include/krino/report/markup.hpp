// Escaping untrusted text for XML 1.0 and HTML documents (JUnit XML, HTML reports). Header-only.
#ifndef KRINO_REPORT_MARKUP_HPP
#define KRINO_REPORT_MARKUP_HPP

#include <krino/report/text.hpp>

#include <cstdint>
#include <string>
#include <string_view>

namespace krino::report {

namespace detail {

inline void append_markup(std::string& out, std::string_view text, bool attribute) {
  static constexpr std::string_view replacement = "\xEF\xBF\xBD";  // U+FFFD
  out.reserve(out.size() + text.size());
  std::size_t i = 0;
  while (i < text.size()) {
    const char c = text[i];
    const auto byte = static_cast<unsigned char>(c);
    if (byte < 0x80) {
      switch (c) {
        case '&':
          out += "&amp;";
          break;
        case '<':
          out += "&lt;";
          break;
        case '>':
          out += "&gt;";
          break;
        case '"':
          out += attribute ? "&quot;" : "\"";
          break;
        case '\'':
          out += attribute ? "&#39;" : "'";
          break;
        case '\r':
          out += "&#13;";
          break;
        case '\n':
          out += attribute ? "&#10;" : "\n";
          break;
        case '\t':
          out += attribute ? "&#9;" : "\t";
          break;
        default:
          if (byte < 0x20) append_utf8(out, 0x2400u + byte);  // forbidden in XML 1.0: its visible symbol
          else out += c;
      }
      ++i;
      continue;
    }
    const std::size_t length = utf8_sequence_length(text, i);
    if (length == 0) {
      out += replacement;
      ++i;
      continue;
    }
    const uint32_t code_point = utf8_code_point(text, i, length);
    if (code_point == 0xFFFE || code_point == 0xFFFF) out += replacement;
    else out.append(text.data() + i, length);
    i += length;
  }
}

}  // namespace detail

// Appends `text` as character data: & < > escaped (so "]]>" and tags cannot appear), a carriage
// return as a character reference (a parser would turn a raw one into a line feed), and every
// character XML 1.0 forbids replaced: C0 controls other than tab, line feed and carriage return
// become their Control Pictures symbol (U+2400 + code, so ESC shows as U+241B), U+FFFE, U+FFFF
// and bytes that are not UTF-8 become U+FFFD.
inline void append_markup_text(std::string& out, std::string_view text) { detail::append_markup(out, text, false); }

// Appends `text` for a quoted attribute value: as append_markup_text, plus both quotes escaped
// and tab and line feed as character references, which attribute normalisation keeps.
inline void append_markup_attribute(std::string& out, std::string_view text) {
  detail::append_markup(out, text, true);
}

inline std::string markup_text(std::string_view text) {
  std::string out;
  append_markup_text(out, text);
  return out;
}

// ` name="value"`, the value escaped.
inline void append_attribute(std::string& out, std::string_view name, std::string_view value) {
  out += ' ';
  out += name;
  out += "=\"";
  append_markup_attribute(out, value);
  out += '"';
}

}  // namespace krino::report

#endif  // KRINO_REPORT_MARKUP_HPP
