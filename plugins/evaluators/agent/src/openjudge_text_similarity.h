// The word-overlap similarity the OpenJudge graders compare actions and observations with.
#ifndef KRINO_AGENT_OPENJUDGE_TEXT_SIMILARITY_H
#define KRINO_AGENT_OPENJUDGE_TEXT_SIMILARITY_H

#include <cstddef>
#include <set>
#include <string>
#include <string_view>

namespace krino::agent::openjudge {

// The distinct words of `text` as Python's set(text.lower().split()) makes them: the whole text
// lower-cased with Unicode's full mappings (ICU's root locale: "É" -> "é", "İ" -> "i̇", a final
// sigma -> "ς"), then cut at runs of Unicode white space plus \x1c..\x1f, which is exactly what
// str.split() splits on (U+00A0 and U+3000 separate words, U+200B does not). Punctuation stays
// ("box." is not "box"). Text that is not valid UTF-8 has its ASCII letters lower-cased only.
std::set<std::string> lower_case_words(std::string_view text);

// Python's len(text.strip()): code points once the white space str.split() splits at is gone
// from both ends (a no-break space included).
std::size_t python_stripped_length(std::string_view text);

// Jaccard index of the two texts' word sets; 0 when either text has no words.
double word_set_similarity(std::string_view first, std::string_view second);

}  // namespace krino::agent::openjudge

#endif  // KRINO_AGENT_OPENJUDGE_TEXT_SIMILARITY_H
