// Results do not depend on how the test case and the result cross the plugin boundary. The test
// case: parsed by the host and lent as krino.host.document/1 (KRINO_HOST_DOCUMENT=1), or parsed by
// every plugin from the bytes (the default, and how krino scored before the extension). The result:
// handed to the host as values (ABI 1.2, the default) or written as text (KRINO_RESULT_VALUES=0,
// how krino scored before 1.2). Compared byte for byte, item by item, on the README's sample, the
// tau-bench replay and the agent benchmark's workload.
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

// Runs `experiment` each way and compares the reports.
void check_same_results(const std::string& experiment, const std::vector<std::string>& settings, std::size_t lines) {
  struct Way {
    const char* name;
    const char* document;
    const char* result;
  };
  const Way ways[] = {{"default", "KRINO_HOST_DOCUMENT=0", "KRINO_RESULT_VALUES=1"},
                      {"lent", "KRINO_HOST_DOCUMENT=1", "KRINO_RESULT_VALUES=1"},
                      {"text", "KRINO_HOST_DOCUMENT=0", "KRINO_RESULT_VALUES=0"}};
  std::vector<std::vector<std::string>> reports;
  for (const Way& way : ways) {
    const std::string report = temp_path(std::string("host-document-") + way.name + ".jsonl");
    std::vector<std::string> argv = {krino_binary(), "run", experiment, "--set", "reporters=[{json: {path: " + report + "}}]"};
    for (const std::string& setting : settings) {
      argv.push_back("--set");
      argv.push_back(setting);
    }
    ProcessOptions options;
    options.environment.push_back(way.document);
    options.environment.push_back(way.result);
    const ProcessResult r = run_process(argv, options);
    BOOST_TEST_REQUIRE(r.exit_code <= 1, r.err);
    reports.push_back(comparable_lines(report));
    fs::remove(report);
  }
  for (std::size_t w = 0; w < reports.size(); ++w) {
    BOOST_TEST_REQUIRE(reports[w].size() == lines, ways[w].name);
    if (w == 0) continue;
    for (std::size_t i = 0; i < lines; ++i)
      BOOST_TEST(reports[0][i] == reports[w][i], ways[w].name << " differs from the default on line " << i + 1);
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(host_document)

BOOST_AUTO_TEST_CASE(the_sample_scores_byte_for_byte_the_same_whichever_way_it_crosses) {
  check_same_results(source_path("datasets/capitals.yaml"), {}, 13);
}

BOOST_AUTO_TEST_CASE(tau_bench_scores_byte_for_byte_the_same_whichever_way_it_crosses) {
  check_same_results(source_path("datasets/tau-bench-airline.yaml"), {}, 203);
}

BOOST_AUTO_TEST_CASE(the_agent_benchmark_scores_byte_for_byte_the_same_whichever_way_it_crosses) {
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
