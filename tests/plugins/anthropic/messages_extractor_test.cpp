// The anthropic extractor on blocks and usage the fixtures do not show, and on malformed input.
#include "trace_extractor_calls.hpp"

using namespace krino::test;

namespace {

const LoadedModule& messages_extractor_module() { return shared_module("anthropic"); }

boost::json::object anthropic_trace(const std::string& raw) { return extracted("anthropic", "anthropic", raw); }

}  // namespace

BOOST_AUTO_TEST_SUITE(anthropic_extractor)

BOOST_AUTO_TEST_CASE(cache_tokens_are_added_to_input_tokens) {
  // Anthropic's input_tokens leaves out what was read from or written to the cache.
  const boost::json::object trace = anthropic_trace(R"({"type": "message", "role": "assistant", "model": "claude-x",
    "content": [{"type": "text", "text": "hi"}], "stop_reason": "end_turn",
    "usage": {"input_tokens": 100, "cache_read_input_tokens": 900, "cache_creation_input_tokens": 50, "output_tokens": 7}})");
  BOOST_TEST(trace.at("metrics").at("tokensIn") == 1050);
  BOOST_TEST(trace.at("metrics").at("cachedTokensIn") == 900);
  BOOST_TEST(trace.at("metrics").at("cacheCreationTokensIn") == 50);
  BOOST_TEST(trace.at("metrics").at("tokensOut") == 7);
}

BOOST_AUTO_TEST_CASE(error_results_redacted_thinking_and_server_tools) {
  const boost::json::object trace = anthropic_trace(R"([
    {"role": "user", "content": "book it"},
    {"role": "assistant", "content": [
      {"type": "redacted_thinking", "data": "xyz"},
      {"type": "tool_use", "id": "t1", "name": "book", "input": {"id": 7}},
      {"type": "server_tool_use", "id": "s1", "name": "web_search", "input": {"query": "hotels"}},
      {"type": "web_search_tool_result", "tool_use_id": "s1", "content": [{"type": "web_search_result", "url": "u"}]},
      {"type": "tool_use", "input": {}}]},
    {"role": "user", "content": [
      {"type": "tool_result", "tool_use_id": "t1", "is_error": true, "content": [{"type": "text", "text": "sold out"}]},
      {"type": "text", "text": "try another"}]}])");
  const boost::json::array& calls = trace.at("toolCalls").as_array();
  BOOST_TEST_REQUIRE(calls.size() == 2u);
  BOOST_TEST(calls[0].at("result") == "sold out");
  BOOST_TEST(calls[0].at("metadata").at("isError") == true);
  BOOST_TEST(calls[1].at("metadata").at("builtIn") == true);
  BOOST_TEST(calls[1].at("result") == R"([{"type":"web_search_result","url":"u"}])");
  // The user's text after the tool result is a user turn of its own, after the tool turn.
  const boost::json::array& turns = trace.at("turns").as_array();
  BOOST_TEST(turns.at(turns.size() - 2).at("role") == "tool");
  BOOST_TEST(turns.back().at("content") == "try another");
  BOOST_TEST(trace.at("notes").as_array().size() == 2u);  // redacted thinking, nameless tool_use
}

BOOST_AUTO_TEST_CASE(malformed_input_is_refused_with_a_reason) {
  const ExtractOutcome not_message = extract(messages_extractor_module(), "anthropic", R"({"messages": ["hello"]})");
  BOOST_TEST(not_message.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(not_message.error == "message 0 is a string, not a message object");
  const ExtractOutcome other = extract(messages_extractor_module(), "anthropic", R"({"choices": []})");
  BOOST_TEST(other.error.find("not an Anthropic Messages trace") == 0u, other.error);
  BOOST_TEST(extract(messages_extractor_module(), "anthropic", "{").status == KRINO_INVALID_ARGUMENT);
}

BOOST_AUTO_TEST_CASE(detection_leaves_plain_chat_to_openai) {
  BOOST_TEST(detect(messages_extractor_module(), "anthropic", R"([{"role": "user", "content": "hi"}])") == 0);
  BOOST_TEST(detect(messages_extractor_module(), "anthropic", R"({"model": "m", "system": "s", "messages": [{"role": "user", "content": "hi"}]})") == 60);
  BOOST_TEST(detect(messages_extractor_module(), "anthropic", R"([{"role": "assistant", "content": [{"type": "tool_use", "id": "1", "name": "f", "input": {}}]}])") == 80);
}

BOOST_AUTO_TEST_SUITE_END()
