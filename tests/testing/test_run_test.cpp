// Tests reported as a krino run through a reporter plugin: the json reporter's file shows exactly
// the events a reporter gets (run_started when the first item comes, one item_finished per record,
// run_finished with the summary), and misconfiguration is an error before any test runs.
#include "krino/testing/error.hpp"
#include "krino/testing/evaluators.hpp"
#include "krino/testing/suite_runs.hpp"
#include "krino/testing/test_run.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace krino::testing;
namespace fs = std::filesystem;
namespace json = boost::json;

namespace {

LoadOptions reporter_plugins() {
  LoadOptions options;
  options.plugins = {"text", "files", "json", "server"};
  options.use_plugin_path_env = false;
  return options;
}

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / "krino-testing-test-run";
  fs::create_directories(dir);
  fs::remove(dir / name);
  return dir / name;
}

std::vector<json::object> read_events(const fs::path& file) {
  std::vector<json::object> events;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) events.push_back(json::parse(line).as_object());
  return events;
}

std::vector<Example> two_examples() {
  const fs::path file = scratch("two.jsonl");
  std::ofstream(file) << R"({"id":"a","input":"2+2","expectedOutput":"4"})" "\n"
                      << R"({"id":"b","input":"3+3","expectedOutput":"6"})" "\n";
  return read_dataset(file.string(), reporter_plugins());
}

RunOptions json_reporter(const fs::path& file) {
  RunOptions options;
  options.experiment = "arithmetic";
  options.reporter = "json";
  options.reporter_options_json = json::serialize(json::object{{"path", file.string()}});
  options.metadata_json = R"({"model":"calculator-1"})";
  return options;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(testing_test_run)

BOOST_AUTO_TEST_CASE(items_carry_the_example_what_was_recorded_and_the_verdict) {
  const fs::path file = scratch("run.jsonl");
  const Evaluators plugins = load_evaluators(reporter_plugins());
  const Evaluator exact = plugins.make("exact_match");
  const std::vector<Example> examples = two_examples();
  {
    TestRun run(plugins, json_reporter(file));
    ItemRecorder right;
    right.actual_output("output", "4").eval_results(check_eval(examples[0].test_case_with_output("4"), exact));
    run.record(examples[0], right, true);
    ItemRecorder wrong;
    wrong.actual_outputs(R"({"output":"7","steps":2})").eval_result(exact.score(examples[1].test_case_with_output("7")));
    run.record(examples[1], wrong, false);
    BOOST_TEST(run.items() == 2u);
    run.finish();
    BOOST_CHECK_THROW(run.record(examples[0], right, true), Error);
  }
  const std::vector<json::object> events = read_events(file);
  BOOST_REQUIRE(events.size() == 4u);
  BOOST_TEST(events[0].at("event").as_string() == "run_started");
  BOOST_TEST(events[0].at("experiment").at("name").as_string() == "arithmetic");
  BOOST_TEST(events[0].at("experiment").at("metadata").at("model").as_string() == "calculator-1");

  const json::object& first = events[1];
  BOOST_TEST(first.at("event").as_string() == "item_finished");
  BOOST_TEST(first.at("id").as_string() == "a");
  BOOST_TEST(first.at("index").as_int64() == 0);
  BOOST_TEST(first.at("success").as_bool());
  BOOST_TEST(json::serialize(first.at("inputs")) == R"({"input":"2+2"})");
  BOOST_TEST(json::serialize(first.at("actualOutputs")) == R"({"output":"4"})");
  BOOST_TEST(first.at("results").as_array().at(0).at("name").as_string() == "exact_match");

  const json::object& second = events[2];
  BOOST_TEST(second.at("id").as_string() == "b");
  BOOST_TEST(!second.at("success").as_bool());
  BOOST_TEST(json::serialize(second.at("actualOutputs")) == R"({"output":"7","steps":2})");
  BOOST_TEST(second.at("results").as_array().at(0).at("reason").as_string() == "expected \"6\", got \"7\"");

  BOOST_TEST(events[3].at("event").as_string() == "run_finished");
  const json::object& summary = events[3].at("summary").as_object();
  BOOST_TEST(summary.at("totalCount").to_number<int>() == 2);
  BOOST_TEST(summary.at("passCount").to_number<int>() == 1);
}

BOOST_AUTO_TEST_CASE(a_run_opens_with_its_first_item_and_an_empty_one_reports_nothing) {
  const fs::path file = scratch("empty.jsonl");
  const Evaluators plugins = load_evaluators(reporter_plugins());
  {
    TestRun run(plugins, json_reporter(file));
    run.finish();
  }
  BOOST_TEST(read_events(file).empty());
}

BOOST_AUTO_TEST_CASE(a_test_that_failed_fails_its_item_even_with_passing_results) {
  const fs::path file = scratch("failed.jsonl");
  const Evaluators plugins = load_evaluators(reporter_plugins());
  const std::vector<Example> examples = two_examples();
  {
    TestRun run(plugins, json_reporter(file));
    run.record(examples[0], ItemRecorder{}, false);  // nothing recorded: an empty item
  }  // finished by the destructor
  const std::vector<json::object> events = read_events(file);
  BOOST_REQUIRE(events.size() == 3u);
  BOOST_TEST(!events[1].at("success").as_bool());
  BOOST_TEST(json::serialize(events[1].at("actualOutputs")) == "{}");
  BOOST_TEST(events[1].at("results").as_array().empty());
}

BOOST_AUTO_TEST_CASE(misconfiguration_throws_before_any_item) {
  const Evaluators plugins = load_evaluators(reporter_plugins());
  RunOptions unknown;
  unknown.reporter = "no_such_reporter";
  BOOST_CHECK_THROW(TestRun(plugins, unknown), Error);
  RunOptions bad_metadata;
  bad_metadata.reporter = "json";
  bad_metadata.metadata_json = "[]";
  BOOST_CHECK_THROW(TestRun(plugins, bad_metadata), Error);
  ::unsetenv("KRINO_SERVER_URL");
  RunOptions no_url;
  no_url.reporter_options_json = R"({"project":"p"})";
  try {
    TestRun run(plugins, no_url);
    BOOST_FAIL("a server reporter without a URL was made");
  } catch (const Error& e) {
    BOOST_TEST(std::string(e.what()).find("KRINO_SERVER_URL") != std::string::npos, e.what());
  }
}

BOOST_AUTO_TEST_CASE(suite_runs_report_only_when_a_server_or_another_reporter_is_configured) {
  ::unsetenv("KRINO_SERVER_URL");
  BOOST_TEST(!SuiteRuns().enabled());
  RunOptions with_url;
  with_url.reporter_options_json = R"({"url":"http://127.0.0.1:9"})";
  BOOST_TEST(SuiteRuns(with_url).enabled());
  ::setenv("KRINO_SERVER_URL", "http://127.0.0.1:9", 1);
  BOOST_TEST(SuiteRuns().enabled());
  ::unsetenv("KRINO_SERVER_URL");

  const fs::path file = scratch("suites.jsonl");
  RunOptions to_file = json_reporter(file);
  to_file.reporter_options_json = json::serialize(json::object{{"path", file.string()}, {"append", true}});
  const std::vector<Example> examples = two_examples();
  {
    SuiteRuns runs(to_file, reporter_plugins());
    BOOST_TEST(runs.enabled());
    runs.record("SuiteA", examples[0], ItemRecorder{}, true);
    runs.record("SuiteB", examples[1], ItemRecorder{}, true);
    runs.record("SuiteA", examples[1], ItemRecorder{}, true);
    runs.finish();
  }
  std::vector<std::string> experiments;
  for (const auto& event : read_events(file))
    if (event.at("event").as_string() == "run_started")
      experiments.emplace_back(event.at("experiment").at("name").as_string());
  BOOST_TEST(experiments == (std::vector<std::string>{"SuiteA", "SuiteB"}), boost::test_tools::per_element());
}

BOOST_AUTO_TEST_SUITE_END()
