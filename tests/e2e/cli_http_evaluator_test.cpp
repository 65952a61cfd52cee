// Remote evaluators over HTTP (`use: http_evaluator`), end to end: the real krino against the
// Python example server (sdk/examples/http_python) run by the test, with faults scripted by URL
// path (http_evaluator_faults.py). The results on tau-bench equal the built-in tool_error's; each
// fault is an item error naming its cause while the run goes on; a failed handshake stops the run
// before it starts, naming the evaluator and the URL.
#include "process.hpp"
#include "test_paths.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>
#include <thread>

using namespace krino::test;
namespace json = boost::json;
namespace fs = std::filesystem;

namespace {

// The fault server as a child process, for as long as the fixture lives.
class FaultServer {
 public:
  FaultServer() {
    const std::string port_file = temp_path("http-evaluator-url");
    fs::remove(port_file);
    std::vector<std::string> args = {"/usr/bin/env", "python3", source_path("tests/e2e/http_evaluator_faults.py"),
                                     port_file};
    std::vector<char*> argv;
    for (auto& arg : args) argv.push_back(arg.data());
    argv.push_back(nullptr);
    const std::string log = temp_path("http-evaluator-server.log");
    pid_ = ::fork();
    if (pid_ < 0) throw std::runtime_error("cannot fork");
    if (pid_ == 0) {
      ::prctl(PR_SET_PDEATHSIG, SIGKILL);  // no server left behind by a test that crashes
      const int err = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
      if (err >= 0) ::dup2(err, 2);
      ::execv(argv[0], argv.data());
      ::_exit(127);
    }
    for (int waited = 0; waited < 1000 && !fs::exists(port_file); ++waited)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    if (!fs::exists(port_file)) throw std::runtime_error("the fault server did not start: " + read_file(log));
    url = read_file(port_file);
    fs::remove(port_file);
  }
  ~FaultServer() {
    ::kill(pid_, SIGKILL);
    ::waitpid(pid_, nullptr, 0);
  }
  FaultServer(const FaultServer&) = delete;
  FaultServer& operator=(const FaultServer&) = delete;

  std::string url;  // http://127.0.0.1:PORT

 private:
  pid_t pid_ = -1;
};

FaultServer& server() {
  static FaultServer running;
  return running;
}

const std::string kToolErrorOptions = R"(error_patterns: ["^Error:"], ignore_tools: [think])";

struct Run {
  ProcessResult process;
  std::vector<json::object> items;
};

Run run_on_tau_bench(const std::string& evaluators, const std::string& name) {
  const std::string report = temp_path("http-evaluator-" + name + ".jsonl");
  Run run;
  run.process = run_process({krino_binary(), "run", source_path("datasets/tau-bench-airline.yaml"), "--set",
                             "evaluators=" + evaluators, "--set", "reporters=[{json: {path: " + report + "}}]",
                             "--set", "parallelism=8", "--set", "min_pass_rate=0"});
  std::ifstream in(report);
  std::string line;
  while (std::getline(in, line)) {
    json::object event = json::parse(line).as_object();
    if (event.at("event") == "item_finished") run.items.push_back(std::move(event));
  }
  fs::remove(report);
  return run;
}

std::string item_error(const json::object& item) {
  const json::value& error = item.at("error");
  return error.is_null() ? std::string()
                         : std::string(error.at("code").as_string()) + ": " + std::string(error.at("message").as_string());
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// One evaluator at the fault path `fault`: the items the server faults on (index % 10 == 3) are
// errors naming `causes`, every other item is scored.
void expect_fault(const std::string& fault, const std::string& extra, const std::vector<std::string>& causes) {
  // One test case a request unless `extra` says otherwise: a fault then concerns its item only.
  const std::string batch = has(extra, "batch:") ? "" : "batch: 1, ";
  const std::string evaluators = "[{use: http_evaluator, url: '" + server().url + "/" + fault + "', " + batch +
                                 "retry_base_ms: 1, " + kToolErrorOptions + extra + "}]";
  const Run run = run_on_tau_bench(evaluators, fault);
  BOOST_TEST_REQUIRE(run.process.exit_code == 0, fault << ": " << run.process.err);
  BOOST_TEST_REQUIRE(run.items.size() == 200u, fault);
  for (const json::object& item : run.items) {
    const int64_t index = item.at("index").as_int64();
    const std::string error = item_error(item);
    if (index % 10 == 3) {
      for (const std::string& cause : causes) BOOST_TEST(has(error, cause), fault << " item " << index << ": " << error);
    } else {
      BOOST_TEST(error.empty(), fault << " item " << index << ": " << error);
    }
  }
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_http_evaluator)

// The acceptance: the Python server gives exactly the built-in tool_error's results (score,
// success, reason, metadata) on every tau-bench trajectory, batched or one case a request, and
// through a server that answers every first attempt with 503 and Retry-After. The server declares
// "reads": ["actualOutputs"] and refuses a batch carrying any other section, so this also shows
// that requests carry only those sections, their bytes unchanged (the scores are exact).
BOOST_AUTO_TEST_CASE(the_python_server_matches_the_built_in_evaluator_on_tau_bench) {
  const std::string evaluators = "[{tool_error: {" + kToolErrorOptions + "}}, {use: http_evaluator, name: batched, url: '" +
                                 server().url + "/ok', " + kToolErrorOptions +
                                 "}, {use: http_evaluator, name: single, url: '" + server().url +
                                 "/ok', batch: 1, concurrency: 8, " + kToolErrorOptions +
                                 "}, {use: http_evaluator, name: flaky, url: '" + server().url +
                                 "/flaky', batch: 4, retry_base_ms: 1, " + kToolErrorOptions + "}]";
  const Run run = run_on_tau_bench(evaluators, "equivalence");
  BOOST_TEST_REQUIRE(run.process.exit_code == 0, run.process.err);
  BOOST_TEST_REQUIRE(run.items.size() == 200u);
  for (const json::object& item : run.items) {
    BOOST_TEST_REQUIRE(item.at("error").is_null(), item_error(item));
    std::map<std::string, json::object> by_name;
    for (const json::value& result : item.at("results").as_array())
      by_name[std::string(result.at("name").as_string())] = result.as_object();
    BOOST_TEST_REQUIRE(by_name.size() == 4u);
    for (const char* remote : {"batched", "single", "flaky"}) {
      json::object renamed = by_name.at(remote);
      renamed["name"] = "tool_error";
      // Exactly equal, numbers included: the results pass through as the server wrote them.
      BOOST_TEST(json::serialize(renamed) == json::serialize(by_name.at("tool_error")),
                 remote << " on " << item.at("id") << ": " << json::serialize(renamed));
    }
  }
}

BOOST_AUTO_TEST_CASE(http_500_after_the_retries_is_an_item_error) {
  expect_fault("http500", ", max_retries: 1", {"UNAVAILABLE: ", "HTTP 500 (after 2 attempts)", "scripted failure"});
}

BOOST_AUTO_TEST_CASE(a_4xx_is_an_item_error_at_once) {
  expect_fault("http400", "", {"INVALID_ARGUMENT: ", "HTTP 400:", "scripted refusal"});
}

BOOST_AUTO_TEST_CASE(no_reply_within_timeout_ms_is_an_item_error) {
  expect_fault("slow", ", timeout_ms: 400, max_retries: 0", {"DEADLINE_EXCEEDED: ", "no complete reply within 400 ms"});
}

BOOST_AUTO_TEST_CASE(a_connection_closed_without_a_reply_is_an_item_error) {
  expect_fault("close", ", max_retries: 1", {"UNAVAILABLE: ", "(after 2 attempts)"});
}

BOOST_AUTO_TEST_CASE(a_reply_that_is_not_json_is_an_item_error) {
  expect_fault("notjson", "", {"INTERNAL: ", "a reply that is not a JSON object: <html>"});
}

BOOST_AUTO_TEST_CASE(a_reply_in_another_protocol_is_an_item_error) {
  expect_fault("protocol", "", {"INTERNAL: ", "a reply in protocol \"krino.evaluatorworker/2\""});
}

BOOST_AUTO_TEST_CASE(a_missing_answer_is_an_item_error_naming_the_id) {
  expect_fault("missing", ", batch: 32", {"INTERNAL: ", "a reply with no answer for request id "});
}

BOOST_AUTO_TEST_CASE(a_duplicate_answer_is_an_item_error_naming_the_id) {
  expect_fault("duplicate", ", batch: 32", {"INTERNAL: ", "a reply that answers request id ", " 2 times"});
}

BOOST_AUTO_TEST_CASE(a_result_failing_the_eval_result_check_is_an_item_error) {
  expect_fault("badresult", ", batch: 32", {"INTERNAL: ", "malformed result: \"score\" 7", "outside 0..1"});
}

BOOST_AUTO_TEST_CASE(a_failed_handshake_stops_the_run_naming_the_evaluator_and_url) {
  Run run = run_on_tau_bench("[{use: http_evaluator, url: '" + server().url + "/handshake'}]", "handshake");
  BOOST_TEST(run.process.exit_code == 2, run.process.err);
  BOOST_TEST(has(run.process.err, "http evaluator " + server().url + "/handshake (GET, the handshake)"), run.process.err);
  BOOST_TEST(has(run.process.err, "krino.evaluatorworker/0"), run.process.err);

  // Nothing listens on port 1: connection refused, after the retries.
  run = run_on_tau_bench("[{use: http_evaluator, url: 'http://127.0.0.1:1/x', max_retries: 1, retry_base_ms: 1}]",
                         "refused");
  BOOST_TEST(run.process.exit_code == 2, run.process.err);
  BOOST_TEST(has(run.process.err, "http evaluator http://127.0.0.1:1/x (GET, the handshake)"), run.process.err);
  BOOST_TEST(has(run.process.err, "(after 2 attempts)"), run.process.err);
}

// A handshake's "reads" is checked as a worker's is: a section that does not exist stops the run.
BOOST_AUTO_TEST_CASE(a_handshake_reading_an_unknown_section_stops_the_run_naming_the_evaluator_and_url) {
  const Run run = run_on_tau_bench("[{use: http_evaluator, url: '" + server().url + "/badreads'}]", "badreads");
  BOOST_TEST(run.process.exit_code == 2, run.process.err);
  BOOST_TEST(run.items.empty());
  BOOST_TEST(has(run.process.err, "http evaluator " + server().url + "/badreads (GET, the handshake)"), run.process.err);
  BOOST_TEST(has(run.process.err, "its handshake's 'reads' names \"outputs\", which is not a test-case section"),
             run.process.err);
}

// Header values may read the environment; those values appear in no message.
BOOST_AUTO_TEST_CASE(secrets_in_headers_are_never_printed) {
  const std::string secret = "s3cr3t-token-krino";
  const std::string report = temp_path("http-evaluator-secret.jsonl");
  ProcessOptions options;
  options.environment = {"KRINO_TEST_EVALUATOR_TOKEN=" + secret};
  const ProcessResult r = run_process(
      {krino_binary(), "run", source_path("datasets/tau-bench-airline.yaml"), "--set",
       "evaluators=[{use: http_evaluator, url: '" + server().url +
           "/http400', batch: 1, headers: {Authorization: 'Bearer {{env.KRINO_TEST_EVALUATOR_TOKEN}}'}, " +
           kToolErrorOptions + "}]",
       "--set", "reporters=[{json: {path: " + report + "}}]", "--set", "min_pass_rate=0"},
      options);
  BOOST_TEST(r.exit_code == 0, r.err);
  const std::string written = read_file(report);
  fs::remove(report);
  BOOST_TEST(has(written, "HTTP 400"));
  BOOST_TEST(!has(written, secret));
  BOOST_TEST(!has(r.err, secret));
  BOOST_TEST(!has(r.out, secret));
}

BOOST_AUTO_TEST_SUITE_END()
