// Evaluators in worker processes, end to end (issue 19): scripts in Python and Node through
// `use: subprocess` against the built-in evaluator they reimplement, and plugins that crash, abort,
// hang, leak or scribble under `isolation: process`, each over 1,000 items: every item is scored
// or an item error naming the cause, the run completes and its report is valid.
#include "process.hpp"
#include "test_paths.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <thread>

using namespace krino::test;
namespace json = boost::json;
namespace fs = std::filesystem;

namespace {

struct IsolationReport {
  std::vector<json::object> items;
  json::object summary;
  size_t lines = 0;
  std::map<std::string, size_t> events;  // how many lines of each event
};

// Every line must parse: Boost.JSON refuses ill-formed UTF-8, so this also checks the report is valid UTF-8.
IsolationReport read_isolation_report(const std::string& path) {
  IsolationReport report;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    ++report.lines;
    json::object event = json::parse(line).as_object();
    ++report.events[std::string(event.at("event").as_string())];
    if (event.at("event") == "item_finished") report.items.push_back(std::move(event));
    else if (event.at("event") == "run_finished") report.summary = event.at("summary").as_object();
  }
  return report;
}

std::string item_error(const json::object& item) {
  const json::value& error = item.at("error");
  return error.is_null() ? std::string() : std::string(error.at("code").as_string()) + ": " +
                                               std::string(error.at("message").as_string());
}

// Equal JSON, numbers by value: JavaScript writes the threshold 1.0 as 1.
bool same_json(const json::value& a, const json::value& b) {
  if (a.is_number() && b.is_number()) return a.to_number<double>() == b.to_number<double>();
  if (a.is_object() && b.is_object()) {
    if (a.get_object().size() != b.get_object().size()) return false;
    for (const auto& [key, value] : a.get_object())
      if (!b.get_object().contains(key) || !same_json(value, b.get_object().at(key))) return false;
    return true;
  }
  if (a.is_array() && b.is_array()) {
    if (a.get_array().size() != b.get_array().size()) return false;
    for (size_t i = 0; i < a.get_array().size(); ++i)
      if (!same_json(a.get_array()[i], b.get_array()[i])) return false;
    return true;
  }
  return a == b;
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A misbehaving plugin under isolation: process (unless `extra` says otherwise) over `items` items of seq:N.
// `expected_exit`: 1 when no item can be scored (the run completes, but "no item was evaluated").
IsolationReport run_misbehaving(const std::string& evaluator, const std::string& extra, int items = 1000,
                                const std::string& folder = "misbehaving", int expected_exit = 0) {
  const std::string dir = temp_path("isolation-" + evaluator);
  fs::create_directories(dir);
  const std::string report = dir + "/report.jsonl";
  const std::string file = dir + "/experiment.yaml";
  write_file(file, "dataset: seq:" + std::to_string(items) + "\nparallelism: 4\nmin_pass_rate: 0\nisolation: process\n" +
                       "evaluators: [{use: " + evaluator + extra + "}]\n" + "reporters: [{json: {path: " + report + "}}]\n");
  const ProcessResult r = run_process({krino_binary(), "run", file, "--plugin-dir", KRINO_TESTKIT_DIR, "--plugin-dir",
                                       std::string(KRINO_BROKEN_PLUGIN_DIR) + "/" + folder});
  BOOST_TEST_REQUIRE(r.exit_code == expected_exit, evaluator << ": " << r.err);
  IsolationReport read = read_isolation_report(report);
  fs::remove_all(dir);
  BOOST_TEST_REQUIRE(read.items.size() == static_cast<size_t>(items), evaluator);
  // Complete: one line per item between the run's first and last, and nothing else.
  BOOST_TEST(read.events["run_started"] == 1u, evaluator);
  BOOST_TEST(read.events["run_finished"] == 1u, evaluator);
  BOOST_TEST(read.lines == static_cast<size_t>(items) + 2 + read.events["experiment_finished"], evaluator);
  BOOST_TEST(read.summary.at("totalCount").as_int64() == items, evaluator);
  for (size_t i = 0; i < read.items.size(); ++i)
    BOOST_TEST_REQUIRE(read.items[i].at("index").as_int64() == static_cast<int64_t>(i));
  return read;
}

// Checks that item i is an error containing `cause` exactly when `fails(i)`, and scored otherwise.
template <class Fails>
void expect_errors(const IsolationReport& report, Fails fails, const std::vector<std::string>& causes) {
  int64_t errors = 0;
  for (size_t i = 0; i < report.items.size(); ++i) {
    const std::string error = item_error(report.items[i]);
    if (fails(i)) {
      ++errors;
      for (const std::string& cause : causes) BOOST_TEST(has(error, cause), "item " << i << ": " << error);
    } else {
      BOOST_TEST(error.empty(), "item " << i << ": " << error);
      BOOST_TEST(report.items[i].at("results").as_array().size() == 1u);
    }
  }
  BOOST_TEST(report.summary.at("errorCount").as_int64() == errors);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_isolation)

// The acceptance: a Python and a Node worker give exactly the built-in tool_error's results (score,
// success, reason and metadata) on every tau-bench trajectory.
BOOST_AUTO_TEST_CASE(python_and_node_workers_match_the_built_in_evaluator_on_tau_bench) {
  const std::string report = temp_path("isolation-tau.jsonl");
  const std::string options = R"(error_patterns: ["^Error:"], ignore_tools: [think])";
  const std::string evaluators =
      "evaluators=[{tool_error: {" + options + "}}, {use: subprocess, name: python, command: [python3, " +
      source_path("sdk/examples/subprocess_python/tool_error.py") + "], " + options +
      "}, {use: subprocess, name: node, workers: 2, command: [node, " +
      source_path("sdk/examples/subprocess_node/tool_error.js") + "], " + options + "}]";
  const ProcessResult r = run_process({krino_binary(), "run", source_path("datasets/tau-bench-airline.yaml"), "--set",
                                       evaluators, "--set", "reporters=[{json: {path: " + report + "}}]", "--set",
                                       "parallelism=3"});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const IsolationReport read = read_isolation_report(report);
  fs::remove(report);
  BOOST_TEST_REQUIRE(read.items.size() == 200u);
  for (const json::object& item : read.items) {
    BOOST_TEST_REQUIRE(item.at("error").is_null(), item_error(item));
    std::map<std::string, json::object> by_name;
    for (const json::value& result : item.at("results").as_array())
      by_name[std::string(result.at("name").as_string())] = result.as_object();
    BOOST_TEST_REQUIRE(by_name.size() == 3u);
    for (const char* worker : {"python", "node"}) {
      json::object renamed = by_name.at(worker);
      renamed["name"] = "tool_error";
      BOOST_TEST(same_json(renamed, by_name.at("tool_error")),
                 worker << " on " << item.at("id") << ": " << json::serialize(renamed));
    }
  }
}

BOOST_AUTO_TEST_CASE(a_plugin_in_a_worker_gets_the_section_spans_it_gets_in_process) {
  // krino sends the spans of the test case's sections with each request, so a plugin under
  // isolation reads its sections without scanning the whole test case, exactly as in process; and
  // the same seed and item index.
  const std::string dir = temp_path("isolation-sections");
  fs::create_directories(dir);
  const std::string report = dir + "/report.jsonl";
  const std::string file = dir + "/experiment.yaml";
  write_file(file, "dataset: seq:20\nparallelism: 4\nevaluators: [{use: echo_score, name: here, report_context: true}, "
                   "{use: echo_score, name: there, report_context: true, isolation: process}]\n"
                   "reporters: [{json: {path: " + report + "}}]\n");
  const ProcessResult r = run_process({krino_binary(), "run", file, "--plugin-dir", KRINO_TESTKIT_DIR});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const IsolationReport read = read_isolation_report(report);
  fs::remove_all(dir);
  BOOST_TEST_REQUIRE(read.items.size() == 20u);
  for (const json::object& item : read.items) {
    const json::array& results = item.at("results").as_array();
    BOOST_TEST_REQUIRE(results.size() == 2u, item_error(item));
    std::map<std::string, json::object> context;
    for (const json::value& result : results)
      context[std::string(result.at("name").as_string())] = result.at("metadata").as_object();
    const json::value& sections = context.at("there").at("sections");
    BOOST_TEST(sections == context.at("here").at("sections"), json::serialize(sections));
    BOOST_TEST(sections.as_array().at(1).as_array().at(1).to_number<int64_t>() > 0);  // given, not zero
    // The rest of the call's context too: the seed and the item's index.
    BOOST_TEST(context.at("there").at("seed") == context.at("here").at("seed"));
    BOOST_TEST(context.at("there").at("itemIndex") == context.at("here").at("itemIndex"));
    BOOST_TEST(context.at("there").at("seed").to_number<uint64_t>() != 0u);
  }
}

// The worker processes that scored a run's items (report_context gives each result its pid).
std::set<int64_t> worker_pids(const std::string& workers_key) {
  const std::string dir = temp_path("isolation-workers");
  fs::create_directories(dir);
  const std::string report = dir + "/report.jsonl";
  const std::string file = dir + "/experiment.yaml";
  // Many items in flight and calls slow enough to overlap: each request that finds every worker
  // busy starts another, up to the pool's limit.
  write_file(file, "dataset: seq:300\nparallelism: 64\nevaluators: [{use: echo_score, report_context: true, "
                   "max_sleep_ms: 4, isolation: process" + workers_key + "}]\nreporters: [{json: {path: " + report + "}}]\n");
  const ProcessResult r = run_process({krino_binary(), "run", file, "--plugin-dir", KRINO_TESTKIT_DIR});
  BOOST_TEST_REQUIRE(r.exit_code == 0, r.err);
  const IsolationReport read = read_isolation_report(report);
  fs::remove_all(dir);
  std::set<int64_t> pids;
  for (const json::object& item : read.items) {
    BOOST_TEST_REQUIRE(item.at("results").as_array().size() == 1u, item_error(item));
    pids.insert(item.at("results").as_array()[0].at("metadata").at("pid").as_int64());
  }
  return pids;
}

// A plugin that only computes gets as many workers as krino has threads, not one per item in
// flight: more copies only take the cores from each other (and from krino), and each is another
// process to start. `workers` still says otherwise.
BOOST_AUTO_TEST_CASE(a_computing_plugin_gets_a_worker_per_thread_unless_workers_says_more) {
  const std::size_t cores = std::max(1u, std::thread::hardware_concurrency());
  if (cores >= 48) return;  // the default could not be told from parallelism here
  const std::set<int64_t> by_default = worker_pids("");
  BOOST_TEST(by_default.size() <= cores);
  const std::set<int64_t> asked = worker_pids(", workers: " + std::to_string(cores + 4));
  BOOST_TEST(asked.size() > cores);
  BOOST_TEST(asked.size() <= cores + 4);
}

BOOST_AUTO_TEST_CASE(a_segfault_is_an_item_error_naming_the_signal) {
  expect_errors(run_misbehaving("segfault_evaluator", ""), [](size_t i) { return i % 100 == 7; },
                {"UNKNOWN: ", "killed by signal 11 (SIGSEGV)", "a new worker takes the next request"});
}

BOOST_AUTO_TEST_CASE(an_abort_is_an_item_error_naming_the_signal) {
  expect_errors(run_misbehaving("abort_evaluator", ""), [](size_t i) { return i % 100 == 13; },
                {"killed by signal 6 (SIGABRT)"});
}

BOOST_AUTO_TEST_CASE(an_endless_loop_is_stopped_at_timeout_ms) {
  expect_errors(run_misbehaving("loop_evaluator", ", timeout_ms: 300"), [](size_t i) { return i % 250 == 5; },
                {"DEADLINE_EXCEEDED: ", "did not answer within 300 ms (timeout_ms)", "SIGTERM"});
}

// Without isolation the host stops waiting at timeout_ms; the looping call keeps its thread busy,
// and the run still ends (the process exits with it spinning).
BOOST_AUTO_TEST_CASE(in_process_a_call_past_timeout_ms_is_an_item_error) {
  expect_errors(run_misbehaving("loop_evaluator", ", isolation: none, timeout_ms: 300", 40),
                [](size_t i) { return i == 5; },
                {"DEADLINE_EXCEEDED: ", "did not finish within 300 ms (timeout_ms); krino stopped waiting"});
}

// AddressSanitizer reserves terabytes of address space for its shadow memory at start, so a worker
// built with it cannot start under any memory_mb: the limit is tested in the other builds.

BOOST_AUTO_TEST_CASE(a_leak_hits_memory_mb_and_the_worker_is_replaced, *boost::unit_test::enable_if<!kAddressSanitizer>()) {
  // 64 MB on every tenth item against 200 MB of address space: every worker fails its third or
  // fourth leaking item (how many depends on which items it happened to get).
  const IsolationReport report = run_misbehaving("leak_evaluator", ", memory_mb: 200");
  int64_t errors = 0;
  for (size_t i = 0; i < report.items.size(); ++i) {
    const std::string error = item_error(report.items[i]);
    if (error.empty()) continue;
    ++errors;
    BOOST_TEST(i % 10 == 0, "item " << i << ": " << error);
    BOOST_TEST(has(error, "memory_mb"), "item " << i << ": " << error);
  }
  BOOST_TEST(errors > 0);
  BOOST_TEST(errors < 100);
  BOOST_TEST(report.summary.at("errorCount").as_int64() == errors);
}

BOOST_AUTO_TEST_CASE(a_plugin_printing_to_stdout_does_not_break_the_protocol) {
  expect_errors(run_misbehaving("stdout_evaluator", ""), [](size_t) { return false; }, {});
}

BOOST_AUTO_TEST_CASE(ill_formed_utf8_in_a_reason_is_repaired) {
  const IsolationReport report = run_misbehaving("bad_utf8_evaluator", "");
  expect_errors(report, [](size_t) { return false; }, {});
  const std::string reason(report.items[0].at("results").at(0).at("reason").as_string());
  BOOST_TEST(has(reason, "\xEF\xBF\xBD"), reason);  // U+FFFD where the bytes were
}

// The ABI tests' broken evaluators fail every item in a worker as they do in process: each item an
// error with the plugin's own code and words, the run complete.
BOOST_AUTO_TEST_CASE(the_abi_tests_broken_evaluators_fail_every_item_with_the_cause) {
  const auto every = [](size_t) { return true; };
  expect_errors(run_misbehaving("throwing_evaluator", "", 1000, "throwing_evaluator", 1), every, {"INTERNAL: ", "boom"});
  expect_errors(run_misbehaving("status_evaluator", "", 1000, "status_evaluator", 1), every,
                {"FAILED_PRECONDITION: ", "status_evaluator needs expectedOutputs.output"});
  expect_errors(run_misbehaving("malformed_json_evaluator", "", 1000, "malformed_json_evaluator", 1), every,
                {"INTERNAL: ", "malformed result"});
  expect_errors(run_misbehaving("bad_score_high", "", 1000, "bad_score_evaluator", 1), every, {"INTERNAL: "});
}

BOOST_AUTO_TEST_CASE(a_worker_that_does_not_start_or_refuses_its_options_is_a_configuration_error) {
  const std::string dir = temp_path("isolation-config");
  fs::create_directories(dir);
  write_file(dir + "/refuses.py",
             "import json, sys\n"
             "print(json.dumps({'protocol': 'krino.evaluatorworker/1', 'evaluator': {'id': 't.r', 'name': 'r'}}), flush=True)\n"
             "for line in sys.stdin:\n"
             "    print(json.dumps({'error': {'message': 'no thanks'}}), flush=True)\n");
  write_file(dir + "/e.yaml", "dataset: seq:3\nevaluators: [{use: subprocess, command: [python3, refuses.py]}]\n");
  ProcessResult r = run_process({krino_binary(), "run", dir + "/e.yaml", "--plugin-dir", KRINO_TESTKIT_DIR});
  BOOST_TEST(r.exit_code != 0);
  BOOST_TEST(has(r.err, "refused its options: no thanks"), r.err);
  write_file(dir + "/e.yaml", "dataset: seq:3\nevaluators: [{use: subprocess, command: [no-such-program-krino]}]\n");
  r = run_process({krino_binary(), "run", dir + "/e.yaml", "--plugin-dir", KRINO_TESTKIT_DIR});
  BOOST_TEST(r.exit_code != 0);
  BOOST_TEST(has(r.err, "no program 'no-such-program-krino' on PATH"), r.err);
  fs::remove_all(dir);
}

BOOST_AUTO_TEST_SUITE_END()
