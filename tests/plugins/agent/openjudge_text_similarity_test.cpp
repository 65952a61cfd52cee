// The word-set similarity of the OpenJudge graders lower-cases and splits as Python's
// str.lower().split() does, with Unicode's rules.
#include "openjudge_action_loop_detection.h"
#include "openjudge_observation_information_gain.h"
#include "openjudge_text_similarity.h"

#include "openjudge_test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <set>
#include <string>

using namespace krino::agent::openjudge;
using namespace krino::agent::openjudge::testing;

namespace {

// Each text a tool result, answering a call of its own.
std::string observations(const std::vector<std::string>& texts) {
  std::string out = "[";
  for (std::size_t i = 0; i < texts.size(); ++i) {
    const std::string id = std::to_string(i);
    if (i > 0) out += ", ";
    out += R"({"role": "assistant", "tool_calls": [{"id": ")" + id + R"(", "function": {"name": "s", "arguments": "{}"}}]}, )";
    out += R"({"role": "tool", "tool_call_id": ")" + id + R"(", "content": ")" + texts[i] + "\"}";
  }
  return out + "]";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(openjudge_text_similarity)

BOOST_AUTO_TEST_CASE(letters_are_lower_cased_with_unicode_mappings) {
  BOOST_TEST(word_set_similarity("Été", "été") == 1.0);
  BOOST_TEST(word_set_similarity("STRASSE ΟΔΟΣ", "strasse οδος") == 1.0);  // a final sigma lower-cases to ς
  BOOST_TEST(word_set_similarity("ΟΔΟΣ", "οδοσ") == 0.0);
  BOOST_TEST(lower_case_words("İ") == std::set<std::string>{"i\u0307"});  // two code points, as in Python
  BOOST_TEST(word_set_similarity("Hello World", "world hello") == 1.0);
}

BOOST_AUTO_TEST_CASE(words_split_on_python_white_space) {
  // U+00A0 no-break space, U+3000 ideographic space, U+2028 line separator, \x1f unit separator
  for (const char* text : {"a\u00a0b", "a\u3000b", "a\u2028b", "a\x1f" "b", "a \t\n b"})
    BOOST_TEST(lower_case_words(text) == (std::set<std::string>{"a", "b"}), text);
  // U+200B zero-width space and U+180E are not white space to Python.
  BOOST_TEST(lower_case_words("a\u200bb").size() == 1u);
  BOOST_TEST(lower_case_words("a\u180eb").size() == 1u);
  BOOST_TEST(lower_case_words("box. Box").size() == 2u);  // punctuation stays
  BOOST_TEST(lower_case_words(" \u00a0 ").empty());
  BOOST_TEST(word_set_similarity("", "a") == 0.0);
}

// Information gain skips an observation shorter than 10 characters once stripped: Python's
// strip() removes Unicode white space and len() counts code points.
BOOST_AUTO_TEST_CASE(stripped_length_is_pythons) {
  BOOST_TEST(python_stripped_length("  abc \t") == 3u);
  BOOST_TEST(python_stripped_length("\u00a0\u3000abc def\u2028\x1f") == 7u);
  BOOST_TEST(python_stripped_length("\u200babc") == 4u);  // a zero-width space is not white space
  BOOST_TEST(python_stripped_length("ÉtéÉtéÉté") == 9u);
  BOOST_TEST(python_stripped_length(" \u00a0 ") == 0u);
  const ObservationInformationGainEvaluator gain(config("{}"));
  // "\u3000alpha\u3000" is 5 characters to Python: skipped, so only the first is scored.
  const krino::EvalResult r =
      evaluate(gain, conversation_case(observations({"alpha beta gamma", "\u3000\u3000\u3000alpha\u3000\u3000\u3000"})));
  BOOST_TEST(r.metadata.at("each_turn_rewards").as_array().size() == 1u);
  BOOST_TEST(*r.score == 1.0);
}

BOOST_AUTO_TEST_CASE(text_that_is_not_utf8_still_splits) {
  BOOST_TEST(lower_case_words("AB \xff" "C") == (std::set<std::string>{"ab", "\xff" "c"}));
}

// The issue's cases, checked against OpenJudge's own code: repeated calls that differ only in case
// are a loop (0.0), and a no-break space separates words (0.5, not 0.875).
BOOST_AUTO_TEST_CASE(graders_see_what_openjudge_sees) {
  const ActionLoopDetectionEvaluator loops(config("{}"));
  const std::string messages =
      R"([{"role": "assistant", "tool_calls": [{"id": "1", "function": {"name": "s", "arguments": "{\"q\": \"Été\"}"}}]},
          {"role": "tool", "tool_call_id": "1", "content": "r"},
          {"role": "assistant", "tool_calls": [{"id": "2", "function": {"name": "s", "arguments": "{\"q\": \"été\"}"}}]},
          {"role": "tool", "tool_call_id": "2", "content": "r"}])";
  BOOST_TEST(*evaluate(loops, conversation_case(messages)).score == 0.0);

  const ObservationInformationGainEvaluator gain(config("{}"));
  BOOST_TEST(*evaluate(gain, conversation_case(observations({"alpha beta\u00a0gamma", "alpha beta gamma"}))).score == 0.5);
}

BOOST_AUTO_TEST_SUITE_END()
