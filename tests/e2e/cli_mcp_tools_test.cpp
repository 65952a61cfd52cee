// krino mcp's evaluation and store tools end to end: the real binary on stdio with the text and
// judge plugins, a results store in a temporary directory, and the fake OpenAI-compatible server for
// judges. run_evaluation must score exactly as `krino run` does on the same input (issue 18).
#include "json_lines.hpp"
#include "process.hpp"

#include "fake_llm_server.hpp"
#include "script.hpp"
#include "serve_process.hpp"
#include "test_http_client.hpp"

#include <krino/json_parse.hpp>
#include <krino/json_text.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <set>
#include <sstream>
#include <vector>

using namespace krino::test;
namespace json = boost::json;
namespace fake = krino::fake_llm;

namespace {

constexpr const char* kToolsJudgeKey = "sk-mcp-e2e-3b1f-must-not-leak";

// A scratch directory with a results store; each session is one `krino mcp` process over it.
struct McpTools {
  std::string dir = temp_path("mcp-tools");
  std::string data = dir + "/data";
  int next_id = 1;

  McpTools() { std::filesystem::create_directories(dir); }
  ~McpTools() { std::filesystem::remove_all(dir); }

  static std::string call_line(int id, const std::string& tool, const json::object& arguments, bool progress = false) {
    json::object params{{"name", tool}, {"arguments", arguments}};
    if (progress) params["_meta"] = json::object{{"progressToken", "p" + std::to_string(id)}};
    return krino::json::to_compact_json(json::object{{"jsonrpc", "2.0"}, {"id", id}, {"method", "tools/call"}, {"params", params}});
  }

  // Every message the session wrote, after `lines` and the end of its input.
  std::vector<json::object> session(const std::vector<std::string>& lines, ProcessResult& process) const {
    std::string input;
    for (const std::string& line : lines) input.append(line).append("\n");
    ProcessOptions options;
    options.stdin_text = input;
    // The gate writes a missing baseline only off CI; the suite itself runs on CI, so the session is a local one.
    options.environment = {std::string("KRINO_E2E_KEY=") + kToolsJudgeKey, "CI=", "GITHUB_ACTIONS=", "KRINO_UPDATE_BASELINE="};
    process = run_process({krino_binary(), "mcp", "--plugins", "text,judge,files", "--data-dir", data}, options);
    std::vector<json::object> messages;
    std::istringstream out(process.out);
    std::string line;
    while (std::getline(out, line)) {
      json::error_code ec;
      json::value message = krino::json::parse(line, ec);
      BOOST_TEST_REQUIRE(!ec, "standard output holds something else than a protocol message: " << line);
      messages.push_back(message.as_object());
    }
    return messages;
  }

  // One tool call in a session of its own: its result (content, structuredContent, isError).
  json::object call(const std::string& tool, const json::object& arguments) {
    ProcessResult process;
    const std::vector<json::object> messages = session({call_line(next_id, tool, arguments)}, process);
    BOOST_TEST(process.exit_code == 0, process.err);
    BOOST_TEST_REQUIRE(messages.size() == 1u, process.out << process.err);
    BOOST_TEST_REQUIRE(messages[0].contains("result"), krino::json::to_compact_json(messages[0]));
    ++next_id;
    return messages[0].at("result").as_object();
  }

  json::object structured(const std::string& tool, const json::object& arguments) {
    json::object result = call(tool, arguments);
    BOOST_TEST_REQUIRE(result.at("isError") == json::value(false), krino::json::to_compact_json(result));
    // The text block carries the same JSON, for clients that read only text.
    BOOST_TEST(krino::json::parse(result.at("content").at(0).at("text").as_string()) == result.at("structuredContent"));
    return result.at("structuredContent").as_object();
  }

  // The message of a tool error (isError: true).
  std::string tool_error(const std::string& tool, const json::object& arguments) {
    json::object result = call(tool, arguments);
    BOOST_TEST(result.at("isError") == json::value(true), krino::json::to_compact_json(result));
    return std::string(result.at("content").at(0).at("text").as_string());
  }
};

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// The capitals sample as an experiment in `dir`, reporting to `report` (krino run's side).
std::string capitals_experiment(const std::string& dir, const std::string& report) {
  const std::string path = dir + "/capitals.yaml";
  write_file(path, "name: capitals\ndataset: " + source_path("datasets/capitals.jsonl") +
                       "\ntask: replay\nevaluators:\n"
                       "  - use: exact_match\n    ignore_case: true\n    trim_whitespace: true\n"
                       "  - use: regex\n    name: starts_with_capital_letter\n    pattern: \"^[A-Z]\"\n"
                       "  - use: length\n    name: short_answer\n    unit: words\n    max: 3\n"
                       "reporters:\n  - json: {path: " + report + "}\nmin_pass_rate: 0.6\n");
  return path;
}

// The experiment_finished summary and the items of a `krino run` JSON Lines report.
struct Report {
  json::object summary;
  std::vector<json::object> items;
};

Report read_report(const std::string& path) {
  Report report;
  for (json::object& event : json_lines(path)) {
    if (event.at("event") == json::value("experiment_finished")) report.summary = event.at("summary").as_object();
    if (event.at("event") == json::value("item_finished")) report.items.push_back(std::move(event));
  }
  return report;
}

ProcessResult krino_run(const std::string& experiment) {
  ProcessOptions options;
  options.environment = {std::string("KRINO_E2E_KEY=") + kToolsJudgeKey};
  return run_process({krino_binary(), "run", experiment, "--plugins", "text,judge,files,json"}, options);
}

// The ids of a report's failed items, and those get_failing_queries lists for a run.
std::set<std::string> failed_in_report(const Report& report) {
  std::set<std::string> ids;
  for (const json::object& item : report.items)
    if (!item.at("success").as_bool()) ids.insert(std::string(item.at("id").as_string()));
  return ids;
}

std::set<std::string> failing_in_store(McpTools& mcp, const std::string& run_id) {
  json::object page = mcp.structured("get_failing_queries", {{"run_id", run_id}, {"limit", 500}});
  std::set<std::string> ids;
  for (const json::value& item : page.at("items").as_array()) ids.insert(std::string(item.at("item_id").as_string()));
  return ids;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_mcp_tools)

BOOST_AUTO_TEST_CASE(run_evaluation_on_the_capitals_scores_as_krino_run_does) {
  McpTools mcp;
  const std::string report_path = mcp.dir + "/report.jsonl";
  const std::string experiment = capitals_experiment(mcp.dir, report_path);
  const ProcessResult run = krino_run(experiment);
  BOOST_TEST_REQUIRE(run.exit_code == 0, run.out << run.err);
  const Report report = read_report(report_path);
  BOOST_REQUIRE(report.items.size() == 10u);

  // The experiment file, and the bare dataset with the same evaluators: the same summary, bit for bit.
  std::filesystem::remove(report_path);
  const json::object from_file = mcp.structured("run_evaluation", {{"experiment_path", experiment}});
  BOOST_TEST(!std::filesystem::exists(report_path));  // the file's reporters are not run: stdout is the protocol's
  BOOST_TEST(krino::json::to_compact_json(from_file.at("summary")) == krino::json::to_compact_json(report.summary));
  BOOST_TEST(from_file.at("passed") == json::value(true));
  BOOST_TEST(from_file.at("experiment") == json::value("capitals"));
  BOOST_TEST(from_file.at("project") == json::value("mcp"));

  json::array evaluators{
      json::object{{"name", "exact_match"}, {"options", json::object{{"ignore_case", true}, {"trim_whitespace", true}}}},
      json::object{{"name", "regex"}, {"options", json::object{{"name", "starts_with_capital_letter"}, {"pattern", "^[A-Z]"}}}},
      json::object{{"name", "length"}, {"options", json::object{{"name", "short_answer"}, {"unit", "words"}, {"max", 3}}}}};
  const json::object from_dataset = mcp.structured(
      "run_evaluation", {{"dataset_path", source_path("datasets/capitals.jsonl")}, {"evaluators", evaluators}, {"project", "agents"}});
  BOOST_TEST(krino::json::to_compact_json(from_dataset.at("summary")) == krino::json::to_compact_json(report.summary));
  BOOST_TEST(from_dataset.at("experiment") == json::value("mcp-evaluation"));

  // The stored items fail exactly where the report's do.
  const std::set<std::string> expected = failed_in_report(report);
  BOOST_TEST(expected.size() == 4u);
  BOOST_TEST(failing_in_store(mcp, std::string(from_file.at("run_id").as_string())) == expected);
  BOOST_TEST(failing_in_store(mcp, std::string(from_dataset.at("run_id").as_string())) == expected);

  // The reference's defaults: exact_match alone, its own threshold.
  const json::object plain = mcp.structured("run_evaluation", {{"dataset_path", source_path("datasets/capitals.jsonl")}});
  BOOST_TEST(plain.at("summary").at("evaluators").as_object().contains("exact_match"));
  BOOST_TEST(plain.at("summary").at("totalCount") == json::value(10));
}

BOOST_AUTO_TEST_CASE(run_evaluation_with_an_llm_judge_scores_as_krino_run_does) {
  McpTools mcp;
  fake::ServerOptions options;
  options.script = fake::parse_script(R"({"rules":[{"match":{"contains":"question 3"},"reply":{"content":"{\"score\": 2, \"reason\": \"thin\"}"}}],
                 "default":{"content":"{\"score\": 5, \"reason\": \"good\"}","usage":{"input_tokens":100,"output_tokens":20}}})");
  options.required_key = kToolsJudgeKey;
  fake::FakeLlmServer server(options);
  std::string rows;
  for (int i = 0; i < 6; ++i)
    rows += R"({"id":"q)" + std::to_string(i) + R"(","inputs":{"input":"question )" + std::to_string(i) +
            R"("},"expectedOutputs":{},"actualOutputs":{"output":"answer )" + std::to_string(i) + R"("},"metadata":{}})" + "\n";
  write_file(mcp.dir + "/cases.jsonl", rows);
  const std::string report_path = mcp.dir + "/judged.jsonl";
  const std::string experiment = mcp.dir + "/judged.yaml";
  write_file(experiment, "name: judged\ndataset: cases.jsonl\ntask: replay\n"
                         "judges:\n  default:\n    provider: openai\n    base_url: " + server.base_url() + "/v1\n"
                         "    model: judge-mini\n    api_key_env: KRINO_E2E_KEY\n"
                         "judge_cache: false\n"
                         "evaluators:\n  - llm_judge: {criteria: 'Is the answer responsive?', score_range: [1, 5], threshold: 0.5}\n"
                         "reporters: [{json: {path: " + report_path + "}}]\nmin_pass_rate: 0\nparallelism: 3\n");
  const ProcessResult run = krino_run(experiment);
  BOOST_TEST_REQUIRE(run.exit_code == 0, run.out << run.err);
  const Report report = read_report(report_path);
  BOOST_REQUIRE(report.items.size() == 6u);

  const json::object stored = mcp.structured("run_evaluation", {{"experiment_path", experiment}});
  BOOST_TEST(server.recent_requests().size() == 12u);  // the judge was asked again, not a cache
  // Scores, counts and rates as krino run's; the judge's usage block holds timings, so it is compared apart.
  json::object a = stored.at("summary").as_object();
  json::object b = report.summary;
  BOOST_TEST(a.at("judge").at("calls") == b.at("judge").at("calls"));
  a.erase("judge");
  b.erase("judge");
  BOOST_TEST(krino::json::to_compact_json(a) == krino::json::to_compact_json(b));
  BOOST_TEST(b.at("evaluators").at("llm_judge").at("averageScore").to_number<double>() == 0.875);  // (5 x 1 + 0.25) / 6
  BOOST_TEST(failing_in_store(mcp, std::string(stored.at("run_id").as_string())) == failed_in_report(report));
  BOOST_TEST(failed_in_report(report) == std::set<std::string>{"q3"});
  // Its reason is there for the agent.
  const json::object failing = mcp.structured("get_failing_queries", {{"run_id", stored.at("run_id")}});
  BOOST_TEST(failing.at("items").at(0).at("evaluators").at(0).at("score").to_number<double>() == 0.25);
  BOOST_TEST(contains(std::string(failing.at("items").at(0).at("evaluators").at(0).at("reason").as_string()), "thin"));
}

BOOST_AUTO_TEST_CASE(stored_runs_are_listed_compared_paged_and_gated) {
  McpTools mcp;
  const std::string experiment = capitals_experiment(mcp.dir, mcp.dir + "/unused.jsonl");
  const json::object first = mcp.structured("run_evaluation", {{"experiment_path", experiment}});
  const json::object second =
      mcp.structured("run_evaluation", {{"experiment_path", experiment}, {"overrides", json::array{"evaluators.0.ignore_case=false"}}});
  const json::value a = first.at("run_id");
  const json::value b = second.at("run_id");

  // Newest first; filtered by dataset.
  json::object listed = mcp.structured("list_experiments", {});
  BOOST_REQUIRE(listed.at("runs").as_array().size() == 2u);
  BOOST_TEST(listed.at("runs").at(0).at("run_id") == b);
  BOOST_TEST(listed.at("runs").at(0).at("status") == json::value("SUCCESS"));
  BOOST_TEST(listed.at("runs").at(0).at("dataset") == json::value("capitals"));
  BOOST_TEST(listed.at("runs").at(1).at("pass_rate").to_number<double>() == 0.6);
  BOOST_TEST(mcp.structured("list_experiments", {{"limit", 1}}).at("runs").as_array().size() == 1u);
  BOOST_TEST(mcp.structured("list_experiments", {{"dataset_name", "capitals"}}).at("runs").as_array().size() == 2u);
  BOOST_TEST(mcp.structured("list_experiments", {{"dataset_name", "other"}}).at("runs").as_array().empty());
  BOOST_TEST(mcp.structured("list_experiments", {{"project", "nope"}}).at("runs").as_array().empty());

  // The comparison: exact_match lost an item once case counts (0.7 -> 0.6).
  const json::object compared = mcp.structured("compare_runs", {{"run_id_a", a}, {"run_id_b", b}});
  BOOST_TEST(compared.at("baseline_run_id") == a);
  const json::array& evaluators = compared.at("comparison").at("evaluators").as_array();
  bool seen = false;
  for (const json::value& e : evaluators) {
    if (e.at("name") != json::value("exact_match")) continue;
    seen = true;
    BOOST_TEST(e.at("meanA").to_number<double>() == 0.7);
    BOOST_TEST(e.at("meanB").to_number<double>() == 0.6);
  }
  BOOST_TEST(seen);
  BOOST_TEST(compared.at("verdict").at("status").is_string());

  // Failing items a page at a time.
  json::object page = mcp.structured("get_failing_queries", {{"run_id", b}, {"limit", 3}});
  BOOST_TEST(page.at("failing_count") == json::value(4));
  BOOST_TEST(page.at("total_items") == json::value(10));
  BOOST_TEST(page.at("items").as_array().size() == 3u);
  BOOST_TEST(page.at("next_offset") == json::value(3));
  page = mcp.structured("get_failing_queries", {{"run_id", b}, {"limit", 3}, {"offset", 3}});
  BOOST_TEST(page.at("items").as_array().size() == 1u);
  BOOST_TEST(page.at("next_offset").is_null());
  // With a threshold, any score below it fails the item.
  BOOST_TEST(mcp.structured("get_failing_queries", {{"run_id", a}, {"threshold", 0.5}}).at("failing_count") == json::value(4));

  // The gate against the store's last good run (the first), and against a baseline file.
  const json::object stored_gate = mcp.structured("gate", {{"run_id", b}});
  BOOST_TEST(stored_gate.at("verdict").at("baselineRunId") == a);
  BOOST_TEST(stored_gate.at("status") == json::value("FAIL"));  // an item dropped on exact_match beyond the margin
  BOOST_TEST(mcp.structured("gate", {{"run_id", a}}).at("status") == json::value("NO_BASELINE"));
  BOOST_TEST(mcp.structured("gate", {{"run_id", b}, {"baseline_run_id", b}}).at("status") == json::value("PASS"));
  const std::string baseline = mcp.dir + "/baseline.json";
  BOOST_TEST(mcp.structured("gate", {{"run_id", a}, {"baseline_file", baseline}}).at("status") == json::value("NO_BASELINE"));
  BOOST_TEST(std::filesystem::exists(baseline));  // written from the run, as krino gate does locally
  BOOST_TEST(mcp.structured("gate", {{"run_id", a}, {"baseline_file", baseline}}).at("status") == json::value("PASS"));
  BOOST_TEST(mcp.structured("gate", {{"run_id", b}, {"baseline_file", baseline}}).at("status") == json::value("FAIL"));
}

BOOST_AUTO_TEST_CASE(bad_input_to_every_tool_is_a_tool_error_naming_what_is_wrong) {
  McpTools mcp;
  const std::string missing = mcp.dir + "/nowhere.jsonl";
  // run_evaluation
  BOOST_TEST(contains(mcp.tool_error("run_evaluation", {}), "give exactly one of dataset_path"));
  std::string message = mcp.tool_error("run_evaluation", {{"dataset_path", missing}});
  BOOST_TEST((contains(message, "dataset_path") && contains(message, missing)), message);
  BOOST_TEST(contains(mcp.tool_error("run_evaluation", {{"experiment_path", mcp.dir}}), "it is a directory"));
  BOOST_TEST(contains(mcp.tool_error("run_evaluation", {{"dataset_path", source_path("datasets/capitals.jsonl")}, {"evaluator", "no_such"}}), "no_such"));
  BOOST_TEST(contains(mcp.tool_error("run_evaluation", {{"dataset_path", 42}}), "invalid arguments for run_evaluation"));
  BOOST_TEST(contains(mcp.tool_error("run_evaluation", {{"dataset_path", source_path("datasets/capitals.jsonl")}, {"threshold", "high"}}), "threshold"));
  BOOST_TEST(contains(mcp.tool_error("run_evaluation", {{"dataset_path", source_path("datasets/capitals.jsonl")}, {"evaluator", "llm_judge"}, {"criteria", "ok?"}}),
                      "asks an LLM judge"));
  BOOST_TEST(contains(mcp.tool_error("run_evaluation", {{"experiment_path", source_path("datasets/capitals.yaml")}, {"model", "m"}}),
                      "model: applies to dataset_path only"));
  const std::string broken = mcp.dir + "/broken.yaml";
  write_file(broken, "name: [unclosed\n");
  BOOST_TEST(contains(mcp.tool_error("run_evaluation", {{"experiment_path", broken}}), "broken.yaml"));
  // evaluate
  BOOST_TEST(contains(mcp.tool_error("evaluate", {{"evaluator", "exact_match"}}), "test_cases"));
  BOOST_TEST(contains(mcp.tool_error("evaluate", {{"evaluator", "exact_match"}, {"test_cases", "x"}}), "test_cases"));
  BOOST_TEST(contains(mcp.tool_error("evaluate", {{"evaluator", "no_such"}, {"test_cases", json::array{json::object{}}}}), "no_such"));
  BOOST_TEST(contains(mcp.tool_error("evaluate", {{"evaluator", "exact_match"}, {"options", {{"ignore_case", "yes"}}}, {"test_cases", json::array{json::object{}}}}),
                      "ignore_case"));
  // list_experiments
  BOOST_TEST(contains(mcp.tool_error("list_experiments", {{"limit", "ten"}}), "limit"));
  BOOST_TEST(contains(mcp.tool_error("list_experiments", {{"limit", 0}}), "limit"));
  // compare_runs
  BOOST_TEST(contains(mcp.tool_error("compare_runs", {{"run_id_a", "x"}}), "run_id_b"));
  message = mcp.tool_error("compare_runs", {{"run_id_a", "no-such-run"}, {"run_id_b", "other"}});
  BOOST_TEST((contains(message, "run_id_a") && contains(message, "no-such-run")), message);
  // get_failing_queries
  BOOST_TEST(contains(mcp.tool_error("get_failing_queries", {}), "run_id"));
  BOOST_TEST(contains(mcp.tool_error("get_failing_queries", {{"run_id", "no-such-run"}}), "no run 'no-such-run'"));
  BOOST_TEST(contains(mcp.tool_error("get_failing_queries", {{"run_id", "r"}, {"limit", -1}}), "limit"));
  // gate
  BOOST_TEST(contains(mcp.tool_error("gate", {}), "give exactly one of run_id"));
  BOOST_TEST(contains(mcp.tool_error("gate", {{"run_file", missing}, {"baseline_file", missing}}), "run_file: cannot read"));
  BOOST_TEST(contains(mcp.tool_error("gate", {{"run_id", "no-such-run"}}), "no run 'no-such-run'"));
  BOOST_TEST(contains(mcp.tool_error("gate", {{"run_id", "r"}, {"update", true}}), "update"));

  // The session outlives all of that: one more request in the same process is answered.
  ProcessResult process;
  const auto messages = mcp.session({McpTools::call_line(1, "compare_runs", {}), R"({"jsonrpc":"2.0","id":2,"method":"ping"})"}, process);
  BOOST_TEST(process.exit_code == 0);
  BOOST_TEST(messages.size() == 2u);
}

BOOST_AUTO_TEST_CASE(a_cancelled_run_gets_no_answer_and_is_stored_as_cancelled) {
  McpTools mcp;
  fake::ServerOptions options;
  options.script = fake::parse_script(R"({"default":{"content":"{\"score\": 5, \"reason\": \"good\"}","latency_ms":300}})");
  fake::FakeLlmServer server(options);
  std::string rows;
  for (int i = 0; i < 20; ++i) rows += R"({"id":"c)" + std::to_string(i) + R"(","inputs":{"input":"q"},"actualOutputs":{"output":"a"}})" "\n";
  write_file(mcp.dir + "/slow.jsonl", rows);
  json::object judges{{"default", json::object{{"provider", "openai"}, {"base_url", server.base_url() + "/v1"}, {"model", "judge-mini"}}}};
  const std::string run = McpTools::call_line(
      7, "run_evaluation",
      {{"dataset_path", mcp.dir + "/slow.jsonl"}, {"evaluator", "llm_judge"}, {"criteria", "ok?"}, {"judges", judges}, {"progress_every", 1}}, true);
  ProcessResult process;
  const auto messages = mcp.session(
      {run, R"({"jsonrpc":"2.0","id":8,"method":"ping"})", R"({"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":7}})"},
      process);
  BOOST_TEST(process.exit_code == 0, process.err);
  for (const json::object& m : messages) BOOST_TEST(!(m.contains("id") && m.at("id") == json::value(7)), "the cancelled call was answered");
  BOOST_REQUIRE(!messages.empty());
  BOOST_TEST(messages.back().at("id") == json::value(8));  // only the ping, after any progress
  BOOST_TEST(server.recent_requests().size() < 20u);     // the run stopped early

  const json::object listed = mcp.structured("list_experiments", {});
  BOOST_REQUIRE(listed.at("runs").as_array().size() == 1u);
  BOOST_TEST(listed.at("runs").at(0).at("status") == json::value("CANCELLED"));
}

BOOST_AUTO_TEST_CASE(krino_serve_shows_what_an_agent_ran) {
  McpTools mcp;
  const json::object stored = mcp.structured("run_evaluation", {{"dataset_path", source_path("datasets/capitals.jsonl")}, {"project", "agents"}});
  const std::string run_id(stored.at("run_id").as_string());
  // The server on the same data directory, with no option but that one.
  ServeProcess serve(unused_port(), {"--data-dir", mcp.data});
  const auto read = krino::fake_llm::test::http_get(serve.port(), "/api/v1/runs/" + run_id);
  BOOST_TEST_REQUIRE(read.status() == 200u, read.body());
  const json::object run = krino::json::parse(read.body()).as_object();
  BOOST_TEST(run.at("status") == json::value("SUCCESS"));
  BOOST_TEST(run.at("projectName") == json::value("agents"));
  BOOST_TEST(run.at("experimentName") == json::value("mcp-evaluation"));
  BOOST_TEST(run.at("totalItems") == json::value(10));
  BOOST_TEST(run.at("passedItems").to_number<double>() == stored.at("summary").at("passCount").to_number<double>());
  BOOST_TEST(serve.stop(15) == 0);
}

BOOST_AUTO_TEST_SUITE_END()
