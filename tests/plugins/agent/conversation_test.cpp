#include "agent_test_support.hpp"

#include <krino/agent/conversation.hpp>

using namespace krino::agent;
using namespace krino::agent::testing;

namespace {

std::vector<std::vector<std::string>> names_by_turn(const Conversation& conversation) {
  std::vector<std::vector<std::string>> out;
  for (const auto& turn : conversation.tool_calls_by_turn()) out.push_back(tool_names(turn));
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(agent_conversation)

// A worked example of docs/plugins/agent-spec-coverage.md: the weather / hotel / thanks conversation.
BOOST_AUTO_TEST_CASE(tool_calls_by_turn_of_the_weather_hotel_conversation) {
  const Conversation conversation = read_conversation(json(R"({"scenario":"trip","messages":[
      {"role":"user","content":"Weather in Paris?"},
      {"role":"assistant","content":"Sunny.","toolCalls":[{"name":"get_weather","arguments":{"city":"Paris"}}]},
      {"role":"user","content":"Book a hotel."},
      {"role":"assistant","content":"Booked.","toolCalls":[{"name":"book_hotel","arguments":{"city":"Paris"}}]},
      {"role":"user","content":"Thanks!"},
      {"role":"assistant","content":"You're welcome."}]})"),
                                                      "conversation");
  BOOST_TEST(conversation.scenario == "trip");
  BOOST_TEST(conversation.turn_count() == 3u);
  const std::vector<std::vector<std::string>> expected{{"get_weather"}, {"book_hotel"}, {}};
  BOOST_TEST(names_by_turn(conversation) == expected);
  BOOST_TEST(tool_names(conversation.tool_calls()) == (std::vector<std::string>{"get_weather", "book_hotel"}),
             boost::test_tools::per_element());
}

// Grouping follows assistant messages, not user/assistant pairs.
BOOST_AUTO_TEST_CASE(leading_and_consecutive_assistant_messages_get_their_own_lists) {
  const Conversation conversation = read_conversation(json(R"([
      {"role":"assistant","content":"Hello","toolCalls":[{"name":"greet"}]},
      {"role":"user","content":"Hi"},
      {"role":"assistant","content":"","toolCalls":[{"name":"a"},{"name":"b"}]},
      {"role":"assistant","content":"done"}])"),
                                                      "conversation");
  BOOST_TEST(conversation.turn_count() == 1u);
  const std::vector<std::vector<std::string>> expected{{"greet"}, {"a", "b"}, {}};
  BOOST_TEST(names_by_turn(conversation) == expected);
}

BOOST_AUTO_TEST_CASE(openai_messages_with_tool_results) {
  // Ids reused for two different calls, as in real tau-bench traces: each result goes to the
  // latest unanswered call with that id.
  const Conversation conversation = read_conversation(json(R"([
      {"role":"system","content":"You are an agent."},
      {"role":"user","content":"Go"},
      {"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function",
          "function":{"name":"get_user","arguments":"{\"id\":\"u1\"}"}}]},
      {"role":"tool","tool_call_id":"call_1","name":"get_user","content":"{\"name\":\"Ann\"}"},
      {"role":"assistant","content":null,"tool_calls":[{"id":"call_1","type":"function",
          "function":{"name":"get_order","arguments":"{\"id\":7}"}}]},
      {"role":"tool","tool_call_id":"call_1","name":"get_order","content":"Error: not found"},
      {"role":"ASSISTANT","content":"Sorry."}])"),
                                                      "conversation");
  const auto calls = conversation.tool_calls();
  BOOST_TEST_REQUIRE(calls.size() == 2u);
  BOOST_TEST(*calls[0].result == R"({"name":"Ann"})");
  BOOST_TEST(*calls[1].result == "Error: not found");
  BOOST_TEST(calls[1].arguments.at("id").as_int64() == 7);
  BOOST_TEST(conversation.messages.back().role == "assistant");
  BOOST_TEST(conversation.tool_calls_by_turn().size() == 3u);
}

BOOST_AUTO_TEST_CASE(malformed_messages_name_the_key_and_index) {
  BOOST_CHECK_EXCEPTION(read_conversation(json(R"([{"role":"user"},{"content":"x"}])"), "conversation"), krino::Error,
                        invalid("'conversation'[1]: a message needs a non-empty 'role'"));
  BOOST_CHECK_EXCEPTION(read_conversation(json(R"([{"role":"assistant","toolCalls":[{"name":"a"},{}]}])"),
                                          "conversation"),
                        krino::Error, invalid("'conversation'[0].toolCalls[1]"));
  BOOST_CHECK_EXCEPTION(read_conversation(json(R"({"scenario":"s"})"), "conversation"), krino::Error,
                        invalid("'conversation' has no 'messages' list"));
  BOOST_CHECK_EXCEPTION(read_conversation(json("7"), "conversation"), krino::Error, invalid("'conversation' must be"));
}

BOOST_AUTO_TEST_SUITE_END()
