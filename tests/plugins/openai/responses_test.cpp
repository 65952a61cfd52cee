// openai_responses on item kinds beyond the fixtures and on input it must refuse.
#include "trace_extractor_calls.hpp"

#include <boost/test/unit_test.hpp>

using namespace krino::test;

namespace {

const LoadedModule& responses_module() { return shared_module("openai"); }

boost::json::object responses_trace(const std::string& raw) { return extracted("openai", "openai_responses", raw); }

}  // namespace

BOOST_AUTO_TEST_SUITE(openai_responses_extractor)

BOOST_AUTO_TEST_CASE(built_in_mcp_and_custom_tool_items) {
  const boost::json::object trace = responses_trace(R"({"object": "response", "model": "gpt-5", "output": [
    {"type": "reasoning", "summary": [{"type": "summary_text", "text": "look it up"}]},
    {"type": "web_search_call", "id": "ws_1", "status": "completed", "action": {"type": "search", "query": "krino"}},
    {"type": "mcp_call", "id": "mcp_1", "name": "read_file", "arguments": "{\"path\": \"a.txt\"}", "server_label": "fs", "output": "contents", "error": null},
    {"type": "custom_tool_call", "call_id": "c_1", "name": "shell", "input": "ls -l"},
    {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Found it."}]}],
    "usage": {"input_tokens": 10, "output_tokens": 20, "output_tokens_details": {"reasoning_tokens": 5}}})");
  const boost::json::array& calls = trace.at("toolCalls").as_array();
  BOOST_TEST_REQUIRE(calls.size() == 3u);
  BOOST_TEST(calls[0].at("name") == "web_search");
  BOOST_TEST(calls[0].at("arguments").at("action").at("query") == "krino");
  BOOST_TEST(calls[0].at("metadata").at("builtIn") == true);
  BOOST_TEST(calls[1].at("name") == "read_file");
  BOOST_TEST(calls[1].at("result") == "contents");
  BOOST_TEST(calls[1].at("metadata").at("mcpServer") == "fs");
  BOOST_TEST(calls[2].at("arguments").at("input") == "ls -l");
  BOOST_TEST(trace.at("reasoningSteps") == boost::json::parse(R"(["look it up"])"));
  BOOST_TEST(trace.at("output") == "Found it.");
  BOOST_TEST(trace.at("metrics").at("reasoningTokensOut") == 5);
}

BOOST_AUTO_TEST_CASE(unknown_items_are_noted_and_malformed_ones_refused) {
  const boost::json::object trace = responses_trace(R"([
    {"role": "user", "content": "hi"},
    {"type": "function_call", "call_id": "1", "name": "f", "arguments": "{"},
    {"type": "shiny_new_item"}])");
  BOOST_TEST(trace.at("toolCalls").at(0).at("metadata").at("rawArguments") == "{");
  BOOST_TEST(trace.at("notes").at(0) == "input item 2 of type 'shiny_new_item' is not part of the trace");
  const ExtractOutcome bad = extract(responses_module(), "openai_responses", R"({"object": "response", "output": [3]})");
  BOOST_TEST(bad.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(bad.error == "output item 0 is a number, not an item");
  // A dataset row that happens to have "input" is not a Responses request.
  BOOST_TEST(detect(responses_module(), "openai_responses", R"({"input": "What is 2+2?"})") == 0);
  const ExtractOutcome row = extract(responses_module(), "openai_responses", R"({"input": "What is 2+2?"})");
  BOOST_TEST(row.error.find("not an OpenAI Responses trace") == 0u, row.error);
}

BOOST_AUTO_TEST_CASE(an_incomplete_response_is_noted) {
  const boost::json::object trace = responses_trace(R"({"object": "response", "status": "incomplete",
    "incomplete_details": {"reason": "max_output_tokens"}, "output": [
    {"type": "message", "role": "assistant", "content": [{"type": "output_text", "text": "Partial"}]}]})");
  BOOST_TEST(trace.at("output") == "Partial");
  BOOST_TEST(trace.at("notes").at(0) == "the response's status is 'incomplete' (max_output_tokens)");
}

BOOST_AUTO_TEST_SUITE_END()
