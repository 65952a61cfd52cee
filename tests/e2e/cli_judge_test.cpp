// `krino run` with an LLM judge, end to end: the real binary, the judge plugin, the judge service
// and the fake OpenAI-compatible server (in this process), over real HTTP.
#include "json_lines.hpp"
#include "process.hpp"

#include "fake_llm_server.hpp"
#include "script.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

using namespace krino::test;
namespace json = boost::json;
namespace fake = krino::fake_llm;

namespace {

constexpr const char* kCliJudgeKey = "sk-e2e-7d1e5c-must-not-leak";

struct JudgeRun {
  fake::FakeLlmServer server;
  std::string dir = temp_path("judge-run");
  std::string data = dir + "/cases.jsonl";
  std::string experiment = dir + "/judged.yaml";
  std::string results = dir + "/results.jsonl";

  explicit JudgeRun(const std::string& script)
      : server([&] {
          fake::ServerOptions o;
          o.script = fake::parse_script(script);
          o.required_key = kCliJudgeKey;
          return o;
        }()) {
    std::filesystem::create_directories(dir);
    std::string rows;
    for (int i = 0; i < 6; ++i)
      rows += R"({"id":"q)" + std::to_string(i) + R"(","inputs":{"input":"question )" + std::to_string(i) +
              R"("},"expectedOutputs":{},"actualOutputs":{"output":"answer )" + std::to_string(i) + R"("},"metadata":{}})" + "\n";
    write_file(data, rows);
    write_file(experiment, "name: judged\ndataset: cases.jsonl\ntask: replay\n"
                           "judges:\n  default:\n    provider: openai\n    base_url: " + server.base_url() + "/v1\n"
                           "    model: judge-mini\n    api_key_env: KRINO_E2E_KEY\n    max_retries: 3\n"
                           "judge_cache: " + dir + "/cache\n"
                           "prices: {judge-mini: {input_per_million: 1.0, output_per_million: 2.0}}\n"
                           "evaluators:\n  - llm_judge: {criteria: 'Is the answer responsive?', score_range: [1, 5], threshold: 0.5}\n"
                           "reporters: [console, {json: {path: " + results + "}}]\nmin_pass_rate: 0\nparallelism: 4\n");
  }
  ~JudgeRun() { std::filesystem::remove_all(dir); }

  ProcessResult run(std::vector<std::string> extra = {}) const {
    std::vector<std::string> argv = {krino_binary(), "run", experiment};
    argv.insert(argv.end(), extra.begin(), extra.end());
    ProcessOptions options;
    options.environment = {std::string("KRINO_E2E_KEY=") + kCliJudgeKey};
    return run_process(argv, options);
  }

  json::object run_summary() const {
    for (auto& e : json_lines(results))
      if (e.at("event").as_string() == "run_finished") return e.at("summary").as_object();
    return {};
  }

  std::vector<json::object> items() const {
    std::vector<json::object> out;
    for (auto& e : json_lines(results))
      if (e.at("event").as_string() == "item_finished") out.push_back(e);
    return out;
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_judge)

BOOST_AUTO_TEST_CASE(a_judged_run_scores_caches_and_never_prints_the_key) {
  JudgeRun r(R"({"rules":[{"match":{"contains":"question 3"},"reply":{"content":"{\"score\": 2, \"reason\": \"thin\"}"}}],
                 "default":{"content":"```json\n{\"score\": 5, \"reason\": \"good\"}\n```","usage":{"input_tokens":100,"output_tokens":20}}})");
  const ProcessResult first = r.run();
  BOOST_TEST(first.exit_code == 0, first.out << first.err);
  BOOST_TEST(first.err.find("TBB Warning") == std::string::npos, first.err);  // the runner's arena asks for no more workers than exist
  auto items = r.items();
  BOOST_REQUIRE(items.size() == 6u);
  for (const auto& item : items) {
    const json::object& result = item.at("results").as_array().at(0).as_object();
    const bool thin = item.at("id").as_string() == "q3";
    BOOST_TEST(result.at("score").to_number<double>() == (thin ? 0.25 : 1.0));  // (raw - 1) / 4
    BOOST_TEST(result.at("success").as_bool() == !thin);
  }
  BOOST_TEST(r.server.recent_requests().size() == 6u);
  for (const auto& request : r.server.recent_requests()) BOOST_TEST(request.api_key == kCliJudgeKey);
  // What the judge cost, per item and evaluator, and per run (prices: 1 and 2 USD per million).
  const json::object& item_judge = items[0].at("judge").as_object();
  BOOST_TEST(item_judge.at("calls").to_number<std::uint64_t>() == 1u);
  BOOST_TEST(item_judge.at("byEvaluator").at("llm_judge").at("tokensIn").as_int64() == 100);
  const json::object judge = r.run_summary().at("judge").as_object();
  BOOST_TEST(judge.at("calls").to_number<std::uint64_t>() == 6u);
  BOOST_TEST(judge.at("cachedCalls").to_number<std::uint64_t>() == 0u);
  BOOST_TEST(judge.at("pricedItems").to_number<std::uint64_t>() == 6u);
  BOOST_TEST(judge.at("costCoverage").is_null());

  // The same run again: every reply from the cache, not one HTTP request, the same results.
  const auto before = json::serialize(json::value_from(items.size()));
  const ProcessResult second = r.run();
  BOOST_TEST(second.exit_code == 0, second.err);
  BOOST_TEST(r.server.recent_requests().size() == 6u);
  auto again = r.items();
  BOOST_REQUIRE(again.size() == 6u);
  for (std::size_t i = 0; i < 6; ++i) {
    const json::object& a = items[i].at("results").as_array().at(0).as_object();
    const json::object& b = again[i].at("results").as_array().at(0).as_object();
    BOOST_TEST(a.at("score") == b.at("score"));
    BOOST_TEST(a.at("reason") == b.at("reason"));
  }
  const json::object cached = r.run_summary().at("judge").as_object();
  BOOST_TEST(cached.at("cachedCalls").to_number<std::uint64_t>() == 6u);
  BOOST_TEST(cached.at("costUsd").to_number<double>() == 0.0);  // hits cost nothing
  // --no-cache asks again.
  BOOST_TEST(r.run({"--no-cache"}).exit_code == 0);
  BOOST_TEST(r.server.recent_requests().size() == 12u);

  // The key is in no output, no report, no cache entry.
  for (const auto* text : {&first.out, &first.err, &second.out, &second.err})
    BOOST_TEST(text->find(kCliJudgeKey) == std::string::npos);
  BOOST_TEST(read_file(r.results).find(kCliJudgeKey) == std::string::npos);
  for (const auto& entry : std::filesystem::recursive_directory_iterator(r.dir + "/cache"))
    if (entry.is_regular_file()) BOOST_TEST(read_file(entry.path().string()).find(kCliJudgeKey) == std::string::npos);
}

BOOST_AUTO_TEST_CASE(faults_end_as_scores_or_item_errors_never_as_silent_zeros) {
  JudgeRun r(R"({"rules":[
     {"match":{"contains":"question 1"},"times":2,"reply":{"fault":{"kind":"status","status":429,"retry_after":"0"}}},
     {"match":{"contains":"question 2"},"times":1,"reply":{"fault":{"kind":"status","status":500}}},
     {"match":{"contains":"question 4"},"reply":{"content":"I would rather not say."}},
     {"match":{"contains":"question 5"},"reply":{"fault":{"kind":"status","status":400,"message":"context too long"}}}],
   "default":{"content":"{\"score\": 4, \"reason\": \"fine\"}"}})");
  const ProcessResult result = r.run({"--no-cache"});
  BOOST_TEST(result.exit_code == 0, result.out << result.err);
  auto items = r.items();
  BOOST_REQUIRE(items.size() == 6u);
  for (const char* id : {"q0", "q1", "q2", "q3"}) {
    const auto& item = *std::find_if(items.begin(), items.end(), [&](const json::object& o) { return o.at("id").as_string() == id; });
    BOOST_TEST(item.at("error").is_null(), id);
    BOOST_TEST(item.at("results").as_array().at(0).at("score").to_number<double>() == 0.75, id);
  }
  const auto error_of = [&](const char* id) {
    return std::find_if(items.begin(), items.end(), [&](const json::object& o) { return o.at("id").as_string() == id; })
        ->at("error");
  };
  BOOST_TEST(error_of("q4").at("code").as_string() == "INTERNAL");
  BOOST_TEST(std::string(error_of("q4").at("message").as_string()).find("no usable JSON") != std::string::npos);
  BOOST_TEST(error_of("q5").at("code").as_string() == "INVALID_ARGUMENT");
  // Nothing is dropped: every call is counted, with its retries, its repair and its failure.
  const json::object judge = r.run_summary().at("judge").as_object();
  BOOST_TEST(judge.at("calls").to_number<std::uint64_t>() == 6u);
  BOOST_TEST(judge.at("retries").to_number<std::uint64_t>() == 3u);  // two 429s for q1, one 500 for q2
  BOOST_TEST(judge.at("repairs").to_number<std::uint64_t>() == 1u);  // q4
  BOOST_TEST(judge.at("failedCalls").to_number<std::uint64_t>() == 2u);  // q4, q5
  BOOST_TEST(std::string(error_of("q5").at("message").as_string()).find("context too long") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_missing_key_variable_is_a_configuration_error_naming_it) {
  JudgeRun r(R"({"default":{"content":"{}"}})");
  const ProcessResult result = run_process({krino_binary(), "run", r.experiment});
  BOOST_TEST(result.exit_code == 2, result.err);
  BOOST_TEST(result.err.find("KRINO_E2E_KEY") != std::string::npos, result.err);
}

// `krino eval` takes the same judge settings from a file of their own.
BOOST_AUTO_TEST_CASE(krino_eval_asks_the_judges_of_a_judges_file) {
  JudgeRun r(R"({"default":{"content":"{\"score\": 3, \"reason\": \"middling\"}"}})");
  const std::string judges = r.dir + "/judges.yaml";
  write_file(judges, "judges:\n  default:\n    provider: openai\n    base_url: " + r.server.base_url() +
                         "/v1\n    model: judge-mini\n    api_key_env: KRINO_E2E_KEY\njudge_cache: false\n");
  ProcessOptions options;
  options.environment = {std::string("KRINO_E2E_KEY=") + kCliJudgeKey};
  const std::vector<std::string> base = {krino_binary(), "eval", "-e", "llm_judge", "--config",
                                         R"({"criteria":"Is it right?","score_range":[1,5]})"};
  std::vector<std::string> with_judges = base;
  with_judges.insert(with_judges.end(), {"--judges", judges, r.data});
  const ProcessResult judged = run_process(with_judges, options);
  BOOST_TEST(judged.exit_code == 0, judged.err);
  std::istringstream lines(judged.out);
  std::string line;
  int count = 0;
  while (std::getline(lines, line)) {
    BOOST_TEST(json::parse(line).at("score").to_number<double>() == 0.5, line);
    ++count;
  }
  BOOST_TEST(count == 6);
  BOOST_TEST(r.server.recent_requests().size() == 6u);

  std::vector<std::string> without = base;
  without.push_back(r.data);
  const ProcessResult unjudged = run_process(without, options);
  BOOST_TEST(unjudged.out.find("UNAVAILABLE") != std::string::npos, unjudged.out);
}

// R11: Ctrl-C while every item waits on a judge's `Retry-After: 30`. The waits end at once and the
// items in flight come back as CANCELLED item errors saying what they waited for; the run does not
// sit out the 30 s. (How the run itself ends on a cancel is the runner's to say.) Also: no TBB
// warning on stderr for the judge's wide window of items in flight.
//
// Not under AddressSanitizer: a judge wait runs on a stack of oneTBB's resumable tasks, which TBB
// switches to with swapcontext, and ASan cannot follow that switch. The cancelled call's exception
// then has ASan unpoison the wrong stack ("ASan is ignoring requested __asan_handle_no_return ...
// False positive error reports may follow", google/sanitizers#189) and it reports an overflow in its
// own sigaltstack call. The dev and release builds run this test.

BOOST_AUTO_TEST_CASE(ctrl_c_ends_the_judge_waits_and_the_waiting_items_say_cancelled, *boost::unit_test::enable_if<!kAddressSanitizer>()) {
  JudgeRun r(R"({"default":{"fault":{"kind":"status","status":429,"retry_after":"30"}}})");
  std::vector<std::string> argv = {krino_binary(), "run", r.experiment, "--no-cache"};
  ProcessOptions options;
  options.environment = {std::string("KRINO_E2E_KEY=") + kCliJudgeKey};
  options.interrupt_when = [&] { return r.server.recent_requests().size() >= 4u; };
  const auto started = std::chrono::steady_clock::now();
  const ProcessResult result = run_process(argv, options);
  const auto took = std::chrono::steady_clock::now() - started;
  BOOST_TEST((took < std::chrono::seconds(10)), result.err);
  BOOST_TEST(result.err.find("TBB Warning") == std::string::npos, result.err);
  // Items that were waiting say what they waited for; on a loaded machine some items in flight had
  // not sent their call yet, and say that instead.
  int cancelled = 0;
  for (const json::object& item : r.items()) {
    if (item.at("error").is_null()) continue;
    BOOST_TEST(item.at("error").at("code").as_string() == "CANCELLED", item);
    const std::string message(item.at("error").at("message").as_string());
    const bool was_waiting = message.find("cancelled while waiting 30 s to try again") != std::string::npos;
    BOOST_TEST((was_waiting || message.find("cancelled before the call was sent") != std::string::npos), message);
    ++cancelled;
  }
  BOOST_TEST(cancelled >= 1, "exit " << result.exit_code << ", " << r.items().size() << " items, "
                                     << r.server.recent_requests().size() << " calls; stderr: " << result.err);
}

BOOST_AUTO_TEST_SUITE_END()
