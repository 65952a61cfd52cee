// Dokimos' agent quick start (a travel agent that searches flights and books a hotel), scored with
// krino's deterministic evaluators. The quick start runs two judge evaluators too (task completion and
// argument hallucination); this plugin has neither, so they are left out.
#include "tool_call_validity_evaluator.h"
#include "tool_correctness_evaluator.h"
#include "tool_trajectory_evaluator.h"

#include "agent_test_support.hpp"

#include <string>

using namespace krino::agent;
using namespace krino::agent::testing;
using krino::EvalResult;

namespace {

// The seed names its schemas (flightSchema, hotelSchema) without printing them; these are the
// smallest schemas its calls satisfy.
constexpr const char* kSeedExamplesTools = R"([
  {"name": "search_flights", "description": "Search for available flights",
   "parameters": {"type": "object", "properties": {"origin": {"type": "string"}, "destination": {"type": "string"}},
                  "required": ["origin", "destination"]}},
  {"name": "book_hotel", "description": "Book a hotel room",
   "parameters": {"type": "object", "properties": {"city": {"type": "string"}, "nights": {"type": "integer"}},
                  "required": ["city", "nights"]}}])";

// The trace and the test case of the quick start: two calls made with real arguments, the same two
// expected with empty arguments.
boost::json::object travel_case() {
  boost::json::object document = test_case(
      R"({"toolCalls": [{"name": "search_flights", "arguments": {"origin": "JFK", "destination": "CDG"}},
                        {"name": "book_hotel", "arguments": {"city": "Paris", "nights": 5}}],
          "output": "Found flights and booked your hotel in Paris."})",
      R"({"toolCalls": [{"name": "search_flights", "arguments": {}}, {"name": "book_hotel", "arguments": {}}]})");
  document["inputs"] = boost::json::object{{"input", "Find flights from NYC to Paris and book a hotel for 5 nights"}};
  document["metadata"] = boost::json::object{{"tools", boost::json::parse(kSeedExamplesTools)},
                                             {"tasks", boost::json::array{"Search for flights", "Book a hotel"}}};
  return document;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(agent_seed_examples)

// Quick start step 5: the default ToolCallValidityEvaluator; both calls fit their schemas.
BOOST_AUTO_TEST_CASE(travel_agent_quick_start_tool_call_validity) {
  const EvalResult r = evaluate(ToolCallValidityEvaluator(config("{}")), travel_case());
  BOOST_TEST(r.name == "tool_call_validity");
  BOOST_TEST(*r.score == 1.0);
  BOOST_TEST(*r.threshold == 1.0);
  BOOST_TEST(r.success);
}

// Quick start step 5: the default ToolCorrectnessEvaluator compares the sets of names (F1), so the
// empty expected arguments do not matter.
BOOST_AUTO_TEST_CASE(travel_agent_quick_start_tool_correctness) {
  const EvalResult r = evaluate(ToolCorrectnessEvaluator(config("{}")), travel_case());
  BOOST_TEST(r.name == "tool_correctness");
  BOOST_TEST(r.metadata.at("matchMode").as_string() == "names_only");
  BOOST_TEST(*r.score == 1.0);
  BOOST_TEST(r.success);
}

// The trajectory example on the same test case, IN_ORDER with the default matcher: the expected
// calls' empty arguments are not wildcards, so no call matches.
BOOST_AUTO_TEST_CASE(travel_agent_trajectory_in_order_with_the_default_matcher) {
  const EvalResult r = evaluate(ToolTrajectoryEvaluator(config(R"({"match_mode": "in_order"})")), travel_case());
  BOOST_TEST(*r.score == 0.0);
  BOOST_TEST(!r.success);
  BOOST_TEST(r.metadata_object().at("matchedCount").to_number<std::uint64_t>() == 0u);
  // The quick start's remedy, names and order only: ArgMatchMode.IGNORE.
  const EvalResult names = evaluate(
      ToolTrajectoryEvaluator(config(R"({"match_mode": "in_order", "arg_match_mode": "ignore"})")), travel_case());
  BOOST_TEST(*names.score == 1.0);
  BOOST_TEST(names.success);
}

// The trajectory example with a per-tool override: ANY_ORDER, the default matcher for every tool and
// SUBSET for book_hotel. book_hotel's {} is a subset of the actual arguments; search_flights still
// needs equal arguments. One pair over the longer list of two.
BOOST_AUTO_TEST_CASE(travel_agent_trajectory_any_order_with_a_book_hotel_override) {
  const EvalResult r = evaluate(
      ToolTrajectoryEvaluator(config(R"({"match_mode": "any_order", "per_tool": {"book_hotel": {"arg_match_mode": "subset"}}})")),
      travel_case());
  BOOST_TEST(*r.score == 0.5);
  BOOST_TEST(!r.success);
  BOOST_TEST(r.metadata_object().at("matchedPairs") == json(R"([{"actual": 1, "expected": 1, "tool": "book_hotel"}])"));
}

BOOST_AUTO_TEST_SUITE_END()
