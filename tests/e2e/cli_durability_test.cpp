// Nothing lost, nothing stale, no false success: `krino run` with plugins that crash or end the
// process, reports that would overwrite an input or each other, and gates over unfinished runs.
#include "json_lines.hpp"
#include "process.hpp"
#include "scratch_directory.hpp"
#include "test_paths.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <sys/stat.h>

#include <algorithm>
#include <csignal>
#include <filesystem>
#include <fstream>

using namespace krino::test;
namespace json = boost::json;
namespace fs = std::filesystem;

namespace {

// A scratch directory to run experiments in.
struct Scratch : ScratchDirectory {
  using ScratchDirectory::path;
  std::string path(const std::string& name) const { return file(name); }
  ProcessResult run(const std::string& experiment, std::vector<std::string> extra = {}) const {
    std::vector<std::string> argv = {krino_binary(), "run", experiment, "--plugin-dir", KRINO_TESTKIT_DIR,
                                     "--plugins", "testkit,json,junit,csv,files,text"};
    argv.insert(argv.end(), extra.begin(), extra.end());
    return run_process(argv);
  }
};

// The testkit's segfault: SIGSEGV, or SIGABRT under AddressSanitizer, whose handler reports it and aborts.
bool died_of_the_crash(int exit_code) { return exit_code == 128 + SIGSEGV || exit_code == 128 + SIGABRT; }

std::size_t item_lines(const std::vector<json::object>& events) {
  std::size_t n = 0;
  for (const auto& e : events) n += e.at("event").as_string() == "item_finished";
  return n;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_durability)

BOOST_AUTO_TEST_CASE(a_crash_leaves_every_finished_item_in_the_json_report_and_no_stale_reports) {
  Scratch s;
  const std::string exp = s.path("exp.yaml");
  // The earlier run's complete reports, which must not survive looking like this run's.
  write_file(s.path("junit.xml"), "<testsuites>an earlier run</testsuites>\n");
  write_file(s.path("results.csv"), "an,earlier,run\n");
  write_file(exp, "dataset: seq:20\nparallelism: 1\n"
                  "evaluators: [{echo_score: {misbehave_on: 10, misbehave_after_ms: 400}}]\n"
                  "reporters: [{json: {path: " + s.path("results.jsonl") + "}}, {junit: {path: " +
                  s.path("junit.xml") + "}}, {csv: {path: " + s.path("results.csv") + "}}]\n");
  const ProcessResult r = s.run(exp);
  BOOST_TEST(died_of_the_crash(r.exit_code), r.err);
  // Every line is whole and valid, and every item before the crash is there.
  const auto events = json_lines(s.path("results.jsonl"));
  BOOST_REQUIRE(!events.empty());
  BOOST_TEST(events.front().at("event").as_string() == "run_started");
  BOOST_TEST(item_lines(events) == 10u);
  BOOST_TEST(read_file(s.path("junit.xml")).empty());
  BOOST_TEST(read_file(s.path("results.csv")).empty());
}

BOOST_AUTO_TEST_CASE(a_second_ctrl_c_on_a_hung_evaluator_leaves_the_finished_items) {
  Scratch s;
  const std::string exp = s.path("exp.yaml");
  const std::string report = s.path("results.jsonl");
  write_file(exp, "dataset: seq:20\nparallelism: 1\n"
                  "evaluators: [{echo_score: {misbehave_on: 6, misbehaviour: hang}}]\n"
                  "reporters: [{json: {path: " + report + "}}]\n");
  ProcessOptions options;
  // run_started and 6 items; counted by line feeds, as a line being written is not whole yet.
  options.interrupt_when = [report] {
    const std::string text = read_file(report);
    return std::count(text.begin(), text.end(), '\n') >= 7;
  };
  options.interrupt_again_after_ms = 300;
  std::vector<std::string> argv = {krino_binary(), "run", exp, "--plugin-dir", KRINO_TESTKIT_DIR,
                                   "--plugins", "testkit,json"};
  const ProcessResult r = run_process(argv, options);
  BOOST_TEST(r.exit_code == 130, r.err);
  const auto events = json_lines(report);
  BOOST_TEST(item_lines(events) == 6u);
}

BOOST_AUTO_TEST_CASE(a_plugin_calling_exit_zero_does_not_make_the_run_succeed) {
  Scratch s;
  const std::string exp = s.path("exp.yaml");
  write_file(exp, "dataset: seq:20\nevaluators: [{echo_score: {misbehave_on: 5, misbehaviour: exit0}}]\n"
                  "reporters: [{json: {path: " + s.path("results.jsonl") + "}}]\n");
  const ProcessResult r = s.run(exp);
  BOOST_TEST(r.exit_code == 3, r.err);
  BOOST_TEST(r.err.find("exit() from inside a plugin") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(a_run_whose_every_item_is_an_error_fails_whatever_min_pass_rate_allows) {
  Scratch s;
  const std::string exp = s.path("exp.yaml");
  write_file(exp, "dataset: seq:4\nmin_pass_rate: 0\nevaluators: [{echo_score: {fail_on: [0, 1, 2, 3]}}]\n"
                  "reporters: []\n");
  BOOST_TEST(s.run(exp).exit_code == 1);
  // One scored item is enough for min_pass_rate 0 to pass.
  write_file(exp, "dataset: seq:4\nmin_pass_rate: 0\nevaluators: [{echo_score: {fail_on: [0, 1, 2]}}]\n"
                  "reporters: []\n");
  BOOST_TEST(s.run(exp).exit_code == 0);
}

BOOST_AUTO_TEST_CASE(a_report_never_overwrites_an_input_or_another_report) {
  Scratch s;
  const std::string exp = s.path("exp.yaml");
  const std::string data = s.path("data.jsonl");
  const std::string row = "{\"input\":\"q\",\"expectedOutput\":\"a\",\"actualOutput\":\"a\"}\n";
  write_file(data, row);
  const std::string head = "dataset: " + data + "\nevaluators: [exact_match]\n";

  // The json report on the dataset.
  write_file(exp, head + "reporters: [{json: {path: " + data + "}}]\n");
  ProcessResult r = s.run(exp);
  BOOST_TEST(r.exit_code == 2, r.err);
  BOOST_TEST(r.err.find("which is the dataset") != std::string::npos, r.err);
  BOOST_TEST(read_file(data) == row);

  // The same file through a symbolic link and a relative name.
  fs::create_symlink(data, s.path("link.jsonl"));
  write_file(exp, head + "reporters: [{csv: {path: " + s.path("link.jsonl") + "}}]\n");
  r = s.run(exp);
  BOOST_TEST(r.exit_code == 2, r.err);
  BOOST_TEST(read_file(data) == row);

  // The JUnit report on the experiment file itself.
  const std::string experiment = head + "reporters: [{junit: {path: " + exp + "}}]\n";
  write_file(exp, experiment);
  r = s.run(exp);
  BOOST_TEST(r.exit_code == 2, r.err);
  BOOST_TEST(r.err.find("which is the experiment file") != std::string::npos, r.err);
  BOOST_TEST(read_file(exp) == experiment);

  // Two reports on one file.
  write_file(exp, head + "reporters: [{json: {path: " + s.path("out") + "}}, {csv: {path: " + s.path("out") + "}}]\n");
  r = s.run(exp);
  BOOST_TEST(r.exit_code == 2, r.err);
  BOOST_TEST(r.err.find("would both be written") != std::string::npos, r.err);

  // A device may take any number of reports, and stays a device.
  write_file(exp, head + "reporters: [{junit: {path: /dev/null}}, {csv: {path: /dev/null}}]\n");
  r = s.run(exp);
  BOOST_TEST(r.exit_code == 0, r.err);
  struct stat info {};
  BOOST_TEST((::stat("/dev/null", &info) == 0 && S_ISCHR(info.st_mode)));
}

BOOST_AUTO_TEST_CASE(the_gate_refuses_a_run_that_did_not_finish) {
  Scratch s;
  const std::string exp = s.path("exp.yaml");
  write_file(exp, "dataset: seq:20\nparallelism: 1\n"
                  "evaluators: [{echo_score: {misbehave_on: 10, misbehave_after_ms: 300}}]\n"
                  "reporters: [{json: {path: " + s.path("results.jsonl") + "}}]\n");
  BOOST_TEST(died_of_the_crash(s.run(exp).exit_code));
  // A baseline from a complete run of the same dataset.
  write_file(exp, "dataset: seq:20\nevaluators: [echo_score]\nreporters: [{json: {path: " + s.path("full.jsonl") + "}}]\n");
  BOOST_TEST(s.run(exp).exit_code == 0);
  ProcessResult update = run_process({krino_binary(), "gate", "--update", "--baseline", s.path("baseline.json"),
                                      "--verdict-dir", s.path("verdicts"), s.path("full.jsonl")});
  BOOST_TEST(update.exit_code == 0, update.err);

  const ProcessResult r = run_process({krino_binary(), "gate", "--baseline", s.path("baseline.json"), "--verdict-dir",
                                       s.path("verdicts"), s.path("results.jsonl")});
  BOOST_TEST(r.exit_code != 0);
  BOOST_TEST(r.err.find("incomplete run") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_CASE(eval_on_a_directory_is_an_error) {
  Scratch s;
  const ProcessResult r = run_process({krino_binary(), "eval", "-e", "exact_match", s.path().string()});
  BOOST_TEST(r.exit_code == 2, r.err);
  BOOST_TEST(r.err.find("is a directory") != std::string::npos, r.err);
}

BOOST_AUTO_TEST_SUITE_END()
