// The trace extractors' shared helpers (plugins/support/trace/): result binding per assistant turn,
// provider usage conventions, recorded exchanges, lenient arguments.
#include <krino/support/trace/recording.hpp>
#include <krino/support/trace/tool_arguments.hpp>
#include <krino/support/trace/trace_builder.hpp>
#include <krino/support/trace/usage.hpp>

#include <boost/test/unit_test.hpp>

using namespace krino::trace;
namespace json = boost::json;

namespace {

krino::agent::ToolCall call(std::string id, std::string name) { return make_tool_call(std::move(id), std::move(name), nullptr); }

Usage usage_of(const char* body) { return read_usage(json::parse(body).as_object()); }

}  // namespace

BOOST_AUTO_TEST_SUITE(sdk_trace_builder)

BOOST_AUTO_TEST_CASE(results_bind_only_within_the_turn_of_the_latest_assistant_message) {
  TraceBuilder builder;
  builder.message("user", std::string("go"));
  builder.assistant(std::nullopt, {call("same", "a")});
  BOOST_TEST(builder.tool_result("same", "", "first"));
  builder.assistant(std::nullopt, {call("same", "b"), call("other", "c")});
  BOOST_TEST(builder.tool_result("same", "", "second"));  // the reused id: this turn's call
  BOOST_TEST(!builder.tool_result("same", "", "third"));  // answered already: not bound again
  builder.assistant(std::string("done"));
  BOOST_TEST(!builder.tool_result("other", "", "late"));  // its turn is over
  const Trace trace = builder.finish();
  BOOST_TEST_REQUIRE(trace.tool_calls.size() == 3u);
  BOOST_TEST(*trace.tool_calls[0].result == "first");
  BOOST_TEST(*trace.tool_calls[1].result == "second");
  BOOST_TEST(!trace.tool_calls[2].result.has_value());
  BOOST_TEST(trace.output == "done");
  BOOST_TEST(trace.turns.size() == 8u);  // unbound results stay tool messages
  BOOST_TEST(trace.notes.size() == 2u);
}

BOOST_AUTO_TEST_CASE(results_without_ids_bind_by_name_then_in_order) {
  TraceBuilder builder;
  builder.assistant(std::nullopt, {call("", "search"), call("", "book"), call("", "book")});
  BOOST_TEST(builder.tool_result("", "book", "booked 1"));
  BOOST_TEST(builder.tool_result("x9", "book", "booked 2"));  // an id no call has: by name
  BOOST_TEST(builder.tool_result("", "", "found"));            // neither: the first unanswered
  const Trace trace = builder.finish();
  BOOST_TEST(*trace.tool_calls[0].result == "found");
  BOOST_TEST(*trace.tool_calls[1].result == "booked 1");
  BOOST_TEST(*trace.tool_calls[2].result == "booked 2");
}

BOOST_AUTO_TEST_CASE(differing_ids_never_bind_by_name) {
  TraceBuilder builder;
  builder.assistant(std::nullopt, {call("a1", "f")});
  BOOST_TEST(!builder.tool_result("b2", "f", "x"));
  builder.assistant(std::nullopt, {call("c", "g")});
  BOOST_TEST(builder.tool_result("c", "g", "oops", true));
  const Trace trace = builder.finish();
  BOOST_TEST(!trace.tool_calls[0].result.has_value());
  BOOST_TEST(trace.tool_calls[1].metadata.at("isError") == true);
  BOOST_TEST(trace.output.is_null());  // the last assistant message has no text
}

BOOST_AUTO_TEST_CASE(usage_and_models_add_up_over_model_calls) {
  TraceBuilder builder;
  ModelCall first;
  first.model = "m-1";
  first.usage.tokens_in = 10;
  ModelCall second;
  second.model = "m-2";
  second.usage.tokens_in = 5;
  second.usage.tokens_out = 7;
  builder.model_call(first);
  builder.model_call(second);
  const Trace trace = builder.finish();
  BOOST_TEST(*trace.usage.tokens_in == 15);
  BOOST_TEST(*trace.usage.tokens_out == 7);  // known on one side is known in the sum
  BOOST_TEST(!trace.usage.cached_tokens_in.has_value());
  BOOST_TEST(trace.model == "m-2");
  const json::object written = trace.to_json();
  BOOST_TEST(written.at("metrics") == json::parse(R"({"tokensIn": 15, "tokensOut": 7, "costUsd": null, "latencyMs": null})"));
  BOOST_TEST(written.at("modelCalls").as_array().size() == 2u);
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(sdk_trace_usage)

BOOST_AUTO_TEST_CASE(every_provider_converts_to_the_same_conventions) {
  // OpenAI Chat: cached inside prompt_tokens, reasoning inside completion_tokens.
  const Usage chat = usage_of(R"({"usage": {"prompt_tokens": 100, "completion_tokens": 50, "total_tokens": 150,
    "prompt_tokens_details": {"cached_tokens": 60}, "completion_tokens_details": {"reasoning_tokens": 20}}})");
  BOOST_TEST(*chat.tokens_in == 100);
  BOOST_TEST(*chat.cached_tokens_in == 60);
  BOOST_TEST(*chat.tokens_out == 50);
  BOOST_TEST(*chat.reasoning_tokens_out == 20);
  // A total above prompt + completion: the hidden thinking is output too.
  const Usage hidden = usage_of(R"({"usage": {"prompt_tokens": 35, "completion_tokens": 12, "total_tokens": 109}})");
  BOOST_TEST(*hidden.tokens_out == 74);
  BOOST_TEST(*hidden.reasoning_tokens_out == 62);
  // Anthropic: input_tokens excludes both cache counts.
  const Usage anthropic = usage_of(R"({"usage": {"input_tokens": 10, "cache_read_input_tokens": 80, "cache_creation_input_tokens": 5, "output_tokens": 3}})");
  BOOST_TEST(*anthropic.tokens_in == 95);
  BOOST_TEST(*anthropic.cached_tokens_in == 80);
  BOOST_TEST(*anthropic.cache_creation_tokens_in == 5);
  // Responses: cached and reasoning inside.
  const Usage responses = usage_of(R"({"usage": {"input_tokens": 40, "output_tokens": 18,
    "input_tokens_details": {"cached_tokens": 8}, "output_tokens_details": {"reasoning_tokens": 4}}})");
  BOOST_TEST(*responses.tokens_in == 40);
  BOOST_TEST(*responses.cached_tokens_in == 8);
  BOOST_TEST(*responses.reasoning_tokens_out == 4);
  // Gemini counts thinking apart from candidates.
  const Usage gemini = usage_of(R"({"usageMetadata": {"promptTokenCount": 23, "candidatesTokenCount": 5, "thoughtsTokenCount": 30}})");
  BOOST_TEST(*gemini.tokens_out == 35);
  BOOST_TEST(*gemini.reasoning_tokens_out == 30);
  // LangChain / LangSmith usage_metadata wins over the raw usage beside it.
  const Usage langchain = usage_of(R"({"usage": {"prompt_tokens": 1}, "usage_metadata": {"input_tokens": 9, "output_tokens": 9,
    "input_token_details": {"cache_read": 2}, "output_token_details": {"reasoning": 1}}})");
  BOOST_TEST(*langchain.tokens_in == 9);
  BOOST_TEST(*langchain.cached_tokens_in == 2);
  BOOST_TEST(usage_of(R"({"model": "x"})").empty());
  // Counts written as strings (OTLP) or whole doubles are read; negative or fractional ones are not.
  const json::object counts = json::parse(R"({"a": "57", "b": 3.0, "c": -1, "d": 2.5, "e": "x"})").as_object();
  BOOST_TEST(*count_member(counts, "a") == 57);
  BOOST_TEST(*count_member(counts, "b") == 3);
  BOOST_TEST(!count_member(counts, "c").has_value());
  BOOST_TEST(!count_member(counts, "d").has_value());
  BOOST_TEST(!count_member(counts, "e").has_value());
}

BOOST_AUTO_TEST_SUITE_END()

BOOST_AUTO_TEST_SUITE(sdk_trace_recording_and_arguments)

BOOST_AUTO_TEST_CASE(recordings_in_every_shape) {
  const json::value vcr = json::parse(R"({"interactions": [
    {"request": {"body": {"model": "a"}}, "response": {"body": {"string": "{\"id\": 1}"}}},
    {"request": {"body": "{\"model\": \"b\"}"}, "response": {"body": "not json"}}]})");
  const std::optional<Recording> recording = Recording::read(vcr);
  BOOST_TEST_REQUIRE(recording.has_value());
  BOOST_TEST_REQUIRE(recording->exchanges().size() == 2u);
  BOOST_TEST(recording->exchanges()[0].response->at("id") == 1);
  BOOST_TEST(recording->exchanges()[1].request->at("model") == "b");
  BOOST_TEST(recording->exchanges()[1].response == nullptr);  // a body that is not JSON
  const json::value pair = json::parse(R"({"request": {"messages": []}, "response": {"choices": []}})");
  BOOST_TEST(Recording::read(pair)->exchanges().size() == 1u);
  BOOST_TEST(Recording::read(json::parse(R"([{"request": {}, "response": {}}, {"request": {}, "response": {}}])"))->exchanges().size() == 2u);
  BOOST_TEST(!Recording::read(json::parse(R"([{"request": {}}])")).has_value());
  BOOST_TEST(!Recording::read(json::parse(R"({"interactions": 3})")).has_value());
  BOOST_TEST(!Recording::read(json::parse("[]")).has_value());
}

BOOST_AUTO_TEST_CASE(arguments_are_read_leniently) {
  const auto read = [](const char* value) {
    const json::value v = json::parse(value);
    return make_tool_call("id", "f", &v);
  };
  BOOST_TEST(read(R"({"a": 1})").arguments == json::parse(R"({"a": 1})").as_object());
  BOOST_TEST(read(R"("{\"a\": 1}")").arguments == json::parse(R"({"a": 1})").as_object());
  BOOST_TEST(read(R"("  ")").arguments.empty());
  BOOST_TEST(read(R"("  ")").metadata.empty());
  BOOST_TEST(read("null").metadata.empty());
  BOOST_TEST(read(R"("{oops")").metadata.at("rawArguments") == "{oops");
  BOOST_TEST(read(R"("7")").metadata.at("argumentsError") == "the arguments string holds a JSON scalar, not an object");
  BOOST_TEST(read("[1]").metadata.at("argumentsError") == "the arguments are a JSON array, not an object");
  BOOST_TEST(read("[1]").metadata.at("rawArguments") == json::parse("[1]"));
}

BOOST_AUTO_TEST_CASE(content_text_reads_strings_blocks_and_anything_else) {
  const auto text = [](const char* value) {
    const json::value v = json::parse(value);
    return content_text(&v);
  };
  BOOST_TEST(*text(R"("hi")") == "hi");
  BOOST_TEST(*text(R"([{"type": "text", "text": "a"}, {"type": "image"}, {"text": "b"}])") == "a\nb");
  BOOST_TEST(*text("[]") == "");
  BOOST_TEST(!text("null").has_value());
  BOOST_TEST(*text(R"({"temp": 14})") == R"({"temp":14})");
  BOOST_TEST(!content_text(nullptr).has_value());
}

BOOST_AUTO_TEST_SUITE_END()
