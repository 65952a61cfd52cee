// openai_chat on the shapes users have and on input it must refuse or work around: never a crash,
// and every problem either an INVALID_ARGUMENT that says what was expected or a note in the trace.
#include "trace_extractor_calls.hpp"

#include <boost/test/unit_test.hpp>

using namespace krino::test;

namespace {

const LoadedModule& chat_completions_module() { return shared_module("openai"); }

ExtractOutcome chat(const std::string& raw) { return extract(chat_completions_module(), "openai_chat", raw); }

boost::json::object chat_trace(const std::string& raw) { return extracted("openai", "openai_chat", raw); }

}  // namespace

BOOST_AUTO_TEST_SUITE(openai_chat_extractor)

BOOST_AUTO_TEST_CASE(text_that_is_not_json_is_refused_and_never_detected) {
  for (const std::string raw : {"", "not json", "{\"messages\": [", "[1, 2", "{\"a\":1} trailing"}) {
    BOOST_TEST(detect(chat_completions_module(), "openai_chat", raw) == 0);
    const ExtractOutcome out = chat(raw);
    BOOST_TEST(out.status == KRINO_INVALID_ARGUMENT);
    BOOST_TEST(out.error.find("the trace is not valid JSON") == 0u, out.error);
  }
}

BOOST_AUTO_TEST_CASE(shapes_of_other_kinds_are_refused_with_what_was_expected) {
  for (const std::string raw : {"42", "\"text\"", "null", "{}", R"({"resourceSpans": []})", R"({"choices": 5})"}) {
    BOOST_TEST(detect(chat_completions_module(), "openai_chat", raw) == 0, raw);
    const ExtractOutcome out = chat(raw);
    BOOST_TEST(out.status == KRINO_INVALID_ARGUMENT, raw);
    BOOST_TEST(out.error.find("not an OpenAI Chat Completions trace") == 0u, out.error);
  }
  const ExtractOutcome out = chat(R"({"$schema": "x", "$defs": {}, "type": "object"})");
  BOOST_TEST(out.error.find("found a JSON Schema") != std::string::npos, out.error);
  // A list is read as messages, so a list of something else fails on its first element.
  BOOST_TEST(chat("[1, 2, 3]").error == "message 0 is a number, not a message object");
  // An empty list is an empty conversation: nothing was said, which is a trace, not an error.
  BOOST_TEST(detect(chat_completions_module(), "openai_chat", "[]") == 0);
  BOOST_TEST(chat("[]").status == KRINO_OK);
}

BOOST_AUTO_TEST_CASE(a_message_that_is_not_an_object_is_an_error_naming_it) {
  const ExtractOutcome out = chat(R"({"messages": [{"role": "user", "content": "hi"}, 7]})");
  BOOST_TEST(out.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(out.error == "message 1 is a number, not a message object");
}

BOOST_AUTO_TEST_CASE(arguments_that_are_not_a_json_object_are_kept_in_the_call_metadata) {
  const boost::json::object trace = chat_trace(R"([
    {"role": "user", "content": "go"},
    {"role": "assistant", "content": null, "tool_calls": [
      {"id": "a", "type": "function", "function": {"name": "broken", "arguments": "{\"city\": Paris}"}},
      {"id": "b", "type": "function", "function": {"name": "listy", "arguments": "[1, 2]"}},
      {"id": "c", "type": "function", "function": {"name": "empty", "arguments": ""}},
      {"id": "d", "type": "function", "function": {"name": "objecty", "arguments": {"q": 1}}},
      {"id": "e", "type": "function", "function": {"arguments": "{}"}}]},
    {"role": "tool", "tool_call_id": "a", "content": "ok"}])");
  const boost::json::array& calls = trace.at("toolCalls").as_array();
  BOOST_TEST_REQUIRE(calls.size() == 4u);
  BOOST_TEST(calls[0].at("arguments").as_object().empty());
  BOOST_TEST(calls[0].at("metadata").at("rawArguments") == "{\"city\": Paris}");
  BOOST_TEST(calls[0].at("metadata").at("argumentsError").as_string().starts_with("the arguments string is not valid JSON"));
  BOOST_TEST(calls[0].at("result") == "ok");
  BOOST_TEST(calls[1].at("metadata").at("argumentsError") == "the arguments string holds a JSON array, not an object");
  BOOST_TEST(calls[2].at("arguments").as_object().empty());
  BOOST_TEST(!calls[2].as_object().contains("metadata"));
  BOOST_TEST(calls[3].at("arguments") == boost::json::parse(R"({"q": 1})"));
  // The nameless call is left out, and said so.
  BOOST_TEST(trace.at("notes") == boost::json::parse(R"(["message 1 tool call 4: a tool call without a name was skipped"])"));
}

BOOST_AUTO_TEST_CASE(a_reused_call_id_binds_each_result_to_the_call_of_its_own_turn) {
  // Two turns both use call_1, as 49 tau-bench trajectories do. The second tool message must answer
  // the second call, never the first one again.
  const boost::json::object trace = chat_trace(R"([
    {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": "{\"n\": 1}"}}]},
    {"role": "tool", "tool_call_id": "call_1", "content": "first"},
    {"role": "assistant", "content": null, "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "lookup", "arguments": "{\"n\": 2}"}}]},
    {"role": "tool", "tool_call_id": "call_1", "content": "second"},
    {"role": "assistant", "content": "done"}])");
  const boost::json::array& calls = trace.at("toolCalls").as_array();
  BOOST_TEST_REQUIRE(calls.size() == 2u);
  BOOST_TEST(calls[0].at("result") == "first");
  BOOST_TEST(calls[1].at("result") == "second");
  BOOST_TEST(trace.at("output") == "done");
}

BOOST_AUTO_TEST_CASE(a_result_for_a_call_of_an_earlier_turn_is_not_bound_and_is_noted) {
  const boost::json::object trace = chat_trace(R"([
    {"role": "assistant", "content": null, "tool_calls": [{"id": "x", "type": "function", "function": {"name": "slow", "arguments": "{}"}}]},
    {"role": "assistant", "content": "while we wait"},
    {"role": "tool", "tool_call_id": "x", "content": "late"}])");
  BOOST_TEST(!trace.at("toolCalls").at(0).as_object().contains("result"));
  BOOST_TEST(trace.at("turns").as_array().size() == 3u);  // the late result stays a tool message
  BOOST_TEST(trace.at("notes").as_array().size() == 1u);
}

BOOST_AUTO_TEST_CASE(legacy_function_calls_refusals_and_reasoning_content) {
  const boost::json::object trace = chat_trace(R"({"messages": [
    {"role": "developer", "content": [{"type": "text", "text": "be brief"}]},
    {"role": "assistant", "content": null, "function_call": {"name": "f", "arguments": "{\"a\": 1}"}},
    {"role": "function", "name": "f", "content": "42"},
    {"role": "assistant", "content": null, "refusal": "I cannot help with that.", "reasoning_content": "policy"}]})");
  BOOST_TEST(trace.at("turns").at(0).at("role") == "system");
  BOOST_TEST(trace.at("turns").at(0).at("content") == "be brief");
  BOOST_TEST(trace.at("toolCalls").at(0).at("result") == "42");
  BOOST_TEST(trace.at("output") == "I cannot help with that.");
  BOOST_TEST(trace.at("reasoningSteps") == boost::json::parse(R"(["policy"])"));
}

BOOST_AUTO_TEST_CASE(vcr_bodies_written_as_text_are_read) {
  // VCR.py stores bodies as {"string": "<JSON text>"}; other recorders as a JSON string.
  const boost::json::object trace = chat_trace(R"({"interactions": [{
    "request": {"body": {"string": "{\"model\": \"gpt-4o\", \"messages\": [{\"role\": \"user\", \"content\": \"hi\"}]}"}},
    "response": {"body": "{\"object\": \"chat.completion\", \"model\": \"gpt-4o-2024-08-06\", \"choices\": [{\"index\": 0, \"message\": {\"role\": \"assistant\", \"content\": \"hello\"}}], \"usage\": {\"prompt_tokens\": 5, \"completion_tokens\": 1}}"}}]})");
  BOOST_TEST(trace.at("output") == "hello");
  BOOST_TEST(trace.at("metrics").at("tokensIn") == 5);
  BOOST_TEST(trace.at("modelCalls").at(0).at("requestModel") == "gpt-4o");
}

BOOST_AUTO_TEST_CASE(detection_prefers_the_strongest_evidence) {
  BOOST_TEST(detect(chat_completions_module(), "openai_chat", R"({"object": "chat.completion", "choices": []})") == 95);
  BOOST_TEST(detect(chat_completions_module(), "openai_chat", R"([{"role": "user", "content": "hi"}])") == 50);
  BOOST_TEST(detect(chat_completions_module(), "openai_chat", R"([{"role": "tool", "tool_call_id": "1", "content": "x"}])") == 80);
  BOOST_TEST(detect(chat_completions_module(), "openai_chat", R"({"model": "m", "messages": [{"role": "user", "content": "hi"}]})") == 40);
  // Anthropic blocks, GenAI parts and LangChain4j types are other formats.
  BOOST_TEST(detect(chat_completions_module(), "openai_chat", R"([{"role": "user", "content": [{"type": "tool_result", "tool_use_id": "t"}]}])") == 0);
  BOOST_TEST(detect(chat_completions_module(), "openai_chat", R"([{"role": "user", "parts": []}])") == 0);
  BOOST_TEST(detect(chat_completions_module(), "openai_chat", R"([{"type": "AI", "text": "x"}])") == 0);
}

BOOST_AUTO_TEST_SUITE_END()
