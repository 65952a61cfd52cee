// ToolCallView reads what ToolCall reads, in place: the same fields, the same errors, first
// problem first, and nothing copied for arguments given as an object.
#include "agent_test_support.hpp"

#include <krino/agent/argument_matcher.hpp>
#include <krino/agent/tool_call.hpp>

#include <krino/json_text.hpp>

#include <string>
#include <string_view>
#include <vector>

using namespace krino::agent;
using namespace krino::agent::testing;

namespace {

// Every shape read_tool_call accepts, and the corners of each field.
const std::vector<std::string_view> kCallShapes = {
    R"({"id":"c1","name":"search","arguments":{"q":"x","n":1.0},"result":"found","metadata":{"ms":3}})",
    R"({"id":"call_9","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\",\"n\":2.50}"}})",
    R"({"name":"f","arguments":""})",
    R"({"name":"f","arguments":null,"result":null})",
    R"({"name":"f","kwargs":{"a":[1,{"b":null}]},"result":{"a":[1,2.5]}})",
    R"({"name":"f","arguments":{"x":1},"kwargs":{"y":2},"id":null,"metadata":null})",
    R"({"name":"outer","function":{"name":"inner"},"arguments":{"z":true}})",
};

// Broken calls; each must fail with read_tool_call's message.
const std::vector<std::string_view> kBrokenCalls = {
    R"(5)",
    R"({"function":7})",
    R"({"arguments":{}})",
    R"({"name":3})",
    R"({"name":""})",
    R"({"name":"a","metadata":[1]})",
    R"({"name":"a","id":4,"arguments":"{oops"})",
    R"({"name":"a","arguments":"{oops"})",
    R"({"name":"a","arguments":"[1]"})",
    R"({"name":"a","arguments":[1]})",
};

std::string message_of_read(const boost::json::value& call) {
  try {
    read_tool_call(call, "'toolCalls'[0]");
  } catch (const krino::Error& e) {
    return e.what();
  }
  return {};
}

std::string message_of_view(const boost::json::value& call) {
  try {
    view_tool_call(call, "'toolCalls'[0]");
  } catch (const krino::Error& e) {
    return e.what();
  }
  return {};
}

}  // namespace

BOOST_AUTO_TEST_SUITE(agent_tool_call_view)

BOOST_AUTO_TEST_CASE(a_view_holds_what_a_tool_call_holds) {
  for (std::string_view text : kCallShapes) {
    BOOST_TEST_CONTEXT(text) {
      const boost::json::value source = json(text);
      const ToolCall copy = read_tool_call(source, "call");
      const krino::agent::ToolCallView view = view_tool_call(source, "call");
      BOOST_TEST(std::string(view.id) == copy.id);
      BOOST_TEST(std::string(view.name) == copy.name);
      BOOST_TEST(krino::json::to_compact_json(view.arguments()) == krino::json::to_compact_json(copy.arguments));
      BOOST_TEST((view.result_text() == copy.result));
      const boost::json::object no_metadata;
      BOOST_TEST(krino::json::to_compact_json(view.metadata != nullptr ? *view.metadata : no_metadata) ==
                 krino::json::to_compact_json(copy.metadata));
    }
  }
}

BOOST_AUTO_TEST_CASE(arguments_given_as_an_object_are_not_copied) {
  const boost::json::value source = json(R"({"name":"f","arguments":{"q":"x"}})");
  BOOST_TEST(&view_tool_call(source, "call").arguments() == &source.at("arguments").as_object());
}

BOOST_AUTO_TEST_CASE(broken_calls_fail_as_read_tool_call_fails) {
  for (std::string_view text : kBrokenCalls) {
    const boost::json::value source = json(text);
    const std::string expected = message_of_read(source);
    BOOST_TEST(!expected.empty(), text);
    BOOST_TEST(message_of_view(source) == expected, text);
  }
  BOOST_CHECK_EXCEPTION(view_tool_calls(json(R"([{"name":"a"}, {"arguments":{}}])"), "toolCalls"), krino::Error,
                        invalid("'toolCalls'[1]: a tool call needs a non-empty 'name'"));
  BOOST_CHECK_EXCEPTION(view_tool_calls(json(R"([{"name":"a"}, {"name":"b","arguments":"{oops"}])"), "expected"), krino::Error,
                        invalid("'expected'[1]: 'arguments' is a string that is not valid JSON"));
  BOOST_CHECK_EXCEPTION(view_tool_calls(json(R"([{"name":"a"}, {"name":"b","id":[]}])"), "toolCalls"), krino::Error,
                        invalid("'toolCalls'[1]: 'id' must be a string"));
  BOOST_CHECK_EXCEPTION(view_tool_calls(json(R"({"name":"a"})"), "toolCalls"), krino::Error,
                        invalid("'toolCalls' must be a list"));
}

BOOST_AUTO_TEST_CASE(views_match_as_tool_calls_match) {
  const boost::json::value list = json(R"([{"name":"f","arguments":{"a":1}}, {"name":"f","arguments":"{\"a\":1}"},
                                           {"name":"f","arguments":{"a":2}}, {"name":"g","arguments":{"a":1}}])");
  const std::vector<ToolCall> copies = read_tool_calls(list, "toolCalls");
  const std::vector<krino::agent::ToolCallView> views = view_tool_calls(list, "toolCalls");
  const ToolCallMatcher matcher;
  for (std::size_t e = 0; e < copies.size(); ++e)
    for (std::size_t a = 0; a < copies.size(); ++a)
      BOOST_TEST(matcher.matches(views[e], views[a]) == matcher.matches(copies[e], copies[a]), e << " " << a);
}

BOOST_AUTO_TEST_SUITE_END()
