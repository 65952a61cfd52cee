// The `openai` and `anthropic` tasks end to end: the real krino binary calls the fake model server
// over real HTTP with each example's input and the tools in its metadata, records the reply and the
// tool calls, and scores them. Retries, provider errors and bad configurations are checked too.
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

constexpr const char* kCliModelTaskKey = "sk-model-task-e2e-must-not-leak";

std::vector<json::object> cli_model_task_item_events(const std::string& path) {
  std::vector<json::object> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line)) {
    json::object event = json::parse(line).as_object();
    if (event.at("event").as_string() == "item_finished") out.push_back(std::move(event));
  }
  return out;
}

constexpr const char* kCliModelTaskTools = R"([{"name": "get_weather", "description": "Weather now", "parameters":
  {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}},
  {"name": "book_hotel", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}])";

std::string cli_model_task_row(const std::string& id, const std::string& input, const std::string& expected_tool) {
  return R"({"id":")" + id + R"(","inputs":{"input":")" + input + R"("},"expectedOutputs":{"expectedTool":")" +
         expected_tool + R"("},"metadata":{"tools":)" + json::serialize(json::parse(kCliModelTaskTools)) + "}}\n";
}

struct ModelRun {
  fake::FakeLlmServer server;
  std::string dir = temp_path("model-task");
  std::string experiment = dir + "/model.yaml";
  std::string results = dir + "/results.jsonl";

  ModelRun(const std::string& script, const std::string& task, const std::string& rows, const std::string& extra = "")
      : server([&] {
          fake::ServerOptions o;
          o.script = fake::parse_script(script);
          o.required_key = kCliModelTaskKey;
          return o;
        }()) {
    std::filesystem::create_directories(dir);
    write_file(dir + "/cases.jsonl", rows);
    std::string yaml = task;
    for (size_t at = yaml.find("BASE"); at != std::string::npos; at = yaml.find("BASE"))
      yaml.replace(at, 4, server.base_url());
    write_file(experiment, "name: model-e2e\ndataset: cases.jsonl\ntask:\n" + yaml +
                               "evaluators: [tool_selection]\n"
                               "reporters: [{json: {path: " + results + "}}]\n" + extra);
  }
  ~ModelRun() { std::filesystem::remove_all(dir); }

  ProcessResult run(std::vector<std::string> environment = {}) const {
    ProcessOptions options;
    options.environment = {std::string("KRINO_E2E_MODEL_KEY=") + kCliModelTaskKey};
    for (auto& e : environment) options.environment.push_back(e);
    return run_process({krino_binary(), "run", experiment}, options);
  }
};

constexpr const char* kCliModelTaskScript = R"({"rules": [
  {"match": {"contains": "Paris"}, "reply": {"tool_calls": [{"name": "get_weather", "arguments": {"city": "Paris"}}],
                                            "usage": {"input_tokens": 1000, "output_tokens": 500}}},
  {"match": {"contains": "sleep"}, "reply": {"tool_calls": [{"name": "book_hotel", "arguments": "{not json"}]}},
  {"match": {"contains": "hello"}, "reply": {"content": "Hello! How can I help?"}}]})";

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_model_task)

BOOST_AUTO_TEST_CASE(each_api_records_the_reply_and_the_tool_calls) {
  for (const std::string& kind : {std::string("openai"), std::string("openai responses"), std::string("anthropic")}) {
    const bool anthropic = kind == "anthropic";
    const bool responses = kind == "openai responses";
    std::string task = std::string("  kind: ") + (anthropic ? "anthropic" : "openai") + "\n" +
                       (responses ? "  api: responses\n" : "") +
                       "  model: agent-model\n  base_url: BASE/v1\n  api_key_env: KRINO_E2E_MODEL_KEY\n"
                       "  system: 'You are a travel agent for {{metadata.tier}} customers.'\n";
    std::string rows = cli_model_task_row("w", "weather in Paris?", "get_weather") + cli_model_task_row("h", "hello there", "none") +
                       cli_model_task_row("b", "somewhere to sleep", "book_hotel");
    for (size_t at = rows.find(R"("metadata":{)"); at != std::string::npos; at = rows.find(R"("metadata":{)", at + 1))
      rows.replace(at, 12, R"("metadata":{"tier":"gold",)");
    ModelRun r(kCliModelTaskScript, task, rows, "prices: {agent-model: {input_per_million: 0.05, output_per_million: 0.40}}\n");
    const ProcessResult result = r.run();
    BOOST_TEST(result.exit_code == 0, kind << ": " << result.out << result.err);
    auto items = cli_model_task_item_events(r.results);
    BOOST_REQUIRE(items.size() == 3u);

    const json::object& weather = items[0].at("actualOutputs").as_object();
    BOOST_TEST(weather.at("output").is_null(), kind);  // the model only called a tool
    BOOST_REQUIRE(weather.at("toolCalls").as_array().size() == 1u);
    const json::object& call = weather.at("toolCalls").as_array()[0].as_object();
    BOOST_TEST(call.at("name").as_string() == "get_weather");
    BOOST_TEST(call.at("arguments").at("city").as_string() == "Paris");
    BOOST_TEST(!call.at("id").as_string().empty());
    BOOST_TEST(items[0].at("success").as_bool());
    const json::object& metrics = items[0].at("metrics").as_object();
    BOOST_TEST(metrics.at("tokensIn").to_number<int>() == 1000);
    BOOST_TEST(metrics.at("tokensOut").to_number<int>() == 500);
    BOOST_TEST(metrics.at("costUsd").to_number<double>() == 0.00025);
    BOOST_TEST(metrics.at("latencyMs").to_number<double>() > 0.0);

    BOOST_TEST(items[1].at("actualOutputs").at("output").as_string() == "Hello! How can I help?");
    BOOST_TEST(items[1].at("actualOutputs").at("toolCalls").as_array().empty());
    BOOST_TEST(items[1].at("success").as_bool());  // a negative case: no tool, as expected

    // Arguments that are not JSON are kept for inspection, never a crash or a made-up object.
    // (Anthropic's wire has an object there, so only the OpenAI APIs can carry such text.)
    const json::object& broken = items[2].at("actualOutputs").at("toolCalls").as_array()[0].as_object();
    BOOST_TEST(broken.at("arguments").as_object().empty());
    if (!anthropic) {
      BOOST_REQUIRE_MESSAGE(broken.contains("metadata"), json::serialize(broken));
      BOOST_TEST(broken.at("metadata").at("rawArguments").as_string() == "{not json");
    }

    // What the model was sent: the system prompt filled from the example, the input, the tools.
    auto requests = r.server.recent_requests();
    BOOST_REQUIRE(requests.size() == 3u);
    for (const auto& request : requests) {
      BOOST_TEST(request.api_key == kCliModelTaskKey);
      BOOST_TEST(request.prompt.find("You are a travel agent for gold customers.") != std::string::npos, kind);
      json::value body = json::parse(request.body);
      const json::array& tools = body.at("tools").as_array();
      BOOST_REQUIRE(tools.size() == 2u);
      const json::value& first = tools[0];
      const std::string name(anthropic || responses ? first.at("name").as_string() : first.at_pointer("/function/name").as_string());
      BOOST_TEST(name == "get_weather");
      BOOST_TEST(body.at("model").as_string() == "agent-model");
    }
    BOOST_TEST(result.err.find(kCliModelTaskKey) == std::string::npos);
    BOOST_TEST(read_file(r.results).find(kCliModelTaskKey) == std::string::npos);
  }
}

BOOST_AUTO_TEST_CASE(conversations_in_the_example_are_sent_as_messages) {
  ModelRun r(R"({"rules": [{"match": {"contains": "and tomorrow?"}, "reply": {"content": "Rain."}}]})",
             "  kind: openai\n  model: m\n  base_url: BASE/v1\n  api_key_env: KRINO_E2E_MODEL_KEY\n  tools: false\n",
             R"({"id":"c","inputs":{"messages":[{"role":"user","content":"weather in Oslo?"},)"
             R"({"role":"assistant","content":null,"toolCalls":[{"name":"get_weather","arguments":{}}]},)"
             R"({"role":"tool","content":"sunny"},{"role":"assistant","content":"Sunny."},)"
             R"({"role":"user","content":"and tomorrow?"}]},"expectedOutputs":{"expectedTool":"none"},"metadata":{"tools":[]}})" "\n");
  const ProcessResult result = r.run();
  BOOST_TEST(result.exit_code == 0, result.err);
  auto requests = r.server.recent_requests();
  BOOST_REQUIRE(requests.size() == 1u);
  json::value body = json::parse(requests[0].body);
  const json::array& messages = body.at("messages").as_array();
  BOOST_REQUIRE(messages.size() == 3u);  // the tool-only turn and the tool result are not sent
  BOOST_TEST(messages[1].at("content").as_string() == "Sunny.");
  BOOST_TEST(!body.as_object().contains("tools"));
  BOOST_TEST(cli_model_task_item_events(r.results).at(0).at("actualOutputs").at("output").as_string() == "Rain.");
}

BOOST_AUTO_TEST_CASE(provider_errors_are_retried_then_become_item_errors) {
  ModelRun r(R"({"rules": [
      {"match": {"contains": "flaky"}, "times": 2, "reply": {"fault": {"kind": "status", "status": 529}}},
      {"match": {"contains": "refused"}, "reply": {"fault": {"kind": "status", "status": 400, "message": "context too long"}}},
      {"match": {"contains": "down"}, "reply": {"fault": {"kind": "status", "status": 500}}}],
    "default": {"content": "ok"}})",
             "  kind: anthropic\n  model: c\n  base_url: BASE/v1\n  api_key_env: KRINO_E2E_MODEL_KEY\n  max_retries: 2\n",
             cli_model_task_row("a", "flaky one", "none") + cli_model_task_row("b", "refused one", "none") + cli_model_task_row("c", "down one", "none") +
                 cli_model_task_row("d", "fine one", "none"),
             "min_pass_rate: 0\n");
  const ProcessResult result = r.run();
  BOOST_TEST(result.exit_code == 0, result.err);
  auto items = cli_model_task_item_events(r.results);
  BOOST_REQUIRE(items.size() == 4u);
  BOOST_TEST(items[0].at("success").as_bool());  // two 529s, then an answer
  const json::object& refused = items[1].at("error").as_object();
  BOOST_TEST(refused.at("code").as_string() == "INVALID_ARGUMENT");
  BOOST_TEST(refused.at("stage").as_string() == "task");
  BOOST_TEST(refused.at("component").as_string() == "anthropic");
  BOOST_TEST(std::string(refused.at("message").as_string()).find("context too long") != std::string::npos,
             refused.at("message"));
  BOOST_TEST(std::string(refused.at("message").as_string()).find("task (anthropic c)") != std::string::npos);
  BOOST_TEST(items[2].at("error").at("code").as_string() == "UNAVAILABLE");
  BOOST_TEST(items[3].at("success").as_bool());
}

BOOST_AUTO_TEST_CASE(configuration_mistakes_stop_the_run) {
  struct Case {
    std::string task, message;
  };
  for (const Case& c : std::vector<Case>{
           {"  kind: openai\n  base_url: BASE/v1\n", "task.model: is required"},
           {"  kind: openai\n  model: m\n  api_key_env: KRINO_E2E_UNSET_KEY\n", "KRINO_E2E_UNSET_KEY"},
           {"  kind: openai\n  model: m\n  api: completions\n", "task.api: 'completions' is not one of chat, responses"},
           {"  kind: anthropic\n  model: m\n  temprature: 0\n", "task.temprature: unknown option"},
           {"  kind: openai\n  model: m\n  tools: [{description: nameless}]\n", "tools[0]"},
           {"  kind: openai\n  model: m\n  input: '{{inputs.input'\n", "is never closed"},
       }) {
    ModelRun r(R"({})", c.task, cli_model_task_row("a", "b", "none"));
    const ProcessResult result = r.run();
    BOOST_TEST(result.exit_code == 2, c.task << result.err);
    BOOST_TEST(result.err.find(c.message) != std::string::npos, result.err);
  }
}

BOOST_AUTO_TEST_SUITE_END()
