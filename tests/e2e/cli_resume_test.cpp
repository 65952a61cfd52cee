// `krino run --resume`: an interrupted run continued from its own JSON Lines report ends with the
// report an uninterrupted run writes, and a report from another experiment or dataset is refused.
#include "process.hpp"
#include "scratch_directory.hpp"
#include "resume_support.hpp"
#include "test_paths.hpp"

#include <boost/test/unit_test.hpp>

#include <sys/stat.h>

#include <csignal>
#include <filesystem>
#include <fstream>

using namespace krino::test;
namespace fs = std::filesystem;

namespace {

// A scratch directory to run experiments in.
struct ResumeScratch : ScratchDirectory {
  using ScratchDirectory::path;
  std::string path(const std::string& name) const { return file(name); }
  ProcessResult run(const std::string& experiment, std::vector<std::string> extra = {},
                    ProcessOptions options = {}) const {
    std::vector<std::string> argv = {krino_binary(), "run", experiment, "--plugin-dir", KRINO_TESTKIT_DIR,
                                     "--plugins", "testkit,json,files,text"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return run_process(argv, options);
  }
};

std::size_t lines_in(const std::string& path) {
  std::ifstream in(path);
  std::size_t n = 0;
  std::string line;
  while (std::getline(in, line)) ++n;
  return n;
}

// Kills the run with `signal` once its report holds `lines` lines.
ProcessOptions stop_after(const std::string& report, std::size_t lines, int signal) {
  ProcessOptions options;
  options.interrupt_signal = signal;
  options.interrupt_when = [report, lines] { return lines_in(report) >= lines; };
  return options;
}

const char* kSlowExperiment =
    "dataset: {uri: 'seq:300', options: {score_from_index: true}}\nparallelism: 4\nmin_pass_rate: 0\nruns: 2\n"
    "evaluators: [{echo_score: {max_sleep_ms: 4}}]\n";

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_resume)

BOOST_AUTO_TEST_CASE(a_killed_run_resumed_ends_with_the_report_of_an_uninterrupted_one) {
  ResumeScratch s;
  const std::string exp = s.path("exp.yaml");
  write_file(exp, std::string(kSlowExperiment) + "reporters: [{json: {path: " + s.path("full.jsonl") + "}}]\n");
  BOOST_REQUIRE_EQUAL(s.run(exp).exit_code, 0);
  const ReportContent full = read_report(s.path("full.jsonl"));

  write_file(exp, std::string(kSlowExperiment) + "reporters: [{json: {path: " + s.path("out.jsonl") + "}}]\n");
  // Killed in the first run, then the resumed run killed in the second, then resumed to the end.
  ProcessResult r = s.run(exp, {}, stop_after(s.path("out.jsonl"), 120, SIGKILL));
  BOOST_REQUIRE_EQUAL(r.exit_code, 128 + SIGKILL);
  r = s.run(exp, {"--resume", s.path("out.jsonl")}, stop_after(s.path("out.jsonl.resuming"), 400, SIGKILL));
  BOOST_REQUIRE_EQUAL(r.exit_code, 128 + SIGKILL);
  // The killed resume left the report it resumed whole.
  BOOST_TEST(lines_in(s.path("out.jsonl")) >= 120u);
  r = s.run(exp, {"--resume", s.path("out.jsonl")});
  BOOST_REQUIRE_EQUAL(r.exit_code, 0);
  BOOST_TEST(!fs::exists(s.path("out.jsonl.resuming")));

  const ReportContent resumed = read_report(s.path("out.jsonl"));
  BOOST_TEST(resumed.item_counts.size() == 600u);
  for (const auto& [key, count] : resumed.item_counts) BOOST_TEST(count == 1);
  BOOST_TEST(resumed.success == full.success);
  BOOST_TEST(resumed.run_statuses == "completed,completed");
  BOOST_TEST(resumed.experiment_summary == full.experiment_summary);
  BOOST_TEST(resumed.lines == full.lines);
}

BOOST_AUTO_TEST_CASE(ctrl_c_while_resuming_keeps_every_item_the_report_held) {
  ResumeScratch s;
  const std::string exp = s.path("exp.yaml");
  write_file(exp, std::string(kSlowExperiment) + "reporters: [{json: {path: " + s.path("out.jsonl") + "}}]\n");
  ProcessResult r = s.run(exp, {}, stop_after(s.path("out.jsonl"), 200, SIGKILL));
  BOOST_REQUIRE_EQUAL(r.exit_code, 128 + SIGKILL);
  const ReportContent killed = read_report(s.path("out.jsonl"));
  // Ctrl-C soon after the resume starts: the new report holds every old item and the new ones.
  r = s.run(exp, {"--resume", s.path("out.jsonl")}, stop_after(s.path("out.jsonl.resuming"), 210, SIGINT));
  BOOST_TEST(r.exit_code == 130, r.err);
  const ReportContent stopped = read_report(s.path("out.jsonl"));
  for (const auto& [key, count] : killed.item_counts) BOOST_TEST(stopped.item_counts.count(key) == 1u);
  BOOST_TEST(stopped.item_counts.size() >= killed.item_counts.size());
  // And the stopped report resumes to the end.
  r = s.run(exp, {"--resume", s.path("out.jsonl")});
  BOOST_TEST(r.exit_code == 0, r.err);
  BOOST_TEST(read_report(s.path("out.jsonl")).item_counts.size() == 600u);
}

BOOST_AUTO_TEST_CASE(a_shard_resumes_from_its_own_report) {
  ResumeScratch s;
  const std::string exp = s.path("exp.yaml");
  write_file(exp, std::string(kSlowExperiment) + "reporters: [{json: {path: " + s.path("full.jsonl") + "}}]\n");
  BOOST_REQUIRE_EQUAL(s.run(exp, {"--shard", "2/3"}).exit_code, 0);
  const ReportContent full = read_report(s.path("full.jsonl"));
  write_file(exp, std::string(kSlowExperiment) + "reporters: [{json: {path: " + s.path("out.jsonl") + "}}]\n");
  ProcessResult r = s.run(exp, {"--shard", "2/3"}, stop_after(s.path("out.jsonl"), 60, SIGKILL));
  BOOST_REQUIRE_EQUAL(r.exit_code, 128 + SIGKILL);
  // Another shard of the same experiment is another fingerprint.
  r = s.run(exp, {"--shard", "1/3", "--resume", s.path("out.jsonl")});
  BOOST_TEST(r.exit_code == 2, r.err);
  r = s.run(exp, {"--shard", "2/3", "--resume", s.path("out.jsonl")});
  BOOST_REQUIRE_EQUAL(r.exit_code, 0);
  const ReportContent resumed = read_report(s.path("out.jsonl"));
  BOOST_TEST(resumed.item_counts == full.item_counts);
  BOOST_TEST(resumed.experiment_summary == full.experiment_summary);
}

BOOST_AUTO_TEST_CASE(retry_errors_runs_the_failed_items_again) {
  ResumeScratch s;
  const std::string exp = s.path("exp.yaml");
  write_file(exp, "dataset: seq:10\nmin_pass_rate: 0\n"
                  "evaluators: [{echo_score: {fail_on: [3, 7], fail_on_env: KRINO_TEST_FAIL}}]\n"
                  "reporters: [{json: {path: " + s.path("out.jsonl") + "}}]\n");
  ProcessOptions failing;
  failing.environment = {"KRINO_TEST_FAIL=1"};
  BOOST_REQUIRE_EQUAL(s.run(exp, {}, failing).exit_code, 0);
  BOOST_TEST(read_report(s.path("out.jsonl")).success.at({0, 3}) == false);
  // Resumed without --retry-errors, a complete report stays as it is.
  BOOST_REQUIRE_EQUAL(s.run(exp, {"--resume", s.path("out.jsonl")}).exit_code, 0);
  BOOST_TEST(read_report(s.path("out.jsonl")).success.at({0, 3}) == false);
  BOOST_REQUIRE_EQUAL(s.run(exp, {"--resume", s.path("out.jsonl"), "--retry-errors"}).exit_code, 0);
  const ReportContent retried = read_report(s.path("out.jsonl"));
  BOOST_TEST(retried.success.at({0, 3}) == true);
  BOOST_TEST(retried.success.at({0, 7}) == true);
  BOOST_TEST(retried.item_counts.size() == 10u);
}

BOOST_AUTO_TEST_CASE(a_report_of_another_experiment_or_dataset_is_refused) {
  ResumeScratch s;
  const std::string exp = s.path("exp.yaml");
  const std::string data = s.path("data.jsonl");
  write_file(data, "{\"id\":\"a\",\"input\":\"q1\",\"expectedOutput\":\"x\",\"actualOutput\":\"x\"}\n"
                   "{\"id\":\"b\",\"input\":\"q2\",\"expectedOutput\":\"y\",\"actualOutput\":\"y\"}\n");
  const std::string body = "dataset: " + data + "\nreporters: [{json: {path: " + s.path("out.jsonl") + "}}]\n";
  write_file(exp, body + "evaluators: [exact_match]\n");
  BOOST_REQUIRE_EQUAL(s.run(exp).exit_code, 0);
  const std::string report = read_file(s.path("out.jsonl"));

  // Other evaluator options: another experiment.
  write_file(exp, body + "evaluators: [{exact_match: {ignore_case: true}}]\n");
  ProcessResult r = s.run(exp, {"--resume", s.path("out.jsonl")});
  BOOST_TEST(r.exit_code == 2, r.err);
  BOOST_TEST(r.err.find("different experiment") != std::string::npos, r.err);
  BOOST_TEST(read_file(s.path("out.jsonl")) == report);

  // The same size, another example: caught item by item.
  write_file(exp, body + "evaluators: [exact_match]\n");
  write_file(data, "{\"id\":\"a\",\"input\":\"q1\",\"expectedOutput\":\"x\",\"actualOutput\":\"x\"}\n"
                   "{\"id\":\"b\",\"input\":\"q3\",\"expectedOutput\":\"y\",\"actualOutput\":\"y\"}\n");
  r = s.run(exp, {"--resume", s.path("out.jsonl")});
  BOOST_TEST(r.exit_code == 2, r.err);
  BOOST_TEST(r.err.find("dataset changed") != std::string::npos, r.err);
  BOOST_TEST(read_file(s.path("out.jsonl")) == report);

  // A row more: another dataset size.
  write_file(data, "{\"id\":\"a\",\"input\":\"q1\",\"expectedOutput\":\"x\",\"actualOutput\":\"x\"}\n"
                   "{\"id\":\"b\",\"input\":\"q2\",\"expectedOutput\":\"y\",\"actualOutput\":\"y\"}\n"
                   "{\"id\":\"c\",\"input\":\"q3\",\"expectedOutput\":\"y\",\"actualOutput\":\"y\"}\n");
  r = s.run(exp, {"--resume", s.path("out.jsonl")});
  BOOST_TEST(r.exit_code == 2, r.err);
  BOOST_TEST(r.err.find("different dataset") != std::string::npos, r.err);

  // Not a report at all.
  r = s.run(exp, {"--resume", data});
  BOOST_TEST(r.exit_code == 2, r.err);
}

BOOST_AUTO_TEST_CASE(a_torn_last_line_is_dropped_and_its_item_run_again) {
  ResumeScratch s;
  const std::string exp = s.path("exp.yaml");
  write_file(exp, "dataset: seq:5\nevaluators: [echo_score]\nreporters: [{json: {path: " + s.path("out.jsonl") + "}}]\n");
  BOOST_REQUIRE_EQUAL(s.run(exp).exit_code, 0);
  // Keep run_started and two items, and half of the third item's line.
  std::ifstream in(s.path("out.jsonl"));
  std::string line, kept;
  for (int i = 0; i < 3 && std::getline(in, line); ++i) kept += line + "\n";
  std::getline(in, line);
  kept += line.substr(0, line.size() / 2);
  in.close();
  write_file(s.path("out.jsonl"), kept);
  const ProcessResult r = s.run(exp, {"--resume", s.path("out.jsonl")});
  BOOST_TEST(r.exit_code == 0, r.err);
  const ReportContent resumed = read_report(s.path("out.jsonl"));
  BOOST_TEST(resumed.item_counts.size() == 5u);
  BOOST_TEST(resumed.run_statuses == "completed");
}

BOOST_AUTO_TEST_SUITE_END()
