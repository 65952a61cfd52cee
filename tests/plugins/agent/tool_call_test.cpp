#include "agent_test_support.hpp"

#include <krino/agent/tool_call.hpp>
#include <krino/agent/tool_definition.hpp>

using namespace krino::agent;
using namespace krino::agent::testing;

BOOST_AUTO_TEST_SUITE(agent_tool_call)

BOOST_AUTO_TEST_CASE(reads_every_field) {
  const auto calls = read_tool_calls(
      json(R"([{"id":"c1","name":"search","arguments":{"q":"x"},"result":"found","metadata":{"ms":3}}])"), "toolCalls");
  BOOST_TEST_REQUIRE(calls.size() == 1u);
  BOOST_TEST(calls[0].id == "c1");
  BOOST_TEST(calls[0].name == "search");
  BOOST_TEST(calls[0].arguments.at("q").as_string() == "x");
  BOOST_TEST(*calls[0].result == "found");
  BOOST_TEST(calls[0].metadata.at("ms").as_int64() == 3);
}

BOOST_AUTO_TEST_CASE(arguments_given_as_a_json_string_are_parsed) {
  const ToolCall call = read_tool_call(json(R"({"name":"f","arguments":"{\"n\":1.0,\"s\":\"a\"}"})"), "call");
  BOOST_TEST(call.arguments.at("n").as_double() == 1.0);
  BOOST_TEST(call.arguments.at("s").as_string() == "a");
  BOOST_TEST(read_tool_call(json(R"({"name":"f","arguments":""})"), "call").arguments.empty());
  BOOST_TEST(read_tool_call(json(R"({"name":"f","arguments":null})"), "call").arguments.empty());
  BOOST_TEST(read_tool_call(json(R"({"name":"f"})"), "call").arguments.empty());
}

BOOST_AUTO_TEST_CASE(openai_function_form_is_read) {
  const ToolCall call = read_tool_call(
      json(R"({"id":"call_9","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}})"),
      "call");
  BOOST_TEST(call.id == "call_9");
  BOOST_TEST(call.name == "get_weather");
  BOOST_TEST(call.arguments.at("city").as_string() == "Paris");
}

BOOST_AUTO_TEST_CASE(non_string_results_become_compact_json) {
  BOOST_TEST(*read_tool_call(json(R"({"name":"f","result":null})"), "c").result == "null");
  BOOST_TEST(*read_tool_call(json(R"({"name":"f","result":{"a": [1, 2.5]}})"), "c").result == R"({"a":[1,2.5]})");
  BOOST_TEST(*read_tool_call(json(R"({"name":"f","result":"  raw "})"), "c").result == "  raw ");
  BOOST_TEST(!read_tool_call(json(R"({"name":"f"})"), "c").result.has_value());
}

BOOST_AUTO_TEST_CASE(malformed_elements_name_the_key_and_index) {
  BOOST_CHECK_EXCEPTION(read_tool_calls(json(R"([{"name":"a"}, 5])"), "toolCalls"), krino::Error,
                        invalid("'toolCalls'[1]"));
  BOOST_CHECK_EXCEPTION(read_tool_calls(json(R"([{"name":"a"}, {"arguments":{}}])"), "toolCalls"), krino::Error,
                        invalid("'toolCalls'[1]: a tool call needs a non-empty 'name'"));
  BOOST_CHECK_EXCEPTION(read_tool_calls(json(R"([{"name":"a","arguments":"{oops"}])"), "expected"), krino::Error,
                        invalid("'expected'[0]: 'arguments' is a string that is not valid JSON"));
  BOOST_CHECK_EXCEPTION(read_tool_calls(json(R"([{"name":"a","arguments":"[1]"}])"), "toolCalls"), krino::Error,
                        invalid("does not hold an object"));
  BOOST_CHECK_EXCEPTION(read_tool_calls(json(R"([{"name":"a","arguments":[1]}])"), "toolCalls"), krino::Error,
                        invalid("'toolCalls'[0]: 'arguments' must be an object"));
  BOOST_CHECK_EXCEPTION(read_tool_calls(json(R"({"name":"a"})"), "toolCalls"), krino::Error,
                        invalid("'toolCalls' must be a list"));
}

BOOST_AUTO_TEST_CASE(tool_definitions_expose_parameters) {
  const auto tools = read_tool_definitions(json(R"([
      {"name":"search","description":"Find","parameters":{"type":"object",
        "properties":{"q":{"type":"string"},"limit":{"type":"integer"}},"required":["q"]}},
      {"type":"function","function":{"name":"ping"}},
      {"name":"fetch","input_schema":{"properties":{"url":{}}}}])"),
                                           "tools");
  BOOST_TEST_REQUIRE(tools.size() == 3u);
  BOOST_TEST(tools[0].description == "Find");
  BOOST_TEST(tools[0].parameter_names() == (std::vector<std::string>{"q", "limit"}), boost::test_tools::per_element());
  BOOST_TEST(tools[0].required_parameters() == std::vector<std::string>{"q"}, boost::test_tools::per_element());
  BOOST_TEST(tools[0].parameter_schema("limit")->at("type").as_string() == "integer");
  BOOST_TEST(tools[0].parameter_schema("nope") == nullptr);
  BOOST_TEST(tools[1].name == "ping");
  BOOST_TEST(tools[1].parameter_names().empty());
  BOOST_TEST(tools[2].parameter_names() == std::vector<std::string>{"url"}, boost::test_tools::per_element());
  BOOST_CHECK_EXCEPTION(read_tool_definitions(json(R"([{"name":"a"},{"description":"x"}])"), "tools"), krino::Error,
                        invalid("'tools'[1]"));
}

BOOST_AUTO_TEST_SUITE_END()
