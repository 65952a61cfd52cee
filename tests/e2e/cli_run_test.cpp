// `krino run` end to end: the real binary, real experiment files, real signals.
#include "json_lines.hpp"
#include "process.hpp"
#include "test_paths.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>

using namespace krino::test;
namespace json = boost::json;

namespace {

struct Experiment {
  std::string file = temp_path("exp.yaml");
  std::string capture = temp_path("events.jsonl");
  explicit Experiment(const std::string& body) {
    write_file(file, "reporters:\n  - capture: {path: " + capture + "}\n" + body);
  }
  ~Experiment() {
    std::filesystem::remove(file);
    std::filesystem::remove(capture);
  }
  ProcessResult run(std::vector<std::string> extra = {}, ProcessOptions options = {}) const {
    std::vector<std::string> argv = {krino_binary(), "run", file, "--plugin-dir", KRINO_TESTKIT_DIR, "--plugins", "testkit"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return run_process(argv, options);
  }
  std::vector<json::object> events() const { return krino::test::json_lines(capture); }
};

size_t line_count(const std::string& path) {
  std::ifstream in(path);
  size_t n = 0;
  std::string line;
  while (std::getline(in, line)) ++n;
  return n;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_run)

BOOST_AUTO_TEST_CASE(a_passing_experiment_exits_zero) {
  Experiment e("name: ok\ndataset: seq:20\nevaluators: [echo_score]\nparallelism: 4\n");
  ProcessResult r = e.run();
  BOOST_TEST(r.exit_code == 0, r.err);
  auto events = e.events();
  BOOST_REQUIRE(events.size() == 23u);
  BOOST_TEST(events.front().at("experiment").as_object().at("name").as_string() == "ok");
}

BOOST_AUTO_TEST_CASE(set_overrides_reach_the_run) {
  Experiment e("dataset: seq:5\nevaluators: [echo_score]\n");
  ProcessResult r = e.run({"--set", "runs=2", "--set", "name=overridden"});
  BOOST_TEST(r.exit_code == 0, r.err);
  auto events = e.events();
  BOOST_TEST(events.size() == 2u * 7u + 1u);
  BOOST_TEST(events.front().at("experiment").as_object().at("name").as_string() == "overridden");
}

BOOST_AUTO_TEST_CASE(failing_items_exit_one) {
  Experiment f("dataset: {uri: 'seq:10', options: {score_from_index: true}}\nevaluators: [echo_score]\n");
  ProcessResult r = f.run();
  BOOST_TEST(r.exit_code == 1, r.err);
  ProcessResult lowered = f.run({"--set", "min_pass_rate=0.6"});
  BOOST_TEST(lowered.exit_code == 0, lowered.err);
}

BOOST_AUTO_TEST_CASE(configuration_problems_exit_two_with_a_clear_message) {
  Experiment unknown_key("dataset: seq:3\nevaluators: [echo_score]\nparalelism: 3\n");
  ProcessResult r = unknown_key.run();
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.find("unknown key 'paralelism'") != std::string::npos, r.err);

  Experiment bad_option("dataset: seq:3\nevaluators: [{echo_score: {max_sleep_ms: -5}}]\n");
  r = bad_option.run();
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.find("/max_sleep_ms") != std::string::npos, r.err);

  r = run_process({krino_binary(), "run", "/no/such/experiment.yaml"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.find("/no/such/experiment.yaml") != std::string::npos, r.err);

  r = run_process({krino_binary(), "run"});
  BOOST_TEST(r.exit_code == 2);

  Experiment e("dataset: seq:3\nevaluators: [echo_score]\n");
  r = run_process({krino_binary(), "run", e.file, "--plugin-dir", KRINO_TESTKIT_DIR, "--plugins", "testkit,nosuch"});
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(r.err.find("nosuch") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(a_dataset_that_cannot_be_opened_exits_three) {
  Experiment e("dataset: 'seq:notanumber'\nevaluators: [echo_score]\n");
  ProcessResult r = e.run();
  BOOST_TEST(r.exit_code == 3, r.err);
  BOOST_TEST(r.err.find("cannot open dataset seq:notanumber") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(sigint_mid_run_flushes_reporters_and_exits_130) {
  Experiment e("dataset: seq:1000000\nevaluators: [{echo_score: {max_sleep_ms: 3}}]\nparallelism: 4\n");
  ProcessOptions options;
  options.interrupt_when = [&] { return line_count(e.capture) >= 20; };
  ProcessResult r = e.run({}, options);
  BOOST_TEST(r.exit_code == 130, r.err);
  BOOST_TEST(r.err.find("interrupted") != std::string::npos, r.err);
  auto events = e.events();
  BOOST_REQUIRE(events.size() >= 20u);
  size_t items = 0;
  for (const auto& ev : events) items += ev.at("event").as_string() == "item_finished";
  BOOST_TEST(items < 1000000u);
  const auto& run_finished = events[events.size() - 2];
  BOOST_TEST(run_finished.at("event").as_string() == "run_finished");
  BOOST_TEST(run_finished.at("status").as_string() == "cancelled");
  BOOST_TEST(run_finished.at("summary").as_object().at("totalCount").to_number<uint64_t>() == items);
  BOOST_TEST(events.back().at("event").as_string() == "experiment_finished");
}

BOOST_AUTO_TEST_SUITE_END()
