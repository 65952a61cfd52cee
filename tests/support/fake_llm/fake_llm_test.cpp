// The fake LLM server in-process: endpoint shapes, rule matching, latency and concurrency,
// recording, API keys.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>
#include <chrono>
#include <future>
#include <vector>

#include "fake_llm_server.hpp"
#include "test_http_client.hpp"

namespace json = boost::json;
using namespace krino::fake_llm;
using namespace krino::fake_llm::test;

namespace {

HttpResult post(const FakeLlmServer& server, Endpoint endpoint, std::string body,
                std::vector<std::pair<std::string, std::string>> headers = {}) {
  HttpCall call;
  call.target = std::string(endpoint_path(endpoint));
  call.body = std::move(body);
  call.headers = std::move(headers);
  return http_call(server.port(), call);
}

std::string openai_content(const HttpResult& result) {
  return std::string(json::parse(result.body()).at_pointer("/choices/0/message/content").as_string());
}

ServerOptions with_script(const char* script) {
  ServerOptions options;
  options.script = parse_script(script);
  return options;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(fake_llm_server)

BOOST_AUTO_TEST_CASE(openai_reply_has_the_chat_completions_shape) {
  FakeLlmServer server(with_script(R"({"rules": [{"reply": {"content": "{\"score\": 1",
                                                            "usage": {"input_tokens": 12, "output_tokens": 3}}}]})"));
  HttpResult result = post(server, Endpoint::openai_chat, openai_body("gpt-4o-mini", "Rate this"));
  BOOST_TEST_REQUIRE(!result.error);
  BOOST_TEST(result.status() == 200u);
  BOOST_TEST(result.response[boost::beast::http::field::content_type] == "application/json");
  json::value reply = json::parse(result.body());
  BOOST_TEST(openai_content(result) == "{\"score\": 1");  // broken JSON content passes through as text
  BOOST_TEST(reply.at("model").as_string() == "gpt-4o-mini");
  BOOST_TEST(reply.at("id").as_string().starts_with("chatcmpl-"));
  BOOST_TEST(reply.at_pointer("/choices/0/message/role").as_string() == "assistant");
  BOOST_TEST(reply.at_pointer("/choices/0/finish_reason").as_string() == "stop");
  BOOST_TEST(reply.at_pointer("/usage/prompt_tokens").to_number<int>() == 12);
  BOOST_TEST(reply.at_pointer("/usage/completion_tokens").to_number<int>() == 3);
  BOOST_TEST(reply.at_pointer("/usage/total_tokens").to_number<int>() == 15);
}

BOOST_AUTO_TEST_CASE(anthropic_reply_has_the_messages_shape) {
  FakeLlmServer server(with_script(R"({"default": {"content": "yes", "model": "claude-fake"}})"));
  HttpResult result = post(server, Endpoint::anthropic_messages, anthropic_body("claude-3-5-haiku", "You judge.", "Is it?"));
  BOOST_TEST_REQUIRE(!result.error);
  BOOST_TEST(result.status() == 200u);
  json::value reply = json::parse(result.body());
  BOOST_TEST(reply.at("type").as_string() == "message");
  BOOST_TEST(reply.at("model").as_string() == "claude-fake");
  BOOST_TEST(reply.at("stop_reason").as_string() == "end_turn");
  BOOST_TEST(reply.at_pointer("/content/0/type").as_string() == "text");
  BOOST_TEST(reply.at_pointer("/content/0/text").as_string() == "yes");
  // Unscripted usage is estimated, never zero.
  BOOST_TEST(reply.at_pointer("/usage/input_tokens").to_number<int>() > 0);
  BOOST_TEST(reply.at_pointer("/usage/output_tokens").to_number<int>() > 0);
}

BOOST_AUTO_TEST_CASE(health_unknown_paths_and_wrong_methods) {
  FakeLlmServer server;
  HttpResult health = http_get(server.port(), "/health");
  BOOST_TEST(health.status() == 200u);
  HttpResult missing = http_get(server.port(), "/v1/completions");
  BOOST_TEST(missing.status() == 404u);
  BOOST_TEST(json::parse(missing.body()).at_pointer("/error/message").as_string().find("/v1/completions") != std::string::npos);
  BOOST_TEST(http_get(server.port(), "/v1/messages").status() == 405u);
}

BOOST_AUTO_TEST_CASE(unmatched_request_is_a_500_naming_the_prompt) {
  FakeLlmServer server(with_script(R"({"rules": [{"match": {"contains": "apples"}, "reply": {"content": "a"}}]})"));
  HttpResult result = post(server, Endpoint::openai_chat, openai_body("m", "pears are nice"));
  BOOST_TEST(result.status() == 500u);
  BOOST_TEST(result.body().find("pears are nice") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(first_matching_rule_wins_on_substring_model_and_endpoint) {
  FakeLlmServer server(with_script(R"({"rules": [
      {"match": {"endpoint": "anthropic"}, "reply": {"content": "from anthropic rule"}},
      {"match": {"model": "judge-b"}, "reply": {"content": "model rule"}},
      {"match": {"contains": "faithfulness"}, "reply": {"content": "substring rule"}},
      {"match": {"contains": "faith"}, "reply": {"content": "never reached for faithfulness"}}],
    "default": {"content": "fallback"}})"));
  BOOST_TEST(openai_content(post(server, Endpoint::openai_chat, openai_body("judge-a", "rate faithfulness"))) == "substring rule");
  BOOST_TEST(openai_content(post(server, Endpoint::openai_chat, openai_body("judge-b", "rate faithfulness"))) == "model rule");
  BOOST_TEST(openai_content(post(server, Endpoint::openai_chat, openai_body("judge-a", "other"))) == "fallback");
  HttpResult anthropic = post(server, Endpoint::anthropic_messages, anthropic_body("judge-b", "sys", "x"));
  BOOST_TEST(json::parse(anthropic.body()).at_pointer("/content/0/text").as_string() == "from anthropic rule");
}

BOOST_AUTO_TEST_CASE(anthropic_system_prompt_is_matched_too) {
  FakeLlmServer server(with_script(R"({"rules": [{"match": {"contains": "strict grader"}, "reply": {"content": "hit"}}]})"));
  HttpResult result = post(server, Endpoint::anthropic_messages, anthropic_body("m", "You are a strict grader.", "x"));
  BOOST_TEST(result.status() == 200u);
}

BOOST_AUTO_TEST_CASE(times_scripts_fail_twice_then_succeed_and_reset_restores_it) {
  FakeLlmServer server(with_script(R"({"rules": [
      {"times": 2, "reply": {"fault": {"kind": "status", "status": 503}}},
      {"reply": {"content": "ok"}}]})"));
  auto body = openai_body("m", "p");
  BOOST_TEST(post(server, Endpoint::openai_chat, body).status() == 503u);
  BOOST_TEST(post(server, Endpoint::openai_chat, body).status() == 503u);
  BOOST_TEST(post(server, Endpoint::openai_chat, body).status() == 200u);
  HttpCall reset;
  reset.target = "/_reset";
  BOOST_TEST(http_call(server.port(), reset).status() == 200u);
  BOOST_TEST(server.request_count() == 0u);
  BOOST_TEST(post(server, Endpoint::openai_chat, body).status() == 503u);
}

BOOST_AUTO_TEST_CASE(keep_alive_serves_several_requests_on_one_connection) {
  FakeLlmServer server(with_script(R"({"default": {"content": "ok"}})"));
  TestHttpClient client(server.port());
  for (int i = 0; i < 3; ++i) {
    HttpCall call;
    call.target = "/v1/chat/completions";
    call.body = openai_body("m", "p" + std::to_string(i));
    HttpResult result = client.send(call);
    BOOST_TEST_REQUIRE(!result.error);
    BOOST_TEST(result.status() == 200u);
  }
  BOOST_TEST(server.request_count(Endpoint::openai_chat) == 3u);
}

BOOST_AUTO_TEST_CASE(latency_is_honoured_per_server_and_per_rule) {
  ServerOptions options = with_script(R"({"rules": [{"match": {"contains": "slow"}, "reply": {"content": "s", "latency_ms": 150}}],
                                         "default": {"content": "f"}})");
  options.latency_ms = 100;
  FakeLlmServer server(std::move(options));
  auto timed = [&](const std::string& prompt) {
    auto start = std::chrono::steady_clock::now();
    BOOST_TEST(post(server, Endpoint::openai_chat, openai_body("m", prompt)).status() == 200u);
    return std::chrono::steady_clock::now() - start;
  };
  BOOST_TEST((timed("fast") >= std::chrono::milliseconds(100)));
  BOOST_TEST((timed("slow") >= std::chrono::milliseconds(250)));
}

// Functional check that latency waits on timers, not threads: 50 calls at 200 ms on 2 server
// threads would take 5 s if each wait held a thread. The bound is loose for loaded CI machines.
BOOST_AUTO_TEST_CASE(concurrent_requests_wait_out_latency_in_parallel) {
  ServerOptions options = with_script(R"({"default": {"content": "ok"}})");
  options.latency_ms = 200;
  FakeLlmServer server(std::move(options));
  auto start = std::chrono::steady_clock::now();
  std::vector<std::future<unsigned>> calls;
  for (int i = 0; i < 50; ++i) {
    calls.push_back(std::async(std::launch::async, [&server, i] {
      return post(server, Endpoint::openai_chat, openai_body("m", "item " + std::to_string(i))).status();
    }));
  }
  for (auto& call : calls) BOOST_TEST(call.get() == 200u);
  BOOST_TEST((std::chrono::steady_clock::now() - start < std::chrono::seconds(2)));
  BOOST_TEST(server.request_count() == 50u);
}

BOOST_AUTO_TEST_CASE(requests_are_recorded_in_process_and_over_http) {
  ServerOptions options = with_script(R"({"default": {"content": "ok"}})");
  options.keep_last_requests = 2;
  FakeLlmServer server(std::move(options));
  post(server, Endpoint::openai_chat, openai_body("m1", "first"));
  post(server, Endpoint::anthropic_messages, anthropic_body("m2", "sys", "second"));
  post(server, Endpoint::openai_chat, openai_body("m3", "third"));
  BOOST_TEST(server.request_count(Endpoint::openai_chat) == 2u);
  BOOST_TEST(server.request_count(Endpoint::anthropic_messages) == 1u);
  auto recent = server.recent_requests();
  BOOST_TEST_REQUIRE(recent.size() == 2u);
  BOOST_TEST(recent[0].prompt == "sys\nsecond");
  BOOST_TEST(recent[1].model == "m3");
  BOOST_TEST(json::parse(recent[1].body).at("model").as_string() == "m3");

  json::value log = json::parse(http_get(server.port(), "/_requests").body());
  BOOST_TEST(log.at("total").to_number<int>() == 3);
  BOOST_TEST(log.at_pointer("/counts/~1v1~1chat~1completions").to_number<int>() == 2);
  BOOST_TEST(log.at_pointer("/counts/~1v1~1messages").to_number<int>() == 1);
  BOOST_TEST(log.at_pointer("/requests/1/prompt").as_string() == "third");
  BOOST_TEST(log.at_pointer("/requests/1/endpoint").as_string() == "openai");
}

BOOST_AUTO_TEST_CASE(required_key_is_checked_in_each_providers_header) {
  ServerOptions options = with_script(R"({"default": {"content": "ok"}})");
  options.required_key = "sk-test-123";
  FakeLlmServer server(std::move(options));
  auto openai = openai_body("m", "p");
  auto anthropic = anthropic_body("m", "s", "p");
  BOOST_TEST(post(server, Endpoint::openai_chat, openai).status() == 401u);
  BOOST_TEST(post(server, Endpoint::openai_chat, openai, {{"Authorization", "Bearer wrong"}}).status() == 401u);
  BOOST_TEST(post(server, Endpoint::openai_chat, openai, {{"Authorization", "Bearer sk-test-123"}}).status() == 200u);
  // Each provider's own header: an OpenAI-style header does not authorize an Anthropic call.
  BOOST_TEST(post(server, Endpoint::anthropic_messages, anthropic, {{"Authorization", "Bearer sk-test-123"}}).status() == 401u);
  HttpResult ok = post(server, Endpoint::anthropic_messages, anthropic, {{"x-api-key", "sk-test-123"}});
  BOOST_TEST(ok.status() == 200u);
  auto recent = server.recent_requests();
  BOOST_TEST(recent.back().api_key == "sk-test-123");
  BOOST_TEST(recent.front().api_key.empty());
  BOOST_TEST(recent.front().status == 401u);
}

BOOST_AUTO_TEST_CASE(set_script_replaces_the_rules) {
  FakeLlmServer server(with_script(R"({"default": {"content": "one"}})"));
  BOOST_TEST(openai_content(post(server, Endpoint::openai_chat, openai_body("m", "p"))) == "one");
  server.set_script(parse_script(R"({"default": {"content": "two"}})"));
  BOOST_TEST(openai_content(post(server, Endpoint::openai_chat, openai_body("m", "p"))) == "two");
}

BOOST_AUTO_TEST_CASE(invalid_scripts_are_rejected_with_the_field_named) {
  auto message_of = [](const char* script) {
    try {
      parse_script(script);
    } catch (const std::invalid_argument& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  BOOST_TEST(message_of(R"({"rules": [{"match": {"contians": "x"}, "reply": {}}]})").find("rules[0].match") != std::string::npos);
  BOOST_TEST(message_of(R"({"rules": [{"match": {}}]})").find("reply") != std::string::npos);
  BOOST_TEST(message_of(R"({"default": {"fault": "explode"}})").find("explode") != std::string::npos);
  BOOST_TEST(message_of("not json").find("not valid JSON") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
