#include "markdown_text.hpp"

#include <krino/report/markup.hpp>
#include <krino/report/text.hpp>

namespace krino::markdown {
namespace {

constexpr std::string_view kZeroWidthSpace = "&#8203;";

bool is_digit(char c) { return c >= '0' && c <= '9'; }

}  // namespace

std::string inline_text(std::string_view raw) {
  // One line (no control characters left), & < > as entities: then only Markdown's own syntax
  // remains to escape, and the entities contain none of it.
  const std::string text = report::markup_text(report::one_line(raw));
  std::string out;
  out.reserve(text.size() + 16);
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    switch (c) {
      case '|':
        out += "\\|";
        break;
      case '@':
        out += '@';
        out += kZeroWidthSpace;
        break;
      case '#':
        out += "\\#";
        if (i + 1 < text.size() && is_digit(text[i + 1])) out += kZeroWidthSpace;
        break;
      case '\\':
      case '`':
      case '*':
      case '_':
      case '[':
      case ']':
      case '(':
      case ')':
      case '~':
      case '$':
      case '!':
      case '{':
      case '}':
        out += '\\';
        out += c;
        break;
      default:
        out += c;
    }
  }
  return out;
}

}  // namespace krino::markdown
