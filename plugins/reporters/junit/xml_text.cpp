#include "xml_text.hpp"

#include <krino/report/text.hpp>

namespace krino::junit {
namespace {

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";  // U+FFFD

void append_escaped(std::string& out, std::string_view text, bool attribute) {
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
          if (attribute) out += "&quot;";
          else out += c;
          break;
        case '\r':
          out += "&#13;";
          break;
        case '\n':
          if (attribute) out += "&#10;";
          else out += c;
          break;
        case '\t':
          if (attribute) out += "&#9;";
          else out += c;
          break;
        default:
          if (byte < 0x20) report::append_utf8(out, 0x2400u + byte);  // forbidden in XML 1.0
          else out += c;
      }
      ++i;
      continue;
    }
    const std::size_t length = report::utf8_sequence_length(text, i);
    if (length == 0) {
      out += kReplacement;
      ++i;
      continue;
    }
    const uint32_t code_point = report::utf8_code_point(text, i, length);
    if (code_point == 0xFFFE || code_point == 0xFFFF) out += kReplacement;
    else out.append(text.data() + i, length);
    i += length;
  }
}

}  // namespace

void append_xml_text(std::string& out, std::string_view text) { append_escaped(out, text, false); }

void append_xml_attribute(std::string& out, std::string_view text) { append_escaped(out, text, true); }

void append_attribute(std::string& out, std::string_view name, std::string_view value) {
  out += ' ';
  out += name;
  out += "=\"";
  append_xml_attribute(out, value);
  out += '"';
}

}  // namespace krino::junit
