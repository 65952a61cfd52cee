// The `http` task end to end: the real krino binary sends every example to a stand-in for the
// user's service (the fake server's /app/ endpoint, over real HTTP) and scores what comes back.
// Timeouts, error statuses, slow servers and replies that are not JSON each become that item's
// error, with its cause, and the run goes on.
#include "json_lines.hpp"
#include "process.hpp"

#include "fake_llm_server.hpp"
#include "script.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <filesystem>
#include <fstream>

using namespace krino::test;
namespace json = boost::json;
namespace fake = krino::fake_llm;

namespace {

constexpr const char* kToken = "tok-http-e2e-91c2-must-not-leak";

// An experiment whose task is `http` against the fake server; `task` is the YAML of the task's
// options (indented under `task:`), `rows` the dataset.
struct HttpRun {
  fake::FakeLlmServer server;
  std::string dir = temp_path("http-task");
  std::string experiment = dir + "/http.yaml";
  std::string results = dir + "/results.jsonl";

  HttpRun(const std::string& script, const std::string& task, const std::string& rows,
          const std::string& extra = "")
      : server([&] {
          fake::ServerOptions o;
          o.script = fake::parse_script(script);
          return o;
        }()) {
    std::filesystem::create_directories(dir);
    write_file(dir + "/cases.jsonl", rows);
    std::string yaml = task;
    for (size_t at = yaml.find("BASE"); at != std::string::npos; at = yaml.find("BASE"))
      yaml.replace(at, 4, server.base_url());
    write_file(experiment, "name: http-e2e\ndataset: cases.jsonl\ntask:\n  kind: http\n" + yaml +
                               "evaluators: [exact_match]\n"
                               "reporters: [{json: {path: " + results + "}}]\n" + extra);
  }
  ~HttpRun() { std::filesystem::remove_all(dir); }

  ProcessResult run() const {
    ProcessOptions options;
    options.environment = {std::string("KRINO_E2E_TOKEN=") + kToken};
    return run_process({krino_binary(), "run", experiment}, options);
  }

  std::vector<json::object> items() const {
    std::vector<json::object> out;
    for (auto& e : json_lines(results))
      if (e.at("event").as_string() == "item_finished") out.push_back(e);
    return out;
  }
};

std::string cli_http_task_row(const std::string& id, const std::string& input, const std::string& expected) {
  return R"({"id":")" + id + R"(","inputs":{"input":")" + input + R"("},"expectedOutputs":{"output":")" + expected +
         R"("},"metadata":{"tier":"gold"}})" + "\n";
}

const json::object& error_of(const json::object& item) { return item.at("error").as_object(); }
std::string message_of(const json::object& item) { return std::string(error_of(item).at("message").as_string()); }

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_http_task)

BOOST_AUTO_TEST_CASE(templated_requests_reach_the_service_and_replies_become_outputs) {
  HttpRun r(R"({"rules": [{"match": {"endpoint": "app", "contains": "capital of France"},
                            "reply": {"body": {"data": {"answer": "Paris"}, "model": "app-model",
                                               "usage": {"prompt_tokens": 1000, "completion_tokens": 500}}}},
                           {"match": {"endpoint": "app"}, "reply": {"body": {"data": {"answer": "Rome"}}}}]})",
            "  url: BASE/app/ask?tier={{metadata.tier}}&q={{inputs.input}}\n"
            "  headers: {Authorization: 'Bearer {{env.KRINO_E2E_TOKEN}}', X-Item: '{{id}}'}\n"
            "  body: {question: '{{inputs.input}}', item: '{{index}}', note: 'id {{id}}'}\n"
            "  response: {path: /data/answer}\n",
            cli_http_task_row("a", "capital of France", "Paris") + cli_http_task_row("b", "capital of Italy", "Rome") +
                cli_http_task_row("c", "capital of Spain", "Madrid"),
            "prices: {app-model: {input_per_million: 0.05, output_per_million: 0.40}}\nmin_pass_rate: 0.5\n");
  const ProcessResult result = r.run();
  BOOST_TEST(result.exit_code == 0, result.out << result.err);
  auto items = r.items();
  BOOST_REQUIRE(items.size() == 3u);
  BOOST_TEST(items[0].at("actualOutputs").at("output").as_string() == "Paris");  // a scalar at the path
  BOOST_TEST(items[0].at("success").as_bool());
  BOOST_TEST(items[2].at("actualOutputs").at("output").as_string() == "Rome");
  BOOST_TEST(!items[2].at("success").as_bool());  // a wrong answer is a failed score, not an error
  BOOST_TEST(items[2].at("error").is_null());
  // Usage in the reply is priced by model (0.00025 USD); latency is always measured.
  const json::object& metrics = items[0].at("metrics").as_object();
  BOOST_TEST(metrics.at("tokensIn").to_number<int>() == 1000);
  BOOST_TEST(metrics.at("tokensOut").to_number<int>() == 500);
  BOOST_TEST(metrics.at("costUsd").to_number<double>() == 0.00025);
  BOOST_TEST(metrics.at("latencyMs").to_number<double>() > 0.0);
  BOOST_TEST(items[1].at("metrics").at("tokensIn").is_null());
  BOOST_TEST(items[1].at("metrics").at("latencyMs").to_number<double>() > 0.0);

  auto requests = r.server.recent_requests();
  BOOST_REQUIRE(requests.size() == 3u);
  bool saw_first = false;
  for (const auto& request : requests) {
    BOOST_TEST(request.api_key == kToken);  // the header template, filled from the environment
    json::value body = json::parse(request.body);
    if (body.at("question").as_string() != "capital of France") continue;
    saw_first = true;
    BOOST_TEST(body.at("item").to_number<int>() == 0);  // a lone placeholder keeps its JSON type
    BOOST_TEST(body.at("note").as_string() == "id a");
  }
  BOOST_TEST(saw_first);
  BOOST_TEST(read_file(r.results).find(kToken) == std::string::npos);
  BOOST_TEST(result.err.find(kToken) == std::string::npos);
}

BOOST_AUTO_TEST_CASE(urls_are_percent_encoded_and_the_default_body_hides_expected_outputs) {
  HttpRun get(R"({})", "  method: GET\n  url: BASE/app/q?text={{inputs.input}}\n", cli_http_task_row("x", "a b&c", "unused"),
              "min_pass_rate: 0\n");
  BOOST_TEST(get.run().exit_code == 0);
  auto got = get.items();
  BOOST_REQUIRE(got.size() == 1u);
  BOOST_TEST(got[0].at("actualOutputs").at("path").as_string() == "/app/q?text=a%20b%26c");
  BOOST_TEST(got[0].at("actualOutputs").at("method").as_string() == "GET");

  HttpRun post(R"({})", "  url: BASE/app/answer\n", cli_http_task_row("y", "hello", "hello"), "min_pass_rate: 0\n");
  BOOST_TEST(post.run().exit_code == 0);
  auto posted = post.items();
  BOOST_REQUIRE(posted.size() == 1u);
  const json::object& echo = posted[0].at("actualOutputs").at("echo").as_object();
  BOOST_TEST(echo.at("id").as_string() == "y");
  BOOST_TEST(echo.at("inputs").at("input").as_string() == "hello");
  BOOST_TEST(echo.at("metadata").at("tier").as_string() == "gold");
  BOOST_TEST(!echo.contains("expectedOutputs"));  // the answers never reach the system under test
}

BOOST_AUTO_TEST_CASE(error_statuses_timeouts_and_non_json_replies_are_item_errors_and_the_run_goes_on) {
  HttpRun r(R"({"rules": [
      {"match": {"endpoint": "app", "contains": "flaky"}, "times": 2, "reply": {"fault": {"kind": "status", "status": 503}}},
      {"match": {"endpoint": "app", "contains": "broken"}, "reply": {"fault": {"kind": "status", "status": 500, "message": "db down"}}},
      {"match": {"endpoint": "app", "contains": "missing"}, "reply": {"fault": {"kind": "status", "status": 404}}},
      {"match": {"endpoint": "app", "contains": "slow"}, "reply": {"latency_ms": 3000, "body": {"output": "late"}}},
      {"match": {"endpoint": "app", "contains": "gibberish"}, "reply": {"body": "<html>oops</html>"}},
      {"match": {"endpoint": "app", "contains": "hangup"}, "reply": {"fault": "reset"}},
      {"match": {"endpoint": "app"}, "reply": {"body": {"output": "fine"}}}]})",
            "  url: BASE/app/answer\n  body: {q: '{{inputs.input}}'}\n  timeout_ms: 400\n  max_retries: 2\n"
            "  retry_base_ms: 10\n",
            cli_http_task_row("ok1", "plain", "fine") + cli_http_task_row("flaky", "flaky", "fine") + cli_http_task_row("broken", "broken", "fine") +
                cli_http_task_row("missing", "missing", "fine") + cli_http_task_row("slow", "slow", "late") + cli_http_task_row("html", "gibberish", "x") +
                cli_http_task_row("reset", "hangup", "x") + cli_http_task_row("nofield", "plain", "fine") + cli_http_task_row("ok2", "plain", "fine"),
            "parallelism: 4\n");
  const ProcessResult result = r.run();
  BOOST_TEST(result.exit_code == 1, result.err);  // some items failed; the run itself completed
  auto items = r.items();
  BOOST_REQUIRE(items.size() == 9u);
  for (size_t i = 0; i < items.size(); ++i) BOOST_TEST(items[i].at("index").to_number<size_t>() == i);

  BOOST_TEST(items[0].at("success").as_bool());
  BOOST_TEST(items[1].at("success").as_bool());  // two 503s, then an answer: retried
  BOOST_TEST(error_of(items[2]).at("code").as_string() == "UNAVAILABLE");
  BOOST_TEST(message_of(items[2]).find("HTTP 500 (after 3 attempts)") != std::string::npos, message_of(items[2]));
  BOOST_TEST(message_of(items[2]).find("db down") != std::string::npos);
  BOOST_TEST(message_of(items[2]).find("POST http://127.0.0.1:") == 0u);
  BOOST_TEST(error_of(items[2]).at("stage").as_string() == "task");
  BOOST_TEST(error_of(items[2]).at("component").as_string() == "http");
  BOOST_TEST(error_of(items[3]).at("code").as_string() == "NOT_FOUND");  // 404 is not retried
  BOOST_TEST(message_of(items[3]).find("HTTP 404") != std::string::npos);
  BOOST_TEST(message_of(items[3]).find("attempts") == std::string::npos);
  BOOST_TEST(error_of(items[4]).at("code").as_string() == "DEADLINE_EXCEEDED");
  BOOST_TEST(message_of(items[4]).find("no complete reply within 400 ms (after 3 attempts)") != std::string::npos,
             message_of(items[4]));
  BOOST_TEST(error_of(items[5]).at("code").as_string() == "INVALID_ARGUMENT");
  BOOST_TEST(message_of(items[5]).find("not JSON") != std::string::npos);
  BOOST_TEST(message_of(items[5]).find("<html>oops</html>") != std::string::npos);
  BOOST_TEST(error_of(items[6]).at("code").as_string() == "UNAVAILABLE");
  BOOST_TEST(items[8].at("success").as_bool());
  for (const auto& item : items) BOOST_TEST(item.at("results").as_array().size() == (item.at("error").is_null() ? 1u : 0u));
}

BOOST_AUTO_TEST_CASE(text_replies_missing_values_and_paths) {
  HttpRun text(R"({"rules": [{"match": {"endpoint": "app"}, "reply": {"body": "Paris"}}]})",
               "  url: BASE/app/answer\n  response: {format: text}\n", cli_http_task_row("t", "q", "Paris"));
  BOOST_TEST(text.run().exit_code == 0);
  BOOST_TEST(text.items().at(0).at("actualOutputs").at("output").as_string() == "Paris");

  HttpRun missing(R"({"rules": [{"match": {"endpoint": "app"}, "reply": {"body": {"other": 1}}}]})",
                  "  url: BASE/app/answer\n  body: {q: '{{inputs.question}}'}\n  response: {path: /answer}\n",
                  cli_http_task_row("m", "q", "x") + R"({"id":"n","inputs":{"question":"here"},"expectedOutputs":{},"metadata":{}})" "\n");
  BOOST_TEST(missing.run().exit_code == 1);
  auto items = missing.items();
  BOOST_REQUIRE(items.size() == 2u);
  BOOST_TEST(message_of(items[0]) == "the example has no inputs.question (used in task.body.q)");
  BOOST_TEST(error_of(items[1]).at("code").as_string() == "NOT_FOUND");
  BOOST_TEST(message_of(items[1]).find("nothing at /answer") != std::string::npos);
  BOOST_TEST(missing.server.recent_requests().size() == 1u);  // the first item never left krino
}

BOOST_AUTO_TEST_CASE(configuration_mistakes_stop_the_run_before_it_starts) {
  struct Case {
    std::string task, message;
  };
  for (const Case& c : std::vector<Case>{
           {"  url: BASE/app/x\n  timout_ms: 10\n", "task.timout_ms: unknown option"},
           {"  url: BASE/app/x\n  headers: {A: '{{env.KRINO_E2E_UNSET_VARIABLE}}'}\n",
            "the environment variable KRINO_E2E_UNSET_VARIABLE is not set"},
           {"  url: 'ftp://example.com/{{inputs.input}}'\n", "task.url"},
           {"  url: BASE/app/{{inputs.input}\n", "is never closed"},
           {"  url: BASE/app/{{answer}}\n", "names nothing an example has"},
           {"  url: BASE/app/x\n  method: FETCH\n", "task.method: 'FETCH' is not one of"},
           {"  url: BASE/app/x\n  timeout_ms: 0\n", "task.timeout_ms: must be at least 1"},
           {"  url: BASE/app/x\n  response: {path: answer}\n", "task.response.path: must be a JSON pointer"},
       }) {
    HttpRun r(R"({})", c.task, cli_http_task_row("a", "b", "c"));
    const ProcessResult result = r.run();
    BOOST_TEST(result.exit_code == 2, c.task << result.err);
    BOOST_TEST(result.err.find(c.message) != std::string::npos, result.err);
    BOOST_TEST(r.server.recent_requests().empty());
  }
}

BOOST_AUTO_TEST_CASE(results_keep_dataset_order_with_many_requests_in_flight) {
  std::string rows, rules = R"({"rules": [)";
  for (int i = 0; i < 40; ++i) {
    rows += cli_http_task_row("r" + std::to_string(i), "n" + std::to_string(i) + "!", "n" + std::to_string(i) + "!");
    // Earlier items answer later, so completion order is the reverse of dataset order.
    if (i > 0) rules += ",";
    rules += R"({"match": {"endpoint": "app", "contains": "\"n)" + std::to_string(i) + R"(!\""}, "reply": {"latency_ms": )" +
             std::to_string((40 - i) * 5) + R"(, "body": {"output": "n)" + std::to_string(i) + R"(!"}}})";
  }
  rules += "]}";
  HttpRun r(rules, "  url: BASE/app/answer\n  body: {q: '{{inputs.input}}'}\n", rows, "parallelism: 16\n");
  const ProcessResult result = r.run();
  BOOST_TEST(result.exit_code == 0, result.err);
  auto items = r.items();
  BOOST_REQUIRE(items.size() == 40u);
  for (size_t i = 0; i < items.size(); ++i) {
    BOOST_TEST(items[i].at("index").to_number<size_t>() == i);
    BOOST_TEST(items[i].at("success").as_bool());
  }
}

// R1: an error page quoted at 200 bytes, cut inside a character, is still valid UTF-8 in the report
// (json_lines parses every line). R11: a `Retry-After: 30` wait ends at Ctrl-C, as CANCELLED.
BOOST_AUTO_TEST_CASE(quoted_pages_stay_valid_utf8_and_ctrl_c_ends_retry_waits) {
  std::string page = "a";
  for (int i = 0; i < 150; ++i) page += "\xC3\xA9";
  HttpRun r(R"({"rules": [
      {"match": {"endpoint": "app", "contains": "busy"}, "reply": {"fault": {"kind": "status", "status": 503, "retry_after": "30"}}},
      {"match": {"endpoint": "app"}, "reply": {"body": ")" + page + R"("}}]})",
            "  url: BASE/app/answer\n  body: {q: '{{inputs.input}}'}\n  max_retries: 5\n",
            cli_http_task_row("page", "plain", "x") + cli_http_task_row("busy", "busy", "x"), "parallelism: 2\n");
  ProcessOptions options;
  options.environment = {std::string("KRINO_E2E_TOKEN=") + kToken};
  options.interrupt_when = [&] { return r.server.recent_requests().size() >= 2u; };
  const auto started = std::chrono::steady_clock::now();
  const ProcessResult result = run_process({krino_binary(), "run", r.experiment}, options);
  BOOST_TEST((std::chrono::steady_clock::now() - started < std::chrono::seconds(10)), result.err);
  BOOST_TEST(result.err.find("TBB Warning") == std::string::npos, result.err);
  auto items = r.items();
  BOOST_REQUIRE(items.size() == 2u);
  std::string quoted = "a";
  for (int i = 0; i < 99; ++i) quoted += "\xC3\xA9";
  BOOST_TEST(message_of(items[0]).find(quoted + "...") != std::string::npos, message_of(items[0]));
  BOOST_TEST(error_of(items[1]).at("code").as_string() == "CANCELLED", message_of(items[1]));
  BOOST_TEST(message_of(items[1]).find("cancelled while waiting to try again; the last attempt: HTTP 503") != std::string::npos,
             message_of(items[1]));
}

BOOST_AUTO_TEST_SUITE_END()
