// The otel extractor on what the golden files do not cover: the semconv files that are not traces,
// malformed attributes, message lists, and documents built to break it.
#include "test_paths.hpp"
#include "trace_extractor_calls.hpp"

#include <filesystem>

using namespace krino::test;

namespace {

const LoadedModule& otel_extractor_module() { return shared_module("otel"); }

boost::json::object otel_trace(const std::string& raw) { return extracted("otel", "otel", raw); }

}  // namespace

BOOST_AUTO_TEST_SUITE(otel_extractor)

BOOST_AUTO_TEST_CASE(the_semconv_schemas_and_registry_are_not_traces) {
  // Shipped beside the examples in the fixtures, they describe traces without being any: nobody
  // claims them, and naming the extractor anyway gives an error that says what it found.
  const std::filesystem::path dir = std::filesystem::path(KRINO_SHARED_DATA_DIR) / "traces" / "otel_genai_semconv";
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("examples", 0) == 0) continue;
    ++files;
    const std::string raw = read_text(entry.path());
    BOOST_TEST(detect(otel_extractor_module(), "otel", raw) == 0, name);
    const ExtractOutcome out = extract(otel_extractor_module(), "otel", raw);
    BOOST_TEST(out.status == KRINO_INVALID_ARGUMENT, name);
    if (entry.path().extension() == ".yaml")
      BOOST_TEST(out.error.find("the trace is not valid JSON") == 0u, out.error);
    else
      BOOST_TEST((out.error.find("not an OpenTelemetry trace") == 0u && out.error.find("a JSON Schema") != std::string::npos),
                 out.error);
  }
  BOOST_TEST(files == 7);
  // The example blocks file as a whole is a collection of documentation snippets, not one trace.
  const std::string blocks = read_text(dir / "examples-llm-calls_json_blocks.json");
  BOOST_TEST(detect(otel_extractor_module(), "otel", blocks) == 0);
  BOOST_TEST(extract(otel_extractor_module(), "otel", blocks).status == KRINO_INVALID_ARGUMENT);
}

BOOST_AUTO_TEST_CASE(a_bare_genai_message_list_is_a_conversation) {
  const std::string raw = R"([
    {"role": "user", "parts": [{"type": "text", "content": "Weather in Paris?"}]},
    {"role": "assistant", "parts": [{"type": "tool_call", "id": "c1", "name": "get_weather", "arguments": "{\"location\": \"Paris\"}"}]},
    {"role": "tool", "parts": [{"type": "tool_call_response", "id": "c1", "response": {"temp": 14}}]},
    {"role": "assistant", "parts": [{"type": "text", "content": "14 degrees."}]}])";
  BOOST_TEST(detect(otel_extractor_module(), "otel", raw) == 85);
  const boost::json::object trace = otel_trace(raw);
  BOOST_TEST(trace.at("toolCalls").at(0).at("arguments") == boost::json::parse(R"({"location": "Paris"})"));
  BOOST_TEST(trace.at("toolCalls").at(0).at("result") == R"({"temp":14})");
  BOOST_TEST(trace.at("output") == "14 degrees.");
}

BOOST_AUTO_TEST_CASE(messages_that_are_not_json_are_noted_not_fatal) {
  const boost::json::object trace = otel_trace(R"({"gen_ai.operation.name": "chat",
    "gen_ai.input.messages": "[{\"role\": \"user\", ", "gen_ai.output.messages": "{\"not\": \"a list\"}",
    "gen_ai.usage.input_tokens": 3})");
  const boost::json::array& notes = trace.at("notes").as_array();
  BOOST_TEST_REQUIRE(notes.size() == 2u);
  BOOST_TEST(notes[0].as_string().starts_with("the span: gen_ai.input.messages is not valid JSON"));
  BOOST_TEST(notes[1] == "the span: gen_ai.output.messages is not a list of messages and was left out");
  BOOST_TEST(trace.at("metrics").at("tokensIn") == 3);
}

BOOST_AUTO_TEST_CASE(parent_loops_and_missing_times_do_not_hang_or_crash) {
  // Two spans that claim each other as parent, both reporting usage; and spans without times.
  const boost::json::object trace = otel_trace(R"({"resourceSpans": [{"scopeSpans": [{"spans": [
    {"spanId": "1111111111111111", "parentSpanId": "2222222222222222", "name": "a",
     "attributes": [{"key": "gen_ai.usage.input_tokens", "value": {"intValue": "5"}}]},
    {"spanId": "2222222222222222", "parentSpanId": "1111111111111111", "name": "b",
     "attributes": [{"key": "gen_ai.usage.input_tokens", "value": {"intValue": "7"}}]}]}]}]})");
  BOOST_TEST(trace.at("metrics").at("latencyMs").is_null());
  // Each aggregates the other, so neither counts: no usage is better than double counting.
  BOOST_TEST(trace.at("modelCalls").as_array().empty());
}

BOOST_AUTO_TEST_CASE(execute_tool_spans_without_a_tool_name_are_noted) {
  const boost::json::object trace = otel_trace(R"([{"spanId": "AAAAAAAAAAAAAAAA", "name": "execute_tool",
    "attributes": [{"key": "gen_ai.operation.name", "value": {"stringValue": "execute_tool"}}]}])");
  BOOST_TEST(trace.at("toolCalls").as_array().empty());
  BOOST_TEST(trace.at("notes").at(0).as_string().find("without gen_ai.tool.name") != std::string::npos);
}

BOOST_AUTO_TEST_SUITE_END()
