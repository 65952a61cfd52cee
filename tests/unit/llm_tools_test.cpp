// Function calling through the judge providers: tools and tool_choice on the wire of each API, and
// the tool calls read back from each reply shape (what the openai and anthropic tasks rely on).
#include "krino/core/llm/llm_provider.hpp"
#include "krino/core/llm/judge_request.hpp"

#include "llm_test_support.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

using namespace krino::core;
namespace json = boost::json;

namespace {

std::unique_ptr<LlmProvider> tools_provider(std::string_view config_text) {
  return make_llm_provider(
      parse_judge_config(json::parse(config_text).as_object(), "j", test::fake_environment("KEY", "sk-unit-key")));
}

// A request with two tools in two of the accepted shapes.
json::object tool_request(std::string_view tool_choice = "") {
  json::object request = json::parse(R"({"messages": [{"role": "system", "content": "be brief"},
                                                       {"role": "user", "content": "weather in Paris?"}],
    "tools": [{"name": "get_weather", "description": "Current weather", "parameters":
                {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
              {"type": "function", "function": {"name": "get_time"}}]})").as_object();
  if (!tool_choice.empty()) request["tool_choice"] = tool_choice;
  return request;
}

json::value body_of(const LlmProvider& p, const json::object& request) { return json::parse(p.build_request(request).body); }

std::string request_error(const json::object& request) {
  try {
    resolve_judge_request(request, LlmConfig{});
  } catch (const InvalidJudgeRequest& e) {
    return e.what();
  }
  return "<accepted>";
}

}  // namespace

BOOST_AUTO_TEST_SUITE(judge_tools)

BOOST_AUTO_TEST_CASE(requests_read_tools_in_every_shape_and_check_the_choice) {
  const JudgeRequest request = resolve_judge_request(tool_request("get_time"), LlmConfig{});
  BOOST_REQUIRE(request.tools.size() == 2u);
  BOOST_TEST(request.tools[0].name == "get_weather");
  BOOST_TEST(request.tools[0].description == "Current weather");
  BOOST_TEST(request.tools[0].parameters.at("required").as_array().size() == 1u);
  BOOST_TEST(request.tools[1].name == "get_time");
  BOOST_TEST(json::serialize(request.tools[1].parameters) == R"({"type":"object","properties":{}})");  // any object
  BOOST_TEST(request.tool_choice == "get_time");

  json::object unknown = tool_request("get_stock");
  BOOST_TEST(request_error(unknown).find("tool_choice 'get_stock' is neither") != std::string::npos);
  json::object twice = tool_request();
  twice["tools"].as_array().push_back(json::object{{"name", "get_time"}});
  BOOST_TEST(request_error(twice).find("tools name 'get_time' twice") != std::string::npos);
  json::object nameless = tool_request();
  nameless["tools"].as_array().push_back(json::object{{"description", "no name"}});
  BOOST_TEST(request_error(nameless).find("tools[2]") != std::string::npos);
  json::object not_a_list = tool_request();
  not_a_list["tools"] = "get_time";
  BOOST_TEST(request_error(not_a_list).find("tools must be an array") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(chat_completions_send_function_tools_and_read_tool_calls) {
  auto openai = tools_provider(R"({"provider": "openai", "model": "m"})");
  json::value body = body_of(*openai, tool_request("required"));
  BOOST_TEST(body.at_pointer("/tools/0/type").as_string() == "function");
  BOOST_TEST(body.at_pointer("/tools/0/function/name").as_string() == "get_weather");
  BOOST_TEST(body.at_pointer("/tools/0/function/parameters/required/0").as_string() == "city");
  BOOST_TEST(body.at_pointer("/tools/1/function").as_object().contains("description") == false);
  BOOST_TEST(body.at("tool_choice").as_string() == "required");
  BOOST_TEST(body_of(*openai, tool_request("get_time")).at_pointer("/tool_choice/function/name").as_string() == "get_time");
  BOOST_TEST(!body_of(*openai, tool_request()).as_object().contains("tool_choice"));  // the provider's default

  const ProviderReply reply = openai->parse_reply(R"({"model": "m-1", "choices": [{"finish_reason": "tool_calls",
      "message": {"role": "assistant", "content": null, "tool_calls": [
        {"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\":\"Paris\"}"}},
        {"id": "", "type": "function", "function": {"name": "get_time", "arguments": {"tz": "UTC"}}}]}}]})");
  BOOST_TEST(reply.content.empty());
  BOOST_REQUIRE(reply.tool_calls.size() == 2u);
  BOOST_TEST(reply.tool_calls[0].id == "call_1");
  BOOST_TEST(reply.tool_calls[0].arguments == R"({"city":"Paris"})");
  BOOST_TEST(reply.tool_calls[1].id.empty());  // as some OpenAI-compatible servers send it
  BOOST_TEST(reply.tool_calls[1].arguments == R"({"tz":"UTC"})");
  BOOST_TEST(reply.stop_reason == "tool_calls");
  BOOST_CHECK_THROW(openai->parse_reply(R"({"choices": [{"message": {"content": null, "tool_calls": [{"function": {}}]}}]})"),
                    InvalidProviderReply);
}

BOOST_AUTO_TEST_CASE(anthropic_messages_send_input_schemas_and_read_tool_use) {
  auto anthropic = tools_provider(R"({"provider": "anthropic", "model": "c"})");
  json::value body = body_of(*anthropic, tool_request("required"));
  BOOST_TEST(body.at_pointer("/tools/0/name").as_string() == "get_weather");
  BOOST_TEST(body.at_pointer("/tools/0/input_schema/properties/city/type").as_string() == "string");
  BOOST_TEST(body.at_pointer("/tool_choice/type").as_string() == "any");
  BOOST_TEST(body_of(*anthropic, tool_request("get_time")).at_pointer("/tool_choice/name").as_string() == "get_time");
  BOOST_TEST(body_of(*anthropic, tool_request("none")).at_pointer("/tool_choice/type").as_string() == "none");

  const ProviderReply reply = anthropic->parse_reply(R"({"model": "c-1", "stop_reason": "tool_use", "content": [
      {"type": "tool_use", "id": "toolu_1", "name": "get_weather", "input": {"city": "Paris"}}],
      "usage": {"input_tokens": 9, "output_tokens": 4}})");
  BOOST_TEST(reply.content.empty());  // no text block is fine when the model called a tool
  BOOST_REQUIRE(reply.tool_calls.size() == 1u);
  BOOST_TEST(reply.tool_calls[0].id == "toolu_1");
  BOOST_TEST(reply.tool_calls[0].arguments == R"({"city":"Paris"})");
  BOOST_CHECK_THROW(anthropic->parse_reply(R"({"content": [{"type": "tool_use", "input": {}}]})"), InvalidProviderReply);
  BOOST_CHECK_THROW(anthropic->parse_reply(R"({"content": []})"), InvalidProviderReply);
}

BOOST_AUTO_TEST_CASE(responses_api_requests_and_replies) {
  auto responses = tools_provider(R"({"provider": "openai_responses", "model": "gpt-5-mini", "seed": 7, "max_tokens": 200,
                                "api_key_env": "KEY"})");
  const ProviderHttpRequest http = responses->build_request(tool_request("get_time"));
  BOOST_TEST(http.url.target == "/v1/responses");
  BOOST_TEST(http.url.host == "api.openai.com");
  json::value body = json::parse(http.body);
  BOOST_TEST(body.at("instructions").as_string() == "be brief");
  BOOST_REQUIRE(body.at("input").as_array().size() == 1u);
  BOOST_TEST(body.at_pointer("/input/0/role").as_string() == "user");
  BOOST_TEST(body.at_pointer("/tools/0/type").as_string() == "function");
  BOOST_TEST(body.at_pointer("/tools/0/name").as_string() == "get_weather");  // flat, not under "function"
  BOOST_TEST(body.at_pointer("/tool_choice/name").as_string() == "get_time");
  BOOST_TEST(body.at("max_output_tokens").to_number<int>() == 200);
  BOOST_TEST(!body.as_object().contains("seed"));  // the Responses API has none
  BOOST_TEST(body.at("store").as_bool() == false);
  bool bearer = false;
  for (const auto& h : http.headers) bearer = bearer || (h.name == "Authorization" && h.value == "Bearer sk-unit-key");
  BOOST_TEST(bearer);
  json::object json_request = tool_request();
  json_request["response_format"] = "json";
  BOOST_TEST(body_of(*responses, json_request).at_pointer("/text/format/type").as_string() == "json_object");

  const ProviderReply reply = responses->parse_reply(R"({"model": "gpt-5-mini-2025", "status": "completed", "output": [
      {"type": "reasoning", "id": "rs_1", "summary": []},
      {"type": "function_call", "id": "fc_1", "call_id": "call_A", "name": "get_weather", "arguments": "{\"city\":\"Paris\"}"},
      {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Checking"},
                                                          {"type": "output_text", "text": " now."}]}],
      "usage": {"input_tokens": 30, "output_tokens": 12}})");
  BOOST_TEST(reply.content == "Checking now.");
  BOOST_REQUIRE(reply.tool_calls.size() == 1u);
  BOOST_TEST(reply.tool_calls[0].id == "call_A");  // call_id, the link key, not the item id
  BOOST_TEST(reply.model == "gpt-5-mini-2025");
  BOOST_TEST(reply.stop_reason == "completed");
  BOOST_TEST(reply.tokens_in == 30u);
  BOOST_TEST(reply.tokens_out == 12u);
  const ProviderReply cut = responses->parse_reply(R"({"status": "incomplete", "incomplete_details": {"reason": "max_output_tokens"},
      "output": [{"type": "message", "content": [{"type": "output_text", "text": "par"}]}]})");
  BOOST_TEST(cut.stop_reason == "max_output_tokens");
  BOOST_CHECK_THROW(responses->parse_reply(R"({"output": []})"), InvalidProviderReply);
  BOOST_CHECK_THROW(responses->parse_reply(R"({"error": {"message": "bad"}, "output": []})"), InvalidProviderReply);
  BOOST_CHECK_THROW(responses->parse_reply(R"({"output": [{"type": "message", "content": [{"type": "refusal", "refusal": "no"}]}]})"),
                    InvalidProviderReply);
}

BOOST_AUTO_TEST_SUITE_END()
