// The runner end to end through the real ABI, with the test-only plugin kit (tests/support/testkit).
#include "json_lines.hpp"
#include "krino/core/common/error.hpp"
#include "krino/core/common/io_service.hpp"
#include "krino/core/host/host_services.hpp"
#include "krino/core/plugin/plugin_registry.hpp"
#include "krino/core/runner/experiment_runner.hpp"
#include "krino/core/runner/item_processor.hpp"
#include "krino/core/runner/result_line_writer.hpp"
#include "test_paths.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <thread>

using namespace krino::core;
namespace json = boost::json;
namespace fs = std::filesystem;

namespace {

struct Harness {
  IoService io;  // the command's, outliving every runner
  Cancellation cancellation;
  HostServices host{cancellation, stderr, KRINO_LOG_ERROR};
  PluginRegistry registry;
  fs::path capture = fs::temp_directory_path() / ("krino-runner-" + std::to_string(::getpid()) + ".jsonl");

  Harness() { BOOST_REQUIRE(registry.load_file(fs::path(KRINO_TESTKIT_DIR) / "krino-testkit.so", *host.host_info())); }
  ~Harness() { if (!std::getenv("KRINO_KEEP")) fs::remove(capture); }

  ExperimentConfig config(uint64_t items, json::object evaluator_options = {}, json::object dataset_options = {}) {
    ExperimentConfig c;
    c.name = "runner-test";
    c.dataset.uri = "seq:" + std::to_string(items);
    c.dataset.options = std::move(dataset_options);
    c.evaluators.push_back({"echo_score", std::move(evaluator_options)});
    c.reporters.push_back({"capture", json::object{{"path", capture.string()}}});
    return c;
  }

  ExperimentOutcome run(const ExperimentConfig& c) {
    ExperimentRunner runner(c, registry, host, cancellation, RunnerEnvironment{io});
    return runner.run();
  }

  std::vector<json::object> events() const { return krino::test::json_lines(capture); }

  static std::vector<json::object> of_type(const std::vector<json::object>& events, const char* type) {
    std::vector<json::object> out;
    for (const auto& e : events) {
      if (e.at("event").as_string() == type) out.push_back(e);
    }
    return out;
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(experiment_runner)

BOOST_AUTO_TEST_CASE(dataset_order_is_kept_with_parallel_slow_items) {
  Harness h;
  auto c = h.config(200, json::object{{"max_sleep_ms", 6}});
  c.parallelism = 8;
  ExperimentOutcome outcome = h.run(c);
  BOOST_TEST(outcome.passed);
  auto items = Harness::of_type(h.events(), "item_finished");
  BOOST_REQUIRE(items.size() == 200u);
  for (uint64_t i = 0; i < items.size(); ++i) {
    BOOST_TEST(items[i].at("index").to_number<uint64_t>() == i);
    BOOST_TEST(items[i].at("id").as_string() == "item-" + std::to_string(i));
    BOOST_TEST(items[i].at("run_index").to_number<uint64_t>() == 0u);
  }
}

BOOST_AUTO_TEST_CASE(event_sequence_and_shape) {
  Harness h;
  h.run(h.config(3));
  auto events = h.events();
  BOOST_REQUIRE(events.size() == 6u);
  BOOST_TEST(events[0].at("event").as_string() == "run_started");
  BOOST_TEST(events[0].at("dataset").as_object().at("sizeHint").as_int64() == 3);
  BOOST_TEST(events[0].at("evaluators").as_array()[0].as_object().at("component").as_string() == "test.echo_score");
  BOOST_TEST(events[4].at("event").as_string() == "run_finished");
  BOOST_TEST(events[5].at("event").as_string() == "experiment_finished");
  for (const auto& e : events) BOOST_TEST(e.at("schema").as_string() == "krino.event/1");
  const auto& item = events[1];
  BOOST_TEST(item.at("location").as_string() == "seq:1");
  BOOST_TEST(item.at("error").is_null());
  BOOST_TEST(item.at("actualOutputs").as_object().at("output").as_int64() == 0);
  const auto& result = item.at("results").as_array()[0].as_object();
  BOOST_TEST(result.at("name").as_string() == "echo_score");
  BOOST_TEST(result.at("score").as_double() == 1.0);
}

BOOST_AUTO_TEST_CASE(a_throwing_or_failing_evaluator_isolates_its_item) {
  Harness h;
  auto c = h.config(10, json::object{{"throw_on", json::array{3}}, {"fail_on", json::array{7}}});
  c.parallelism = 4;
  ExperimentOutcome outcome = h.run(c);
  BOOST_TEST(!outcome.passed);
  auto items = Harness::of_type(h.events(), "item_finished");
  BOOST_REQUIRE(items.size() == 10u);
  const auto& thrown = items[3];
  BOOST_TEST(thrown.at("success").as_bool() == false);
  BOOST_TEST(thrown.at("results").as_array().empty());
  BOOST_TEST(thrown.at("error").as_object().at("stage").as_string() == "evaluator");
  BOOST_TEST(thrown.at("error").as_object().at("code").as_string() == "INTERNAL");
  BOOST_TEST(thrown.at("error").as_object().at("message").as_string() == "boom on 3");
  BOOST_TEST(items[7].at("error").as_object().at("code").as_string() == "FAILED_PRECONDITION");
  BOOST_TEST(items[8].at("success").as_bool() == true);  // the run went on
  auto summary = Harness::of_type(h.events(), "run_finished")[0].at("summary").as_object();
  BOOST_TEST(summary.at("totalCount").to_number<uint64_t>() == 10u);
  BOOST_TEST(summary.at("passCount").to_number<uint64_t>() == 8u);
  BOOST_TEST(summary.at("errorCount").to_number<uint64_t>() == 2u);
  // failed items add nothing to the evaluator's average
  BOOST_TEST(summary.at("evaluators").as_object().at("echo_score").as_object().at("count").to_number<uint64_t>() == 8u);
}

BOOST_AUTO_TEST_CASE(malformed_records_become_dataset_errors) {
  Harness h;
  auto c = h.config(9, {}, json::object{{"bad_every", 3}});
  h.run(c);
  auto items = Harness::of_type(h.events(), "item_finished");
  BOOST_REQUIRE(items.size() == 9u);
  BOOST_TEST(items[2].at("error").as_object().at("stage").as_string() == "dataset");
  BOOST_TEST(items[2].at("location").as_string() == "seq:3");
  BOOST_TEST(items[2].at("actualOutputs").is_null());
  auto summary = Harness::of_type(h.events(), "run_finished")[0].at("summary").as_object();
  BOOST_TEST(summary.at("errorCount").to_number<uint64_t>() == 3u);
}

BOOST_AUTO_TEST_CASE(three_runs_aggregate_as_specified) {
  Harness h;
  // scores i%5/4 = 0, .25, .5, .75, 1 twice; threshold .5 -> 6 of 10 pass in every run
  auto c = h.config(10, {}, json::object{{"score_from_index", true}});
  c.runs = 3;
  c.min_pass_rate = 0.6;
  ExperimentOutcome outcome = h.run(c);
  BOOST_TEST(outcome.passed);
  auto events = h.events();
  BOOST_TEST(Harness::of_type(events, "run_started").size() == 3u);
  BOOST_TEST(Harness::of_type(events, "item_finished").size() == 30u);
  auto finished = Harness::of_type(events, "experiment_finished");
  BOOST_REQUIRE(finished.size() == 1u);
  const auto& s = finished[0].at("summary").as_object();
  BOOST_TEST(s.at("runCount").to_number<uint64_t>() == 3u);
  BOOST_TEST(s.at("totalCount").to_number<uint64_t>() == 10u);
  BOOST_TEST(s.at("passRate").as_double() == 0.6);
  BOOST_TEST(s.at("passCount").as_double() == 6.0);
  const auto& e = s.at("evaluators").as_object().at("echo_score").as_object();
  BOOST_TEST(e.at("averageScore").as_double() == 0.5);
  BOOST_TEST(e.at("stdDev").as_double() == 0.0);
  BOOST_TEST(e.at("passRate").as_double() == 0.6);
  // pooled sample std dev of 0,.25,.5,.75,1 repeated six times
  BOOST_TEST(e.at("itemStdDev").as_double() == 0.359597);
  auto items = Harness::of_type(events, "item_finished");
  BOOST_TEST(items[25].at("run_index").to_number<uint64_t>() == 2u);
  BOOST_TEST(items[25].at("index").to_number<uint64_t>() == 5u);
}

BOOST_AUTO_TEST_CASE(min_pass_rate_decides_the_outcome) {
  Harness h;
  auto c = h.config(10, {}, json::object{{"score_from_index", true}});
  c.min_pass_rate = 0.61;
  BOOST_TEST(!h.run(c).passed);
}

BOOST_AUTO_TEST_CASE(cancellation_stops_dispatch_and_flushes) {
  Harness h;
  auto c = h.config(100000, json::object{{"max_sleep_ms", 2}});
  c.parallelism = 4;
  c.runs = 2;
  std::thread canceller([&] {
    std::this_thread::sleep_for(std::chrono::milliseconds(150));
    h.cancellation.request();
  });
  ExperimentOutcome outcome = h.run(c);
  canceller.join();
  BOOST_TEST(outcome.cancelled);
  BOOST_TEST(!outcome.passed);
  auto events = h.events();
  auto items = Harness::of_type(events, "item_finished");
  BOOST_TEST(items.size() > 0u);
  BOOST_TEST(items.size() < 100000u);
  for (uint64_t i = 0; i < items.size(); ++i) BOOST_TEST(items[i].at("index").to_number<uint64_t>() == i);  // no gaps
  auto runs = Harness::of_type(events, "run_finished");
  BOOST_REQUIRE(runs.size() == 1u);  // the second run never starts
  BOOST_TEST(runs[0].at("status").as_string() == "cancelled");
  BOOST_TEST(runs[0].at("summary").as_object().at("totalCount").to_number<uint64_t>() == items.size());
  BOOST_TEST(events.back().at("event").as_string() == "experiment_finished");
  BOOST_TEST(events.back().at("status").as_string() == "cancelled");
}

BOOST_AUTO_TEST_CASE(configuration_errors_come_before_anything_runs) {
  Harness h;
  auto bad_option = h.config(3, json::object{{"max_sleep_ms", -1}});
  try {
    h.run(bad_option);
    BOOST_FAIL("expected a configuration error");
  } catch (const KrinoError& e) {
    BOOST_TEST((e.kind() == ErrorKind::configuration));
    BOOST_TEST(std::string(e.what()).find("/max_sleep_ms") != std::string::npos);
  }
  auto duplicate = h.config(3);
  duplicate.evaluators.push_back({"echo_score", {}});
  BOOST_CHECK_THROW(h.run(duplicate), KrinoError);
  auto unknown = h.config(3);
  unknown.evaluators[0].component = "no_such_evaluator";
  BOOST_CHECK_THROW(h.run(unknown), KrinoError);
  auto no_resolver = h.config(3);
  no_resolver.dataset.uri = "ftp://x/y.parquet";
  BOOST_CHECK_THROW(h.run(no_resolver), KrinoError);
  BOOST_TEST((!fs::exists(h.capture) || fs::file_size(h.capture) == 0u));
}

// krino eval's path: test cases given directly, no dataset and no task. Each evaluator call gets
// the seed `krino run` would give the item (its index the line's) and the sections' spans.
BOOST_AUTO_TEST_CASE(test_cases_given_directly_get_seeds_and_section_spans) {
  Harness h;
  ExperimentConfig c;
  c.evaluators.push_back({"echo_score", json::object{{"report_context", true}}});
  std::istringstream input(
      "{\"inputs\":{\"input\":1},\"actualOutputs\":{\"score\":1.0}}\n"
      "\n"
      "[1]\n"
      "{\"actualOutputs\":{\"score\":0.25},\"metadata\":null}\n");
  std::FILE* out = std::tmpfile();
  BOOST_REQUIRE(out != nullptr);
  ResultLineWriter writer(out);
  {
    ExperimentRunner runner(c, h.registry, h.host, h.cancellation, RunnerEnvironment{h.io, &input});
    runner.set_observer(&writer);
    runner.run();
  }
  writer.finish();
  BOOST_TEST(!writer.all_passed());
  std::rewind(out);
  std::string text;
  char buffer[4096];
  for (size_t n; (n = std::fread(buffer, 1, sizeof(buffer), out)) > 0;) text.append(buffer, n);
  std::fclose(out);
  std::vector<json::object> lines;
  std::istringstream read(text);
  for (std::string line; std::getline(read, line);) lines.push_back(json::parse(line).as_object());
  BOOST_REQUIRE(lines.size() == 3u);

  const auto& first = lines[0].at("metadata").as_object();
  BOOST_TEST(first.at("seed").to_number<uint64_t>() == item_seed(0, 0, 0));
  BOOST_TEST(first.at("itemIndex").to_number<uint64_t>() == 0u);
  // {"inputs":{"input":1},"actualOutputs":{"score":1.0},"expectedOutputs":{},"metadata":{}}
  BOOST_TEST(json::serialize(first.at("sections")) == "[[10,11],[38,13],[70,2],[84,2]]");

  BOOST_TEST(json::serialize(lines[1]) ==
             R"({"line":3,"error":{"code":"INVALID_ARGUMENT","message":"a test case must be a JSON object"}})");

  const auto& last = lines[2].at("metadata").as_object();
  BOOST_TEST(lines[2].at("success").as_bool() == false);
  BOOST_TEST(last.at("seed").to_number<uint64_t>() == item_seed(0, 0, 3));
  BOOST_TEST(last.at("itemIndex").to_number<uint64_t>() == 3u);
  // {"inputs":{},"actualOutputs":{"score":0.25},"expectedOutputs":{},"metadata":{}}
  BOOST_TEST(json::serialize(last.at("sections")) == "[[10,2],[29,14],[62,2],[76,2]]");
}

BOOST_AUTO_TEST_SUITE_END()
