#include "judge_reply.h"
#include "judge_test_support.hpp"

namespace {

using krino::judge::extract_reply_object;

BOOST_AUTO_TEST_SUITE(judge_reply)

BOOST_AUTO_TEST_CASE(plain_fenced_preamble_and_trailing_prose) {
  BOOST_TEST(extract_reply_object(R"({"score": 1})").object->at("score").as_int64() == 1);
  BOOST_TEST(extract_reply_object("```\n{\"a\": 2}\n```").object->at("a").as_int64() == 2);
  BOOST_TEST(extract_reply_object("```JSON\n{\"a\": 3,}\n```").object->at("a").as_int64() == 3);  // trailing comma
  BOOST_TEST(extract_reply_object("Sure! {\"a\": \"}{\", \"b\": 4} Anything else?").object->at("b").as_int64() == 4);
  BOOST_TEST(extract_reply_object("{\"a\": 5 // why\n}").object->at("a").as_int64() == 5);  // comment
}

BOOST_AUTO_TEST_CASE(failures_say_why) {
  BOOST_TEST(extract_reply_object("").failure == "the reply is empty");
  BOOST_TEST(extract_reply_object("four out of five").failure == "the reply holds no JSON object");
  BOOST_TEST(krino::judge::testing::contains(extract_reply_object("{\"score\": 4").failure, "cut off"));
  BOOST_TEST(!extract_reply_object("[1, 2]").object.has_value());
}

BOOST_AUTO_TEST_CASE(arrays_are_wrapped_only_when_asked) {
  const auto wrapped = extract_reply_object("Here: [{\"x\": 1}]", "verdicts");
  BOOST_TEST_REQUIRE(wrapped.object.has_value());
  BOOST_TEST(wrapped.object->at("verdicts").as_array().size() == 1u);
}

BOOST_AUTO_TEST_CASE(excerpts_are_cut_on_character_boundaries) {
  BOOST_TEST(krino::judge::reply_excerpt("short") == "short");
  BOOST_TEST(krino::judge::reply_excerpt("abcdef", 3) == "abc...");
  BOOST_TEST(krino::judge::reply_excerpt("a\xC3\xA9z", 2) == "a...");  // é not split
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
