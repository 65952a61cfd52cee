// Results do not change: not with how the test case and the result cross the plugin boundary, and
// not from one build of krino to the next.
//
// Each way of crossing: the test case parsed by the host and lent as krino.host.document/1
// (KRINO_HOST_DOCUMENT=1), or parsed by every plugin from the bytes (the default, and how krino
// scored before the extension); the result handed to the host as values (ABI 1.2, the default) or
// written as text (KRINO_RESULT_VALUES=0, how krino scored before 1.2). Every line of every way's
// report is compared with a record: the SHA-256 of each line of the report an earlier build wrote,
// kept under tests/fixtures/results-record/. The workloads: the README's sample, the tau-bench
// replay, the agent and text benchmarks' cases, LLM judges against the fake server (the judge
// benchmark's three criteria, one judge priced and one not), and the http task benchmark's echo
// service.
//
// A change that is meant to change results records them again: run this test with
// KRINO_RECORD_RESULTS=1, which rewrites the records from the default way, and commit the new
// records with the change that explains them.
#include "process.hpp"

#include "../bench/agent_cases.hpp"
#include "../bench/text_cases.hpp"

#include "krino/core/common/content_digest.hpp"

#include "fake_llm_server.hpp"
#include "script.hpp"

#include <boost/test/unit_test.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using namespace krino::test;
namespace fs = std::filesystem;

namespace {

// The report's lines without what differs from run to run or machine to machine: times, durations
// (a task's latency too), and the parallelism chosen from the number of cores; with `settings_vary`, also the fingerprint of
// the experiment's settings (a judge's base URL holds the fake server's port, new every run).
std::vector<std::string> comparable_lines(const std::string& path, bool settings_vary) {
  static const std::regex varying(
      R"re("(durationMs|timestamp|startedAt|finishedAt|elapsedMs|wallMs|latencyMs|parallelism)":("[^"]*"|[-0-9.e+]+))re");
  static const std::regex settings(R"re("experiment":"sha256:[0-9a-f]{64}")re");
  std::vector<std::string> lines;
  std::istringstream in(read_file(path));
  std::string line;
  while (std::getline(in, line)) {
    line = std::regex_replace(line, varying, "\"$1\":0");
    if (settings_vary) line = std::regex_replace(line, settings, "\"experiment\":\"\"");
    lines.push_back(std::move(line));
  }
  return lines;
}

std::string record_path(const std::string& name) { return source_path("tests/fixtures/results-record/" + name + ".sha256"); }

// The record's digests, one a report line; lines that begin with '#' say what the record is.
std::vector<std::string> read_record(const std::string& name) {
  std::vector<std::string> digests;
  std::ifstream in(record_path(name));
  std::string line;
  while (std::getline(in, line))
    if (!line.empty() && line[0] != '#') digests.push_back(line);
  return digests;
}

void write_record(const std::string& name, const std::string& what, const std::vector<std::string>& lines) {
  std::string text = "# The SHA-256 of each line of the json report of " + what +
                     ", times and parallelism blanked.\n"
                     "# Compared by tests/e2e/cli_host_document_test.cpp; written by it under KRINO_RECORD_RESULTS=1.\n";
  for (const std::string& line : lines) text += krino::core::sha256_hex(line) + "\n";
  write_file(record_path(name), text);
}

bool recording() {
  const char* value = std::getenv("KRINO_RECORD_RESULTS");
  return value != nullptr && std::string(value) == "1";
}

// Where an experiment runs: the directory `krino run` starts in (so the report names the dataset
// by the same relative path on every machine) and the experiment file's path from there.
struct Workload {
  std::string record;       // the record's name under tests/fixtures/results-record
  std::string what;         // for the record's header
  std::string directory;
  std::string experiment;
  std::size_t lines;        // the report's line count: the run's three events and one a case
  bool settings_vary = false;
};

// Runs the workload each way and compares each report, line by line, with the record.
void check_results(const Workload& workload) {
  struct Way {
    const char* name;
    const char* document;
    const char* result;
  };
  const Way ways[] = {{"default", "KRINO_HOST_DOCUMENT=0", "KRINO_RESULT_VALUES=1"},
                      {"lent", "KRINO_HOST_DOCUMENT=1", "KRINO_RESULT_VALUES=1"},
                      {"text", "KRINO_HOST_DOCUMENT=0", "KRINO_RESULT_VALUES=0"}};
  std::vector<std::string> record = read_record(workload.record);
  for (const Way& way : ways) {
    const std::string report = temp_path(workload.record + "-" + way.name + ".jsonl");
    ProcessOptions options;
    options.environment.push_back(way.document);
    options.environment.push_back(way.result);
    options.working_directory = workload.directory;
    const ProcessResult r = run_process(
        {krino_binary(), "run", workload.experiment, "--set", "reporters=[{json: {path: " + report + "}}]"}, options);
    BOOST_TEST_REQUIRE(r.exit_code <= 1, r.err);
    const std::vector<std::string> lines = comparable_lines(report, workload.settings_vary);
    fs::remove(report);
    BOOST_TEST_REQUIRE(lines.size() == workload.lines, way.name);
    if (recording() && &way == &ways[0]) {
      write_record(workload.record, workload.what, lines);
      record = read_record(workload.record);
    }
    BOOST_TEST_REQUIRE(record.size() == lines.size(),
                       workload.record << ": the record at " << record_path(workload.record) << " has " << record.size()
                                       << " lines, the " << way.name << " report " << lines.size());
    std::size_t differing = 0;
    for (std::size_t i = 0; i < lines.size(); ++i) {
      if (krino::core::sha256_hex(lines[i]) == record[i]) continue;
      // The first few lines in full; the count says how many more.
      if (++differing <= 3)
        BOOST_ERROR(workload.record << ", " << way.name << ": line " << i + 1
                                    << " of the report differs from the record: " << lines[i].substr(0, 2000));
    }
    BOOST_TEST(differing == 0u, workload.record << ", " << way.name << ": " << differing << " of " << lines.size()
                                                << " lines differ from the record");
  }
}

// A generated workload in a directory of its own, removed when the test ends.
struct GeneratedWorkload {
  fs::path directory;
  explicit GeneratedWorkload(const std::string& name) : directory(temp_path(name)) { fs::create_directories(directory); }
  ~GeneratedWorkload() {
    std::error_code ignored;
    fs::remove_all(directory, ignored);
  }
};

// A benchmark's first cases, generated as the benchmark generates them and scored by its evaluators.
struct BenchmarkCases {
  std::string record;
  std::string experiment_name;
  std::string stem;  // of the dataset's and the experiment's file names (the report names the dataset)
  void (*generate)(const std::filesystem::path&, uint64_t);
  uint64_t cases;
  const char* evaluators;  // the experiment file's list
};

void check_benchmark_cases(const BenchmarkCases& bench) {
  const GeneratedWorkload workload("results-" + bench.stem);
  bench.generate(workload.directory / (bench.stem + ".jsonl"), bench.cases);
  write_file((workload.directory / (bench.stem + ".yaml")).string(), "name: " + bench.experiment_name + "\ndataset: " +
                                                                       bench.stem + ".jsonl\ntask: replay\n" +
                                                                       bench.evaluators + "min_pass_rate: 0\n");
  check_results({bench.record, "the " + bench.stem + " benchmark's first " + std::to_string(bench.cases) + " cases",
                 workload.directory.string(), bench.stem + ".yaml", bench.cases + 3});
}

}  // namespace

BOOST_AUTO_TEST_SUITE(results_record)

BOOST_AUTO_TEST_CASE(the_sample_scores_as_recorded_whichever_way_it_crosses) {
  check_results({"sample", "datasets/capitals.yaml", source_path(""), "datasets/capitals.yaml", 13});
}

BOOST_AUTO_TEST_CASE(tau_bench_scores_as_recorded_whichever_way_it_crosses) {
  check_results({"tau-bench-airline", "datasets/tau-bench-airline.yaml", source_path(""), "datasets/tau-bench-airline.yaml", 203});
}

BOOST_AUTO_TEST_CASE(the_agent_benchmark_scores_as_recorded_whichever_way_it_crosses) {
  check_benchmark_cases({"agent-bench-500", "agent-bench", "agent", &krino::bench::generate_agent_cases, 500,
                         krino::bench::kAgentEvaluators});
}

BOOST_AUTO_TEST_CASE(the_text_benchmark_scores_as_recorded_whichever_way_it_crosses) {
  check_benchmark_cases({"text-bench-700", "pipeline-bench", "text", &krino::bench::generate_text_cases, 700,
                         krino::bench::kTextEvaluators});
}

// The judge benchmark's workload, smaller: three criteria on each answer, the fake server replying
// at once. Two judges, one priced, so that an item's judge usage and each evaluator's share say
// which tokens had a price.
BOOST_AUTO_TEST_CASE(llm_judges_score_as_recorded_whichever_way_it_crosses) {
  krino::fake_llm::ServerOptions options;
  options.threads = 1;
  options.script = krino::fake_llm::parse_script(
      R"({"rules":[{"match":{"contains":"polite"},"reply":{"content":"{\"score\": 0.25, \"reason\": \"curt\"}"}}],)"
      R"("default":{"content":"{\"score\": 1, \"reason\": \"fine\"}"}})");
  krino::fake_llm::FakeLlmServer server(std::move(options));
  const GeneratedWorkload workload("results-judge");
  std::string rows;
  for (int i = 0; i < 100; ++i)
    rows += R"({"id":"c)" + std::to_string(i) + R"(","inputs":{"input":"question )" + std::to_string(i) +
            R"("},"expectedOutputs":{},"actualOutputs":{"output":"answer )" + std::to_string(i) + R"("},"metadata":{}})" + "\n";
  write_file((workload.directory / "cases.jsonl").string(), rows);
  write_file((workload.directory / "judged.yaml").string(),
             "name: judge-bench\ndataset: cases.jsonl\ntask: replay\njudges:\n"
             "  default:\n    provider: openai\n    base_url: " + server.base_url() + "/v1\n    model: bench\n"
             "    max_concurrency: 16\n    timeout_ms: 30000\n"
             "  unpriced:\n    provider: openai\n    base_url: " + server.base_url() + "/v1\n    model: bench-unpriced\n"
             "    max_concurrency: 16\n    timeout_ms: 30000\n"
             "prices: {bench: {input_per_million: 0.15, output_per_million: 0.6}}\n"
             "judge_cache: false\nmin_pass_rate: 0\nevaluators:\n"
             "  - llm_judge: {name: helpful, criteria: 'Is the answer helpful?', judge: unpriced}\n"
             "  - llm_judge: {name: polite, criteria: 'Is the answer polite?'}\n"
             "  - llm_judge: {name: concise, criteria: 'Is the answer concise?', judge: unpriced}\n");
  check_results({"judge-bench-100", "the judge benchmark's three criteria on 100 answers", workload.directory.string(),
                 "judged.yaml", 103, true});
}

// The http task benchmark's workload: each question sent to the fake server's echo endpoint, the
// echo scored against the expected output (which differs on one case in seven).
BOOST_AUTO_TEST_CASE(the_http_task_scores_as_recorded_whichever_way_it_crosses) {
  krino::fake_llm::ServerOptions options;
  options.threads = 1;
  krino::fake_llm::FakeLlmServer server(std::move(options));
  const GeneratedWorkload workload("results-http");
  std::string rows;
  for (int i = 0; i < 300; ++i)
    rows += R"({"id":"c)" + std::to_string(i) + R"(","inputs":{"input":"question )" + std::to_string(i) +
            R"("},"expectedOutputs":{"output":"question )" + std::to_string(i % 7 == 3 ? i + 1 : i) +
            R"("},"metadata":{}})" + "\n";
  write_file((workload.directory / "cases.jsonl").string(), rows);
  write_file((workload.directory / "http.yaml").string(),
             "name: http-bench\ndataset: cases.jsonl\ntask:\n  kind: http\n  url: " + server.base_url() +
                 "/app/answer\n  body: {output: '{{inputs.input}}'}\n  response: {path: /echo}\n  timeout_ms: 60000\n"
                 "parallelism: 8\nevaluators: [exact_match]\nmin_pass_rate: 0\n");
  check_results({"http-bench-300", "the http task benchmark's echo service on 300 questions", workload.directory.string(),
                 "http.yaml", 303, true});
}

BOOST_AUTO_TEST_SUITE_END()
