// Unicode-aware measurements of UTF-8 text: code points, white space, words. Input must be valid
// UTF-8, which every string of a parsed test case or configuration is.
#ifndef KRINO_TEXT_UNICODE_TEXT_H
#define KRINO_TEXT_UNICODE_TEXT_H

#include <cstddef>
#include <string>
#include <string_view>

namespace krino::text {

// Unicode code points, not bytes: "héllo" has 5.
std::size_t count_code_points(std::string_view utf8);

// The Unicode White_Space property (tab, line breaks, space, no-break space, the typographic
// spaces U+2000..U+200A, ideographic space, ...).
bool is_white_space(char32_t code_point);

// Maximal runs of non-white-space code points.
std::size_t count_words(std::string_view utf8);

// `utf8` without leading and trailing white space.
std::string_view trim_white_space(std::string_view utf8);

// Trims, and replaces every inner run of white space with one U+0020 space.
std::string collapse_white_space(std::string_view utf8);

}  // namespace krino::text

#endif  // KRINO_TEXT_UNICODE_TEXT_H
