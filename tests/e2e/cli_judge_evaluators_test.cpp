// Every judge evaluator, end to end (issue 4): the real `krino run`, the judge and agent plugins, the
// judge service and the fake OpenAI-compatible server (in this process), over real HTTP. For each
// evaluator the prompt it sends holds what its docs say, and the score, success and reason it derives
// from the scripted replies are the documented ones.
#include "process.hpp"

#include "fake_llm_server.hpp"
#include "script.hpp"

#include <boost/json.hpp>
#include <boost/test/unit_test.hpp>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

using namespace krino::test;
namespace json = boost::json;
namespace fake = krino::fake_llm;
namespace tt = boost::test_tools;

namespace {

constexpr const char* kCliJudgeEvaluatorsKey = "sk-e2e-evaluators-3b9f";

// One test case with what every evaluator reads; each text carries a marker the assertions look for.
const std::string kCase = R"({"id":"c1",
 "inputs":{"input":"INPUT-Q: What is the capital of France and how many people live there?"},
 "expectedOutputs":{"output":"EXPECTED-A: Paris, about 2.1 million"},
 "actualOutputs":{
  "output":"ACTUAL-A: Paris is the capital. It has 2 million people. It was founded in 1066.",
  "context":["CTX-ONE: Paris is the capital of France.","CTX-TWO: Paris has about 2.1 million inhabitants."],
  "retrievalContext":["CHUNK-RELEVANT: Paris is the French capital.","CHUNK-OFFTOPIC: Bananas are yellow."],
  "toolCalls":[{"name":"lookup_city","arguments":{"city":"Paris"},"result":"CITY-RESULT: population 2.1M"},
               {"name":"convert_units","arguments":{"value":"INVENTED-VALUE"}}],
  "trajectory":[{"role":"user","content":"TRAJ-USER: book me a table for two"},
                {"role":"assistant","content":"TRAJ-ASSISTANT: booked for 8 pm"}],
  "conversation":[{"role":"system","content":"OJ-SYSTEM: you are an agent"},
                  {"role":"user","content":"OJ-USER: how many people live in Paris?"},
                  {"role":"assistant","content":"Let me look.","tool_calls":[{"id":"t1","type":"function",
                    "function":{"name":"lookup_city","arguments":"{\"city\": \"Paris\"}"}}]},
                  {"role":"tool","tool_call_id":"t1","content":"OJ-RESULT: 2.1 million"},
                  {"role":"assistant","content":"About 2.1 million."}],
  "plan":"PLAN-X: open the drawer, then take the key",
  "observation":"OBS-X: the drawer is locked",
  "memory":"MEM-X: no key seen yet"},
 "metadata":{"tasks":["TASK-ONE: name the capital","TASK-TWO: give the founding year"],
             "constraints":"CONSTRAINT-X: cite the context",
             "tools":[{"name":"lookup_city","description":"Look up facts about a city"},
                      {"name":"get_city_with_llm","description":"Ask a model about a city"}]}})";

// Replies in each evaluator's shape, matched on a phrase only its prompt holds (first match wins,
// so the per-chunk, per-criterion and per-tool rules come before nothing that could shadow them).
const std::string kCliJudgeEvaluatorsScript = R"({"rules":[
  {"match":{"contains":"You are evaluating the output of an AI system"},
   "reply":{"content":"{\"score\": 4, \"reason\": \"REASON-LLM-JUDGE\"}"}},
  {"match":{"contains":"faithful to the context"},
   "reply":{"content":"{\"claims\": [{\"claim\": \"Paris is the capital\", \"verdict\": \"yes\", \"reason\": \"ctx 1\"}, {\"claim\": \"2 million people\", \"verdict\": \"yes\", \"reason\": \"ctx 2\"}, {\"claim\": \"founded in 1066\", \"verdict\": \"no\", \"reason\": \"not in context\"}]}"}},
  {"match":{"contains":"statements that its context does not back up"},
   "reply":{"content":"{\"statements\": [{\"statement\": \"Paris is the capital\", \"verdict\": \"yes\", \"reason\": \"ctx 1\"}, {\"statement\": \"2 million people\", \"verdict\": \"no\", \"reason\": \"2.1\"}, {\"statement\": \"founded in 1066\", \"verdict\": \"idk\", \"reason\": \"not said\"}]}"}},
  {"match":{"contains":"CHUNK-RELEVANT"},"reply":{"content":"{\"score\": 0.9, \"reason\": \"on topic\"}"}},
  {"match":{"contains":"CHUNK-OFFTOPIC"},"reply":{"content":"{\"score\": 0.1, \"reason\": \"off topic\"}"}},
  {"match":{"contains":"completed the tasks a user gave it"},
   "reply":{"content":"{\"tasks\": [{\"task\": \"TASK-ONE\", \"completed\": true, \"reason\": \"named\"}, {\"task\": \"TASK-TWO\", \"completed\": false, \"reason\": \"not given\"}]}"}},
  {"match":{"contains":"arguments an AI agent passed to its tools"},
   "reply":{"content":"[{\"toolName\": \"lookup_city\", \"grounded\": true, \"reason\": \"from the request\"}, {\"toolName\": \"convert_units\", \"grounded\": false, \"reason\": \"made up\"}]"}},
  {"match":{"contains":"Criterion: clarity"},"reply":{"content":"{\"score\": 8, \"reason\": \"REASON-CLARITY\"}"}},
  {"match":{"contains":"Criterion: goal_completion"},"reply":{"content":"{\"score\": 0.6, \"reason\": \"REASON-GOAL\"}"}},
  {"match":{"contains":"were they the right calls"},"reply":{"content":"{\"score\": 4, \"reason\": \"REASON-ACCURACY\"}"}},
  {"match":{"contains":"plan can actually be carried out"},"reply":{"content":"{\"score\": 0, \"reason\": \"REASON-PLAN\"}"}},
  {"match":{"contains":"Rate every step on four dimensions"},
   "reply":{"content":"{\"step_evaluations\": [{\"step_index\": 0, \"step_reason\": \"REASON-STEP\", \"contribution_score\": 4, \"relevance_score\": 4, \"accuracy_score\": 4, \"efficiency_score\": 4}]}"}},
  {"match":{"contains":"Tool name: lookup_city"},
   "reply":{"content":"{\"clarity\": 1, \"name_order\": 1, \"intent_over_implementation\": 1}"}},
  {"match":{"contains":"Tool name: get_city_with_llm"},
   "reply":{"content":"{\"clarity\": 1, \"name_order\": 0, \"intent_over_implementation\": 1}"}}
]})";

const std::string kEvaluators =
    "evaluators:\n"
    "  - llm_judge: {criteria: 'CRITERIA-X: Is the answer correct?', score_range: [1, 5], threshold: 0.5,\n"
    "                evaluation_params: [input, expected_output, actual_output, context]}\n"
    "  - faithfulness: {threshold: 0.5}\n"
    "  - hallucination: {name: hallucination_strict, threshold: 0.3}\n"
    "  - hallucination: {name: hallucination_lenient, threshold: 0.7}\n"
    "  - contextual_relevance: {threshold: 0.5}\n"
    "  - task_completion: {threshold: 0.6}\n"
    "  - tool_argument_hallucination: {threshold: 0.5}\n"
    "  - trajectory_judge: {criteria: [clarity, goal_completion], threshold: 0.65}\n"
    "  - tool_call_accuracy: {}\n"
    "  - plan_feasibility: {}\n"
    "  - trajectory_comprehensive: {}\n"
    "  - tool_name_reliability: {llm_checks: true, threshold: 0.5}\n";

std::vector<json::object> cli_judge_evaluators_json_lines(const std::string& path) {
  std::vector<json::object> out;
  std::ifstream in(path);
  std::string line;
  while (std::getline(in, line))
    if (!line.empty()) out.push_back(json::parse(line).as_object());
  return out;
}

bool cli_judge_evaluators_has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

struct EvaluatorsRun {
  fake::FakeLlmServer server;
  std::string dir = temp_path("judge-evaluators");
  std::string results = dir + "/results.jsonl";
  ProcessResult process;
  json::object item;  // the one item_finished event

  EvaluatorsRun()
      : server([] {
          fake::ServerOptions o;
          o.script = fake::parse_script(kCliJudgeEvaluatorsScript);
          o.required_key = kCliJudgeEvaluatorsKey;
          return o;
        }()) {
    std::filesystem::create_directories(dir);
    write_file(dir + "/cases.jsonl", json::serialize(json::parse(kCase)) + "\n");
    write_file(dir + "/judged.yaml",
               "name: judged\ndataset: cases.jsonl\ntask: replay\n"
               "judges:\n  default:\n    provider: openai\n    base_url: " + server.base_url() + "/v1\n"
               "    model: judge-mini\n    api_key_env: KRINO_E2E_KEY\n    max_retries: 0\n"
               "judge_cache: false\n" + kEvaluators +
               "reporters: [{json: {path: " + results + "}}]\nmin_pass_rate: 0\nparallelism: 4\n");
    ProcessOptions options;
    options.environment = {std::string("KRINO_E2E_KEY=") + kCliJudgeEvaluatorsKey};
    process = run_process({krino_binary(), "run", dir + "/judged.yaml"}, options);
    for (auto& e : cli_judge_evaluators_json_lines(results))
      if (e.at("event").as_string() == "item_finished") item = e;
  }
  ~EvaluatorsRun() { if (!std::getenv("KRINO_KEEP")) std::filesystem::remove_all(dir); }

  json::object result(const std::string& name) const {
    for (const auto& r : item.at("results").as_array())
      if (r.at("name").as_string() == name) return r.as_object();
    BOOST_FAIL("no result named " << name);
    return {};
  }
  // The prompts of the requests whose prompt contains `marker`.
  std::vector<std::string> prompts(const std::string& marker) const {
    std::vector<std::string> out;
    for (const auto& request : server.recent_requests())
      if (cli_judge_evaluators_has(request.prompt, marker)) out.push_back(request.prompt);
    return out;
  }
  std::string prompt(const std::string& marker) const {
    const auto found = prompts(marker);
    BOOST_TEST_REQUIRE(found.size() == 1u, marker << ": " << found.size() << " requests");
    return found.front();
  }
};

double cli_judge_evaluators_score(const json::object& result) { return result.at("score").to_number<double>(); }
std::string reason(const json::object& result) { return std::string(result.at("reason").as_string()); }

// One run for the whole suite: every evaluator judges the same item.
EvaluatorsRun& shared_run() {
  static EvaluatorsRun run;
  return run;
}

struct Ran {
  Ran() {
    const EvaluatorsRun& r = shared_run();
    BOOST_TEST_REQUIRE(r.process.exit_code == 0, r.process.out << r.process.err);
    BOOST_TEST_REQUIRE(!r.item.empty());
  }
};

}  // namespace

BOOST_AUTO_TEST_SUITE(cli_judge_evaluators)

BOOST_FIXTURE_TEST_CASE(every_request_reaches_a_rule_with_the_key, Ran) {
  const auto& r = shared_run();
  // llm_judge 1, faithfulness 1, hallucination 2, contextual_relevance 2 chunks, task_completion 1,
  // tool_argument_hallucination 1, trajectory_judge 2 criteria, three OpenJudge graders 3,
  // tool_name_reliability 2 tools.
  const auto requests = r.server.recent_requests();
  BOOST_TEST(requests.size() == 15u);
  for (const auto& request : requests) {
    BOOST_TEST(request.api_key == kCliJudgeEvaluatorsKey);
    BOOST_TEST(request.rule >= 0, request.prompt.substr(0, 120));  // no request fell to the default
  }
}

BOOST_FIXTURE_TEST_CASE(llm_judge_maps_the_score_range_and_shows_criteria_and_the_selected_fields, Ran) {
  const auto& r = shared_run();
  const json::object result = r.result("llm_judge");
  BOOST_TEST(cli_judge_evaluators_score(result) == 0.75, tt::tolerance(1e-12));  // (4 - 1) / (5 - 1)
  BOOST_TEST(result.at("success").as_bool());
  BOOST_TEST(reason(result) == "REASON-LLM-JUDGE");
  const std::string prompt = r.prompt("You are evaluating the output of an AI system");
  BOOST_TEST(cli_judge_evaluators_has(prompt, "CRITERIA-X: Is the answer correct?"));
  BOOST_TEST(cli_judge_evaluators_has(prompt, "Input:"));
  BOOST_TEST(cli_judge_evaluators_has(prompt, "INPUT-Q"));
  BOOST_TEST(cli_judge_evaluators_has(prompt, "Expected output:"));
  BOOST_TEST(cli_judge_evaluators_has(prompt, "EXPECTED-A"));
  BOOST_TEST(cli_judge_evaluators_has(prompt, "Actual output:"));
  BOOST_TEST(cli_judge_evaluators_has(prompt, "ACTUAL-A"));
  BOOST_TEST(cli_judge_evaluators_has(prompt, "Context:"));
  BOOST_TEST(cli_judge_evaluators_has(prompt, "[1] CTX-ONE"));
  BOOST_TEST(cli_judge_evaluators_has(prompt, "[2] CTX-TWO"));
  BOOST_TEST(prompt.find("INPUT-Q") < prompt.find("EXPECTED-A"));  // the fixed field order
  BOOST_TEST(prompt.find("EXPECTED-A") < prompt.find("ACTUAL-A"));
  BOOST_TEST(!cli_judge_evaluators_has(prompt, "CHUNK-RELEVANT"));
}

BOOST_FIXTURE_TEST_CASE(faithfulness_scores_supported_claims_over_the_context_passages, Ran) {
  const auto& r = shared_run();
  const json::object result = r.result("faithfulness");
  BOOST_TEST(cli_judge_evaluators_score(result) == 2.0 / 3.0, tt::tolerance(1e-9));
  BOOST_TEST(result.at("success").as_bool());
  BOOST_TEST(!reason(result).empty());
  const std::string prompt = r.prompt("faithful to the context");
  BOOST_TEST(cli_judge_evaluators_has(prompt, "[1] CTX-ONE: Paris is the capital of France."));
  BOOST_TEST(cli_judge_evaluators_has(prompt, "[2] CTX-TWO"));
  BOOST_TEST(cli_judge_evaluators_has(prompt, "ACTUAL-A: Paris is the capital."));
}

BOOST_FIXTURE_TEST_CASE(hallucination_succeeds_at_or_below_its_threshold, Ran) {
  const auto& r = shared_run();
  const json::object strict = r.result("hallucination_strict");
  const json::object lenient = r.result("hallucination_lenient");
  BOOST_TEST(cli_judge_evaluators_score(strict) == 2.0 / 3.0, tt::tolerance(1e-9));  // "no" and "idk" are unsupported
  BOOST_TEST(cli_judge_evaluators_score(lenient) == 2.0 / 3.0, tt::tolerance(1e-9));
  BOOST_TEST(!strict.at("success").as_bool());  // 0.67 > 0.3: too much hallucinated
  BOOST_TEST(lenient.at("success").as_bool());  // 0.67 <= 0.7
  BOOST_TEST(!reason(strict).empty());
  const auto prompts = r.prompts("statements that its context does not back up");
  BOOST_TEST_REQUIRE(prompts.size() == 2u);
  BOOST_TEST(cli_judge_evaluators_has(prompts[0], "[1] CTX-ONE"));
  BOOST_TEST(cli_judge_evaluators_has(prompts[0], "ACTUAL-A"));
}

BOOST_FIXTURE_TEST_CASE(contextual_relevance_asks_once_per_chunk_and_averages, Ran) {
  const auto& r = shared_run();
  const json::object result = r.result("contextual_relevance");
  BOOST_TEST(cli_judge_evaluators_score(result) == 0.5, tt::tolerance(1e-9));  // (0.9 + 0.1) / 2
  BOOST_TEST(result.at("success").as_bool());
  BOOST_TEST(reason(result) == "1 of 2 retrieved chunks are relevant to the input (score >= 0.5)");
  const std::string relevant = r.prompt("CHUNK-RELEVANT");
  BOOST_TEST(cli_judge_evaluators_has(relevant, "INPUT-Q"));
  BOOST_TEST(!cli_judge_evaluators_has(relevant, "CHUNK-OFFTOPIC"));  // each chunk on its own
  BOOST_TEST(cli_judge_evaluators_has(r.prompt("CHUNK-OFFTOPIC"), "INPUT-Q"));
}

BOOST_FIXTURE_TEST_CASE(task_completion_counts_completed_tasks, Ran) {
  const auto& r = shared_run();
  const json::object result = r.result("task_completion");
  BOOST_TEST(cli_judge_evaluators_score(result) == 0.5, tt::tolerance(1e-9));
  BOOST_TEST(!result.at("success").as_bool());  // 0.5 < 0.6
  BOOST_TEST(reason(result) == "1 of 2 tasks completed");
  const std::string prompt = r.prompt("completed the tasks a user gave it");
  BOOST_TEST(cli_judge_evaluators_has(prompt, "User: INPUT-Q"));
  BOOST_TEST(cli_judge_evaluators_has(prompt, "Agent: ACTUAL-A"));
  BOOST_TEST(cli_judge_evaluators_has(prompt, "1. TASK-ONE: name the capital"));
  BOOST_TEST(cli_judge_evaluators_has(prompt, "2. TASK-TWO: give the founding year"));
  BOOST_TEST(cli_judge_evaluators_has(prompt, "CONSTRAINT-X: cite the context"));
}

BOOST_FIXTURE_TEST_CASE(tool_argument_hallucination_shows_calls_with_arguments_and_results, Ran) {
  const auto& r = shared_run();
  const json::object result = r.result("tool_argument_hallucination");
  BOOST_TEST(cli_judge_evaluators_score(result) == 0.5, tt::tolerance(1e-9));
  BOOST_TEST(result.at("success").as_bool());
  BOOST_TEST(reason(result) == "1 of 2 tool calls have grounded arguments");
  const std::string prompt = r.prompt("arguments an AI agent passed to its tools");
  BOOST_TEST(cli_judge_evaluators_has(prompt, "INPUT-Q"));
  BOOST_TEST(cli_judge_evaluators_has(prompt, "[1] lookup_city\nArguments:"));
  BOOST_TEST(cli_judge_evaluators_has(prompt, "\"city\": \"Paris\""));
  BOOST_TEST(cli_judge_evaluators_has(prompt, "Result:\nCITY-RESULT: population 2.1M"));
  BOOST_TEST(cli_judge_evaluators_has(prompt, "[2] convert_units\nArguments:"));
  BOOST_TEST(cli_judge_evaluators_has(prompt, "INVENTED-VALUE"));
}

BOOST_FIXTURE_TEST_CASE(trajectory_judge_asks_once_per_criterion_and_aggregates, Ran) {
  const auto& r = shared_run();
  const json::object result = r.result("trajectory_judge");
  BOOST_TEST(cli_judge_evaluators_score(result) == 0.7, tt::tolerance(1e-9));  // mean of 8/10 and 0.6
  BOOST_TEST(result.at("success").as_bool());
  BOOST_TEST(cli_judge_evaluators_has(reason(result), "mean of 2 criteria; lowest: goal_completion (0.6): REASON-GOAL"));
  const std::string clarity = r.prompt("Criterion: clarity");
  BOOST_TEST(cli_judge_evaluators_has(clarity, "USER: TRAJ-USER: book me a table for two"));
  BOOST_TEST(cli_judge_evaluators_has(clarity, "ASSISTANT: TRAJ-ASSISTANT: booked for 8 pm"));
  BOOST_TEST(!cli_judge_evaluators_has(clarity, "Criterion: goal_completion"));
  BOOST_TEST(cli_judge_evaluators_has(r.prompt("Criterion: goal_completion"), "TRAJ-USER"));
}

BOOST_FIXTURE_TEST_CASE(tool_call_accuracy_maps_one_to_five_and_shows_request_tools_and_responses, Ran) {
  const auto& r = shared_run();
  const json::object result = r.result("tool_call_accuracy");
  BOOST_TEST(cli_judge_evaluators_score(result) == 0.75, tt::tolerance(1e-12));  // (4 - 1) / 4
  BOOST_TEST(result.at("success").as_bool());                // threshold 0.75
  BOOST_TEST(reason(result) == "REASON-ACCURACY");
  const std::string prompt = r.prompt("were they the right calls");
  BOOST_TEST(cli_judge_evaluators_has(prompt, "OJ-USER: how many people live in Paris?"));
  BOOST_TEST(cli_judge_evaluators_has(prompt, "Look up facts about a city"));  // the tool definitions
  BOOST_TEST(cli_judge_evaluators_has(prompt, "[1] lookup_city\nArguments:"));
  BOOST_TEST(cli_judge_evaluators_has(prompt, "Response:\nOJ-RESULT: 2.1 million"));
  BOOST_TEST(!cli_judge_evaluators_has(prompt, "OJ-SYSTEM"));
}

BOOST_FIXTURE_TEST_CASE(plan_feasibility_shows_plan_observation_and_memory, Ran) {
  const auto& r = shared_run();
  const json::object result = r.result("plan_feasibility");
  BOOST_TEST(cli_judge_evaluators_score(result) == 0.0);
  BOOST_TEST(!result.at("success").as_bool());
  BOOST_TEST(reason(result) == "REASON-PLAN");
  const std::string prompt = r.prompt("plan can actually be carried out");
  BOOST_TEST(cli_judge_evaluators_has(prompt, "PLAN-X: open the drawer, then take the key"));
  BOOST_TEST(cli_judge_evaluators_has(prompt, "OBS-X: the drawer is locked"));
  BOOST_TEST(cli_judge_evaluators_has(prompt, "MEM-X: no key seen yet"));
}

BOOST_FIXTURE_TEST_CASE(trajectory_comprehensive_scores_the_steps, Ran) {
  const auto& r = shared_run();
  const json::object result = r.result("trajectory_comprehensive");
  BOOST_TEST(cli_judge_evaluators_score(result) == 0.75, tt::tolerance(1e-12));  // all 4s: (4 - 1) / 4
  BOOST_TEST(!result.at("success").as_bool());               // below resolution_threshold 0.8
  BOOST_TEST(reason(result) == "Step 0: REASON-STEP");
  const std::string prompt = r.prompt("Rate every step on four dimensions");
  BOOST_TEST(cli_judge_evaluators_has(prompt, "[step 0] lookup_city("));
  BOOST_TEST(cli_judge_evaluators_has(prompt, "OJ-RESULT: 2.1 million"));
  BOOST_TEST(cli_judge_evaluators_has(prompt, "OJ-USER"));
  BOOST_TEST(!cli_judge_evaluators_has(prompt, "OJ-SYSTEM"));  // system messages left out
}

BOOST_FIXTURE_TEST_CASE(tool_name_reliability_asks_the_judge_once_per_tool_by_name_only, Ran) {
  const auto& r = shared_run();
  const json::object result = r.result("tool_name_reliability");
  // lookup_city passes all five checks; get_city_with_llm fails the blocklist (so intent fails even
  // though the judge passed it) and the judge's name_order: 3 of 5. Mean over the tools: 0.8.
  BOOST_TEST(cli_judge_evaluators_score(result) == 0.8, tt::tolerance(1e-9));
  BOOST_TEST(result.at("success").as_bool());
  BOOST_TEST(!reason(result).empty());
  const std::string prompt = r.prompt("Tool name: lookup_city");
  BOOST_TEST(!cli_judge_evaluators_has(prompt, "Look up facts about a city"));  // the name alone is judged
  BOOST_TEST(!cli_judge_evaluators_has(prompt, "get_city_with_llm"));
  BOOST_TEST(cli_judge_evaluators_has(r.prompt("Tool name: get_city_with_llm"), "name_order"));
}

BOOST_AUTO_TEST_SUITE_END()
