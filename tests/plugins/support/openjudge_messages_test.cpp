// krino/support/openjudge_messages.hpp: the wrappers and content parts both plugins' OpenJudge
// graders read through (the agent plugin's deterministic graders, the judge plugin's LLM graders).
#include <krino/support/openjudge_messages.hpp>

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <string>

namespace json = boost::json;

BOOST_AUTO_TEST_SUITE(openjudge_messages)

BOOST_AUTO_TEST_CASE(message_and_tool_call_wrappers_are_unwrapped) {
  const json::object wrapped = json::parse(R"({"message": {"role": "user", "content": "hi"}})").as_object();
  BOOST_TEST(krino::openjudge::unwrap_message(wrapped).at("role").as_string() == "user");
  const json::object plain = json::parse(R"({"role": "user", "message": "not an object"})").as_object();
  BOOST_TEST(&krino::openjudge::unwrap_message(plain) == &plain);

  const json::object call = json::parse(R"({"tool_call": {"id": "c1", "function": {"name": "f"}}})").as_object();
  const json::object& inner = krino::openjudge::unwrap_tool_call(call);
  BOOST_TEST(inner.at("id").as_string() == "c1");
  BOOST_TEST(krino::openjudge::call_function(inner).at("name").as_string() == "f");
}

BOOST_AUTO_TEST_CASE(a_call_without_a_function_object_is_read_flat) {
  const json::object flat = json::parse(R"({"name": "f", "arguments": "{}", "function": "text"})").as_object();
  BOOST_TEST(&krino::openjudge::call_function(flat) == &flat);
  BOOST_TEST(&krino::openjudge::unwrap_tool_call(flat) == &flat);
}

BOOST_AUTO_TEST_CASE(text_parts_are_joined_by_newlines) {
  const json::array parts =
      json::parse(R"([{"type": "text", "text": "a"}, {"type": "image"}, "b", {"text": 3}, {"text": "c"}])").as_array();
  BOOST_TEST(krino::openjudge::joined_text_parts(parts) == "a\nc");
  BOOST_TEST(krino::openjudge::joined_text_parts(json::array{}) == "");
}

BOOST_AUTO_TEST_SUITE_END()
