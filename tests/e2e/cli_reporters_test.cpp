// `krino run` with the junit, markdown, html and csv reporters: the real binary and plugins, the
// bundled sample experiment, Ctrl-C, standard output and $GITHUB_STEP_SUMMARY.
#include "process.hpp"
#include "test_paths.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <sys/wait.h>

#include <cstdio>
#include <filesystem>
#include <string>

using namespace krino::test;

namespace {

std::size_t count_of(const std::string& text, const std::string& needle) {
  std::size_t n = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + needle.size())) ++n;
  return n;
}

// xmllint's verdict on `file` against the vendored JUnit schema ("" when valid).
std::string junit_schema_errors(const std::string& file) {
  const std::string command = "xmllint --noout --schema " + source_path("tests/fixtures/junit/junit-10.xsd") + " " + file +
                              " 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  BOOST_REQUIRE(pipe != nullptr);
  std::string output;
  char buffer[4096];
  std::size_t n = 0;
  while ((n = fread(buffer, 1, sizeof buffer, pipe)) > 0) output.append(buffer, n);
  const int status = pclose(pipe);
  return WIFEXITED(status) && WEXITSTATUS(status) == 0 ? std::string() : output;
}

struct Outputs {
  std::string dir = temp_path("reports");
  Outputs() { std::filesystem::create_directories(dir); }
  ~Outputs() { std::filesystem::remove_all(dir); }
  std::string operator/(const std::string& name) const { return dir + "/" + name; }
  std::string reporters() const {
    return "reporters=[{junit: {path: " + dir + "/junit.xml}}, {markdown: {path: " + dir +
           "/summary.md}}, {html: {path: " + dir + "/report.html}}, {csv: {path: " + dir + "/results.csv}}]";
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_reporters)

BOOST_AUTO_TEST_CASE(the_sample_experiment_writes_all_four_reports) {
  Outputs out;
  ProcessResult r = run_process({krino_binary(), "run", source_path("datasets/capitals.yaml"), "--set", "runs=2", "--set",
                                 out.reporters()});
  BOOST_TEST(r.exit_code == 0, r.err);

  const std::string junit = read_file(out / "junit.xml");
  BOOST_TEST(junit_schema_errors(out / "junit.xml").empty(), junit_schema_errors(out / "junit.xml"));
  BOOST_TEST(junit.find("<testsuites name=\"capitals\" tests=\"20\" failures=\"8\" errors=\"0\"") != std::string::npos,
             junit.substr(0, 400));
  BOOST_TEST(count_of(junit, "<testsuite ") == 2u);
  BOOST_TEST(junit.find("name=\"cap-03: What is the capital of Australia? [run 2/2]\" classname=\"capitals\"") !=
             std::string::npos);
  // The dataset's location, as the resolver gives it: a path made absolute from the experiment's.
  BOOST_TEST(junit.find("file=\"" + source_path("datasets/capitals.jsonl") + "\" line=\"3\"") != std::string::npos);

  const std::string markdown = read_file(out / "summary.md");
  BOOST_TEST(markdown.rfind("## ❌ Experiment: capitals\n", 0) == 0, markdown);
  BOOST_TEST(markdown.find("**Pass rate: 60.0%**, mean of 2 runs (60.0%, 60.0%)") != std::string::npos, markdown);
  BOOST_TEST(markdown.find("### Failed items (8, over all runs)") != std::string::npos);

  const std::string html = read_file(out / "report.html");
  BOOST_TEST(html.find("<div class=\"label\">Pass rate</div><div class=\"value fail\">60.0%</div>") != std::string::npos);
  BOOST_TEST(count_of(html, "\"s\":\"failed\"") == 8u);
  BOOST_TEST(count_of(html, "\"s\":\"passed\"") == 12u);

  const std::string csv = read_file(out / "results.csv");
  BOOST_TEST(count_of(csv, "\r\n") == 21u);
  BOOST_TEST(csv.rfind("run,index,id,success,error,input,expected_output,actual_output,exact_match_score,", 0) == 0);
  BOOST_TEST(csv.find("\r\n2,2,cap-03,false,,What is the capital of Australia?,Canberra,Sydney,0.0,false,") !=
             std::string::npos);
  // Every report was renamed into place: nothing else is in the directory.
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(out.dir)) ++files;
  BOOST_TEST(files == 4u);
}

BOOST_AUTO_TEST_CASE(ctrl_c_leaves_complete_reports_that_say_they_were_cancelled) {
  Outputs out;
  const std::string experiment = out / "exp.yaml";
  write_file(experiment, "name: long\ndataset: seq:1000000\nevaluators: [{echo_score: {max_sleep_ms: 2}}]\n"
                         "parallelism: 4\nreporters: [console]\n");
  int polls = 0;
  ProcessOptions options;
  options.interrupt_when = [&] { return ++polls >= 60; };  // about 0.6 s in
  ProcessResult r = run_process({krino_binary(), "run", experiment, "--plugin-dir", KRINO_TESTKIT_DIR, "--plugins",
                                 "testkit,junit,markdown,html,csv,console", "--set", out.reporters()},
                                options);
  BOOST_TEST(r.exit_code == 130, r.err);

  BOOST_TEST(junit_schema_errors(out / "junit.xml").empty(), junit_schema_errors(out / "junit.xml"));
  const std::string junit = read_file(out / "junit.xml");
  BOOST_TEST(junit.find("experiment status: cancelled") != std::string::npos);
  BOOST_TEST(junit.find("<testcase name=\"krino: run cancelled\"") != std::string::npos);
  BOOST_TEST(read_file(out / "summary.md").find("> Cancelled during run 1 of 1") != std::string::npos);
  const std::string html = read_file(out / "report.html");
  BOOST_TEST(html.find("<span class=\"badge cancelled\">cancelled</span>") != std::string::npos);
  BOOST_TEST(html.rfind("</html>\n") == html.size() - 8);
  const std::string csv = read_file(out / "results.csv");
  BOOST_TEST(csv.size() > 100u);
  BOOST_TEST(csv.substr(csv.size() - 11) == "cancelled\r\n");
  BOOST_TEST(csv.find(",completed\r\n") == std::string::npos);
}

BOOST_AUTO_TEST_CASE(markdown_goes_to_stdout_or_to_the_github_step_summary) {
  Outputs out;
  ProcessResult r = run_process({krino_binary(), "run", source_path("datasets/capitals.yaml"), "--set",
                                 "reporters=[{markdown: {path: '-'}}]"});
  BOOST_TEST(r.exit_code == 0, r.err);
  BOOST_TEST(r.out.rfind("## ❌ Experiment: capitals\n", 0) == 0, r.out);

  const std::string step_summary = out / "step_summary";
  write_file(step_summary, "Earlier step output\n");
  ProcessOptions options;
  options.environment = {"GITHUB_STEP_SUMMARY=" + step_summary};
  r = run_process({krino_binary(), "run", source_path("datasets/capitals.yaml"), "--set", "reporters=[markdown]"}, options);
  BOOST_TEST(r.exit_code == 0, r.err);
  const std::string text = read_file(step_summary);
  BOOST_TEST(text.rfind("Earlier step output\n\n## ❌ Experiment: capitals\n", 0) == 0, text);
}

BOOST_AUTO_TEST_CASE(a_report_path_that_cannot_be_written_stops_the_run_before_it_starts) {
  Outputs out;
  ProcessResult r = run_process({krino_binary(), "run", source_path("datasets/capitals.yaml"), "--set",
                                 "reporters=[{junit: {path: " + out.dir + "}}]"});
  BOOST_TEST(r.exit_code == 2, r.err);
  BOOST_TEST(r.err.find("reporter 'junit' rejected its options: cannot write '" + out.dir + "': Is a directory") !=
                 std::string::npos,
             r.err);
}

BOOST_AUTO_TEST_SUITE_END()
