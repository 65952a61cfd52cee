#include "unicode_text.h"

#include <boost/regex/pending/unicode_iterator.hpp>

namespace krino::text {

namespace {

using CodePointIterator = boost::u8_to_u32_iterator<std::string_view::const_iterator>;

// Calls visit(code_point, byte_begin, byte_end) for each code point of `utf8`.
template <class Visit>
void for_each_code_point(std::string_view utf8, Visit&& visit) {
  const CodePointIterator end(utf8.end());
  for (CodePointIterator it(utf8.begin()); it != end;) {
    const auto begin = it.base();
    const char32_t code_point = *it;
    ++it;
    visit(code_point, static_cast<std::size_t>(begin - utf8.begin()), static_cast<std::size_t>(it.base() - utf8.begin()));
  }
}

}  // namespace

std::size_t count_code_points(std::string_view utf8) {
  std::size_t count = 0;
  // Every code point has exactly one byte that is not a continuation byte (10xxxxxx).
  for (char c : utf8) count += (static_cast<unsigned char>(c) & 0xC0U) != 0x80U ? 1 : 0;
  return count;
}

bool is_white_space(char32_t c) {
  return (c >= 0x09 && c <= 0x0D) || c == 0x20 || c == 0x85 || c == 0xA0 || c == 0x1680 ||
         (c >= 0x2000 && c <= 0x200A) || c == 0x2028 || c == 0x2029 || c == 0x202F || c == 0x205F || c == 0x3000;
}

std::size_t count_words(std::string_view utf8) {
  std::size_t words = 0;
  bool in_word = false;
  for_each_code_point(utf8, [&](char32_t c, std::size_t, std::size_t) {
    const bool space = is_white_space(c);
    if (!space && !in_word) ++words;
    in_word = !space;
  });
  return words;
}

std::string_view trim_white_space(std::string_view utf8) {
  std::size_t first = utf8.size();
  std::size_t last = 0;
  for_each_code_point(utf8, [&](char32_t c, std::size_t begin, std::size_t end) {
    if (is_white_space(c)) return;
    if (first == utf8.size()) first = begin;
    last = end;
  });
  if (first == utf8.size()) return utf8.substr(0, 0);
  return utf8.substr(first, last - first);
}

std::string collapse_white_space(std::string_view utf8) {
  std::string out;
  out.reserve(utf8.size());
  bool pending_space = false;
  for_each_code_point(utf8, [&](char32_t c, std::size_t begin, std::size_t end) {
    if (is_white_space(c)) {
      pending_space = !out.empty();
      return;
    }
    if (pending_space) out += ' ';
    pending_space = false;
    out.append(utf8.substr(begin, end - begin));
  });
  return out;
}

}  // namespace krino::text
