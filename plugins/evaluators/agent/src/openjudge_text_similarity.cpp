#include "openjudge_text_similarity.h"

#include <unicode/uchar.h>
#include <unicode/ucasemap.h>
#include <unicode/utf8.h>

#include <algorithm>
#include <cstdint>
#include <memory>

namespace krino::agent::openjudge {

namespace {

// Python's str.isspace(): Unicode White_Space, plus the information separators \x1c..\x1f
// (bidirectional class B or S), which White_Space leaves out.
bool python_space(UChar32 c) { return u_isUWhiteSpace(c) || (c >= 0x1c && c <= 0x1f); }

std::string ascii_lowered_text(std::string_view text) {
  std::string out(text);
  for (char& c : out)
    if (c >= 'A' && c <= 'Z') c = static_cast<char>(c - 'A' + 'a');
  return out;
}

// str.lower(): full lower-case mappings with the final-sigma context, as ICU's root locale gives
// them. A lower-cased text can be longer than the original ("İ" becomes two code points).
std::string unicode_lower(std::string_view text) {
  UErrorCode status = U_ZERO_ERROR;
  const std::unique_ptr<UCaseMap, decltype(&ucasemap_close)> map(ucasemap_open("", 0, &status), &ucasemap_close);
  if (U_FAILURE(status) || text.size() > static_cast<std::size_t>(INT32_MAX / 3)) return ascii_lowered_text(text);
  std::string out(text.size() * 3 + 4, '\0');
  status = U_ZERO_ERROR;
  const int32_t length = ucasemap_utf8ToLower(map.get(), out.data(), static_cast<int32_t>(out.size()), text.data(),
                                              static_cast<int32_t>(text.size()), &status);
  if (U_FAILURE(status)) return ascii_lowered_text(text);  // not UTF-8
  out.resize(static_cast<std::size_t>(length));
  return out;
}

}  // namespace

std::set<std::string> lower_case_words(std::string_view text) {
  const std::string lowered = unicode_lower(text);
  std::set<std::string> words;
  const auto* bytes = reinterpret_cast<const uint8_t*>(lowered.data());
  const auto size = static_cast<int32_t>(lowered.size());
  int32_t word_start = -1;
  for (int32_t at = 0; at < size;) {
    const int32_t start = at;
    UChar32 c = 0;
    U8_NEXT(bytes, at, size, c);
    if (c >= 0 && python_space(c)) {
      if (word_start >= 0) words.emplace(lowered, word_start, start - word_start);
      word_start = -1;
    } else if (word_start < 0) {
      word_start = start;
    }
  }
  if (word_start >= 0) words.emplace(lowered, word_start, size - word_start);
  return words;
}

std::size_t python_stripped_length(std::string_view text) {
  const auto* bytes = reinterpret_cast<const uint8_t*>(text.data());
  const auto size = static_cast<int32_t>(std::min<std::size_t>(text.size(), INT32_MAX));
  std::size_t characters = 0;
  std::size_t trailing_spaces = 0;  // white space since the last other character
  bool started = false;
  for (int32_t at = 0; at < size;) {
    UChar32 c = 0;
    U8_NEXT(bytes, at, size, c);
    const bool space = c >= 0 && python_space(c);
    if (!started && space) continue;
    started = true;
    ++characters;
    trailing_spaces = space ? trailing_spaces + 1 : 0;
  }
  return characters - trailing_spaces;
}

double word_set_similarity(std::string_view first, std::string_view second) {
  const std::set<std::string> a = lower_case_words(first);
  const std::set<std::string> b = lower_case_words(second);
  if (a.empty() || b.empty()) return 0.0;
  std::size_t shared = 0;
  for (const auto& word : a) shared += b.count(word);
  const std::size_t combined = a.size() + b.size() - shared;
  return static_cast<double>(shared) / static_cast<double>(combined);
}

}  // namespace krino::agent::openjudge
