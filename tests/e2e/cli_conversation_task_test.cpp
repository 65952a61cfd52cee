// The `conversation` task end to end: a simulated user (an LLM judge playing a persona, after the
// example's opening line and any scripted messages) talks with the system under test (the openai
// task) over real HTTP to the fake server; stopping conditions, turn limits, failures and the
// recorded conversation are checked, and a trajectory judge scores the result.
#include "process.hpp"

#include "fake_llm_server.hpp"
#include "script.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>

using namespace krino::test;
namespace json = boost::json;
namespace fake = krino::fake_llm;

namespace {

std::vector<json::object> cli_conversation_task_item_events(const std::string& path) {
  std::vector<json::object> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    json::object event = json::parse(line).as_object();
    if (event.at("event").as_string() == "item_finished") out.push_back(std::move(event));
  }
  return out;
}

// The user simulator is model "user-sim", the system under test "agent", the grader "grader"; all
// on one fake server, told apart by model.
constexpr const char* kCliConversationTaskScript = R"({"rules": [
  {"match": {"model": "user-sim", "contains": "has not started"}, "reply": {"content": "Hi, I need a hotel in Paris."}},
  {"match": {"model": "user-sim", "contains": "Assistant: Booked"}, "reply": {"content": "Perfect, thanks! [END]"}},
  {"match": {"model": "user-sim"}, "reply": {"content": "Two nights from Friday, please."}},
  {"match": {"model": "agent", "contains": "Two nights"},
   "reply": {"content": "Booked: two nights from Friday.", "tool_calls": [{"name": "book_hotel", "arguments": {"city": "Paris", "nights": 2}}]}},
  {"match": {"model": "agent", "contains": "explode"}, "reply": {"fault": {"kind": "status", "status": 400, "message": "bad request"}}},
  {"match": {"model": "agent"}, "reply": {"content": "Sure. For which dates?"}},
  {"match": {"model": "grader"}, "reply": {"content": "{\"score\": 0.9, \"reason\": \"the booking was made\"}"}}]})";

struct ConversationRun {
  fake::FakeLlmServer server;
  std::string dir = temp_path("conversation-task");
  std::string experiment = dir + "/conversation.yaml";
  std::string results = dir + "/results.jsonl";

  ConversationRun(const std::string& task, const std::string& rows, const std::string& evaluators = "[{exact_match: {threshold: 0}}]")
      : server([] {
          fake::ServerOptions o;
          o.script = fake::parse_script(kCliConversationTaskScript);
          return o;
        }()) {
    std::filesystem::create_directories(dir);
    write_file(dir + "/cases.jsonl", rows);
    std::string yaml = task;
    for (size_t at = yaml.find("BASE"); at != std::string::npos; at = yaml.find("BASE")) yaml.replace(at, 4, server.base_url());
    const std::string base = server.base_url() + "/v1";
    write_file(experiment, "name: conversation-e2e\ndataset: cases.jsonl\n"
                           "judges:\n  user: {provider: openai, base_url: " + base + ", model: user-sim}\n"
                           "  grader: {provider: openai, base_url: " + base + ", model: grader}\n"
                           "default_judge: grader\njudge_cache: false\n"
                           "task:\n  kind: conversation\n  application: {kind: openai, model: agent, base_url: " + base +
                               "}\n" + yaml + "evaluators: " + evaluators + "\nreporters: [{json: {path: " + results +
                               "}}]\nmin_pass_rate: 0\n");
  }
  ~ConversationRun() { std::filesystem::remove_all(dir); }
  ProcessResult run() const { return run_process({krino_binary(), "run", experiment}); }

  // The bodies the system under test received, in order.
  std::vector<json::value> agent_requests() const {
    std::vector<json::value> out;
    for (const auto& r : server.recent_requests())
      if (r.model == "agent") out.push_back(json::parse(r.body));
    return out;
  }
};

std::string contents(const json::array& messages) {
  std::string out;
  for (const auto& m : messages)
    out += std::string(m.at("role").as_string()) + ": " +
           (m.at("content").is_string() ? std::string(m.at("content").as_string()) : std::string("<null>")) + "\n";
  return out;
}

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_conversation_task)

BOOST_AUTO_TEST_CASE(a_simulated_user_opens_talks_and_ends_the_conversation) {
  ConversationRun r("  user: {judge: user, persona: impatient_user}\n  initial_message: ''\n  scenario: '{{inputs.goal}}'\n",
                    R"({"id":"c1","inputs":{"goal":"book two nights in Paris"},"expectedOutputs":{"output":"x"},"metadata":{}})" "\n",
                    "[{trajectory_judge: {criteria: [goal_completion], threshold: 0.5}}]");
  const ProcessResult result = r.run();
  BOOST_TEST(result.exit_code == 0, result.out << result.err);
  auto items = cli_conversation_task_item_events(r.results);
  BOOST_REQUIRE(items.size() == 1u);
  BOOST_TEST_REQUIRE(items[0].at("error").is_null(), json::serialize(items[0].at("error")));
  const json::object& outputs = items[0].at("actualOutputs").as_object();
  const json::array& messages = outputs.at("conversation").at("messages").as_array();
  BOOST_TEST(contents(messages) == "user: Hi, I need a hotel in Paris.\n"
                                   "assistant: Sure. For which dates?\n"
                                   "user: Two nights from Friday, please.\n"
                                   "assistant: Booked: two nights from Friday.\n"
                                   "user: Perfect, thanks!\n");  // the last word before [END] is kept
  BOOST_TEST(outputs.at("stoppedBy").as_string() == "user_ended");
  BOOST_TEST(outputs.at("turnCount").to_number<int>() == 2);
  BOOST_TEST(outputs.at("output").as_string() == "Booked: two nights from Friday.");
  BOOST_TEST(outputs.at("conversation").at("scenario").as_string() == "book two nights in Paris");
  BOOST_REQUIRE(outputs.at("toolCalls").as_array().size() == 1u);
  BOOST_TEST(outputs.at("toolCalls").at(0).at("name").as_string() == "book_hotel");
  BOOST_TEST(messages[3].at("toolCalls").at(0).at("arguments").at("nights").to_number<int>() == 2);

  // The persona and scenario reached the user simulator; the agent saw the whole history.
  bool persona_seen = false;
  for (const auto& request : r.server.recent_requests())
    if (request.model == "user-sim")
      persona_seen = persona_seen || (request.prompt.find("A busy person") != std::string::npos &&
                                      request.prompt.find("book two nights in Paris") != std::string::npos);
  BOOST_TEST(persona_seen);
  auto agent = r.agent_requests();
  BOOST_REQUIRE(agent.size() == 2u);
  BOOST_TEST(agent[1].at("messages").as_array().size() == 3u);

  // The trajectory judge read the recorded conversation; its calls and the simulator's are the item's.
  const json::object& score = items[0].at("results").at(0).as_object();
  BOOST_TEST(score.at("name").as_string() == "trajectory_judge");
  BOOST_TEST(score.at("score").to_number<double>() == 0.9);
  BOOST_TEST(items[0].at("judge").at("calls").to_number<int>() == 4);  // 3 simulated messages + 1 grade
  BOOST_TEST(items[0].at("metrics").at("tokensIn").to_number<int>() > 0);
}

BOOST_AUTO_TEST_CASE(the_opening_and_fixed_responses_come_first_and_max_turns_bounds_the_rest) {
  ConversationRun r("  user: {judge: user, fixed_responses: ['scripted one', 'scripted two']}\n  max_turns: 3\n",
                    R"({"id":"c2","inputs":{"input":"opening line"},"expectedOutputs":{"output":"x"},"metadata":{}})" "\n");
  const ProcessResult result = r.run();
  BOOST_TEST(result.exit_code == 0, result.err);
  auto items = cli_conversation_task_item_events(r.results);
  BOOST_REQUIRE(items.size() == 1u);
  const json::object& outputs = items[0].at("actualOutputs").as_object();
  BOOST_TEST(contents(outputs.at("conversation").at("messages").as_array()) ==
             "user: opening line\nassistant: Sure. For which dates?\n"
             "user: scripted one\nassistant: Sure. For which dates?\n"
             "user: scripted two\nassistant: Sure. For which dates?\n");
  BOOST_TEST(outputs.at("stoppedBy").as_string() == "max_turns");
  BOOST_TEST(outputs.at("turnCount").to_number<int>() == 3);
  for (const auto& request : r.server.recent_requests()) BOOST_TEST(request.model != "user-sim");  // never needed
}

BOOST_AUTO_TEST_CASE(stopping_conditions_are_checked_after_every_message) {
  ConversationRun tool("  user: {judge: user}\n  stop_when: [{tool_called: book_hotel}]\n  max_turns: 8\n",
                       R"({"id":"t","inputs":{"input":"Hi, I need a hotel in Paris."},"expectedOutputs":{"output":"x"},"metadata":{}})" "\n");
  BOOST_TEST(tool.run().exit_code == 0);
  const auto tool_items = cli_conversation_task_item_events(tool.results);
  const json::object& by_tool = tool_items.at(0).at("actualOutputs").as_object();
  BOOST_TEST(by_tool.at("stoppedBy").as_string() == "tool_called 'book_hotel'");
  BOOST_TEST(by_tool.at("conversation").at("messages").as_array().size() == 4u);

  // A condition on the user stops before the system under test answers.
  ConversationRun user("  user: {judge: user}\n  stop_when: [{user_contains: 'TWO NIGHTS'}]\n",
                       R"({"id":"u","inputs":{"input":"Hi, I need a hotel in Paris."},"expectedOutputs":{"output":"x"},"metadata":{}})" "\n");
  BOOST_TEST(user.run().exit_code == 0);
  const auto user_items = cli_conversation_task_item_events(user.results);
  const json::object& by_user = user_items.at(0).at("actualOutputs").as_object();
  BOOST_TEST(by_user.at("stoppedBy").as_string() == "user_contains 'two nights'");
  const json::array& messages = by_user.at("conversation").at("messages").as_array();
  BOOST_REQUIRE(messages.size() == 3u);
  BOOST_TEST(messages[2].at("role").as_string() == "user");
  BOOST_TEST(user.agent_requests().size() == 1u);
}

BOOST_AUTO_TEST_CASE(a_failing_turn_is_the_items_error_and_the_run_goes_on) {
  ConversationRun r("  user: {judge: user}\n",
                    R"({"id":"bad","inputs":{"input":"please explode"},"expectedOutputs":{"output":"x"},"metadata":{}})" "\n"
                    R"({"id":"good","inputs":{"input":"hello"},"expectedOutputs":{"output":"x"},"metadata":{}})" "\n");
  const ProcessResult result = r.run();
  BOOST_TEST(result.exit_code == 0, result.err);
  auto items = cli_conversation_task_item_events(r.results);
  BOOST_REQUIRE(items.size() == 2u);
  const json::object& error = items[0].at("error").as_object();
  BOOST_TEST(error.at("component").as_string() == "conversation");
  BOOST_TEST(error.at("code").as_string() == "INVALID_ARGUMENT");
  BOOST_TEST(std::string(error.at("message").as_string()).rfind("turn 1 (openai): ", 0) == 0u, error.at("message"));
  BOOST_TEST(std::string(error.at("message").as_string()).find("bad request") != std::string::npos);
  BOOST_TEST_REQUIRE(items[1].at("error").is_null(), json::serialize(items[1].at("error")));
  BOOST_TEST(items[1].at("actualOutputs").at("stoppedBy").as_string() == "user_ended");
}

BOOST_AUTO_TEST_CASE(configuration_mistakes_stop_the_run) {
  struct Case {
    std::string task, message;
  };
  for (const Case& c : std::vector<Case>{
           {"  user: {persona: grumpy_wizard}\n", "task.user.persona: unknown persona 'grumpy_wizard'"},
           {"  user: {persona: {guidelines: shout}}\n", "task.user.persona.description: is required"},
           {"  stop_when: [{assistant_says: bye}]\n", "unknown condition 'assistant_says'"},
           {"  max_turns: 0\n", "task.max_turns: must be between 1 and 1000"},
           {"  user: {fixed_response: [a]}\n", "task.user.fixed_response: unknown option"},
       }) {
    ConversationRun r(c.task, R"({"inputs":{"input":"x"},"expectedOutputs":{"output":"x"},"metadata":{}})" "\n");
    const ProcessResult result = r.run();
    BOOST_TEST(result.exit_code == 2, c.task << result.err);
    BOOST_TEST(result.err.find(c.message) != std::string::npos, result.err);
  }
}

BOOST_AUTO_TEST_SUITE_END()
