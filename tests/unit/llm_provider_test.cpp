#include "krino/core/llm/anthropic_provider.hpp"
#include "krino/core/llm/llm_provider.hpp"
#include "krino/core/llm/openai_provider.hpp"

#include "llm_test_support.hpp"

#include <krino/utf8.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <algorithm>

using namespace krino::core;
namespace json = boost::json;

namespace {

std::unique_ptr<LlmProvider> provider(std::string_view config_text) {
  return make_llm_provider(
      parse_judge_config(json::parse(config_text).as_object(), "j", test::fake_environment("KEY", "sk-unit-key")));
}

std::string header(const ProviderHttpRequest& request, std::string_view name) {
  for (const auto& h : request.headers) {
    if (h.name == name) return h.value;
  }
  return "<absent>";
}

std::string reply_error(const LlmProvider& p, std::string_view body) {
  try {
    p.parse_reply(body);
  } catch (const InvalidProviderReply& error) {
    return error.what();
  }
  BOOST_ERROR("accepted: " + std::string(body));
  return {};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(judge_provider)

BOOST_AUTO_TEST_CASE(openai_request_shape) {
  auto p = provider(R"({"provider": "openai", "model": "gpt-x", "api_key_env": "KEY", "seed": 3, "base_url": "https://h/v1"})");
  auto request = p->build_request(json::parse(R"({"messages": [{"role": "system", "content": "Answer in JSON."},
                                                                {"role": "user", "content": "Rate it"}],
                                                  "response_format": "json"})").as_object());
  BOOST_TEST(request.url.target == "/v1/chat/completions");
  BOOST_TEST(header(request, "Authorization") == "Bearer sk-unit-key");
  BOOST_TEST(header(request, "Content-Type") == "application/json");
  BOOST_TEST(request.body ==
             R"({"model":"gpt-x","messages":[{"role":"system","content":"Answer in JSON."},{"role":"user","content":"Rate it"}],)"
             R"("temperature":0,"seed":3,"response_format":{"type":"json_object"}})");
}

// The body is written as text, not built as a JSON object and serialised; its bytes must be those
// of the object it stands for. The reference below builds that object and serialises it.
BOOST_AUTO_TEST_CASE(openai_bodies_are_the_bytes_of_their_json_object) {
  const auto reference = [](const LlmProvider& p, const JudgeRequest& request) {
    std::vector<JudgeMessage> messages = request.messages;
    bool mentioned = false;
    for (const auto& m : messages)
      for (std::size_t i = 0; i + 4 <= m.content.size() && !mentioned; ++i)
        mentioned = (m.content[i] | 0x20) == 'j' && (m.content[i + 1] | 0x20) == 's' && (m.content[i + 2] | 0x20) == 'o' &&
                    (m.content[i + 3] | 0x20) == 'n';
    if (request.json_reply && !mentioned) {
      auto system = std::find_if(messages.begin(), messages.end(), [](const JudgeMessage& m) { return m.role == "system"; });
      if (system != messages.end()) system->content += "\n\n" + std::string(kJsonReplyInstruction);
      else messages.insert(messages.begin(), JudgeMessage{"system", std::string(kJsonReplyInstruction)});
    }
    json::object body;
    body["model"] = p.config().model;
    json::array wire;
    for (const auto& m : messages) wire.push_back(json::object{{"role", m.role}, {"content", m.content}});
    body["messages"] = std::move(wire);
    const double t = request.temperature;
    body["temperature"] = t == static_cast<double>(static_cast<std::int64_t>(t)) ? json::value(static_cast<std::int64_t>(t)) : json::value(t);
    if (request.seed) body["seed"] = *request.seed;
    if (request.max_tokens) body["max_tokens"] = *request.max_tokens;
    if (request.json_reply) body["response_format"] = json::object{{"type", "json_object"}};
    // The only request with tools is `full` below: its tools in the wire's shape, written out.
    if (!request.tools.empty())
      body["tools"] = json::parse(R"([{"type":"function","function":{"name":"get_weather",)"
                                  R"("parameters":{"type":"object","properties":{"t":{"maximum":1.5e300}}},)"
                                  R"("description":"Current \"weather\""}},)"
                                  R"({"type":"function","function":{"name":"get_time","parameters":{"type":"object"}}}])");
    if (request.tool_choice == "required") body["tool_choice"] = "required";
    if (request.tool_choice == "get_time") body["tool_choice"] = json::parse(R"({"type":"function","function":{"name":"get_time"}})");
    return json::serialize(body);
  };
  auto p = provider(R"({"provider": "openai", "model": "gpt-\"x\"", "temperature": 0.2})");
  const std::string hostile = std::string("quote \" slash \\ tab \t nl \n cr \r bell \x07 nul ") + '\0' +
                              " del \x7f \xc3\xa9 \xe2\x82\xac \xf0\x9f\x98\x80 /";
  JudgeRequest plain;
  plain.messages = {{"user", "Rate it"}};
  JudgeRequest full;
  full.messages = {{"system", "Judge fairly."}, {"user", hostile}, {"assistant", ""}};
  full.json_reply = true;
  full.temperature = 0.7;
  full.seed = -9007199254740993;
  full.max_tokens = 4096;
  full.tools = {{"get_weather", "Current \"weather\"", json::parse(R"({"type":"object","properties":{"t":{"maximum":1.5e300}}})").as_object()},
                {"get_time", "", json::parse(R"({"type":"object"})").as_object()}};
  full.tool_choice = "get_time";
  JudgeRequest mentioned = plain;
  mentioned.messages = {{"user", "Answer in JsOn"}};
  mentioned.json_reply = true;
  mentioned.temperature = 2;
  mentioned.tool_choice = "required";
  JudgeRequest no_system = plain;
  no_system.json_reply = true;
  no_system.temperature = 1e-7;
  for (const JudgeRequest* request : {&plain, &full, &mentioned, &no_system}) {
    const std::string body = p->encode(*request).body;
    BOOST_TEST(body == reference(*p, *request));
    BOOST_TEST(krino::utf8::is_valid(body));
  }
}

BOOST_AUTO_TEST_CASE(openai_json_mode_gets_the_word_json_when_the_prompt_lacks_it) {
  auto p = provider(R"({"provider": "openai", "model": "gpt-x"})");
  auto body = json::parse(p->build_request(json::parse(R"({"messages": [{"role": "user", "content": "Rate it"}],
                                                             "response_format": "json"})").as_object()).body);
  const auto& messages = body.at("messages").as_array();
  BOOST_TEST(messages.size() == 2u);
  BOOST_TEST(messages[0].at("role").as_string() == "system");
  BOOST_TEST(messages[0].at("content").as_string() == kJsonReplyInstruction);
  BOOST_TEST(header(p->build_request(json::parse(R"({"messages": [{"role": "user", "content": "x"}]})").as_object()),
                    "Authorization") == "<absent>");  // no key configured: none sent
}

// The check folds ASCII case by hand (it once went through the locale per character): any letter case,
// in any message, up to the last character counts; a word that only comes close does not.
BOOST_AUTO_TEST_CASE(openai_json_mode_finds_the_word_in_any_case_and_message) {
  auto p = provider(R"({"provider": "openai", "model": "gpt-x"})");
  auto instructed = [&](std::string_view second) {
    json::object request{{"messages", json::array{json::object{{"role", "system"}, {"content", "Rate it."}},
                                                  json::object{{"role", "user"}, {"content", second}}}},
                         {"response_format", "json"}};
    auto body = json::parse(p->build_request(request).body);
    return body.at("messages").as_array()[0].at("content").as_string() != "Rate it.";  // the instruction appended
  };
  BOOST_TEST(!instructed("reply as jSoN"));
  BOOST_TEST(!instructed("JSON"));
  BOOST_TEST(instructed("a jso n reply"));
  BOOST_TEST(instructed("jso"));
}

BOOST_AUTO_TEST_CASE(request_overrides_win_over_the_config) {
  auto p = provider(R"({"provider": "openai", "model": "m", "temperature": 0.2, "seed": 1, "max_tokens": 10})");
  auto body = json::parse(p->build_request(json::parse(R"({"messages": [{"role": "user", "content": "x"}],
                              "temperature": 1, "seed": 99, "max_tokens": 500})").as_object()).body);
  BOOST_TEST(body.at("temperature").to_number<double>() == 1.0);
  BOOST_TEST(body.at("seed").to_number<std::int64_t>() == 99);
  BOOST_TEST(body.at("max_tokens").to_number<std::int64_t>() == 500);
  body = json::parse(p->build_request(json::parse(R"({"messages": [{"role": "user", "content": "x"}]})").as_object()).body);
  BOOST_TEST(body.at("temperature").to_number<double>() == 0.2);
  BOOST_TEST(body.at("seed").to_number<std::int64_t>() == 1);
  BOOST_TEST(body.at("max_tokens").to_number<std::int64_t>() == 10);
  BOOST_TEST(!body.as_object().contains("response_format"));
}

BOOST_AUTO_TEST_CASE(anthropic_request_shape) {
  auto p = provider(R"({"provider": "anthropic", "model": "claude-x", "api_key_env": "KEY", "seed": 5, "base_url": "https://h/v1"})");
  auto request = p->build_request(json::parse(R"({"messages": [{"role": "system", "content": "You grade."},
                                                                {"role": "user", "content": "Rate it"},
                                                                {"role": "system", "content": "Be strict."}],
                                                  "response_format": "json"})").as_object());
  BOOST_TEST(request.url.target == "/v1/messages");
  BOOST_TEST(header(request, "x-api-key") == "sk-unit-key");
  BOOST_TEST(header(request, "anthropic-version") == "2023-06-01");
  BOOST_TEST(header(request, "Authorization") == "<absent>");
  std::string system = "You grade.\n\n" + std::string(kJsonReplyInstruction) + "\n\nBe strict.";
  BOOST_TEST(request.body == R"({"model":"claude-x","max_tokens":1024,"system":)" + json::serialize(json::string(system)) +
                                 R"(,"messages":[{"role":"user","content":"Rate it"}],"temperature":0})");  // no seed: the API has none
}

BOOST_AUTO_TEST_CASE(invalid_requests_say_what_is_wrong) {
  auto p = provider(R"({"provider": "anthropic", "model": "m"})");
  auto refused = [&](std::string_view text, std::string_view why) {
    try {
      p->build_request(json::parse(text).as_object());
    } catch (const InvalidJudgeRequest& error) {
      BOOST_TEST_CONTEXT(text) { BOOST_TEST(std::string(error.what()).find(why) != std::string::npos); }
      return;
    }
    BOOST_ERROR("accepted: " + std::string(text));
  };
  refused(R"({})", "messages must be a non-empty array");
  refused(R"({"messages": []})", "messages must be a non-empty array");
  refused(R"({"messages": [{"role": "tool", "content": "x"}]})", "messages[0].role must be system, user or assistant");
  refused(R"({"messages": [{"role": "user", "content": 1}]})", "messages[0].content must be a string");
  refused(R"({"messages": [{"role": "user", "content": "x"}], "response_format": "yaml"})", "response_format");
  refused(R"({"messages": [{"role": "user", "content": "x"}], "temperature": -1})", "temperature");
  refused(R"({"messages": [{"role": "user", "content": "x"}], "max_tokens": 0})", "max_tokens");
  refused(R"({"messages": [{"role": "user", "content": "x"}], "seed": "s"})", "seed");
  refused(R"({"messages": [{"role": "system", "content": "x"}]})", "needs a user message");
}

BOOST_AUTO_TEST_CASE(replies_are_parsed) {
  auto openai = provider(R"({"provider": "openai", "model": "m"})");
  auto reply = openai->parse_reply(R"({"model": "m-2024", "choices": [{"message": {"role": "assistant", "content": "{\"score\": 1}"},
                                       "finish_reason": "stop"}], "usage": {"prompt_tokens": 12, "completion_tokens": 3}})");
  BOOST_TEST(reply.content == R"({"score": 1})");
  BOOST_TEST(reply.model == "m-2024");
  BOOST_TEST(reply.stop_reason == "stop");
  BOOST_TEST(reply.tokens_in == 12u);
  BOOST_TEST(reply.tokens_out == 3u);
  reply = openai->parse_reply(R"({"choices": [{"message": {"content": "hi"}}]})");
  BOOST_TEST(reply.model == "m");  // the configured model when the provider names none
  BOOST_TEST(!reply.tokens_in.has_value());

  auto anthropic = provider(R"({"provider": "anthropic", "model": "c"})");
  reply = anthropic->parse_reply(R"({"model": "c-1", "content": [{"type": "text", "text": "a"}, {"type": "thinking", "thinking": "hmm"},
                                     {"type": "text", "text": "b"}], "stop_reason": "max_tokens",
                                     "usage": {"input_tokens": 7, "output_tokens": 2}})");
  BOOST_TEST(reply.content == "ab");
  BOOST_TEST(reply.stop_reason == "max_tokens");
  BOOST_TEST(reply.tokens_in == 7u);
  BOOST_TEST(reply.tokens_out == 2u);
}

BOOST_AUTO_TEST_CASE(bad_replies_are_described) {
  auto openai = provider(R"({"provider": "openai", "model": "m"})");
  BOOST_TEST(reply_error(*openai, "{\"score\": 1").find("judge 'j' (openai m): the reply is not a JSON object") == 0u);
  BOOST_TEST(reply_error(*openai, R"({"choices": []})").find("no choices") != std::string::npos);
  BOOST_TEST(reply_error(*openai, R"({"choices": [{"message": {"content": null, "refusal": "no"}}]})").find("the model refused: no") !=
             std::string::npos);
  auto anthropic = provider(R"({"provider": "anthropic", "model": "c"})");
  BOOST_TEST(reply_error(*anthropic, R"({"content": []})").find("no text block") != std::string::npos);
  BOOST_TEST(reply_error(*anthropic, R"({"type": "error", "error": {"type": "overloaded_error"}})").find("an error") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(http_errors_quote_the_provider_message) {
  auto openai = provider(R"({"provider": "openai", "model": "m"})");
  BOOST_TEST(openai->describe_http_error(429, R"({"error": {"message": "Rate limit reached", "type": "requests", "code": "rate_limit_exceeded"}})") ==
             "judge 'j' (openai m): HTTP 429 rate_limit_exceeded: Rate limit reached");
  BOOST_TEST(openai->describe_http_error(404, R"({"error": "model 'm' not found"})") == "judge 'j' (openai m): HTTP 404: model 'm' not found");
  BOOST_TEST(openai->describe_http_error(502, "<html>Bad Gateway</html>") == "judge 'j' (openai m): HTTP 502: <html>Bad Gateway</html>");
  auto anthropic = provider(R"({"provider": "anthropic", "model": "c"})");
  BOOST_TEST(anthropic->describe_http_error(529, R"({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}})") ==
             "judge 'j' (anthropic c): HTTP 529 overloaded_error: Overloaded");
}

// R9: a body that echoes the key so that the 300-byte cut falls inside it. Cut first, the start
// of the key no longer matches and stays in the message; redacted first, nothing of it does.
BOOST_AUTO_TEST_CASE(an_echoed_key_is_redacted_before_the_body_is_cut) {
  const std::string key = "sk-proj-" + std::string(48, 'K');
  auto openai = make_llm_provider(parse_judge_config(
      json::parse(R"({"provider": "openai", "model": "m", "api_key_env": "KEY"})").as_object(), "j", test::fake_environment("KEY", key)));
  const std::string body = std::string(268, 'x') + key + std::string(100, 'y');
  const std::string message = openai->describe_http_error(401, body);
  BOOST_TEST(message.find("sk-") == std::string::npos, message);
  BOOST_TEST(message.find("[redacted]") != std::string::npos, message);
  const std::string in_json = openai->describe_http_error(401, R"({"error": {"message": ")" + body + R"("}})");
  BOOST_TEST(in_json.find("sk-") == std::string::npos, in_json);
}

// R1: a body cut inside a character, or not UTF-8 at all, still gives a valid UTF-8 message.
BOOST_AUTO_TEST_CASE(http_error_bodies_are_cut_on_a_character_and_made_valid) {
  auto openai = provider(R"({"provider": "openai", "model": "m"})");
  std::string body = "a";
  for (int i = 0; i < 200; ++i) body += "\xC3\xA9";
  BOOST_TEST(krino::utf8::is_valid(openai->describe_http_error(500, body)));
  BOOST_TEST(krino::utf8::is_valid(openai->describe_http_error(500, "caf\xE9 ferm\xE9")));
  BOOST_TEST(krino::utf8::is_valid(reply_error(*openai, body)));
}

BOOST_AUTO_TEST_SUITE_END()
