// The judge transport against the fake LLM server (tests/support/fake_llm), in-process: the bytes
// each provider sends, keep-alive, and every fault the server can inject.
#include "krino/core/llm/llm_transport.hpp"

#include "fake_llm_server.hpp"
#include "llm_test_support.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <chrono>
#include <vector>

using namespace krino::core;
namespace json = boost::json;
namespace fake = krino::fake_llm;

namespace {

constexpr const char* kKey = "sk-test-7f3a9c-secret";

struct FakeServerFixture {
  FakeServerFixture() : server(options()) {}
  // Greps every error text the test case produced for the key.
  ~FakeServerFixture() {
    for (const auto& error : errors) {
      BOOST_TEST_CONTEXT(error) { BOOST_TEST(error.find(kKey) == std::string::npos); }
    }
  }

  static fake::ServerOptions options() {
    fake::ServerOptions o;
    o.required_key = kKey;
    o.script = fake::parse_script(R"({"default": {"content": "{\"score\": 1}", "usage": {"input_tokens": 11, "output_tokens": 4}}})");
    return o;
  }

  LlmConfig config(std::string_view provider, std::string extra = "") const {
    std::string text = R"({"provider": ")" + std::string(provider) + R"(", "model": "judge-model", "api_key_env": "JUDGE_KEY", "base_url": ")" +
                       server.base_url() + R"(/v1", "timeout_ms": 5000)" + extra + "}";
    return parse_judge_config(json::parse(text).as_object(), "fake", test::fake_environment("JUDGE_KEY", kKey));
  }

  LlmAttempt send(const LlmTransport& transport, std::string_view request) {
    auto attempt = test::send_and_wait(io, transport, json::parse(request).as_object());
    if (!attempt.error.empty()) errors.push_back(attempt.error);
    return attempt;
  }

  fake::FakeLlmServer server;
  boost::asio::io_context io;
  HttpClient http{io};
  std::vector<std::string> errors;
};

constexpr const char* kRequest = R"({"messages": [{"role": "system", "content": "You grade answers."},
                                                  {"role": "user", "content": "Rate the faithfulness of: Paris."}],
                                     "response_format": "json"})";

}  // namespace

BOOST_FIXTURE_TEST_SUITE(judge_transport, FakeServerFixture)

BOOST_AUTO_TEST_CASE(openai_round_trip) {
  LlmTransport transport(http, config("openai", R"(, "seed": 7)"));
  auto attempt = send(transport, kRequest);
  BOOST_TEST_REQUIRE((attempt.outcome == AttemptOutcome::reply), attempt.error);
  BOOST_TEST(attempt.http_status == 200u);
  BOOST_TEST(attempt.reply.content == R"({"score": 1})");
  BOOST_TEST(attempt.reply.model == "judge-model");
  BOOST_TEST(attempt.reply.tokens_in == 11u);
  BOOST_TEST(attempt.reply.tokens_out == 4u);

  auto recorded = server.recent_requests();
  BOOST_TEST_REQUIRE(recorded.size() == 1u);
  BOOST_TEST((recorded[0].endpoint == fake::Endpoint::openai_chat));
  BOOST_TEST(recorded[0].api_key == kKey);  // sent as Authorization: Bearer, or the server would say 401
  BOOST_TEST(recorded[0].status == 200u);
  // The prompt never says "JSON", which OpenAI's JSON mode requires: krino's instruction is added.
  std::string system = "You grade answers.\n\n" + std::string(kJsonReplyInstruction);
  BOOST_TEST(recorded[0].body ==
             R"({"model":"judge-model","messages":[{"role":"system","content":)" + json::serialize(json::string(system)) +
                 R"(},{"role":"user","content":"Rate the faithfulness of: Paris."}],"temperature":0,"seed":7,)"
                 R"("response_format":{"type":"json_object"}})");
}

BOOST_AUTO_TEST_CASE(anthropic_round_trip) {
  LlmTransport transport(http, config("anthropic", R"(, "seed": 7)"));
  auto attempt = send(transport, kRequest);
  BOOST_TEST_REQUIRE((attempt.outcome == AttemptOutcome::reply), attempt.error);
  BOOST_TEST(attempt.reply.content == R"({"score": 1})");
  BOOST_TEST(attempt.reply.tokens_in == 11u);
  BOOST_TEST(attempt.reply.stop_reason == "end_turn");

  auto recorded = server.recent_requests();
  BOOST_TEST_REQUIRE(recorded.size() == 1u);
  BOOST_TEST((recorded[0].endpoint == fake::Endpoint::anthropic_messages));
  BOOST_TEST(recorded[0].api_key == kKey);  // sent as x-api-key
  std::string system = "You grade answers.\n\n" + std::string(kJsonReplyInstruction);
  BOOST_TEST(recorded[0].body == R"({"model":"judge-model","max_tokens":1024,"system":)" + json::serialize(json::string(system)) +
                                     R"(,"messages":[{"role":"user","content":"Rate the faithfulness of: Paris."}],"temperature":0})");
  BOOST_TEST(recorded[0].prompt.find(kJsonReplyInstruction) != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_wrong_key_is_an_http_error) {
  auto wrong = config("anthropic");
  wrong.api_key = ApiKey("sk-wrong");
  LlmTransport transport(http, wrong);
  auto attempt = send(transport, kRequest);
  BOOST_TEST((attempt.outcome == AttemptOutcome::http_error));
  BOOST_TEST(attempt.http_status == 401u);
}

BOOST_AUTO_TEST_CASE(sequential_calls_reuse_one_connection) {
  LlmTransport transport(http, config("openai"));
  for (int i = 0; i < 5; ++i) {
    auto attempt = send(transport, kRequest);
    BOOST_TEST_REQUIRE((attempt.outcome == AttemptOutcome::reply), attempt.error);
  }
  BOOST_TEST(server.request_count(fake::Endpoint::openai_chat) == 5u);
  BOOST_TEST(http.connections_opened() == 1u);
  BOOST_TEST(http.idle_connections() == 1u);
  // Plain HTTP only: the system's trusted roots were never loaded (start-up stays short).
  BOOST_TEST(!http.tls_ready());
}

BOOST_AUTO_TEST_CASE(concurrent_calls_each_finish_once) {
  LlmTransport transport(http, config("anthropic"));
  int finished = 0;
  for (int i = 0; i < 20; ++i) {
    transport.send(json::parse(kRequest).as_object(), [&](LlmAttempt attempt) {
      BOOST_TEST((attempt.outcome == AttemptOutcome::reply));
      ++finished;
    });
  }
  io.run();
  BOOST_TEST(finished == 20);
  BOOST_TEST(http.connections_opened() <= 20u);
  BOOST_TEST(server.request_count(fake::Endpoint::anthropic_messages) == 20u);
}

BOOST_AUTO_TEST_CASE(a_silent_server_times_out) {
  server.set_script(fake::parse_script(R"({"default": {"fault": "timeout"}})"));
  LlmTransport transport(http, config("openai", R"(, "timeout_ms": 200)"));
  auto started = std::chrono::steady_clock::now();
  auto attempt = send(transport, kRequest);
  auto waited = std::chrono::steady_clock::now() - started;
  BOOST_TEST((attempt.outcome == AttemptOutcome::timeout));
  BOOST_TEST(attempt.error.find("within 200 ms") != std::string::npos);
  BOOST_TEST(waited >= std::chrono::milliseconds(190));
  BOOST_TEST(waited < std::chrono::milliseconds(3000));
  BOOST_TEST(http.idle_connections() == 0u);  // a timed-out connection is never reused
}

BOOST_AUTO_TEST_CASE(rate_limits_surface_retry_after) {
  server.set_script(fake::parse_script(R"({"rules": [{"times": 1, "reply": {"fault": {"kind": "status", "status": 429, "retry_after": 3,
                                                       "message": "Rate limit reached for requests"}}}],
                                           "default": {"content": "ok"}})"));
  LlmTransport transport(http, config("openai"));
  auto attempt = send(transport, kRequest);
  BOOST_TEST((attempt.outcome == AttemptOutcome::http_error));
  BOOST_TEST(attempt.http_status == 429u);
  BOOST_TEST(attempt.retry_after == std::optional<std::string>("3"));
  BOOST_TEST(attempt.error.find("HTTP 429") != std::string::npos);
  BOOST_TEST(attempt.error.find("Rate limit reached for requests") != std::string::npos);
  // The connection survives an error status and serves the next call.
  BOOST_TEST((send(transport, kRequest).outcome == AttemptOutcome::reply));
  BOOST_TEST(http.connections_opened() == 1u);
}

BOOST_AUTO_TEST_CASE(server_errors_are_http_errors) {
  server.set_script(fake::parse_script(R"({"default": {"fault": {"kind": "status", "status": 500, "message": "boom"}}})"));
  LlmTransport transport(http, config("anthropic"));
  auto attempt = send(transport, kRequest);
  BOOST_TEST((attempt.outcome == AttemptOutcome::http_error));
  BOOST_TEST(attempt.http_status == 500u);
  BOOST_TEST(!attempt.retry_after.has_value());
  BOOST_TEST(attempt.error.find("boom") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(resets_and_truncation_are_connection_errors) {
  server.set_script(fake::parse_script(R"({"default": {"fault": "reset"}})"));
  LlmTransport transport(http, config("openai"));
  auto attempt = send(transport, kRequest);
  BOOST_TEST((attempt.outcome == AttemptOutcome::connection_error));
  BOOST_TEST(attempt.error.find("reading the response from http://127.0.0.1") != std::string::npos);

  server.set_script(fake::parse_script(R"({"default": {"fault": "truncated"}})"));
  attempt = send(transport, kRequest);
  BOOST_TEST((attempt.outcome == AttemptOutcome::connection_error));
  BOOST_TEST(http.idle_connections() == 0u);
}

BOOST_AUTO_TEST_CASE(malformed_json_is_an_invalid_reply) {
  server.set_script(fake::parse_script(R"({"default": {"fault": {"kind": "malformed_json", "body": "<html>Bad Gateway</html>"}}})"));
  LlmTransport transport(http, config("openai"));
  auto attempt = send(transport, kRequest);
  BOOST_TEST((attempt.outcome == AttemptOutcome::invalid_reply));
  BOOST_TEST(attempt.http_status == 200u);
  BOOST_TEST(attempt.error.find("not a JSON object") != std::string::npos);
  BOOST_TEST(attempt.error.find("<html>Bad Gateway</html>") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(a_closed_port_is_a_connection_error) {
  auto unreachable = config("openai");
  std::uint16_t port = server.port();
  server.stop();
  unreachable.base_url.port = port;
  LlmTransport transport(http, unreachable);
  auto attempt = send(transport, kRequest);
  BOOST_TEST((attempt.outcome == AttemptOutcome::connection_error));
  BOOST_TEST(attempt.error.find("connecting to http://127.0.0.1:" + std::to_string(port)) != std::string::npos);
}

BOOST_AUTO_TEST_CASE(invalid_requests_throw_before_any_io) {
  LlmTransport transport(http, config("openai"));
  BOOST_CHECK_THROW(transport.send(json::parse(R"({"messages": []})").as_object(), [](LlmAttempt) {}), InvalidJudgeRequest);
  BOOST_TEST(server.request_count() == 0u);
}

BOOST_AUTO_TEST_CASE(the_key_is_redacted_from_echoed_errors) {
  // Providers have been known to echo the key they were sent; krino must not pass it on.
  server.set_script(fake::parse_script(std::string(R"({"rules": [
      {"match": {"contains": "first"}, "reply": {"fault": {"kind": "status", "status": 401, "message": "Incorrect API key provided: )") +
                                       kKey + R"("}}},
      {"reply": {"fault": {"kind": "malformed_json", "body": "proxy saw Authorization: Bearer )" + kKey + R"("}}}]})"));
  LlmTransport transport(http, config("openai"));
  auto unauthorized = send(transport, R"({"messages": [{"role": "user", "content": "first"}]})");
  BOOST_TEST((unauthorized.outcome == AttemptOutcome::http_error));
  BOOST_TEST(unauthorized.error.find("Incorrect API key provided: [redacted]") != std::string::npos);
  auto echoed = send(transport, R"({"messages": [{"role": "user", "content": "second"}]})");
  BOOST_TEST((echoed.outcome == AttemptOutcome::invalid_reply));
  BOOST_TEST(echoed.error.find("Bearer [redacted]") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()

