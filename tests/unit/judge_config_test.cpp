#include "krino/core/llm/judge_config.hpp"

#include "krino/core/common/error.hpp"
#include "llm_test_support.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

using namespace krino::core;
namespace json = boost::json;

namespace {

LlmConfig parse(std::string_view text, const EnvironmentLookup& environment = test::fake_environment("K", "sk-k")) {
  return parse_judge_config(json::parse(text).as_object(), "strict", environment);
}

// The configuration error's message, or a test failure when the config was accepted.
std::string refusal(std::string_view text, const EnvironmentLookup& environment = test::fake_environment("K", "sk-k")) {
  try {
    parse(text, environment);
  } catch (const KrinoError& error) {
    BOOST_TEST((error.kind() == ErrorKind::configuration));
    return error.what();
  }
  BOOST_ERROR("accepted: " + std::string(text));
  return {};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(judge_config)

BOOST_AUTO_TEST_CASE(openai_defaults) {
  auto config = parse(R"({"provider": "openai", "model": "gpt-4o-mini", "api_key_env": "K"})");
  BOOST_TEST(config.name == "strict");
  BOOST_TEST((config.provider == ProviderKind::openai));
  BOOST_TEST(config.base_url.origin() == "https://api.openai.com:443");
  BOOST_TEST(config.base_url.target == "/v1");
  BOOST_TEST(config.api_key.reveal() == "sk-k");
  BOOST_TEST(config.temperature == 0.0);
  BOOST_TEST(!config.seed.has_value());
  BOOST_TEST(!config.max_tokens.has_value());
  BOOST_TEST(config.timeout_ms == 60000);
  BOOST_TEST(config.max_concurrency == 8);
  BOOST_TEST(!config.requests_per_minute.has_value());
  BOOST_TEST(!config.tokens_per_minute.has_value());
  BOOST_TEST(config.max_retries == 4);
}

BOOST_AUTO_TEST_CASE(anthropic_defaults_and_every_key) {
  auto config = parse(R"({"provider": "anthropic", "model": "claude", "api_key_env": "K"})");
  BOOST_TEST(config.base_url.origin() == "https://api.anthropic.com:443");
  BOOST_TEST(config.max_tokens == 1024);

  config = parse(R"({"name": "local", "provider": "openai", "model": "llama", "base_url": "http://127.0.0.1:11434/v1",
                     "temperature": 0.5, "seed": 42, "max_tokens": 300, "timeout_ms": 1500, "max_concurrency": 64,
                     "requests_per_minute": 600, "tokens_per_minute": 90000, "max_retries": 0})",
                 test::fake_environment("NONE", ""));
  BOOST_TEST(config.name == "local");
  BOOST_TEST(config.base_url.port == 11434);
  BOOST_TEST(config.api_key.empty());  // no api_key_env: a local server
  BOOST_TEST(config.temperature == 0.5);
  BOOST_TEST(config.seed == 42);
  BOOST_TEST(config.max_tokens == 300);
  BOOST_TEST(config.timeout_ms == 1500);
  BOOST_TEST(config.max_concurrency == 64);
  BOOST_TEST(config.requests_per_minute == 600);
  BOOST_TEST(config.tokens_per_minute == 90000);
  BOOST_TEST(config.max_retries == 0);
}

BOOST_AUTO_TEST_CASE(errors_name_the_key) {
  BOOST_TEST(refusal(R"({"provider": "openai", "model": "m", "temprature": 0})") == "judges.strict.temprature: unknown key");
  BOOST_TEST(refusal(R"({"model": "m"})").find("judges.strict.provider: is required") == 0u);
  BOOST_TEST(refusal(R"({"provider": "gemini", "model": "m"})").find("judges.strict.provider: expected openai, openai_responses or anthropic") == 0u);
  BOOST_TEST(refusal(R"({"provider": "openai"})") == "judges.strict.model: is required");
  BOOST_TEST(refusal(R"({"provider": "openai", "model": "m", "temperature": 3})").find("judges.strict.temperature: must be between") == 0u);
  BOOST_TEST(refusal(R"({"provider": "openai", "model": "m", "temperature": "hot"})") == "judges.strict.temperature: expected a number");
  BOOST_TEST(refusal(R"({"provider": "openai", "model": "m", "max_tokens": 0})").find("judges.strict.max_tokens: must be between 1") == 0u);
  BOOST_TEST(refusal(R"({"provider": "openai", "model": "m", "seed": 1.5})") == "judges.strict.seed: expected a whole number");
  BOOST_TEST(refusal(R"({"provider": "openai", "model": "m", "max_concurrency": 0})").find("judges.strict.max_concurrency") == 0u);
  BOOST_TEST(refusal(R"({"provider": "openai", "model": "m", "base_url": "ftp://x"})").find("judges.strict.base_url: invalid URL") == 0u);
}

BOOST_AUTO_TEST_CASE(a_missing_key_variable_is_named_and_its_value_never_shown) {
  auto missing = refusal(R"({"provider": "openai", "model": "m", "api_key_env": "OPENAI_API_KEY"})");
  BOOST_TEST(missing.find("judges.strict.api_key_env") == 0u);
  BOOST_TEST(missing.find("OPENAI_API_KEY is not set") != std::string::npos);

  auto empty = refusal(R"({"provider": "openai", "model": "m", "api_key_env": "K"})", test::fake_environment("K", ""));
  BOOST_TEST(empty.find("K is empty") != std::string::npos);

  // The key pasted where its variable's name belongs must not be echoed back.
  auto pasted = refusal(R"({"provider": "openai", "model": "m", "api_key_env": "sk-proj-Abc-123"})");
  BOOST_TEST(pasted.find("sk-proj-Abc-123") == std::string::npos);
  BOOST_TEST(pasted.find("NAME of an environment variable") != std::string::npos);

  auto inline_key = refusal(R"({"provider": "openai", "model": "m", "api_key": "sk-live-999"})");
  BOOST_TEST(inline_key.find("sk-live-999") == std::string::npos);
  BOOST_TEST(inline_key.find("api_key_env") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(the_process_environment_is_read_by_default) {
  ::setenv("KRINO_JUDGE_CONFIG_TEST_KEY", "sk-from-env", 1);
  auto config = parse_judge_config(
      json::parse(R"({"provider": "anthropic", "model": "m", "api_key_env": "KRINO_JUDGE_CONFIG_TEST_KEY"})").as_object(), "a");
  BOOST_TEST(config.api_key.reveal() == "sk-from-env");
  ::unsetenv("KRINO_JUDGE_CONFIG_TEST_KEY");
}

BOOST_AUTO_TEST_CASE(redaction_removes_every_occurrence) {
  ApiKey key("sk-abc");
  BOOST_TEST(key.redact("Bearer sk-abc and sk-abcsk-abc.") == "Bearer [redacted] and [redacted][redacted].");
  BOOST_TEST(ApiKey().redact("nothing sk-abc") == "nothing sk-abc");
}

// R14: a key read from a file with its line break, or pasted with one, would end the Authorization
// header and start another; refused by name, its value never shown.
BOOST_AUTO_TEST_CASE(a_key_with_a_control_character_is_refused_by_its_variable) {
  for (const char* value : {"sk-abc\r\nX-Injected: 1", "sk-abc\n", "sk-\tabc", "sk-abc\x7F"}) {
    auto refused = refusal(R"({"provider": "openai", "model": "m", "api_key_env": "K"})", test::fake_environment("K", value));
    BOOST_TEST(refused.find("judges.strict.api_key_env") == 0u, refused);
    BOOST_TEST(refused.find("K holds a control character") != std::string::npos, refused);
    BOOST_TEST(refused.find("sk-") == std::string::npos, refused);
  }
}

// R9: values of credentials that are not this key (a proxy's own token, another header) are
// redacted too, wherever a body echoes them.
BOOST_AUTO_TEST_CASE(bearer_and_x_api_key_values_are_redacted) {
  ApiKey key("sk-abc");
  BOOST_TEST(key.redact("authorization: Bearer other-Token_1.2 end") == "authorization: Bearer [redacted] end");
  BOOST_TEST(key.redact(R"({"x-api-key":"proxy-key-9","x":1})") == R"({"x-api-key":"[redacted]","x":1})");
  BOOST_TEST(key.redact("X-Api-Key: proxy-key-9") == "X-Api-Key: [redacted]");
  BOOST_TEST(ApiKey().redact("bearer tok") == "bearer [redacted]");
}

BOOST_AUTO_TEST_SUITE_END()
