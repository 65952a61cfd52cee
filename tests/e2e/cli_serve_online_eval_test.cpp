// Online evaluation of production traces on a real `krino serve` against the fake LLM server
// (docs/server.md, "Online evaluation of traces"): the OTLP/JSON fixture the trace tests ingest is
// sent to /v1/traces, a TRACE rule on its root and a SPAN rule on its model call match it, the
// server's own workers score both after the settle delay, and GET /api/v1/traces/{id} shows the
// evaluations; /metrics counts them.
#include "process.hpp"
#include "serve_process.hpp"
#include "test_http_client.hpp"
#include "test_paths.hpp"

#include "fake_llm_server.hpp"

#include <boost/test/unit_test.hpp>

#include <krino/json_parse.hpp>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <thread>

using namespace krino::test;
using krino::fake_llm::test::HttpResult;

namespace {

constexpr const char* kOnlineJudgeKey = "sk-e2e-online-never-print-me";
constexpr const char* kFixtureTrace = "a1b2c3d4e5f60718293a4b5c6d7e8f90";  // derived_fields.otlp.json's trace

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_serve_online_eval)

BOOST_AUTO_TEST_CASE(a_matched_trace_is_scored_by_the_servers_workers_and_shown_on_its_page) {
  ::setenv("KRINO_E2E_ONLINE_KEY", kOnlineJudgeKey, 1);  // the server inherits it: the connection names it
  krino::fake_llm::ServerOptions fake_options;
  fake_options.script = krino::fake_llm::parse_script(R"({"default":{"content":"{\"score\": 0.9, \"reason\": \"grounded in the context\"}"}})");
  fake_options.required_key = kOnlineJudgeKey;
  krino::fake_llm::FakeLlmServer fake(fake_options);
  const std::string data_dir = temp_path("serve-online-eval");
  std::filesystem::remove_all(data_dir);
  const std::string log = temp_path("serve-online-eval.log");
  ServeProcess server(unused_port(), {"--data-dir", data_dir, "--job-poll-ms", "50", "--online-eval-delay-ms", "300"}, log);
  const unsigned short port = server.port();

  const std::string connection(serve_api_json(port, "POST", "/api/v1/llm-connections",
                                               R"({"name":"fake","baseUrl":")" + fake.base_url() +
                                                   R"(/v1","model":"judge-mini","credentialRef":"KRINO_E2E_ONLINE_KEY"})",
                                               201)
                                   .at("id")
                                   .as_string());
  const std::string judge = R"(,"connectionId":")" + connection + R"(","evaluatorName":"grounded","criteria":"Is the answer grounded?"})";
  serve_api_json(port, "POST", "/api/v1/trace-eval-rules", R"({"name":"pipelines","spanName":"rag_*","target":"TRACE")" + judge, 201);
  serve_api_json(port, "POST", "/api/v1/trace-eval-rules", R"({"name":"model calls","spanName":"llm","target":"SPAN")" + judge, 201);

  const std::string fixture = read_file(std::string(paths::source_dir()) + "/tests/fixtures/traces/otlp-genai/derived_fields.otlp.json");
  const auto accepted = serve_api_json(port, "POST", "/v1/traces", fixture);
  BOOST_TEST(accepted.at("acceptedSpans").as_int64() > 0);

  boost::json::object page;
  for (int i = 0; i < 300; ++i) {
    page = serve_api_json(port, "GET", std::string("/api/v1/traces/") + kFixtureTrace).as_object();
    if (page.at("evaluations").as_array().size() >= 2) break;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
  }
  const auto& evaluations = page.at("evaluations").as_array();
  BOOST_REQUIRE_MESSAGE(evaluations.size() == 2u, boost::json::serialize(page) << "\n" << read_file(log));
  for (const auto& one : evaluations) {
    BOOST_TEST(one.at("evaluatorName").as_string() == "grounded");
    BOOST_TEST(one.at("score").as_double() == 0.9);
    BOOST_TEST(one.at("success").as_bool());
    BOOST_TEST(one.at("reason").as_string() == "grounded in the context");
    BOOST_TEST(one.at("error").is_null());
    if (one.at("ruleName").as_string() == "pipelines") BOOST_TEST(one.at("spanId").is_null());
    else BOOST_TEST(one.at("spanId").as_string() == "2222222222222222");
  }
  // The judge saw the root's derived input and output.
  bool asked_about_root = false;
  for (const auto& request : fake.recent_requests())
    if (request.prompt.find("Input:\nWhat is the refund window?\n") != std::string::npos &&
        request.prompt.find("Actual output:\n30 days from delivery.") != std::string::npos)
      asked_about_root = true;
  BOOST_TEST(asked_about_root);
  const auto listed = serve_api_json(port, "GET", "/api/v1/traces").at("traces").as_array();
  BOOST_REQUIRE(!listed.empty());
  BOOST_TEST(listed.front().at("evaluationCount").as_int64() == 2);
  BOOST_TEST(listed.front().at("failedEvaluationCount").as_int64() == 0);
  const std::string metrics = serve_api(port, "GET", "/metrics").body();
  BOOST_TEST(metrics.find("krino_online_evals_total{outcome=\"enqueued\"} 2\n") != std::string::npos, metrics);
  BOOST_TEST(metrics.find("krino_online_evals_total{outcome=\"scored\"} 2\n") != std::string::npos, metrics);
  BOOST_TEST(metrics.find("krino_trace_spans_total{outcome=\"rejected\"} 0\n") != std::string::npos, metrics);
  server.stop(SIGTERM);
  BOOST_TEST(read_file(log).find(kOnlineJudgeKey) == std::string::npos);
  std::filesystem::remove_all(data_dir);
  std::filesystem::remove(log);
}

BOOST_AUTO_TEST_SUITE_END()
