// Recorded traces end to end: the shipped tau-bench experiment through the real binary, an
// experiment mixing trace formats with detection and prices, and `krino extract`.
#include "process.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

using namespace krino::test;
namespace json = boost::json;

namespace {

struct Report {
  std::vector<json::object> items;
  json::object run_summary;
};

Report read_report(const std::string& path) {
  Report report;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    json::object event = json::parse(line).as_object();
    if (event.at("event") == "item_finished") report.items.push_back(std::move(event));
    else if (event.at("event") == "run_finished") report.run_summary = event.at("summary").as_object();
  }
  return report;
}

const json::object& result_named(const json::object& item, const std::string& name) {
  for (const json::value& result : item.at("results").as_array())
    if (result.at("name").as_string() == name) return result.as_object();
  throw std::runtime_error("no result " + name);
}

double cli_trace_score(const json::object& item, const std::string& evaluator) {
  return result_named(item, evaluator).at("score").to_number<double>();
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_traces)

// The acceptance run: 200 tau-bench trajectories replayed through openai_chat with no
// preprocessing (the files resolver's field mapping), scored by tool_trajectory (against
// info.task.actions), tool_error ("Error:" results), tool_efficiency and action_loop_detection.
//
// How the pinned results were checked by hand, from the raw trajectories (traj) and ground truth
// (info.task.actions) of tests/fixtures/shared-data/tau-bench/tau1_historical_gpt-4o-airline.json,
// calls numbered in order from 0, "think" being tau-bench's scratchpad tool (result "" by design):
//  0-0  (reuses call_...oIHazX for get_user_details and calculate, call_...HGn16K for both flight
//       searches). Ground truth: one book_reservation paying 250 + 5 with nonfree_baggages 0. The
//       agent books twice, with nonfree_baggages 1 both times (and 250 + 5, then 250 + 55): no exact
//       match, trajectory 0/1. Call #4 is answered "Error: payment amount does not add up...": 6 of
//       7 judged calls succeed (#5 think ignored). 8 calls, all different (two calculate and two
//       book_reservation calls with different arguments): efficiency 1. No two of the 8 answered
//       actions have the same words: loop detection 1.
//  13-0 (reuses ids, e.g. ...C2EQ95 for a search and an update). Ground truth: transfer_to_human_agents,
//       never called: 0/1. Of 13 judged calls, #5, #6, #9, #10, #11 and #12 return "Error: flight ...
//       not available": 7/13. Repeats: #2 = #0, #6 = #5 (right after it), #10 = #5, #11 = #9:
//       10 distinct of 14. Alike pairs of the 14 actions: (0,2), (5,6), (5,10), (6,10), (9,11):
//       1 - 5/91.
//  14-0 (reuses ...i3QRAH for calculate and update_reservation_flights). Ground truth: five calls;
//       the agent makes four of them in order with the same arguments but writes the calculation
//       as "(350 - 122) * 2 + (499 - 127) * 2", not "2 * ((350 - 122) + (499 - 127))": 4/5. No
//       error, no repeat, no loop.
//  12-0 Ground truth has no action (tau-bench expects no write); the agent made two lookups. With
//       in_order_denominator: expected nothing is required and lookups are free: 1, as tau-bench's
//       state-based reward. Both lookups succeed, differ, and are not alike.
//  6-0  Ground truth: one update_reservation_flights; call #5 has exactly its arguments: 1/1.
//       5 judged calls succeed, 6 distinct, 15 pairs none alike. Reward 1.
// Beyond these five, every score of all 200 items was compared with an independent Python
// reimplementation of the four evaluators over the raw file (tests/support/tau_bench_reference.py:
// per-turn binding, LCS, word sets with Python's own str() of the arguments): no difference.
BOOST_AUTO_TEST_CASE(the_tau_bench_experiment_replays_every_trajectory_through_openai_chat) {
  const std::string results = temp_path("tau-bench.jsonl");
  const ProcessResult r = run_process({krino_binary(), "run", source_path("datasets/tau-bench-airline.yaml"), "--set",
                                       "reporters=[{json: {path: " + results + "}}]"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const Report report = read_report(results);
  std::filesystem::remove(results);
  BOOST_TEST_REQUIRE(report.items.size() == 200u);
  std::map<std::string, const json::object*> by_id;
  for (const json::object& item : report.items) {
    BOOST_TEST(item.at("error").is_null(), item.at("id"));
    BOOST_TEST(item.at("results").as_array().size() == 4u);
    by_id[std::string(item.at("id").as_string())] = &item;
  }
  BOOST_TEST(by_id.size() == 200u);  // ids from the {/task_id}-{/trial} template are unique
  BOOST_TEST(report.run_summary.at("errorCount") == 0);

  const json::object& reused = *by_id.at("0-0");
  BOOST_TEST(cli_trace_score(reused, "tool_trajectory") == 0.0);
  BOOST_TEST(cli_trace_score(reused, "tool_error") == 6.0 / 7.0);
  BOOST_TEST(result_named(reused, "tool_error").at("metadata").at("failedCalls") ==
             json::parse(R"([{"index": 4, "tool": "book_reservation", "rule": "error_pattern", "pattern": "^Error:"}])"));
  BOOST_TEST(cli_trace_score(reused, "tool_efficiency") == 1.0);
  BOOST_TEST(cli_trace_score(reused, "action_loop_detection") == 1.0);
  // The replayed outputs: every call with the result of its own turn, despite the reused ids.
  const json::array& calls = reused.at("actualOutputs").at("toolCalls").as_array();
  BOOST_TEST_REQUIRE(calls.size() == 8u);
  BOOST_TEST(calls[0].at("name") == "get_user_details");
  BOOST_TEST(calls[3].at("name") == "calculate");
  BOOST_TEST(calls[0].at("id") == calls[3].at("id"));
  BOOST_TEST(calls[3].at("result") == "255.0");
  BOOST_TEST(calls[1].at("id") == calls[2].at("id"));
  BOOST_TEST(calls[2].at("result").as_string().starts_with("[[{\"flight_number\": \"HAT057\""));
  BOOST_TEST(reused.at("actualOutputs").at("output").as_string().starts_with("Your flight from New York (JFK) to Seattle"));
  BOOST_TEST(reused.at("metadata") == json::parse(R"({"task_id": 0, "trial": 0, "reward": 0.0})"));

  const json::object& looping = *by_id.at("13-0");
  BOOST_TEST(cli_trace_score(looping, "tool_trajectory") == 0.0);
  BOOST_TEST(cli_trace_score(looping, "tool_error") == 7.0 / 13.0);
  BOOST_TEST(cli_trace_score(looping, "tool_efficiency") == 10.0 / 14.0);
  BOOST_TEST(result_named(looping, "tool_efficiency").at("metadata").at("consecutiveDuplicates") ==
             json::parse(R"(["update_reservation_flights"])"));
  BOOST_TEST(cli_trace_score(looping, "action_loop_detection") == 1.0 - 5.0 / 91.0);

  const json::object& partial = *by_id.at("14-0");
  BOOST_TEST(cli_trace_score(partial, "tool_trajectory") == 0.8);
  BOOST_TEST(cli_trace_score(partial, "tool_error") == 1.0);
  BOOST_TEST(cli_trace_score(partial, "tool_efficiency") == 1.0);
  BOOST_TEST(cli_trace_score(partial, "action_loop_detection") == 1.0);

  const json::object& no_actions = *by_id.at("12-0");
  BOOST_TEST(cli_trace_score(no_actions, "tool_trajectory") == 1.0);
  BOOST_TEST(result_named(no_actions, "tool_trajectory").at("reason").as_string().starts_with("no calls were expected, so none is missing"));
  BOOST_TEST(cli_trace_score(no_actions, "tool_error") == 1.0);
  BOOST_TEST(no_actions.at("metadata").at("reward") == 1.0);

  const json::object& perfect = *by_id.at("6-0");
  for (const char* evaluator : {"tool_trajectory", "tool_error", "tool_efficiency", "action_loop_detection"})
    BOOST_TEST(cli_trace_score(perfect, evaluator) == 1.0, evaluator);
  BOOST_TEST(perfect.at("success") == true);
}

BOOST_AUTO_TEST_CASE(detection_reads_a_dataset_mixing_formats_and_prices_each_model) {
  // Three recordings in three formats in one JSONL dataset, with no extractor named.
  const std::string dir = temp_path("mixed-traces");
  std::filesystem::create_directories(dir);
  const std::string cassettes = source_path("tests/fixtures/shared-data/traces/provider_api_cassettes/");
  std::ofstream data(dir + "/traces.jsonl");
  const auto row = [&](const std::string& id, const std::string& fixture) {
    std::ifstream in(fixture);
    std::stringstream text;
    text << in.rdbuf();
    data << json::serialize(json::object{{"id", id}, {"trace", json::parse(text.str())}}) << "\n";
  };
  row("anthropic", cassettes + "anthropic_messages__anthropic_tool_with_thinking.json");
  row("chat", cassettes + "openai_chat__openai_tool_output.json");
  row("otel", source_path("tests/fixtures/traces/otlp-genai/weather_agent.protobuf-json.json"));
  data << R"({"id": "unreadable", "trace": {"what": "is this"}})" << "\n";
  data.close();
  write_file(dir + "/exp.yaml", R"(name: mixed
dataset: traces.jsonl
task: {kind: replay, extractor: auto}
evaluators: [tool_efficiency]
prices:
  claude-sonnet-4-20250514: {input_per_million: 3, output_per_million: 15}
  gpt-4o: {input_per_million: 2, output_per_million: 10}
min_pass_rate: 0
reporters: [{json: {path: )" + dir + R"(/report.jsonl}}]
)");
  const ProcessResult r = run_process({krino_binary(), "run", dir + "/exp.yaml"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const Report report = read_report(dir + "/report.jsonl");
  BOOST_TEST_REQUIRE(report.items.size() == 4u);
  // Anthropic: (398 * 3 + 155 * 15) + (566 * 3 + 126 * 15) micro-dollars, by the model that answered.
  BOOST_TEST(report.items[0].at("metrics").at("tokensIn") == 964);
  BOOST_TEST(report.items[0].at("metrics").at("costUsd").to_number<double>() == 0.007107, boost::test_tools::tolerance(1e-12));
  // Chat Completions: the dated reply model has no price, the requested gpt-4o has:
  // (68 * 2 + 12 * 10) + (89 * 2 + 36 * 10) = 256 + 538 micro-dollars.
  BOOST_TEST(report.items[1].at("metrics").at("costUsd").to_number<double>() == 0.000794, boost::test_tools::tolerance(1e-12));
  // OTel: gpt-4o-2024-08-06 answered what gpt-4o was asked: (57 * 2 + 16 * 10) + (114 * 2 + 19 * 10).
  BOOST_TEST(report.items[2].at("metrics").at("costUsd").to_number<double>() == 0.000692, boost::test_tools::tolerance(1e-12));
  BOOST_TEST(report.items[2].at("actualOutputs").at("toolCalls").at(0).at("result") == "rainy, 57°F");
  // Nobody recognises the last row: an item error of stage trace, and the run goes on.
  const json::object& error = report.items[3].at("error").as_object();
  BOOST_TEST(error.at("stage") == "trace");
  BOOST_TEST(error.at("component") == "auto");
  BOOST_TEST(error.at("message").as_string().starts_with("no trace extractor recognises this output"));
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_CASE(krino_extract_prints_the_canonical_trace_and_says_why_it_cannot) {
  const std::string cassette =
      source_path("tests/fixtures/shared-data/traces/provider_api_cassettes/anthropic_messages__multiple_parallel_tool_calls.json");
  const ProcessResult detected = run_process({krino_binary(), "extract", cassette});
  BOOST_TEST_REQUIRE(detected.exit_code == 0, detected.err);
  const json::object trace = json::parse(detected.out).as_object();
  BOOST_TEST(trace.at("toolCalls").as_array().size() == 4u);
  BOOST_TEST(detected.out.find("\n  \"toolCalls\": [") != std::string::npos);  // pretty by default

  const ProcessResult compact = run_process({krino_binary(), "extract", "--compact", "-x", "anthropic", "-"},
                                            ProcessOptions{read_file(cassette), {}, {}});
  BOOST_TEST(compact.exit_code == 0, compact.err);
  BOOST_TEST(json::parse(compact.out) == json::value(trace));
  BOOST_TEST(compact.out.find('\n') == compact.out.size() - 1);

  const ProcessResult scores = run_process({krino_binary(), "extract", "--detect", cassette});
  BOOST_TEST(scores.exit_code == 0);
  BOOST_TEST(scores.out.find("95         anthropic          krino.anthropic") != std::string::npos, scores.out);

  const ProcessResult wrong = run_process({krino_binary(), "extract", "-x", "openai_chat", cassette});
  BOOST_TEST(wrong.exit_code == 1);
  BOOST_TEST(wrong.err.find("krino: error: openai_chat: the recording holds 2 exchanges, none of them with the Chat Completions API") == 0u,
             wrong.err);

  const ProcessResult nobody = run_process({krino_binary(), "extract", "-"}, ProcessOptions{"{\"hello\": 1}", {}, {}});
  BOOST_TEST(nobody.exit_code == 1);
  BOOST_TEST(nobody.err.find("no trace extractor recognises this output") != std::string::npos, nobody.err);

  const ProcessResult unknown = run_process({krino_binary(), "extract", "-x", "nope", cassette});
  BOOST_TEST(unknown.exit_code == 2);
  BOOST_TEST(unknown.err.find("no trace extractor named 'nope'") != std::string::npos, unknown.err);

  const ProcessResult missing = run_process({krino_binary(), "extract", temp_path("no-such-trace.json")});
  BOOST_TEST(missing.exit_code == 3);
}

BOOST_AUTO_TEST_CASE(plugins_list_shows_the_trace_extractors) {
  const ProcessResult r = run_process({krino_binary(), "plugins", "list", "--plugins", "openai,anthropic,otel,langsmith,langchain4j"});
  BOOST_TEST(r.exit_code == 0, r.err);
  for (const char* line : {"trace-extractor   openai_chat            krino.openai_chat",
                           "trace-extractor   openai_responses       krino.openai_responses",
                           "trace-extractor   anthropic              krino.anthropic", "trace-extractor   otel                   krino.otel",
                           "trace-extractor   langsmith              krino.langsmith",
                           "trace-extractor   langchain4j            krino.langchain4j"})
    BOOST_TEST(r.out.find(line) != std::string::npos, line);
}

// R1: the extractor quotes the first 40 bytes of a trace it cannot read; "a" + "é"x30 puts the
// cut inside the 20th "é". The item error must still be valid UTF-8, so the console and every
// reader of the JSON Lines report take it.
BOOST_AUTO_TEST_CASE(an_unreadable_trace_is_quoted_without_splitting_a_character) {
  const std::string dir = temp_path("utf8-cut-trace");
  std::filesystem::create_directories(dir);
  std::string trace = "a";
  for (int i = 0; i < 30; ++i) trace += "\xC3\xA9";
  write_file(dir + "/d.jsonl", json::serialize(json::object{{"id", "x"}, {"input", "q"}, {"trace", trace}}) + "\n");
  write_file(dir + "/exp.yaml", R"(name: cut
dataset: d.jsonl
task: {kind: replay, extractor: openai_chat}
evaluators: [tool_efficiency]
min_pass_rate: 0
reporters: [console, {json: {path: )" + dir + R"(/report.jsonl}}]
)");
  const ProcessResult r = run_process({krino_binary(), "run", dir + "/exp.yaml"});
  // Exit 1: the only item is an error, so nothing was measured; the console took the message.
  BOOST_TEST_REQUIRE(r.exit_code == 1, r.err);
  const Report report = read_report(dir + "/report.jsonl");  // throws on invalid UTF-8
  BOOST_TEST_REQUIRE(report.items.size() == 1u);
  std::string quoted = "it begins: a";
  for (int i = 0; i < 19; ++i) quoted += "\xC3\xA9";
  const std::string message(report.items[0].at("error").at("message").as_string());
  BOOST_TEST(message.size() >= quoted.size());
  BOOST_TEST(message.substr(message.size() - quoted.size()) == quoted, message);
  std::filesystem::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
