#include "krino/core/llm/reply_parsing.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

using namespace krino::core;
namespace json = boost::json;

namespace {

double score_in(std::string_view reply) {
  auto got = extract_json(reply);
  BOOST_TEST_REQUIRE(got.value.has_value(), got.failure);
  return got.value->as_object().at("score").to_number<double>();
}

std::string failure_of(std::string_view reply, JsonShape shape = JsonShape::object) {
  auto got = extract_json(reply, shape);
  BOOST_TEST_REQUIRE(!got.value.has_value());
  return got.failure;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(judge_reply_parsing)

BOOST_AUTO_TEST_CASE(plain_json) {
  BOOST_TEST(score_in(R"({"score": 0.75, "reason": "mostly"})") == 0.75);
  BOOST_TEST(score_in("\n  {\"score\": 1}\n") == 1.0);
}

BOOST_AUTO_TEST_CASE(fenced_json) {
  BOOST_TEST(score_in("```json\n{\"score\": 0.5, \"reason\": \"half\"}\n```") == 0.5);
  BOOST_TEST(score_in("```JSON\n{\"score\": 0.25}\n```") == 0.25);
  BOOST_TEST(score_in("```\n{\"score\": 0.2}\n```") == 0.2);
  BOOST_TEST(score_in("```json {\"score\": 0.3}```") == 0.3);
}

BOOST_AUTO_TEST_CASE(preamble_and_trailing_prose) {
  BOOST_TEST(score_in("Here is my evaluation:\n{\"score\": 0.9, \"reason\": \"good\"}") == 0.9);
  BOOST_TEST(score_in("{\"score\": 0.1, \"reason\": \"bad\"}\nLet me know if you need more.") == 0.1);
  BOOST_TEST(score_in("Here is my evaluation:\n```json\n{\"score\": 0.4}\n```\nHope that helps!") == 0.4);
}

BOOST_AUTO_TEST_CASE(braces_inside_strings_do_not_end_the_object) {
  auto got = extract_json(R"(Verdict: {"score": 1, "reason": "the output \"}\" closes {the} block"} done.)");
  BOOST_REQUIRE(got.value);
  BOOST_TEST(got.value->as_object().at("reason").as_string() == R"(the output "}" closes {the} block)");
}

BOOST_AUTO_TEST_CASE(prose_braces_before_the_json_are_skipped) {
  BOOST_TEST(score_in("I weighed {accuracy} and {tone}. {\"score\": 0.6}") == 0.6);
}

BOOST_AUTO_TEST_CASE(the_first_balanced_object_wins) {
  BOOST_TEST(score_in("{\"score\": 0.1} and later {\"score\": 0.9}") == 0.1);
}

BOOST_AUTO_TEST_CASE(nested_objects_stay_whole) {
  auto got = extract_json("Result: {\"score\": 1, \"details\": {\"a\": [1, {\"b\": 2}]}} end");
  BOOST_REQUIRE(got.value);
  BOOST_TEST(got.value->at_pointer("/details/a/1/b").as_int64() == 2);
}

BOOST_AUTO_TEST_CASE(comments_and_trailing_commas_are_tolerated) {
  BOOST_TEST(score_in("{\"score\": 0.7, // confident\n \"reason\": \"ok\",}") == 0.7);
}

BOOST_AUTO_TEST_CASE(arrays_only_when_asked) {
  auto array = extract_json("Scores per chunk: [1, 0, 1]", JsonShape::array);
  BOOST_REQUIRE(array.value);
  BOOST_TEST(array.value->as_array().size() == 3u);
  BOOST_TEST(failure_of("Scores per chunk: [1, 0, 1]") == "the reply holds no JSON object");
  auto either = extract_json("```\n[{\"score\": 1}]\n```", JsonShape::object_or_array);
  BOOST_REQUIRE(either.value);
  BOOST_TEST(either.value->is_array());
  // Asking for an object inside that array finds the object.
  BOOST_TEST(score_in("```\n[{\"score\": 1}]\n```") == 1.0);
}

BOOST_AUTO_TEST_CASE(failures_say_why) {
  BOOST_TEST(failure_of("") == "the reply is empty");
  BOOST_TEST(failure_of("   \n") == "the reply is empty");
  BOOST_TEST(failure_of("I think it deserves a 4.") == "the reply holds no JSON object");
  BOOST_TEST(failure_of("0.8") == "the reply is a JSON number, not a JSON object");
  BOOST_TEST(failure_of("Here you go: {\"score\": 0.5, \"reason\": \"cut") ==
             "the JSON object in the reply is cut off before its end");
  auto bad = failure_of("Here: {score: 0.5}");
  BOOST_TEST(bad.find("does not parse") != std::string::npos, bad);
}

BOOST_AUTO_TEST_CASE(a_truncated_fence_still_yields_its_json) {
  BOOST_TEST(score_in("```json\n{\"score\": 0.35}\n") == 0.35);
}

BOOST_AUTO_TEST_CASE(repair_instruction_quotes_the_failure_and_asks_for_json_only) {
  auto text = repair_instruction("the reply holds no JSON object");
  BOOST_TEST(text.find("the reply holds no JSON object") != std::string::npos);
  BOOST_TEST(text.find("JSON object") != std::string::npos);
  BOOST_TEST(text.find("no code fences") != std::string::npos);
  BOOST_TEST(repair_instruction("x", JsonShape::array).find("JSON array") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(scores_are_normalised_and_clamped) {
  ScoreRange one_to_five{1.0, 5.0};
  BOOST_TEST(*normalize_score(1.0, one_to_five) == 0.0);
  BOOST_TEST(*normalize_score(3.0, one_to_five) == 0.5);
  BOOST_TEST(*normalize_score(5.0, one_to_five) == 1.0);
  BOOST_TEST(*normalize_score(0.0, one_to_five) == 0.0);  // below the range: clamped
  BOOST_TEST(*normalize_score(7.0, one_to_five) == 1.0);  // above: clamped
  BOOST_TEST(*normalize_score(0.42, ScoreRange{}) == 0.42);  // default 0..1 is the identity
  BOOST_TEST(!normalize_score(std::nan(""), one_to_five));
  BOOST_TEST(!normalize_score(2.0, ScoreRange{5.0, 5.0}));
}

BOOST_AUTO_TEST_CASE(score_ranges_are_validated) {
  BOOST_TEST(validate_score_range({1.0, 5.0}).ok());
  BOOST_TEST(!validate_score_range({5.0, 1.0}).ok());
  BOOST_TEST(!validate_score_range({1.0, 1.0}).ok());
  BOOST_TEST(!validate_score_range({0.0, INFINITY}).ok());
}

BOOST_AUTO_TEST_SUITE_END()
