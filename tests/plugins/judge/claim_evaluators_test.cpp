// faithfulness and hallucination: one judge call splits the output into claims and judges each.
#include "faithfulness_evaluator.h"
#include "hallucination_evaluator.h"
#include "judge_test_support.hpp"

namespace {

using krino::judge::FaithfulnessEvaluator;
using krino::judge::HallucinationEvaluator;
using namespace krino::judge::testing;

const std::string kCase =
    R"({"inputs":{"input":"What does it cost?"},"actualOutputs":{"output":"The product costs $500 and ships free.",)"
    R"("context":["The product costs $100.","Shipping is free."]},"expectedOutputs":{},"metadata":{}})";

const std::string kTwoOfThree =
    R"({"claims":[{"claim":"costs $500","verdict":"no","reason":"context says $100"},)"
    R"({"claim":"ships free","verdict":"yes","reason":"stated"},{"claim":"in stock","verdict":"IDK"}]})";

BOOST_AUTO_TEST_SUITE(faithfulness)

BOOST_AUTO_TEST_CASE(score_is_supported_over_all_claims_with_per_claim_verdicts) {
  ScriptedJudge judge;
  judge.reply(kTwoOfThree);
  const auto result = result_of(run<FaithfulnessEvaluator>(judge, "{}", kCase));
  BOOST_TEST(score_of(result) == 1.0 / 3.0);
  BOOST_TEST(!result.at("success").as_bool());  // default threshold 0.8
  BOOST_TEST(result.at("threshold").to_number<double>() == 0.8);
  const auto& metadata = result.at("metadata").as_object();
  BOOST_TEST(metadata.at("supportedClaims").to_number<int>() == 1);
  BOOST_TEST(metadata.at("totalClaims").to_number<int>() == 3);
  const auto& claims = metadata.at("claims").as_array();
  BOOST_TEST_REQUIRE(claims.size() == 3u);
  BOOST_TEST(claims[0].at("claim").as_string() == "costs $500");
  BOOST_TEST(claims[0].at("verdict").as_string() == "no");
  BOOST_TEST(claims[2].at("verdict").as_string() == "idk");  // any case accepted, stored lower case

  const std::string prompt = judge.prompt();
  BOOST_TEST(contains(prompt, "The product costs $500 and ships free."));
  BOOST_TEST(contains(prompt, "[1] The product costs $100.\n\n[2] Shipping is free."));
  BOOST_TEST(judge.request().at("response_format").as_string() == "json");
}

BOOST_AUTO_TEST_CASE(context_in_metadata_is_found_as_in_the_docs_example) {
  ScriptedJudge judge;
  judge.reply(R"({"claims":[{"claim":"costs $500","verdict":"no"}]})");
  const auto result = result_of(run<FaithfulnessEvaluator>(
      judge, "{}",
      R"({"inputs":{},"actualOutputs":{"output":"The product costs $500"},"expectedOutputs":{},)"
      R"("metadata":{"context":["The product costs $100"]}})"));
  BOOST_TEST(score_of(result) == 0.0);
  BOOST_TEST(!result.at("success").as_bool());
  BOOST_TEST(contains(judge.prompt(), "[1] The product costs $100"));
}

BOOST_AUTO_TEST_CASE(no_claims_scores_one) {
  ScriptedJudge judge;
  judge.reply(R"({"claims":[]})");
  const auto result = result_of(run<FaithfulnessEvaluator>(judge, "{}", kCase));
  BOOST_TEST(score_of(result) == 1.0);
  BOOST_TEST(result.at("success").as_bool());
}

BOOST_AUTO_TEST_CASE(missing_context_output_and_bad_replies_are_item_errors) {
  ScriptedJudge judge;
  const auto no_context = run<FaithfulnessEvaluator>(
      judge, "{}", R"({"inputs":{},"actualOutputs":{"output":"x"},"expectedOutputs":{},"metadata":{}})");
  BOOST_TEST(no_context.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(contains(no_context.error, "'actualOutputs.context' or 'metadata.context'"));
  BOOST_TEST(judge.calls() == 0u);

  judge.reply(R"({"claims":[{"claim":"x","verdict":"maybe"}]})").reply("no JSON here");
  const auto bad_verdict = run<FaithfulnessEvaluator>(judge, "{}", kCase);
  BOOST_TEST(bad_verdict.status == KRINO_INTERNAL);
  BOOST_TEST(contains(bad_verdict.error, "without a verdict of yes, no or idk"));
  const auto prose = run<FaithfulnessEvaluator>(judge, "{}", kCase);
  BOOST_TEST(prose.status == KRINO_INTERNAL);
  BOOST_TEST(contains(prose.error, "no JSON here"));
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(hallucination)

BOOST_AUTO_TEST_CASE(score_is_unsupported_over_all_and_success_is_inverted) {
  ScriptedJudge judge;
  const std::string reply =
      R"({"statements":[{"statement":"costs $500","verdict":"no"},{"statement":"ships free","verdict":"yes"},)"
      R"({"statement":"in stock","verdict":"idk"}]})";
  judge.reply(reply).reply(reply);
  const auto lenient = result_of(run<HallucinationEvaluator>(judge, R"({"threshold":0.7})", kCase));
  BOOST_TEST(score_of(lenient) == 2.0 / 3.0);
  BOOST_TEST(lenient.at("success").as_bool());  // 0.67 <= 0.7: lower is better
  const auto strict = result_of(run<HallucinationEvaluator>(judge, R"({"threshold":0.3})", kCase));
  BOOST_TEST(!strict.at("success").as_bool());  // 0.67 > 0.3
  const auto& metadata = strict.at("metadata").as_object();
  BOOST_TEST(metadata.at("unsupportedStatements").to_number<int>() == 2);
  BOOST_TEST(metadata.at("statements").as_array().size() == 3u);
  BOOST_TEST(contains(judge.prompt(), "statements"));
}

BOOST_AUTO_TEST_CASE(no_statements_scores_zero_and_passes) {
  ScriptedJudge judge;
  judge.reply(R"(```json
{"statements": []}
```)");
  const auto result = result_of(run<HallucinationEvaluator>(judge, "{}", kCase));
  BOOST_TEST(score_of(result) == 0.0);
  BOOST_TEST(result.at("success").as_bool());
  BOOST_TEST(result.at("threshold").to_number<double>() == 0.5);
}

BOOST_AUTO_TEST_CASE(judge_unavailable_is_an_item_error) {
  ScriptedJudge judge;
  judge.fail(KRINO_UNAVAILABLE, "no LLM judge is configured in this host");
  const auto outcome = run<HallucinationEvaluator>(judge, "{}", kCase);
  BOOST_TEST(outcome.status == KRINO_UNAVAILABLE);
  BOOST_TEST(contains(outcome.error, "no LLM judge is configured"));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
