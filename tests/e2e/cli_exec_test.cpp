// `krino run` with the exec task, end to end: the real binary runs real programs (python3 and sh)
// per example and as persistent workers, and every way they can fail becomes an item error with
// its cause while the run goes on.
#include "process.hpp"
#include "process_checks.hpp"
#include "test_paths.hpp"

#include "krino/core/common/thread_sanitizer.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>
#include <chrono>
#include <csignal>
#include <filesystem>
#include <fstream>
#include <set>
#include <thread>

using namespace krino::test;
namespace json = boost::json;
namespace fs = std::filesystem;

namespace {

// An experiment file in a directory of its own, next to copies of the test programs.
struct ExecExperiment {
  fs::path dir;
  std::string file;
  std::string capture;

  explicit ExecExperiment(const std::string& body) {
    static int counter = 0;
    dir = fs::path(temp_path("exec-" + std::to_string(++counter)));
    fs::create_directories(dir);
    for (const char* program : {"agent.py", "worker.py"})
      fs::copy_file(source_path(std::string("tests/e2e/exec_programs/") + program), dir / program,
                    fs::copy_options::overwrite_existing);
    file = (dir / "experiment.yaml").string();
    capture = (dir / "events.jsonl").string();
    write_file(file, "reporters:\n  - capture: {path: " + capture + "}\nevaluators: [echo_score]\nmin_pass_rate: 0\n" + body);
  }
  ~ExecExperiment() {
    std::error_code ignored;
    fs::remove_all(dir, ignored);
  }
  ProcessResult run(ProcessOptions options = {}) const {
    return run_process({krino_binary(), "run", file, "--plugin-dir", KRINO_TESTKIT_DIR, "--plugins", "testkit"}, options);
  }
  std::vector<json::object> items() const {
    std::vector<json::object> out;
    std::ifstream in(capture);
    std::string line;
    while (std::getline(in, line)) {
      json::object event = json::parse(line).as_object();
      if (event.at("event").as_string() == "item_finished") out.push_back(std::move(event));
    }
    return out;
  }
};

std::string error_message(const json::object& item) {
  const json::value& error = item.at("error");
  return error.is_null() ? std::string() : std::string(error.at("message").as_string());
}
std::string error_code(const json::object& item) {
  const json::value& error = item.at("error");
  return error.is_null() ? std::string() : std::string(error.at("code").as_string());
}
bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_exec)

BOOST_AUTO_TEST_CASE(per_example_programs_reply_fail_and_the_run_goes_on) {
  ExecExperiment e(
      "dataset: seq:12\n"
      "task: {kind: exec, command: [python3, agent.py], timeout_ms: 2000, kill_grace_ms: 200,"
      " max_output_bytes: 1000000}\n"
      "parallelism: 4\n"
      "prices: {small-model: {input_per_million: 1.0, output_per_million: 2.0}}\n");
  ProcessResult r = e.run();
  BOOST_TEST(r.exit_code == 0, r.err);  // min_pass_rate 0: item errors do not fail the command
  auto items = e.items();
  BOOST_REQUIRE(items.size() == 12u);
  for (size_t i = 0; i < items.size(); ++i) {
    const json::object& item = items[i];
    BOOST_TEST(item.at("index").as_int64() == static_cast<int64_t>(i));  // dataset order, whatever finished first
    const std::string message = error_message(item);
    switch (i) {
      case 3:
        BOOST_TEST(error_code(item) == "UNKNOWN");
        BOOST_TEST(contains(message, "the command exited with status 3"), message);
        BOOST_TEST(contains(message, "stderr: agent: item 3 in "), message);
        BOOST_TEST(contains(message, "agent failed on 3"), message);
        break;
      case 4:
        BOOST_TEST(error_code(item) == "INTERNAL");
        BOOST_TEST(contains(message, "not JSON"), message);
        BOOST_TEST(contains(message, "'Loading model... done'"), message);
        break;
      case 5:
        BOOST_TEST(error_code(item) == "DEADLINE_EXCEEDED");
        BOOST_TEST(contains(message, "timed out after 2000 ms (timeout_ms)"), message);
        break;
      case 6:
        BOOST_TEST(contains(message, "the command was killed by signal 9 (SIGKILL)"), message);
        break;
      case 7:
        BOOST_TEST(error_code(item) == "RESOURCE_EXHAUSTED");
        BOOST_TEST(contains(message, "more than 1000000 bytes to stdout (max_output_bytes)"), message);
        break;
      default: {
        BOOST_TEST(item.at("error").is_null(), message);
        BOOST_TEST(item.at("success").as_bool());
        const json::object& outputs = item.at("actualOutputs").as_object();
        BOOST_TEST(outputs.at("output").as_int64() == static_cast<int64_t>(i));
        BOOST_TEST(outputs.at("id").as_string() == "item-" + std::to_string(i));
        BOOST_TEST(!outputs.at("seed").is_null());
        const json::object& metrics = item.at("metrics").as_object();
        BOOST_TEST(metrics.at("tokensIn").as_int64() == 1000);
        BOOST_TEST(metrics.at("tokensOut").as_int64() == 500);
        BOOST_TEST(metrics.at("costUsd").as_double() == 0.002);  // priced from the experiment's prices
        BOOST_TEST(metrics.at("latencyMs").as_double() > 0.0);
      }
    }
  }
  // The programs ran in the experiment's directory (their stderr said where).
  BOOST_TEST(contains(error_message(items[3]), fs::canonical(e.dir).string()), error_message(items[3]));
}

BOOST_AUTO_TEST_CASE(workers_are_reused_replaced_and_shut_down) {
  ExecExperiment e(
      "dataset: seq:16\n"
      "task: {kind: exec, command: [python3, worker.py], mode: worker, timeout_ms: 2000, kill_grace_ms: 300}\n"
      "parallelism: 2\n");
  ProcessResult r = e.run();
  BOOST_TEST(r.exit_code == 0, r.err);
  auto items = e.items();
  BOOST_REQUIRE(items.size() == 16u);
  std::set<int64_t> pids;
  for (size_t i = 0; i < items.size(); ++i) {
    const json::object& item = items[i];
    BOOST_TEST(item.at("index").as_int64() == static_cast<int64_t>(i));
    const std::string message = error_message(item);
    switch (i) {
      case 3:
        BOOST_TEST(error_code(item) == "UNKNOWN");
        BOOST_TEST(contains(message, "exited with status 1 before answering"), message);
        BOOST_TEST(contains(message, "stderr: worker: cannot handle item 3, exiting"), message);
        break;
      case 4:
        BOOST_TEST(error_code(item) == "INTERNAL");
        BOOST_TEST(contains(message, "'debug: this should have gone to stderr'"), message);
        BOOST_TEST(contains(message, "will be replaced"), message);
        break;
      case 5:
        BOOST_TEST(error_code(item) == "DEADLINE_EXCEEDED");
        BOOST_TEST(contains(message, "did not answer within 2000 ms"), message);
        break;
      case 6:
        BOOST_TEST(error_code(item) == "INTERNAL");
        BOOST_TEST(contains(message, "where request"), message);
        break;
      case 7:
        BOOST_TEST(error_code(item) == "UNKNOWN");
        BOOST_TEST(message == "the worker reported an error: the model refused");
        break;
      default: {
        BOOST_TEST(item.at("error").is_null(), message);
        const json::object& outputs = item.at("actualOutputs").as_object();
        BOOST_TEST(outputs.at("output").as_int64() == static_cast<int64_t>(i));
        pids.insert(outputs.at("pid").as_int64());
        const json::object& metrics = item.at("metrics").as_object();
        BOOST_TEST(metrics.at("costUsd").as_double() == 0.001);  // reported by the worker, kept
      }
    }
  }
  // Two workers at a time; four of them had to be replaced (died, garbage, hang, wrong id).
  BOOST_TEST(pids.size() >= 2u);
  BOOST_TEST(pids.size() <= 6u);
  for (int64_t pid : pids) BOOST_TEST(!process_alive(static_cast<pid_t>(pid)), "worker " << pid << " outlived the run");
}

BOOST_AUTO_TEST_CASE(shell_commands_and_stderr_tails) {
  ExecExperiment e(
      "dataset: seq:3\n"
      "task:\n"
      "  kind: exec\n"
      "  command: |\n"
      "    input=$(cat)\n"
      "    case \"$input\" in\n"
      "      *'\"input\":1'*) head -c 100000 /dev/zero | tr '\\0' x >&2; echo ' last words' >&2; exit 2 ;;\n"
      "    esac\n"
      "    printf '{\"output\": %s, \"score\": 1}' \"$KRINO_ITEM_INDEX\"\n");
  ProcessResult r = e.run();
  BOOST_TEST(r.exit_code == 0, r.err);
  auto items = e.items();
  BOOST_REQUIRE(items.size() == 3u);
  BOOST_TEST(items[0].at("actualOutputs").at("output").as_int64() == 0);
  BOOST_TEST(items[2].at("actualOutputs").at("output").as_int64() == 2);
  const std::string message = error_message(items[1]);
  BOOST_TEST(contains(message, "the command exited with status 2; stderr: ...xxx"), message);
  BOOST_TEST(contains(message, "xxx last words"), message);
  BOOST_TEST(message.size() < 4096u + 200u, "only the end of stderr is kept");
}

BOOST_AUTO_TEST_CASE(ctrl_c_stops_running_programs) {
  for (const char* mode : {"per_example", "worker"}) {
    ExecExperiment e(std::string("dataset: seq:50\n"
                                 "task:\n"
                                 "  kind: exec\n"
                                 "  mode: ") + mode + "\n"
                     "  command: 'echo $$ >> pids; exec sleep 60'\n"
                     "parallelism: 3\n");
    const fs::path pids = e.dir / "pids";
    auto count_pids = [&] {
      std::ifstream in(pids);
      std::vector<pid_t> out;
      for (long pid; in >> pid;) out.push_back(static_cast<pid_t>(pid));
      return out;
    };
    // Three programs run at once, each in a suspended item. Under a sanitizer a waiting item holds its
    // thread (kWaitsSuspendTasks), so as many run as krino has threads.
    const std::size_t running = krino::core::kWaitsSuspendTasks
                                    ? 3u
                                    : std::min<std::size_t>(3u, std::max(1u, std::thread::hardware_concurrency()));
    ProcessOptions options;
    options.interrupt_when = [&] { return count_pids().size() >= running; };
    const auto started = std::chrono::steady_clock::now();
    ProcessResult r = e.run(options);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    BOOST_TEST(r.exit_code == 130, mode << ": " << r.err);
    BOOST_TEST(seconds < 20.0, mode);
    auto items = e.items();
    BOOST_TEST(items.size() >= running, mode);
    for (const auto& item : items) BOOST_TEST(error_code(item) == "CANCELLED", mode << ": " << error_message(item));
    for (pid_t pid : count_pids()) BOOST_TEST(gone_within(pid, std::chrono::seconds(2)), mode << ": " << pid);
  }
}

BOOST_AUTO_TEST_CASE(configuration_mistakes_stop_before_the_run) {
  ExecExperiment unknown("dataset: seq:3\ntask: {kind: exec, command: [python3, agent.py], timeout: 5}\n");
  ProcessResult r = unknown.run();
  BOOST_TEST(r.exit_code == 2);
  BOOST_TEST(contains(r.err, "task exec: unknown option 'timeout'"), r.err);
  ExecExperiment typo("dataset: seq:3\ntask: {kind: exec, command: [pyhton3, agent.py]}\n");
  ProcessResult t = typo.run();
  BOOST_TEST(t.exit_code == 2);
  BOOST_TEST(contains(t.err, "no program 'pyhton3' on PATH"), t.err);
  BOOST_TEST((!fs::exists(typo.capture) || typo.items().empty()));
}

BOOST_AUTO_TEST_SUITE_END()
