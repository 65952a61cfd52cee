// The word-overlap similarity the OpenJudge graders compare actions and observations with.
#ifndef KRINO_AGENT_OPENJUDGE_TEXT_SIMILARITY_H
#define KRINO_AGENT_OPENJUDGE_TEXT_SIMILARITY_H

#include <string_view>

namespace krino::agent::openjudge {

// Jaccard index of the two texts' word sets: words are runs between white space, compared after
// lower-casing, punctuation kept ("box." is not "box"). 0 when either text has no words.
// Only ASCII letters are lower-cased and only ASCII white space (with \x1c..\x1f, as Python's
// str.split() does) separates words.
double word_set_similarity(std::string_view first, std::string_view second);

}  // namespace krino::agent::openjudge

#endif  // KRINO_AGENT_OPENJUDGE_TEXT_SIMILARITY_H
