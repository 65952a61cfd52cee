// Conversation::to_text, to_json and the whole-conversation test cases of krino/agent/conversation.hpp.
#include "agent_test_support.hpp"

#include <krino/agent/conversation.hpp>

#include <string>

using namespace krino::agent;
using namespace krino::agent::testing;

namespace {

// The weather / hotel / thanks conversation, with a scenario, a system prompt and a tool result.
const char* const kTrip = R"({"scenario":"Plan a trip","messages":[
    {"role":"system","content":"You are a travel agent."},
    {"role":"user","content":"Weather in Paris?"},
    {"role":"assistant","content":"Sunny.","toolCalls":[{"id":"c1","name":"get_weather","arguments":{"city":"Paris","days":3}}]},
    {"role":"tool","tool_call_id":"c1","content":"sunny, 24C"},
    {"role":"user","content":"Book a hotel for 2 nights."},
    {"role":"assistant","content":"Booked.","toolCalls":[{"name":"book_hotel","arguments":{"city":"Paris","nights":2}}]},
    {"role":"user","content":"Thanks!"},
    {"role":"assistant","content":"You're welcome."}]})";

const char* const kToolFree = R"({"scenario":"Small talk","messages":[
    {"role":"user","content":"Hi"},
    {"role":"assistant","content":"Hello! How can I help?"},
    {"role":"user","content":"Nothing, thanks."},
    {"role":"assistant","content":"Bye."}]})";

Conversation read(const char* text) { return read_conversation(json(text), "conversation"); }

}  // namespace

BOOST_AUTO_TEST_SUITE(agent_conversation_rendering)

BOOST_AUTO_TEST_CASE(a_tool_free_conversation_renders_the_same_in_every_mode) {
  const Conversation conversation = read(kToolFree);
  const std::string expected =
      "Scenario: Small talk\n\nUSER: Hi\n\nASSISTANT: Hello! How can I help?\n\nUSER: Nothing, thanks.\n\nASSISTANT: Bye.";
  BOOST_TEST(conversation.to_text() == expected);
  BOOST_TEST(conversation.to_text(TranscriptToolCalls::none) == expected);
  BOOST_TEST(conversation.to_text(TranscriptToolCalls::names_only) == expected);
  BOOST_TEST(conversation.to_text(TranscriptToolCalls::with_arguments) == expected);
  BOOST_TEST(boost::json::value(conversation.to_json()) ==
             json(R"({"scenario":"Small talk","turnCount":2,"messages":[
                 {"role":"user","content":"Hi"},{"role":"assistant","content":"Hello! How can I help?"},
                 {"role":"user","content":"Nothing, thanks."},{"role":"assistant","content":"Bye."}]})"));
}

BOOST_AUTO_TEST_CASE(tool_lines_with_arguments_names_only_or_none) {
  const Conversation conversation = read(kTrip);
  BOOST_TEST(conversation.to_text(TranscriptToolCalls::with_arguments) ==
             "Scenario: Plan a trip\n\n"
             "SYSTEM: You are a travel agent.\n\n"
             "USER: Weather in Paris?\n\n"
             "ASSISTANT: Sunny.\n  [tool: get_weather({\"city\":\"Paris\",\"days\":3})]\n\n"
             "TOOL: sunny, 24C\n\n"
             "USER: Book a hotel for 2 nights.\n\n"
             "ASSISTANT: Booked.\n  [tool: book_hotel({\"city\":\"Paris\",\"nights\":2})]\n\n"
             "USER: Thanks!\n\n"
             "ASSISTANT: You're welcome.");
  const std::string names = conversation.to_text(TranscriptToolCalls::names_only);
  BOOST_TEST(names.find("ASSISTANT: Sunny.\n  [tool: get_weather]\n\nTOOL: sunny, 24C") != std::string::npos);
  BOOST_TEST(names.find("ASSISTANT: Booked.\n  [tool: book_hotel]\n\nUSER: Thanks!") != std::string::npos);
  const std::string plain = conversation.to_text();
  BOOST_TEST(plain.find("[tool:") == std::string::npos);
  BOOST_TEST(plain.find("ASSISTANT: Sunny.\n\nTOOL: sunny, 24C") != std::string::npos);
}

BOOST_AUTO_TEST_CASE(one_line_per_call_and_a_trimmed_text_without_scenario) {
  const Conversation conversation = read(R"([
      {"role":"user","content":"  go "},
      {"role":"assistant","content":"","toolCalls":[{"name":"a"},{"name":"b","arguments":"{\"x\":[1,2.5]}"}]},
      {"role":"assistant","content":"done\n"}])");
  BOOST_TEST(conversation.to_text(TranscriptToolCalls::with_arguments) ==
             "USER:   go \n\nASSISTANT: \n  [tool: a({})]\n  [tool: b({\"x\":[1,2.5]})]\n\nASSISTANT: done");
  BOOST_TEST(conversation.to_text(TranscriptToolCalls::names_only) ==
             "USER:   go \n\nASSISTANT: \n  [tool: a]\n  [tool: b]\n\nASSISTANT: done");
  BOOST_TEST(Conversation().to_text().empty());
}

BOOST_AUTO_TEST_CASE(to_json_puts_tool_calls_only_on_messages_that_made_them) {
  const Conversation conversation = read(kTrip);
  const boost::json::object document = conversation.to_json();
  BOOST_TEST(document.at("scenario").as_string() == "Plan a trip");
  BOOST_TEST(document.at("turnCount").to_number<int>() == 3);
  BOOST_TEST(!document.contains("metadata"));
  const boost::json::array& messages = document.at("messages").as_array();
  BOOST_TEST_REQUIRE(messages.size() == 8u);
  for (std::size_t i = 0; i < messages.size(); ++i) {
    BOOST_TEST_INFO("message " << i);
    BOOST_TEST(messages[i].as_object().contains("toolCalls") == (i == 2 || i == 5));
  }
  BOOST_TEST(messages[2] == json(R"({"role":"assistant","content":"Sunny.","toolCalls":[
      {"id":"c1","name":"get_weather","arguments":{"city":"Paris","days":3},"result":"sunny, 24C"}]})"));
  BOOST_TEST(messages[3] == json(R"({"role":"tool","content":"sunny, 24C","toolCallId":"c1"})"));
  BOOST_TEST(messages[0].at("role").as_string() == "system");
}

BOOST_AUTO_TEST_CASE(to_json_keeps_metadata_and_reads_back) {
  const Conversation conversation = read(R"({"scenario":"s","metadata":{"source":"sim"},"messages":[
      {"role":"USER","content":"q","metadata":{"lang":"en"}},
      {"role":"assistant","content":"a","toolCalls":[{"name":"f","arguments":{"n":1}}]}]})");
  const boost::json::object document = conversation.to_json();
  BOOST_TEST(document.at("metadata") == json(R"({"source":"sim"})"));
  BOOST_TEST(document.at("messages").at(0) == json(R"({"role":"user","content":"q","metadata":{"lang":"en"}})"));
  const Conversation again = read_conversation(document, "conversation");
  BOOST_TEST(boost::json::value(again.to_json()) == boost::json::value(document));
  BOOST_CHECK_EXCEPTION(read(R"([{"role":"user","metadata":"x"}])"), krino::Error, invalid("'metadata' must be an object"));
}

// The deterministic case's input is the last user message.
BOOST_AUTO_TEST_CASE(the_deterministic_case_takes_the_last_user_message_and_flattened_calls) {
  const Conversation conversation = read(kTrip);
  const boost::json::array tools = json(R"([{"name":"get_weather"},{"name":"book_hotel"}])").as_array();
  const boost::json::object document = conversation.to_test_case(tools);
  BOOST_TEST(document.at("inputs") == json(R"({"input":"Thanks!"})"));
  BOOST_TEST(document.at("actualOutputs").at("output").as_string() == "You're welcome.");
  const boost::json::array& calls = document.at("actualOutputs").at("toolCalls").as_array();
  BOOST_TEST_REQUIRE(calls.size() == 2u);
  BOOST_TEST(calls[0].at("name").as_string() == "get_weather");
  BOOST_TEST(calls[0].at("arguments") == json(R"({"city":"Paris","days":3})"));
  BOOST_TEST(calls[0].at("result").as_string() == "sunny, 24C");
  BOOST_TEST(calls[1].at("name").as_string() == "book_hotel");
  BOOST_TEST(document.at("expectedOutputs").as_object().empty());
  BOOST_TEST(boost::json::value(document.at("metadata")) == boost::json::value({{"tools", tools}}));

  // The SDK's own reader takes the calls back.
  const krino::TestCase test_case(document);
  BOOST_TEST(read_tool_calls(test_case.actual_outputs().at("toolCalls"), "toolCalls").size() == 2u);
  BOOST_TEST(test_case.input()->as_string() == "Thanks!");
}

BOOST_AUTO_TEST_CASE(the_deterministic_case_without_tools_users_or_assistants) {
  const boost::json::object document = read(R"([{"role":"system","content":"s"}])").to_test_case();
  BOOST_TEST(boost::json::value(document) ==
             json(R"({"inputs":{},"actualOutputs":{"toolCalls":[]},"expectedOutputs":{},"metadata":{}})"));
}

// The judge case reads a name-only transcript and has no output.
BOOST_AUTO_TEST_CASE(the_judge_case_grounds_in_a_name_only_transcript) {
  const Conversation conversation = read(kTrip);
  const boost::json::object document =
      conversation.to_judge_test_case(json(R"([{"name":"get_weather"}])").as_array(),
                                      std::vector<std::string>{"check the weather", "book a hotel"});
  const std::string input(document.at("inputs").at("input").as_string());
  BOOST_TEST(input == conversation.to_text(TranscriptToolCalls::names_only));
  BOOST_TEST(input.find("[tool: get_weather]") != std::string::npos);
  BOOST_TEST(input.find("[tool: book_hotel]") != std::string::npos);
  // The argument values the judge assesses never appear in its grounding text.
  for (const char* value : {"\"city\"", "\"days\"", "\"nights\"", ":3", "({"}) {
    BOOST_TEST_INFO(value);
    BOOST_TEST(input.find(value) == std::string::npos);
  }
  const boost::json::object& actual = document.at("actualOutputs").as_object();
  BOOST_TEST(!actual.contains("output"));
  BOOST_TEST(actual.at("toolCalls").at(1).at("arguments") == json(R"({"city":"Paris","nights":2})"));
  BOOST_TEST(document.at("expectedOutputs").as_object().empty());
  BOOST_TEST(document.at("metadata") ==
             json(R"({"tools":[{"name":"get_weather"}],"tasks":["check the weather","book a hotel"]})"));
  BOOST_TEST(conversation.to_judge_test_case().at("metadata").as_object().empty());
}

// A leading greeting and two assistant messages in a row.
BOOST_AUTO_TEST_CASE(leading_and_consecutive_assistant_messages_in_transcripts_and_cases) {
  const Conversation conversation = read(R"([
      {"role":"assistant","content":"Welcome!"},
      {"role":"user","content":"Find flights to Oslo"},
      {"role":"assistant","content":"Searching.","toolCalls":[{"name":"search_flights","arguments":{"to":"OSL"}}]},
      {"role":"assistant","content":"Found 2 flights."}])");
  BOOST_TEST(conversation.turn_count() == 1u);
  BOOST_TEST(conversation.tool_calls_by_turn().size() == 3u);
  BOOST_TEST(conversation.to_text(TranscriptToolCalls::names_only) ==
             "ASSISTANT: Welcome!\n\nUSER: Find flights to Oslo\n\n"
             "ASSISTANT: Searching.\n  [tool: search_flights]\n\nASSISTANT: Found 2 flights.");
  const boost::json::object document = conversation.to_test_case();
  BOOST_TEST(document.at("inputs").at("input").as_string() == "Find flights to Oslo");
  BOOST_TEST(document.at("actualOutputs").at("output").as_string() == "Found 2 flights.");
  BOOST_TEST(conversation.to_json().at("turnCount").to_number<int>() == 1);
}

BOOST_AUTO_TEST_CASE(last_message_by_role) {
  const Conversation conversation = read(kTrip);
  BOOST_TEST_REQUIRE(conversation.last_message("tool") != nullptr);
  BOOST_TEST(conversation.last_message("tool")->content == "sunny, 24C");
  BOOST_TEST(conversation.last_message("developer") == nullptr);
}

BOOST_AUTO_TEST_CASE(write_tool_call_round_trips_through_read_tool_call) {
  const ToolCall call = read_tool_call(
      json(R"({"id":"x","type":"function","function":{"name":"f","arguments":"{\"a\":1}"},"result":{"ok":true},"metadata":{"m":1}})"),
      "call");
  const boost::json::object written = write_tool_call(call);
  BOOST_TEST(boost::json::value(written) ==
             json(R"({"id":"x","name":"f","arguments":{"a":1},"result":"{\"ok\":true}","metadata":{"m":1}})"));
  const ToolCall again = read_tool_call(written, "call");
  BOOST_TEST(boost::json::value(write_tool_call(again)) == boost::json::value(written));
  BOOST_TEST(boost::json::value(write_tool_call(read_tool_call(json(R"({"name":"g"})"), "call"))) ==
             json(R"({"name":"g","arguments":{}})"));
}

BOOST_AUTO_TEST_SUITE_END()
