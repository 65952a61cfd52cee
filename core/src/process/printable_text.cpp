#include "krino/core/process/printable_text.hpp"

#include <boost/locale/encoding_utf.hpp>

namespace krino::core {
namespace {

std::string valid_utf8(std::string_view bytes) {
  // Header-only in Boost.Locale: invalid or cut sequences are skipped.
  return boost::locale::conv::utf_to_utf<char>(bytes.data(), bytes.data() + bytes.size(), boost::locale::conv::skip);
}

std::string_view trimmed(std::string_view text) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first == std::string_view::npos) return {};
  const auto last = text.find_last_not_of(" \t\r\n");
  return text.substr(first, last - first + 1);
}

}  // namespace

std::string printable_head(std::string_view bytes, std::size_t max_bytes) {
  const bool cut = bytes.size() > max_bytes;
  std::string text = valid_utf8(trimmed(bytes.substr(0, max_bytes)));
  if (cut) text += "...";
  return text;
}

std::string printable_tail(std::string_view bytes, std::size_t max_bytes, bool truncated) {
  const bool cut = truncated || bytes.size() > max_bytes;
  if (bytes.size() > max_bytes) bytes = bytes.substr(bytes.size() - max_bytes);
  std::string text = valid_utf8(trimmed(bytes));
  return cut ? "..." + text : text;
}

}  // namespace krino::core
