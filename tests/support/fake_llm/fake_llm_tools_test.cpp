// The fake server's tool calls in each provider's shape, the OpenAI Responses endpoint, and the
// app endpoint that stands in for a user's own HTTP service.
#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include "fake_llm_server.hpp"
#include "test_http_client.hpp"

namespace json = boost::json;
using namespace krino::fake_llm;
using namespace krino::fake_llm::test;

namespace {

ServerOptions tools_script(const char* script) {
  ServerOptions options;
  options.script = parse_script(script);
  return options;
}

json::value call(const FakeLlmServer& server, std::string target, std::string body, std::string method = "POST") {
  HttpCall request;
  request.method = std::move(method);
  request.target = std::move(target);
  request.body = std::move(body);
  HttpResult result = http_call(server.port(), request);
  BOOST_TEST_REQUIRE(!result.error);
  BOOST_TEST_REQUIRE(result.status() == 200u, result.body());
  return json::parse(result.body());
}

constexpr const char* kToolScript = R"({"rules": [{"match": {"contains": "weather"},
  "reply": {"tool_calls": [{"name": "get_weather", "arguments": {"city": "Paris"}},
                           {"name": "get_time", "id": "call_fixed"}]}}],
  "default": {"content": "plain answer"}})";

}  // namespace

BOOST_AUTO_TEST_SUITE(fake_llm_tools)

BOOST_AUTO_TEST_CASE(chat_completions_carry_tool_calls_with_null_content) {
  FakeLlmServer server(tools_script(kToolScript));
  json::value reply = call(server, "/v1/chat/completions", openai_body("m", "what is the weather"));
  BOOST_TEST(reply.at_pointer("/choices/0/message/content").is_null());
  BOOST_TEST(reply.at_pointer("/choices/0/finish_reason").as_string() == "tool_calls");
  const json::array& calls = reply.at_pointer("/choices/0/message/tool_calls").as_array();
  BOOST_TEST_REQUIRE(calls.size() == 2u);
  BOOST_TEST(calls[0].at_pointer("/function/name").as_string() == "get_weather");
  BOOST_TEST(calls[0].at_pointer("/function/arguments").as_string() == R"({"city":"Paris"})");
  BOOST_TEST(calls[0].at("type").as_string() == "function");
  BOOST_TEST(calls[0].at("id").as_string().starts_with("call_fake_"));
  BOOST_TEST(calls[1].at("id").as_string() == "call_fixed");
  BOOST_TEST(calls[1].at_pointer("/function/arguments").as_string() == "{}");
}

BOOST_AUTO_TEST_CASE(anthropic_messages_carry_tool_use_blocks) {
  FakeLlmServer server(tools_script(kToolScript));
  json::value reply = call(server, "/v1/messages", anthropic_body("m", "sys", "weather please"));
  BOOST_TEST(reply.at("stop_reason").as_string() == "tool_use");
  const json::array& content = reply.at("content").as_array();
  BOOST_TEST_REQUIRE(content.size() == 2u);  // no empty text block before the calls
  BOOST_TEST(content[0].at("type").as_string() == "tool_use");
  BOOST_TEST(content[0].at("name").as_string() == "get_weather");
  BOOST_TEST(content[0].at_pointer("/input/city").as_string() == "Paris");
  BOOST_TEST(content[0].at("id").as_string().starts_with("toolu_fake_"));
}

BOOST_AUTO_TEST_CASE(responses_endpoint_answers_function_calls_and_messages) {
  FakeLlmServer server(tools_script(kToolScript));
  json::value with_tools = call(server, "/v1/responses",
                                R"({"model": "gpt-5-mini", "instructions": "be brief", "input": [
                                     {"role": "user", "content": "weather in Paris?"}]})");
  BOOST_TEST(with_tools.at("object").as_string() == "response");
  BOOST_TEST(with_tools.at("model").as_string() == "gpt-5-mini");
  const json::array& items = with_tools.at("output").as_array();
  BOOST_TEST_REQUIRE(items.size() == 2u);
  BOOST_TEST(items[0].at("type").as_string() == "function_call");
  BOOST_TEST(items[0].at("name").as_string() == "get_weather");
  BOOST_TEST(items[0].at("arguments").as_string() == R"({"city":"Paris"})");
  BOOST_TEST(items[0].at("call_id").as_string().starts_with("call_fake_"));
  BOOST_TEST(items[0].at("id").as_string().starts_with("fc_fake_"));

  json::value text = call(server, "/v1/responses", R"({"model": "m", "input": "tell me a joke"})");
  BOOST_TEST(text.at_pointer("/output/0/type").as_string() == "message");
  BOOST_TEST(text.at_pointer("/output/0/content/0/type").as_string() == "output_text");
  BOOST_TEST(text.at_pointer("/output/0/content/0/text").as_string() == "plain answer");
  BOOST_TEST(text.at_pointer("/usage/input_tokens").to_number<int>() > 0);
  BOOST_TEST(server.request_count(Endpoint::openai_responses) == 2u);
}

BOOST_AUTO_TEST_CASE(app_endpoint_echoes_unscripted_requests_with_any_method) {
  FakeLlmServer server;
  json::value posted = call(server, "/app/answer?x=1", R"({"inputs": {"input": "hi"}})");
  BOOST_TEST(posted.at_pointer("/echo/inputs/input").as_string() == "hi");
  BOOST_TEST(posted.at("method").as_string() == "POST");
  BOOST_TEST(posted.at("path").as_string() == "/app/answer?x=1");
  json::value got = call(server, "/app/q?text=a%20b", "", "GET");
  BOOST_TEST(got.at("method").as_string() == "GET");
  BOOST_TEST(got.at("echo").as_string() == "");
  BOOST_TEST(server.request_count(Endpoint::app) == 2u);
}

BOOST_AUTO_TEST_CASE(app_endpoint_answers_scripted_bodies_and_faults) {
  FakeLlmServer server(tools_script(R"({"rules": [
      {"match": {"endpoint": "app", "contains": "boom"}, "reply": {"fault": {"kind": "status", "status": 503}}},
      {"match": {"endpoint": "app", "contains": "text"}, "reply": {"body": "not json at all"}},
      {"match": {"endpoint": "app"}, "reply": {"body": {"answer": 42}}}]})"));
  BOOST_TEST(call(server, "/app/x", "{}").at("answer").to_number<int>() == 42);
  HttpCall raw;
  raw.target = "/app/x";
  raw.body = "text please";
  BOOST_TEST(http_call(server.port(), raw).body() == "not json at all");
  raw.body = "boom";
  BOOST_TEST(http_call(server.port(), raw).status() == 503u);
}

BOOST_AUTO_TEST_CASE(script_rejects_malformed_tool_calls) {
  BOOST_CHECK_THROW(parse_script(R"({"default": {"tool_calls": [{"arguments": {}}]}})"), std::invalid_argument);
  BOOST_CHECK_THROW(parse_script(R"({"default": {"tool_calls": {"name": "x"}}})"), std::invalid_argument);
  BOOST_CHECK_THROW(parse_script(R"({"default": {"tool_calls": [{"name": "x", "args": {}}]}})"), std::invalid_argument);
  BOOST_CHECK_NO_THROW(parse_script(R"({"rules": [{"match": {"endpoint": "responses"}, "reply": {}}]})"));
}

BOOST_AUTO_TEST_SUITE_END()
