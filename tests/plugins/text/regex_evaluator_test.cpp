// regex: PCRE2, search semantics, ignore_case, negate, and bad patterns as configuration errors.
#include "regex_evaluator.h"

#include "text_test_support.hpp"

#include <boost/test/unit_test.hpp>

#include <atomic>
#include <thread>
#include <vector>

using namespace krino::text;
using namespace krino::text::testing;

BOOST_AUTO_TEST_SUITE(regex_evaluator)

BOOST_AUTO_TEST_CASE(the_pattern_may_match_anywhere) {
  const RegexEvaluator evaluator(config(R"({"pattern": "\\d{4}-\\d{2}-\\d{2}"})"));
  const krino::EvalResult r = evaluate(evaluator, R"({"output": "Released on 2024-03-15, finally."})");
  BOOST_TEST(r.name == "regex");
  BOOST_TEST(*r.score == 1.0);
  BOOST_TEST(*r.threshold == 1.0);
  BOOST_TEST(r.success);
  BOOST_TEST(r.reason == R"(the pattern matches "2024-03-15" at byte 12)");
  BOOST_TEST(r.metadata.at("matched").as_bool());
  BOOST_TEST(r.metadata.at("matchStart").as_uint64() == 12u);
  BOOST_TEST(r.metadata.at("matchEnd").as_uint64() == 22u);
}

BOOST_AUTO_TEST_CASE(anchors_demand_a_full_match) {
  const RegexEvaluator anchored(config(R"({"pattern": "^[A-Z].*\\.$"})"));
  BOOST_TEST(*evaluate(anchored, R"({"output": "A full sentence."})").score == 1.0);
  BOOST_TEST(*evaluate(anchored, R"({"output": "a sentence."})").score == 0.0);
  BOOST_TEST(*evaluate(anchored, R"({"output": "A sentence. More"})").score == 0.0);
  const RegexEvaluator unanchored(config(R"({"pattern": "[A-Z].*\\."})"));
  BOOST_TEST(*evaluate(unanchored, R"({"output": "a Sentence. More"})").score == 1.0);
}

BOOST_AUTO_TEST_CASE(no_match_scores_zero) {
  const RegexEvaluator evaluator(config(R"({"pattern": "refund"})"));
  const krino::EvalResult r = evaluate(evaluator, R"({"output": "No money back."})");
  BOOST_TEST(*r.score == 0.0);
  BOOST_TEST(!r.success);
  BOOST_TEST(r.reason == "the pattern matches nowhere in the output");
  BOOST_TEST(!r.metadata.at("matched").as_bool());
  BOOST_TEST(!r.metadata.contains("matchStart"));
}

BOOST_AUTO_TEST_CASE(matching_is_case_sensitive_unless_ignore_case) {
  const RegexEvaluator sensitive(config(R"({"pattern": "straße"})"));
  BOOST_TEST(*evaluate(sensitive, R"({"output": "STRASSE STRAẞE"})").score == 0.0);
  const RegexEvaluator insensitive(config(R"({"pattern": "straße", "ignore_case": true})"));
  BOOST_TEST(*evaluate(insensitive, R"({"output": "Die STRAẞE"})").score == 1.0);
  const RegexEvaluator greek(config(R"({"pattern": "σοφία", "ignore_case": true})"));
  BOOST_TEST(*evaluate(greek, R"({"output": "ΣΟΦΊΑ"})").score == 1.0);
}

BOOST_AUTO_TEST_CASE(character_classes_understand_unicode) {
  const RegexEvaluator word(config(R"({"pattern": "^\\w+$"})"));
  BOOST_TEST(*evaluate(word, R"({"output": "naïveté"})").score == 1.0);
  const RegexEvaluator dot(config(R"({"pattern": "^.{3}$"})"));
  BOOST_TEST(*evaluate(dot, R"({"output": "日本語"})").score == 1.0);  // 3 characters, 9 bytes
}

BOOST_AUTO_TEST_CASE(negate_scores_one_when_the_pattern_matches_nowhere) {
  const RegexEvaluator evaluator(config(R"({"pattern": "TODO|lorem ipsum|\\[placeholder\\]", "negate": true})"));
  const krino::EvalResult clean = evaluate(evaluator, R"({"output": "A finished answer."})");
  BOOST_TEST(*clean.score == 1.0);
  BOOST_TEST(clean.success);
  BOOST_TEST(clean.reason == "the pattern matches nowhere in the output, as required");
  const krino::EvalResult dirty = evaluate(evaluator, R"({"output": "Intro. TODO: write the rest"})");
  BOOST_TEST(*dirty.score == 0.0);
  BOOST_TEST(!dirty.success);
  BOOST_TEST(dirty.reason == R"(the pattern matches "TODO" at byte 7, and it must not match)");
}

BOOST_AUTO_TEST_CASE(threshold_zero_is_no_must_not_match_check) {
  // The idiom negate replaces: with threshold 0 every score passes, matching or not.
  const RegexEvaluator evaluator(config(R"({"pattern": "TODO", "threshold": 0.0})"));
  BOOST_TEST(evaluate(evaluator, R"({"output": "TODO"})").success);
  BOOST_TEST(evaluate(evaluator, R"({"output": "done"})").success);
}

BOOST_AUTO_TEST_CASE(non_string_outputs_are_searched_as_compact_json) {
  const RegexEvaluator evaluator(config(R"({"pattern": "\"status\":\"ok\""})"));
  BOOST_TEST(*evaluate(evaluator, R"({"output": {"status": "ok", "n": 1}})").score == 1.0);
  const RegexEvaluator number(config(R"({"pattern": "^5\\.0$"})"));
  BOOST_TEST(*evaluate(number, R"({"output": 5.0})").score == 1.0);
  BOOST_TEST(*evaluate(number, R"({"output": 5})").score == 0.0);
}

BOOST_AUTO_TEST_CASE(a_missing_or_null_output_scores_zero_even_when_negated) {
  const RegexEvaluator evaluator(config(R"({"pattern": "x", "negate": true, "output_key": "text"})"));
  const krino::EvalResult missing = evaluate(evaluator, R"({"output": "y"})");
  BOOST_TEST(*missing.score == 0.0);
  BOOST_TEST(missing.reason == "the actual output 'text' is missing (actualOutputs has no such key)");
  const krino::EvalResult null = evaluate(evaluator, R"({"text": null})");
  BOOST_TEST(*null.score == 0.0);
  BOOST_TEST(null.reason == "the actual output 'text' is null");
}

BOOST_AUTO_TEST_CASE(a_long_match_is_cut_in_the_reason) {
  const RegexEvaluator evaluator(config(R"({"pattern": "a+"})"));
  const std::string output = R"({"output": ")" + std::string(150, 'a') + R"("})";
  const krino::EvalResult r = evaluate(evaluator, output);
  BOOST_TEST(r.reason == "the pattern matches \"" + std::string(120, 'a') + "\"…(+30 chars) at byte 0");
}

BOOST_AUTO_TEST_CASE(a_bad_pattern_is_a_configuration_error_with_offset) {
  BOOST_CHECK_EXCEPTION(RegexEvaluator(config(R"({"pattern": "(unclosed"})")), krino::Error,
                        invalid("invalid regular expression at offset 9: missing closing parenthesis"));
  BOOST_CHECK_EXCEPTION(RegexEvaluator(config(R"({"pattern": "a{2,1}"})")), krino::Error,
                        invalid("invalid regular expression at offset 5"));
  BOOST_CHECK_EXCEPTION(RegexEvaluator(config(R"({"pattern": "\\C"})")), krino::Error, invalid("invalid regular expression"));
}

BOOST_AUTO_TEST_CASE(other_configuration_errors) {
  BOOST_CHECK_EXCEPTION(RegexEvaluator(config("{}")), krino::Error, invalid("missing required option 'pattern'"));
  BOOST_CHECK_EXCEPTION(RegexEvaluator(config(R"({"pattern": ""})")), krino::Error, invalid("option 'pattern' must not be empty"));
  BOOST_CHECK_EXCEPTION(RegexEvaluator(config(R"({"pattern": 5})")), krino::Error, invalid("option 'pattern' must be a string"));
  BOOST_CHECK_EXCEPTION(RegexEvaluator(config(R"({"pattern": "x", "mode": "full"})")), krino::Error,
                        invalid("unknown option 'mode'"));
  BOOST_CHECK_EXCEPTION(RegexEvaluator(config(R"({"pattern": "x", "negate": 1})")), krino::Error,
                        invalid("option 'negate' must be true or false"));
}

BOOST_AUTO_TEST_CASE(one_instance_serves_many_threads) {
  const RegexEvaluator evaluator(config(R"json({"pattern": "item-(\\d+)-(\\w+)"})json"));
  std::atomic<int> wrong{0};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 300; ++i) {
        const bool should_match = (i + t) % 2 == 0;
        const std::string output = should_match ? R"({"output": "see item-)" + std::to_string(i) + R"(-x"})"
                                                : R"({"output": "nothing here"})";
        const krino::EvalResult r = evaluate(evaluator, output);
        if ((*r.score == 1.0) != should_match) ++wrong;
      }
    });
  }
  for (auto& thread : threads) thread.join();
  BOOST_TEST(wrong.load() == 0);
}

BOOST_AUTO_TEST_SUITE_END()
