// The langchain4j extractor on input it must refuse or work around.
#include "trace_extractor_calls.hpp"

using namespace krino::test;

namespace {

const LoadedModule& langchain4j_extractor_module() { return shared_module("langchain4j"); }

}  // namespace

BOOST_AUTO_TEST_SUITE(langchain4j_extractor)

BOOST_AUTO_TEST_CASE(chat_memory_documents_and_unknown_types) {
  const std::string raw = R"({"messages": [{"type": "USER", "text": "hi"}, {"type": "AUDIO"}, {"type": "AI", "text": "hello",
    "toolExecutionRequests": [{"name": "f", "arguments": "not json"}, {"arguments": "{}"}]}]})";
  // One unknown type makes the list less certain to be LangChain4j's, but a named extraction reads it.
  BOOST_TEST(detect(langchain4j_extractor_module(), "langchain4j", raw) == 0);
  const ExtractOutcome out = extract(langchain4j_extractor_module(), "langchain4j", raw);
  BOOST_TEST_REQUIRE(out.status == KRINO_OK, out.error);
  const boost::json::object trace = out.json().as_object();
  BOOST_TEST(trace.at("output") == "hello");
  BOOST_TEST(trace.at("toolCalls").at(0).at("metadata").at("rawArguments") == "not json");
  BOOST_TEST(trace.at("notes") == boost::json::parse(R"(["message 1 has the unknown type 'AUDIO' and was skipped",
    "message 2: a tool execution request without a name was skipped"])"));
}

BOOST_AUTO_TEST_CASE(malformed_input_is_refused_with_a_reason) {
  const ExtractOutcome not_message = extract(langchain4j_extractor_module(), "langchain4j", R"([{"type": "USER", "text": "a"}, "b"])");
  BOOST_TEST(not_message.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(not_message.error == "message 1 is a string, not a message object");
  const ExtractOutcome wrong = extract(langchain4j_extractor_module(), "langchain4j", R"({"type": "human", "content": "x"})");
  BOOST_TEST(wrong.error.find("not a LangChain4j trace") == 0u, wrong.error);
  const ExtractOutcome executions = extract(langchain4j_extractor_module(), "langchain4j", R"({"toolExecutions": [7]})");
  BOOST_TEST(executions.error == "toolExecutions[0] is a number, not an object");
}

BOOST_AUTO_TEST_CASE(detection_knows_each_shape) {
  BOOST_TEST(detect(langchain4j_extractor_module(), "langchain4j", R"([{"type": "SYSTEM", "text": "s"}, {"type": "USER", "text": "u"}])") == 90);
  BOOST_TEST(detect(langchain4j_extractor_module(), "langchain4j", R"({"type": "AI", "text": "a"})") == 85);
  BOOST_TEST(detect(langchain4j_extractor_module(), "langchain4j", R"({"content": "a", "toolExecutions": []})") == 80);
  BOOST_TEST(detect(langchain4j_extractor_module(), "langchain4j", R"([{"type": "ai", "content": "lower-case is LangChain's"}])") == 0);
}

BOOST_AUTO_TEST_SUITE_END()
