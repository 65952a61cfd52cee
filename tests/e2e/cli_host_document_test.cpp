// Results do not depend on who parses the test case: the host, lending its parse as
// krino.host.document/1 (KRINO_HOST_DOCUMENT=1), or every plugin parsing the bytes itself (the
// default, and how krino scored before the extension). Compared byte for byte, item by item, on the README's
// sample, the tau-bench replay and the agent benchmark's workload.
#include "process.hpp"

#include "../bench/agent_cases.hpp"

#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using namespace krino::test;
namespace fs = std::filesystem;

namespace {

// The report's lines without what differs from run to run: times and durations.
std::vector<std::string> comparable_lines(const std::string& path) {
  static const std::regex varying(R"re("(durationMs|timestamp|startedAt|finishedAt|elapsedMs|wallMs)":("[^"]*"|[-0-9.e+]+))re");
  std::vector<std::string> lines;
  std::istringstream in(read_file(path));
  std::string line;
  while (std::getline(in, line)) lines.push_back(std::regex_replace(line, varying, "\"$1\":0"));
  return lines;
}

// Runs `experiment` with the host's parse and without it, and compares the two reports.
void check_same_results(const std::string& experiment, const std::vector<std::string>& settings, std::size_t lines) {
  std::vector<std::vector<std::string>> reports;
  for (const bool lent : {true, false}) {
    const std::string report = temp_path(std::string("host-document-") + (lent ? "lent" : "own") + ".jsonl");
    std::vector<std::string> argv = {krino_binary(), "run", experiment, "--set", "reporters=[{json: {path: " + report + "}}]"};
    for (const std::string& setting : settings) {
      argv.push_back("--set");
      argv.push_back(setting);
    }
    ProcessOptions options;
    options.environment.push_back(lent ? "KRINO_HOST_DOCUMENT=1" : "KRINO_HOST_DOCUMENT=0");
    const ProcessResult r = run_process(argv, options);
    BOOST_TEST_REQUIRE(r.exit_code <= 1, r.err);
    reports.push_back(comparable_lines(report));
    fs::remove(report);
  }
  BOOST_TEST_REQUIRE(reports[0].size() == lines);
  BOOST_TEST_REQUIRE(reports[1].size() == lines);
  for (std::size_t i = 0; i < lines; ++i) BOOST_TEST(reports[0][i] == reports[1][i], "line " << i + 1);
}

}  // namespace

BOOST_AUTO_TEST_SUITE(host_document)

BOOST_AUTO_TEST_CASE(the_sample_scores_byte_for_byte_the_same_with_and_without_the_host_parse) {
  check_same_results(source_path("datasets/capitals.yaml"), {}, 13);
}

BOOST_AUTO_TEST_CASE(tau_bench_scores_byte_for_byte_the_same_with_and_without_the_host_parse) {
  check_same_results(source_path("datasets/tau-bench-airline.yaml"), {}, 203);
}

BOOST_AUTO_TEST_CASE(the_agent_benchmark_scores_byte_for_byte_the_same_with_and_without_the_host_parse) {
  const std::string data = temp_path("host-document-agent.jsonl");
  krino::bench::generate_agent_cases(data, 500);
  const std::string experiment = temp_path("host-document-agent.yaml");
  write_file(experiment, "name: agent-bench\ndataset: " + data +
                             "\ntask: replay\nevaluators:\n  - exact_match\n  - structural_match\n"
                             "  - tool_trajectory: {match_mode: in_order}\n  - tool_call_validity\nmin_pass_rate: 0\n");
  check_same_results(experiment, {}, 503);
  fs::remove(data);
  fs::remove(experiment);
}

BOOST_AUTO_TEST_SUITE_END()
