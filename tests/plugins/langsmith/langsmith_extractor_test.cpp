// The langsmith extractor on run documents and LangChain message forms beyond the fixtures.
#include "run_reader.hpp"
#include "trace_extractor_calls.hpp"

using namespace krino::test;

namespace {

const LoadedModule& langsmith_extractor_module() { return shared_module("langsmith"); }

boost::json::object langsmith_trace(const std::string& raw) { return extracted("langsmith", "langsmith", raw); }

}  // namespace

BOOST_AUTO_TEST_SUITE(langsmith_extractor)

BOOST_AUTO_TEST_CASE(iso_times_with_any_offset) {
  using krino::langsmith::iso_time_us;
  BOOST_TEST(*iso_time_us("1970-01-01T00:00:01.5Z") == 1500000);
  BOOST_TEST(*iso_time_us("1970-01-01T02:00:01+02:00") == 1000000);
  BOOST_TEST(*iso_time_us("1970-01-01T00:00:01.000001") == 1000001);
  BOOST_TEST(!iso_time_us("yesterday").has_value());
  BOOST_TEST(!iso_time_us("").has_value());
  BOOST_TEST(*iso_time_us("2024-06-11T10:00:00.123456789Z") == 1718100000123456);
  BOOST_TEST(*iso_time_us("2024-02-29T00:00:00-01:30") == 1709170200000000);
  BOOST_TEST(!iso_time_us("2023-02-29T00:00:00Z").has_value());   // no such day
  BOOST_TEST(!iso_time_us("2024-06-11T24:00:00Z").has_value());
  BOOST_TEST(!iso_time_us("2024-06-11T10:00:00.Z").has_value());
  BOOST_TEST(!iso_time_us("2024-06-11T10:00:00Zjunk").has_value());
  // Found by fuzzing: a long run of digits where the seconds end made Boost's parser overflow.
  BOOST_TEST(!iso_time_us("2024-06-11T10:00:0000000000000000000000000000000000000000/0000000000").has_value());
}

BOOST_AUTO_TEST_CASE(a_patch_completes_the_run_it_names) {
  const boost::json::object trace = langsmith_trace(R"({
    "post": [{"id": "r1", "name": "answer", "run_type": "chain", "start_time": "2024-01-01T00:00:00Z",
              "inputs": {"question": "q?"}, "outputs": {}}],
    "patch": [{"id": "r1", "end_time": "2024-01-01T00:00:02Z", "outputs": {"answer": "a!"}, "error": null}]})");
  BOOST_TEST(trace.at("turns") == boost::json::parse(R"([{"role": "user", "content": "q?"}, {"role": "assistant", "content": "a!"}])"));
  BOOST_TEST(trace.at("metrics").at("latencyMs") == 2000.0);
}

BOOST_AUTO_TEST_CASE(langchain_message_dicts_raw_tool_calls_and_invalid_calls) {
  const boost::json::object trace = langsmith_trace(R"json([{"id": "l1", "name": "ChatModel", "run_type": "llm",
    "inputs": {"messages": [[{"type": "human", "data": {"content": "sum 1 and 2"}}],
                            [{"type": "human", "data": {"content": "another prompt"}}]]},
    "outputs": {"generations": [[{"text": "", "message": {"type": "ai", "data": {"content": "",
      "additional_kwargs": {"tool_calls": [{"id": "c1", "type": "function", "function": {"name": "add", "arguments": "{\"a\": 1, \"b\": 2}"}}]},
      "invalid_tool_calls": [{"id": "c2", "name": "mul", "args": "{a: 1", "error": "bad JSON"}]}}}]]}},
    {"id": "t1", "parent_run_id": "l1", "name": "add", "run_type": "tool", "inputs": {"input": "{\"a\": 1, \"b\": 2}"},
     "outputs": {"output": 3}, "error": null},
    {"id": "t2", "name": "mul", "run_type": "tool", "inputs": {"input": "1 times"}, "outputs": null, "error": "ValueError('no')"},
    {"id": "t3", "name": "lookup", "run_type": "tool", "inputs": {"input": "plain words"}, "outputs": {"output": "x"}}])json");
  const boost::json::array& calls = trace.at("toolCalls").as_array();
  BOOST_TEST_REQUIRE(calls.size() == 3u);
  BOOST_TEST(calls[0].at("name") == "add");
  BOOST_TEST(calls[0].at("arguments") == boost::json::parse(R"({"a": 1, "b": 2})"));
  BOOST_TEST(calls[0].at("result") == "3");  // from the tool run, paired by name
  BOOST_TEST(calls[1].at("name") == "mul");
  BOOST_TEST(calls[1].at("metadata").at("argumentsError") == "bad JSON");
  BOOST_TEST(calls[1].at("result") == "ValueError('no')");
  BOOST_TEST(calls[1].at("metadata").at("isError") == true);
  // A tool run no message mentions is a call of its own; plain-text input is its one argument.
  BOOST_TEST(calls[2].at("arguments") == boost::json::parse(R"({"input": "plain words"})"));
  BOOST_TEST(trace.at("notes").at(0) == "the LLM run holds a batch of 2 prompts; only the first is part of the trace");
}

BOOST_AUTO_TEST_CASE(documents_without_runs_are_refused) {
  for (const std::string raw : {"{}", "[]", R"({"post": []})", R"([{"run_type": "llm"}])", R"({"runs": "x"})"}) {
    BOOST_TEST(detect(langsmith_extractor_module(), "langsmith", raw) == 0, raw);
    const ExtractOutcome out = extract(langsmith_extractor_module(), "langsmith", raw);
    BOOST_TEST(out.status == KRINO_INVALID_ARGUMENT, raw);
    BOOST_TEST(out.error.find("not a LangSmith trace") == 0u, out.error);
  }
  const ExtractOutcome bad_message = extract(langsmith_extractor_module(), "langsmith",
                                             R"({"run_type": "llm", "inputs": {"messages": [5]}, "outputs": {}})");
  BOOST_TEST(bad_message.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(bad_message.error == "message 0 is a number, not a message object");
}

BOOST_AUTO_TEST_SUITE_END()
