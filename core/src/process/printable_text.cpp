#include "krino/core/process/printable_text.hpp"

#include <krino/utf8.hpp>

namespace krino::core {
namespace {

std::string_view trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

}  // namespace

std::string printable_head(std::string_view bytes, std::size_t max_bytes) {
  const bool cut = bytes.size() > max_bytes;
  std::string text = utf8::repaired(trimmed(utf8::head(bytes, max_bytes)));
  if (cut) text += "...";
  return text;
}

std::string printable_tail(std::string_view bytes, std::size_t max_bytes, bool truncated) {
  const bool cut = truncated || bytes.size() > max_bytes;
  std::string text = utf8::repaired(trimmed(utf8::tail(bytes, max_bytes)));
  return cut ? "..." + text : text;
}

}  // namespace krino::core
