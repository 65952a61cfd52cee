// precision and recall: one-to-one maximum matching, the empty cases, keys and errors.
#include "retrieval_evaluator.h"

#include "text_test_support.hpp"

#include <boost/test/unit_test.hpp>

using namespace krino::text;
using namespace krino::text::testing;

BOOST_AUTO_TEST_SUITE(retrieval_evaluator)

BOOST_AUTO_TEST_CASE(defaults_and_the_formulas) {
  const char* actual = R"({"retrieved": ["doc_1", "doc_2", "doc_3"]})";
  const char* expected = R"({"relevant": ["doc_1", "doc_3", "doc_5", "doc_7"]})";
  const krino::EvalResult p = evaluate(PrecisionEvaluator(config("{}")), actual, expected);
  BOOST_TEST(p.name == "precision");
  BOOST_TEST(*p.score == 2.0 / 3.0);
  BOOST_TEST(*p.threshold == 1.0);
  BOOST_TEST(!p.success);
  BOOST_TEST(p.reason == "2 of 3 retrieved items are relevant (matching: equality)");
  const krino::EvalResult r = evaluate(RecallEvaluator(config("{}")), actual, expected);
  BOOST_TEST(r.name == "recall");
  BOOST_TEST(*r.score == 0.5);
  BOOST_TEST(r.reason == "2 of 4 relevant items were retrieved (matching: equality)");
  BOOST_TEST(r.metadata.at("retrievedCount").as_uint64() == 3u);
  BOOST_TEST(r.metadata.at("relevantCount").as_uint64() == 4u);
  BOOST_TEST(r.metadata.at("matchedCount").as_uint64() == 2u);
  BOOST_TEST(r.metadata.at("matching").as_string() == "equality");
  BOOST_TEST(r.metadata.at("matchedPairs") == boost::json::parse("[[0, 0], [2, 1]]"));
  BOOST_TEST(r.metadata.at("unmatchedRetrieved") == boost::json::parse("[1]"));
  BOOST_TEST(r.metadata.at("missedRelevant") == boost::json::parse("[2, 3]"));
}

BOOST_AUTO_TEST_CASE(worked_example_triples_by_fields) {
  // One retrieved triple, which matches; two relevant triples.
  const char* options = R"({"matching": {"strategy": "fields", "fields": ["subject", "predicate", "object"]}})";
  const char* actual = R"({"retrieved": [{"subject": "Paris", "predicate": "capital_of", "object": "France", "score": 0.93}]})";
  const char* expected = R"({"relevant": [{"subject": "Paris", "predicate": "capital_of", "object": "France"},
                                          {"subject": "Berlin", "predicate": "capital_of", "object": "Germany"}]})";
  const krino::EvalResult p = evaluate(PrecisionEvaluator(config(options)), actual, expected);
  BOOST_TEST(*p.score == 1.0);
  BOOST_TEST(p.success);
  BOOST_TEST(p.reason == "1 of 1 retrieved item is relevant (matching: fields(subject, predicate, object))");
  const krino::EvalResult r = evaluate(RecallEvaluator(config(options)), actual, expected);
  BOOST_TEST(*r.score == 0.5);
  BOOST_TEST(!r.success);
}

BOOST_AUTO_TEST_CASE(a_duplicate_retrieved_item_counts_once) {
  const char* actual = R"({"retrieved": ["a", "a", "a", "b"]})";
  const char* expected = R"({"relevant": ["a", "b"]})";
  BOOST_TEST(*evaluate(PrecisionEvaluator(config("{}")), actual, expected).score == 0.5);
  BOOST_TEST(*evaluate(RecallEvaluator(config("{}")), actual, expected).score == 1.0);
  // A duplicate relevant item needs its own retrieved item.
  BOOST_TEST(*evaluate(RecallEvaluator(config("{}")), R"({"retrieved": ["a"]})", R"({"relevant": ["a", "a"]})").score == 0.5);
}

BOOST_AUTO_TEST_CASE(pairs_are_chosen_to_be_as_many_as_possible) {
  // "Paris, France" contains both relevant texts; "France" only one. Pairing the first with
  // "France" would strand the second; the maximum matching pairs both.
  const char* options = R"({"matching": {"strategy": "containment"}})";
  const char* actual = R"({"retrieved": ["Paris, France", "France"]})";
  const char* expected = R"({"relevant": ["France", "Paris"]})";
  const krino::EvalResult p = evaluate(PrecisionEvaluator(config(options)), actual, expected);
  BOOST_TEST(*p.score == 1.0);
  BOOST_TEST(p.metadata.at("matchedPairs") == boost::json::parse("[[0, 1], [1, 0]]"));
  BOOST_TEST(*evaluate(RecallEvaluator(config(options)), actual, expected).score == 1.0);
}

BOOST_AUTO_TEST_CASE(numbers_match_by_value_under_equality) {
  const char* actual = R"({"retrieved": [1, 2, 3]})";
  const char* expected = R"({"relevant": [1.0, 3.0, 4]})";
  BOOST_TEST(*evaluate(PrecisionEvaluator(config("{}")), actual, expected).score == 2.0 / 3.0);
}

BOOST_AUTO_TEST_CASE(empty_lists) {
  const char* none_none_a = R"({"retrieved": []})";
  const char* none_none_e = R"({"relevant": []})";
  const krino::EvalResult p0 = evaluate(PrecisionEvaluator(config("{}")), none_none_a, none_none_e);
  BOOST_TEST(*p0.score == 1.0);
  BOOST_TEST(p0.reason == "nothing was retrieved and nothing is relevant");
  BOOST_TEST(*evaluate(RecallEvaluator(config("{}")), none_none_a, none_none_e).score == 1.0);

  // Nothing retrieved although something is relevant: precision 0/0 scores 0, recall 0/2.
  const krino::EvalResult p1 = evaluate(PrecisionEvaluator(config("{}")), R"({"retrieved": []})", R"({"relevant": ["a", "b"]})");
  BOOST_TEST(*p1.score == 0.0);
  BOOST_TEST(p1.reason == "nothing was retrieved, but 2 items are relevant");
  BOOST_TEST(*evaluate(RecallEvaluator(config("{}")), R"({"retrieved": []})", R"({"relevant": ["a", "b"]})").score == 0.0);

  // Something retrieved although nothing is relevant: recall 0/0 scores 0, precision 0/1.
  const krino::EvalResult r2 = evaluate(RecallEvaluator(config("{}")), R"({"retrieved": ["x"]})", R"({"relevant": []})");
  BOOST_TEST(*r2.score == 0.0);
  BOOST_TEST(r2.reason == "nothing is relevant, but 1 item was retrieved");
  BOOST_TEST(*evaluate(PrecisionEvaluator(config("{}")), R"({"retrieved": ["x"]})", R"({"relevant": []})").score == 0.0);
}

BOOST_AUTO_TEST_CASE(a_single_value_is_a_list_of_one) {
  const krino::EvalResult p = evaluate(PrecisionEvaluator(config("{}")), R"({"retrieved": "doc_1"})", R"({"relevant": ["doc_1", "doc_2"]})");
  BOOST_TEST(*p.score == 1.0);
  BOOST_TEST(p.metadata.at("retrievedCount").as_uint64() == 1u);
  const krino::EvalResult r = evaluate(RecallEvaluator(config("{}")), R"({"retrieved": ["doc_1", "doc_2"]})", R"({"relevant": {"id": 1}})");
  BOOST_TEST(*r.score == 0.0);
  BOOST_TEST(r.metadata.at("relevantCount").as_uint64() == 1u);
}

BOOST_AUTO_TEST_CASE(keys_name_and_threshold) {
  const PrecisionEvaluator evaluator(config(R"({"retrieved_key": "docs", "expected_key": "gold", "name": "p@k", "threshold": 0.5})"));
  const krino::EvalResult r = evaluate(evaluator, R"({"docs": ["a", "x"]})", R"({"gold": ["a"]})");
  BOOST_TEST(r.name == "p@k");
  BOOST_TEST(*r.score == 0.5);
  BOOST_TEST(r.success);
}

BOOST_AUTO_TEST_CASE(a_missing_or_null_retrieved_list_scores_zero) {
  const krino::EvalResult missing = evaluate(RecallEvaluator(config("{}")), R"({"output": "x"})", R"({"relevant": ["a"]})");
  BOOST_TEST(*missing.score == 0.0);
  BOOST_TEST(missing.reason == "the actual output 'retrieved' is missing (actualOutputs has no such key)");
  const krino::EvalResult null = evaluate(PrecisionEvaluator(config("{}")), R"({"retrieved": null})", R"({"relevant": []})");
  BOOST_TEST(*null.score == 0.0);
  BOOST_TEST(null.reason == "the actual output 'retrieved' is null");
}

BOOST_AUTO_TEST_CASE(a_missing_or_null_relevant_list_is_an_error) {
  BOOST_CHECK_EXCEPTION(evaluate(PrecisionEvaluator(config("{}")), R"({"retrieved": ["a"]})", R"({"expected": ["a"]})"),
                        krino::Error, invalid("the test case has no expected output 'relevant' (expectedOutputs.relevant)"));
  BOOST_CHECK_EXCEPTION(evaluate(RecallEvaluator(config("{}")), R"({"retrieved": ["a"]})", R"({"relevant": null})"),
                        krino::Error, invalid("the expected output 'relevant' is null"));
}

BOOST_AUTO_TEST_CASE(configuration_errors) {
  BOOST_CHECK_EXCEPTION(PrecisionEvaluator(config(R"({"matching_strategy": "equality"})")), krino::Error,
                        invalid("unknown option 'matching_strategy'"));
  BOOST_CHECK_EXCEPTION(RecallEvaluator(config(R"({"matching": {"strategy": "llm"}})")), krino::Error,
                        invalid("option 'matching.strategy' must be one of"));
  BOOST_CHECK_EXCEPTION(RecallEvaluator(config(R"({"retrieved_key": ""})")), krino::Error,
                        invalid("option 'retrieved_key' must not be empty"));
  BOOST_CHECK_EXCEPTION(PrecisionEvaluator(config(R"({"expected_key": 3})")), krino::Error,
                        invalid("option 'expected_key' must be a string"));
  BOOST_CHECK_EXCEPTION(PrecisionEvaluator(config(R"({"threshold": 2})")), krino::Error,
                        invalid("option 'threshold' must be between 0 and 1"));
}

BOOST_AUTO_TEST_SUITE_END()
