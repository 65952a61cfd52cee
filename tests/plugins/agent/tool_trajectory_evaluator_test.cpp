#include "tool_trajectory_evaluator.h"

#include "agent_test_support.hpp"

#include <krino/json_parse.hpp>
#include <krino/plugin/test_case_document.hpp>

#include <memory>
#include <string>
#include <vector>

using namespace krino::agent;
using namespace krino::agent::testing;
using krino::EvalResult;
namespace tt = boost::test_tools;

namespace {

std::string mode(std::string_view name) { return "{\"match_mode\":\"" + std::string(name) + "\"}"; }

double tool_trajectory_evaluator_score(const std::string& options, std::string_view actual, std::string_view expected) {
  return *evaluate(ToolTrajectoryEvaluator(config(options)), calls_case(actual, expected)).score;
}

// Name-only calls: "a,x,b" -> [{"name":"a"},{"name":"x"},{"name":"b"}].
std::string calls(std::string_view names) {
  std::string out = "[";
  std::size_t start = 0;
  while (start < names.size()) {
    const std::size_t comma = names.find(',', start);
    const std::size_t end = comma == std::string_view::npos ? names.size() : comma;
    if (out.size() > 1) out += ",";
    out += "{\"name\":\"" + std::string(names.substr(start, end - start)) + "\"}";
    start = end + 1;
  }
  return out + "]";
}

double names(std::string_view mode_name, std::string_view actual, std::string_view expected) {
  return tool_trajectory_evaluator_score(mode(mode_name), calls(actual), calls(expected));
}

// The result of evaluating the test case `text` as the host sends it (bytes, parsed lazily, where
// byte-identical lists share one parse), as JSON text.
std::string result_from_text(const ToolTrajectoryEvaluator& evaluator, const std::string& text) {
  auto document = std::make_unique<krino::detail::TestCaseDocument>();
  document->reset(1, text);
  const krino::TestCase test_case(*document);
  krino::CallContext ctx(nullptr, nullptr);
  std::string out;
  evaluator.evaluate(test_case, ctx).append_json(out);
  return out;
}

// The same test case parsed whole up front, each list a value of its own.
std::string result_from_value(const ToolTrajectoryEvaluator& evaluator, const std::string& text) {
  std::string out;
  evaluate(evaluator, krino::json::parse(text).as_object()).append_json(out);
  return out;
}

std::string lists_case(std::string_view actual, std::string_view expected) {
  return R"({"inputs":{},"actualOutputs":{"toolCalls":)" + std::string(actual) + R"(},"expectedOutputs":{"toolCalls":)" +
         std::string(expected) + R"(},"metadata":{}})";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(tool_trajectory)

// An agent that made exactly the expected calls sends two byte-identical lists, read through one
// parse: the results are those of two separate values, hostile contents included. 1e400 is
// infinity, which equals nothing, itself included, so the call holding it never matches.
BOOST_AUTO_TEST_CASE(identical_lists_read_once_score_as_two_lists) {
  const std::vector<std::string> lists = {
      R"([{"name":"se\u0061rch","arguments":{"q":"caf\u00e9","n":0.1}},{"name":"f","arguments":{"x":1e400}}])",
      R"([{"name":"a","name":"b","arguments":{"k":1,"k":2}},{"name":"b","arguments":"{\"k\":2,\"k\":0.1}"}])",
      R"([{"id":"c","type":"function","function":{"name":"g\"q","arguments":"{}"},"result":null}])",
      R"([])",
  };
  for (const char* mode_name : {"strict", "in_order", "any_order", "recall"}) {
    const ToolTrajectoryEvaluator evaluator(config(mode(mode_name)));
    for (const std::string& list : lists) {
      BOOST_TEST_CONTEXT(mode_name << " " << list) {
        const std::string text = lists_case(list, list);
        BOOST_TEST(result_from_text(evaluator, text) == result_from_value(evaluator, text));
        // White space makes the bytes differ: two parses, the same result.
        BOOST_TEST(result_from_text(evaluator, lists_case(list, " " + list)) == result_from_value(evaluator, text));
      }
    }
  }
  const ToolTrajectoryEvaluator in_order(config(mode("in_order")));
  BOOST_TEST(result_from_text(in_order, lists_case(lists[0], lists[0])).find(R"("score":0.5,)") != std::string::npos);
  BOOST_TEST(result_from_text(in_order, lists_case(lists[0], lists[0])).find(R"("tool":"search")") != std::string::npos);
}

// Identical lists with a bad call or bad bytes fail as the expected list, read first, always did.
BOOST_AUTO_TEST_CASE(identical_bad_lists_fail_on_the_expected_list) {
  const ToolTrajectoryEvaluator evaluator(config("{}"));
  BOOST_CHECK_EXCEPTION(result_from_text(evaluator, lists_case(R"([{"name":""}])", R"([{"name":""}])")), krino::Error,
                        invalid("'expectedOutputs.toolCalls'[0]: a tool call needs a non-empty 'name'"));
  const std::string bad_utf8 = "[{\"name\":\"a\xff\"}]";
  BOOST_CHECK_EXCEPTION(result_from_text(evaluator, lists_case(bad_utf8, bad_utf8)), krino::Error,
                        invalid("test case 'expectedOutputs.toolCalls' is not valid JSON"));
}

BOOST_AUTO_TEST_CASE(default_mode_is_in_order) {
  const EvalResult r = evaluate(ToolTrajectoryEvaluator(config("{}")), calls_case(calls("a,b"), calls("a,b")));
  BOOST_TEST(r.metadata_object().at("matchMode").as_string() == "in_order");
  BOOST_TEST(r.name == "tool_trajectory");
  BOOST_TEST(*r.threshold == 1.0);
  BOOST_TEST(*r.score == 1.0);
  BOOST_TEST(r.success);
}

BOOST_AUTO_TEST_CASE(strict_needs_the_same_calls_in_the_same_order) {
  BOOST_TEST(names("strict", "a,b", "a,b") == 1.0);
  BOOST_TEST(names("strict", "b,a", "a,b") == 0.0);
  BOOST_TEST(names("strict", "a,b,c", "a,b") == 0.0);
  BOOST_TEST(names("strict", "a", "a,b") == 0.0);
  const EvalResult r = evaluate(ToolTrajectoryEvaluator(config(mode("strict"))), calls_case(calls("a,c"), calls("a,b")));
  BOOST_TEST(r.metadata_object().at("firstMismatch").to_number<std::uint64_t>() == 1u);
  BOOST_TEST(r.reason.find("call 1 does not match (expected b, got c)") == 0u);
}

// As the reference: in_order divides the longest common subsequence by the longer list, so extra
// actual calls lower it.
BOOST_AUTO_TEST_CASE(in_order_is_lcs_over_the_longer_list_by_default) {
  BOOST_TEST(names("in_order", "a,x,b", "a,b") == 2.0 / 3.0, tt::tolerance(1e-12));
  BOOST_TEST(names("in_order", "b,a", "a,b") == 0.5);
  BOOST_TEST(names("in_order", "a", "a,b,c") == 1.0 / 3.0, tt::tolerance(1e-12));
  BOOST_TEST(names("in_order", "c,a,b", "a,b,c") == 2.0 / 3.0, tt::tolerance(1e-12));
  BOOST_TEST(names("in_order", "", "a,b") == 0.0);
  const EvalResult r = evaluate(ToolTrajectoryEvaluator(config(mode("in_order"))), calls_case(calls("a,x,b"), calls("a,b")));
  BOOST_TEST(r.metadata_object().at("matchedPairs") ==
             json(R"([{"actual":0,"expected":0,"tool":"a"},{"actual":2,"expected":1,"tool":"b"}])"));
  BOOST_TEST(r.metadata_object().at("unmatchedActual") == json(R"([{"index":1,"tool":"x"}])"));
  BOOST_TEST(r.metadata_object().at("inOrderDenominator") == "longer");
  BOOST_TEST(r.reason == "2 of 3 calls match in order (3 made, 2 expected) (in_order, arguments: exact)");
}

// krino's earlier rule, kept as an option: over the expected calls, extras are free.
BOOST_AUTO_TEST_CASE(in_order_over_the_expected_calls_allows_extra_calls) {
  const std::string options = R"({"match_mode":"in_order","in_order_denominator":"expected"})";
  BOOST_TEST(tool_trajectory_evaluator_score(options, calls("a,x,b"), calls("a,b")) == 1.0);
  BOOST_TEST(tool_trajectory_evaluator_score(options, calls("b,a"), calls("a,b")) == 0.5);
  BOOST_TEST(tool_trajectory_evaluator_score(options, calls(""), calls("a,b")) == 0.0);
  const EvalResult r = evaluate(ToolTrajectoryEvaluator(config(options)), calls_case(calls("a,x,b"), calls("a,b")));
  BOOST_TEST(r.metadata_object().at("inOrderDenominator") == "expected");
  BOOST_TEST(r.reason == "2 of 2 expected calls appear in order (in_order, arguments: exact)");
}

// An empty expected list: over the longer list it says "call no tool" (0 when calls were made);
// over the expected list nothing was required, and every call is an allowed extra (1).
BOOST_AUTO_TEST_CASE(an_empty_expected_list_under_each_denominator) {
  const EvalResult longer = evaluate(ToolTrajectoryEvaluator(config(mode("in_order"))), calls_case(calls("a,b"), "[]"));
  BOOST_TEST(*longer.score == 0.0);
  BOOST_TEST(longer.reason == "no calls were expected but 2 calls were made (in_order, arguments: exact)");
  const EvalResult one = evaluate(ToolTrajectoryEvaluator(config(mode("in_order"))), calls_case(calls("a"), "[]"));
  BOOST_TEST(one.reason == "no calls were expected but 1 call was made (in_order, arguments: exact)");

  const EvalResult extras = evaluate(ToolTrajectoryEvaluator(config(R"({"in_order_denominator":"expected"})")),
                                     calls_case(calls("a,b"), "[]"));
  BOOST_TEST(*extras.score == 1.0);
  BOOST_TEST(extras.reason == "no calls were expected, so none is missing; the 2 calls made are extras, which "
                              "in_order_denominator: expected allows (in_order, arguments: exact)");
  for (const char* denominator : {"longer", "expected"}) {
    const EvalResult none = evaluate(
        ToolTrajectoryEvaluator(config("{\"in_order_denominator\":\"" + std::string(denominator) + "\"}")), calls_case("[]", "[]"));
    BOOST_TEST(*none.score == 1.0);
    BOOST_TEST(none.reason == "no calls were expected and none were made (in_order, arguments: exact)");
  }
  BOOST_CHECK_EXCEPTION(ToolTrajectoryEvaluator(config(R"({"in_order_denominator":"actual"})")), krino::Error,
                        invalid("in_order_denominator"));
}

BOOST_AUTO_TEST_CASE(any_order_is_pairs_over_the_longer_list) {
  BOOST_TEST(names("any_order", "b,a", "a,b") == 1.0);
  BOOST_TEST(names("any_order", "b,a,x", "a,b") == 2.0 / 3.0, tt::tolerance(1e-12));
  BOOST_TEST(names("any_order", "a", "a,a") == 0.5);
  BOOST_TEST(names("any_order", "", "a") == 0.0);
}

BOOST_AUTO_TEST_CASE(superset_and_subset_are_binary) {
  BOOST_TEST(names("superset", "a,x,b", "b,a") == 1.0);
  BOOST_TEST(names("superset", "a", "a,b") == 0.0);
  BOOST_TEST(names("superset", "a", "a,a") == 0.0);
  BOOST_TEST(names("subset", "a", "a,b") == 1.0);
  BOOST_TEST(names("subset", "a,x", "a,b") == 0.0);
  BOOST_TEST(names("subset", "a,a", "a") == 0.0);
  BOOST_TEST(names("subset", "", "a") == 1.0);
  BOOST_TEST(names("superset", "a", "") == 1.0);
}

BOOST_AUTO_TEST_CASE(precision_and_recall_are_graded) {
  BOOST_TEST(names("precision", "a,x,b,y", "a,b") == 0.5);
  BOOST_TEST(names("precision", "", "a") == 0.0);
  BOOST_TEST(names("recall", "a", "a,b,c") == 1.0 / 3.0, tt::tolerance(1e-12));
  BOOST_TEST(names("recall", "a", "") == 0.0);
  BOOST_TEST(names("recall", "b,a,c", "a,b") == 1.0);
}

BOOST_AUTO_TEST_CASE(both_empty_scores_one_in_every_mode) {
  for (const char* name : {"strict", "in_order", "any_order", "superset", "subset", "precision", "recall"}) {
    BOOST_TEST_INFO(name);
    BOOST_TEST(names(name, "", "") == 1.0);
  }
}

// An expected call with {} is not a wildcard under exact.
BOOST_AUTO_TEST_CASE(empty_expected_arguments_match_only_empty_actual_arguments_by_default) {
  const char* expected = R"([{"name":"search_flights","arguments":{}},{"name":"book_hotel","arguments":{}}])";
  const char* actual = R"([{"name":"search_flights","arguments":{"from":"SFO","to":"JFK"}},
                           {"name":"book_hotel","arguments":{"city":"New York","nights":2}}])";
  const EvalResult r = evaluate(ToolTrajectoryEvaluator(config("{}")), calls_case(actual, expected));
  BOOST_TEST(*r.score == 0.0);
  BOOST_TEST(r.metadata_object().at("matchedCount").to_number<std::uint64_t>() == 0u);
  BOOST_TEST(tool_trajectory_evaluator_score(R"({"arg_match_mode":"ignore"})", actual, expected) == 1.0);
  BOOST_TEST(tool_trajectory_evaluator_score(R"({"arg_match_mode":"subset"})", actual, expected) == 1.0);
  BOOST_TEST(tool_trajectory_evaluator_score(R"({"arg_match_mode":"superset"})", actual, expected) == 0.0);
}

// Repeated names with differing per-tool matchers need maximum matching.
BOOST_AUTO_TEST_CASE(unordered_modes_use_maximum_matching) {
  const std::string options = R"({"match_mode":"recall","per_tool":{"s":{"arg_match_mode":"subset"}}})";
  const char* actual = R"([{"name":"s","arguments":{"q":"a"}},{"name":"s","arguments":{"q":"b"}}])";
  const char* expected = R"([{"name":"s","arguments":{}},{"name":"s","arguments":{"q":"a"}}])";
  BOOST_TEST(tool_trajectory_evaluator_score(options, actual, expected) == 1.0);
  const EvalResult r = evaluate(ToolTrajectoryEvaluator(config(options)), calls_case(actual, expected));
  BOOST_TEST(r.metadata_object().at("matchedPairs") ==
             json(R"([{"actual":0,"expected":1,"tool":"s"},{"actual":1,"expected":0,"tool":"s"}])"));
  BOOST_TEST(r.metadata_object().at("argumentMatching").at("per_tool").at("s").at("arg_match_mode").as_string() == "subset");
}

BOOST_AUTO_TEST_CASE(per_tool_overrides_inherit_and_are_keyed_by_expected_name) {
  const std::string options =
      R"({"match_mode":"any_order","trim_strings":true,"per_tool":{"book_hotel":{"ignore_case":true}}})";
  const char* expected = R"([{"name":"search","arguments":{"q":"Paris"}},{"name":"book_hotel","arguments":{"city":"Paris"}}])";
  // book_hotel: trim inherited, case ignored; search: trim only, so "paris" does not match.
  const char* actual = R"([{"name":"search","arguments":{"q":" paris"}},{"name":"book_hotel","arguments":{"city":" PARIS "}}])";
  BOOST_TEST(tool_trajectory_evaluator_score(options, actual, expected) == 0.5);
}

BOOST_AUTO_TEST_CASE(numbers_by_value_and_argument_strings) {
  BOOST_TEST(tool_trajectory_evaluator_score(mode("strict"), R"([{"name":"f","arguments":"{\"n\":1.0,\"l\":[2.0]}"}])",
                   R"([{"name":"f","arguments":{"n":1,"l":[2]}}])") == 1.0);
  BOOST_TEST(tool_trajectory_evaluator_score(mode("strict"), R"([{"name":"f","arguments":{"n":"1"}}])", R"([{"name":"f","arguments":{"n":1}}])") ==
             0.0);
}

BOOST_AUTO_TEST_CASE(missing_and_malformed_inputs) {
  const ToolTrajectoryEvaluator evaluator(config(R"({"tool_calls_key":"steps"})"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, test_case(R"({"steps":[]})", R"({"toolCalls":[]})")), krino::Error,
                        invalid("expectedOutputs has no 'steps'"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, test_case(R"({"steps":{"name":"a"}})", R"({"steps":[]})")), krino::Error,
                        invalid("'actualOutputs.steps' must be a list"));
  BOOST_CHECK_EXCEPTION(evaluate(evaluator, test_case(R"({"steps":[]})", R"({"steps":[{"name":"a","arguments":"{x"}]})")),
                        krino::Error, invalid("'expectedOutputs.steps'[0]: 'arguments' is a string that is not valid JSON"));
  BOOST_CHECK_EXCEPTION(ToolTrajectoryEvaluator(config(R"({"match_mode":"unordered"})")), krino::Error,
                        invalid("match_mode"));
  BOOST_CHECK_EXCEPTION(ToolTrajectoryEvaluator(config(R"({"threshold":2})")), krino::Error, invalid("threshold"));
}

BOOST_AUTO_TEST_SUITE_END()
