// The OpenJudge rubric graders: what each shows the judge, the native scale and
// its mapping to 0..1, empty inputs, unreadable replies, and registration.
#include "judge_test_support.hpp"
#include "loaded_module.hpp"
#include "openjudge_rubric_grader.h"
#include "test_paths.hpp"

#include <algorithm>
#include <string>
#include <vector>

namespace {

using krino::judge::openjudge::RubricGraderOf;
using krino::judge::openjudge::RubricKind;
using namespace krino::judge::testing;

// Every step field with a text that names it, so a prompt shows which fields it holds.
const std::string kStepCase =
    R"({"inputs":{},"actualOutputs":{"plan":"PLAN: open drawer 1 to find the key","action":"ACTION: open drawer 1",)"
    R"("observation":"OBSERVATION: cabinet 1 at (3.5, 2.1) holds 5 red apples","memory":"MEMORY: 5 red apples in cabinet 1",)"
    R"("reflection":"REFLECTION: the drawer was empty","history":[{"step":1,"action":"look"}]},)"
    R"("expectedOutputs":{},"metadata":{"context":"CONTEXT: find the key"}})";

// An OpenJudge message list: a system prompt, a request, two answered calls and one unanswered.
const std::string kToolCase =
    R"({"inputs":{},"actualOutputs":{"conversation":[)"
    R"({"role":"system","content":"SYSTEM PROMPT"},)"
    R"({"role":"user","content":"Find Python files changed this week"},)"
    R"({"role":"assistant","content":null,"tool_calls":[)"
    R"({"id":"1","type":"function","function":{"name":"search_files","arguments":"{\"pattern\": \"*.py\"}"}},)"
    R"({"id":"2","type":"function","function":{"name":"git_log","arguments":"{\"days\": 7}"}}]},)"
    R"({"role":"tool","tool_call_id":"1","content":"RESULT-1: main.py, utils.py"},)"
    R"({"role":"tool","tool_call_id":"2","content":"RESULT-2: error: timeout"},)"
    R"({"role":"assistant","tool_calls":[{"id":"3","function":{"name":"notify","arguments":{"to":"me"}}}]}]},)"
    R"("expectedOutputs":{},"metadata":{"tools":[{"name":"search_files","description":"Find files by pattern"},)"
    R"({"name":"git_log","description":"Get git commit history"}]}})";

const std::vector<std::string> kFieldTexts = {"PLAN:", "ACTION:", "OBSERVATION:", "MEMORY:", "REFLECTION:"};

template <RubricKind Kind>
void check_step_prompt(const std::vector<std::string>& shown) {
  ScriptedJudge judge;
  judge.reply(R"({"score": 1, "reason": "fine"})");
  const auto result = result_of(run<RubricGraderOf<Kind>>(judge, "{}", kStepCase));
  BOOST_TEST(score_of(result) == 1.0);
  BOOST_TEST_REQUIRE(judge.calls() == 1u);
  const std::string prompt = judge.prompt();
  for (const std::string& text : kFieldTexts) {
    const bool expected = std::find(shown.begin(), shown.end(), text) != shown.end();
    BOOST_TEST_CONTEXT(text) { BOOST_TEST(contains(prompt, text) == expected); }
  }
  BOOST_TEST(contains(prompt, "CONTEXT: find the key"));       // context from metadata
  BOOST_TEST(contains(prompt, "[1] {\n  \"step\": 1,"));       // history entries numbered, as pretty JSON
  BOOST_TEST(contains(prompt, "\"score\""));                  // asks for the reply shape it reads
}

BOOST_AUTO_TEST_SUITE(openjudge_rubric_graders)

BOOST_AUTO_TEST_CASE(each_step_grader_shows_exactly_its_fields) {
  check_step_prompt<RubricKind::action_alignment>({"PLAN:", "ACTION:"});
  check_step_prompt<RubricKind::memory_accuracy>({"OBSERVATION:", "MEMORY:"});
  check_step_prompt<RubricKind::memory_detail_preservation>({"OBSERVATION:", "MEMORY:"});
  check_step_prompt<RubricKind::memory_retrieval_effectiveness>({"PLAN:", "OBSERVATION:", "MEMORY:"});
  check_step_prompt<RubricKind::plan_feasibility>({"PLAN:", "OBSERVATION:", "MEMORY:"});
  check_step_prompt<RubricKind::reflection_accuracy>({"OBSERVATION:", "REFLECTION:"});
  check_step_prompt<RubricKind::reflection_outcome_understanding>({"OBSERVATION:", "REFLECTION:"});
  check_step_prompt<RubricKind::reflection_progress_awareness>({"OBSERVATION:", "REFLECTION:"});
}

BOOST_AUTO_TEST_CASE(binary_graders_keep_the_native_score_and_pass_on_one) {
  ScriptedJudge judge;
  judge.reply(R"({"score": 1, "reason": "the action follows the plan"})").reply(R"({"score": "0"})");
  const auto pass = result_of(run<RubricGraderOf<RubricKind::action_alignment>>(judge, "{}", kStepCase));
  BOOST_TEST(score_of(pass) == 1.0);
  BOOST_TEST(pass.at("success").as_bool());
  BOOST_TEST(pass.at("reason").as_string() == "the action follows the plan");
  BOOST_TEST(pass.at("metadata").at("nativeScore").to_number<double>() == 1.0);
  BOOST_TEST(pass.at("metadata").at("scale") == (boost::json::array{0.0, 1.0}));
  BOOST_TEST(pass.at("threshold").to_number<double>() == 0.5);

  const auto fail = result_of(run<RubricGraderOf<RubricKind::action_alignment>>(judge, "{}", kStepCase));
  BOOST_TEST(score_of(fail) == 0.0);
  BOOST_TEST(!fail.at("success").as_bool());
  BOOST_TEST(fail.at("reason").as_string() == "No reason provided.");
}

BOOST_AUTO_TEST_CASE(history_falls_back_to_the_message_list_and_context_to_none) {
  ScriptedJudge judge;
  judge.reply(R"({"score": 1})");
  const std::string test_case =
      R"({"inputs":{},"actualOutputs":{"observation":"It is dark.","reflection":"",)"
      R"("messages":[{"role":"system","content":"SECRET SYSTEM"},{"role":"user","content":"Find the lamp"},)"
      R"({"role":"assistant","content":"Looking","tool_calls":[{"id":"a","function":{"name":"look","arguments":"{}"}}]},)"
      R"({"role":"tool","tool_call_id":"a","content":"It is dark."}]},"expectedOutputs":{},"metadata":{}})";
  result_of(run<RubricGraderOf<RubricKind::reflection_accuracy>>(judge, "{}", test_case));
  const std::string prompt = judge.prompt();
  BOOST_TEST(contains(prompt, "USER: Find the lamp\n\nASSISTANT: Looking\n  [tool call] look({})\n\nTOOL (look): It is dark."));
  BOOST_TEST(!contains(prompt, "SECRET SYSTEM"));
  BOOST_TEST(contains(prompt, "The agent's reflection:\n(empty)"));  // present but blank: judged, shown as (empty)
  BOOST_TEST(contains(prompt, "Task context:\n(none)"));
}

BOOST_AUTO_TEST_CASE(key_options_move_the_fields) {
  ScriptedJudge judge;
  judge.reply(R"({"score": 1})");
  const std::string test_case =
      R"({"inputs":{},"actualOutputs":{"thought":"go north","act":"move north","notes":[]},)"
      R"("expectedOutputs":{},"metadata":{}})";
  result_of(run<RubricGraderOf<RubricKind::action_alignment>>(
      judge, R"({"plan_key":"thought","action_key":"act","history_key":"notes","name":"align","threshold":1})",
      test_case));
  const std::string prompt = judge.prompt();
  BOOST_TEST(contains(prompt, "The agent's plan:\ngo north"));
  BOOST_TEST(contains(prompt, "The action the agent then took:\nmove north"));
  BOOST_TEST(contains(prompt, "Earlier steps:\n(none)"));
}

BOOST_AUTO_TEST_CASE(a_missing_step_field_is_an_invalid_argument_without_a_judge_call) {
  ScriptedJudge judge;
  const auto outcome = run<RubricGraderOf<RubricKind::memory_accuracy>>(
      judge, "{}", R"({"inputs":{},"actualOutputs":{"observation":"x","memory":null},"expectedOutputs":{},"metadata":{}})");
  BOOST_TEST(outcome.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(contains(outcome.error, "memory_accuracy requires 'actualOutputs.memory'"));
  BOOST_TEST(judge.calls() == 0u);
}

BOOST_AUTO_TEST_CASE(tool_selection_quality_maps_one_to_five_onto_zero_to_one) {
  ScriptedJudge judge;
  judge.reply(R"({"score": 4, "reason": "sensible"})")
      .reply(R"({"score": "5"})")
      .reply(R"({"score": 3})")
      .reply(R"({"score": 1})")
      .reply(R"({"score": 7})");
  const std::vector<double> expected = {0.75, 1.0, 0.5, 0.0, 1.0};
  const std::vector<double> natives = {4, 5, 3, 1, 7};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    const auto result = result_of(run<RubricGraderOf<RubricKind::tool_selection_quality>>(judge, "{}", kToolCase));
    BOOST_TEST_CONTEXT("reply " << i) {
      BOOST_TEST(score_of(result) == expected[i]);
      BOOST_TEST(result.at("success").as_bool() == (expected[i] >= 0.75));
      BOOST_TEST(result.at("metadata").at("nativeScore").to_number<double>() == natives[i]);
      BOOST_TEST(result.at("metadata").at("scale") == (boost::json::array{1.0, 5.0}));
      BOOST_TEST(result.at("metadata").at("toolCallCount").to_number<int>() == 3);
    }
  }
  const std::string prompt = judge.prompt();
  BOOST_TEST(contains(prompt, "User's request:\nFind Python files changed this week"));
  BOOST_TEST(contains(prompt, "\"description\": \"Get git commit history\""));
  BOOST_TEST(contains(prompt, "[1] search_files\nArguments:\n{\n  \"pattern\": \"*.py\"\n}"));
  BOOST_TEST(contains(prompt, "[2] git_log\nArguments:\n{\n  \"days\": 7\n}"));
  BOOST_TEST(contains(prompt, "[3] notify"));
  BOOST_TEST(!contains(prompt, "RESULT-1"));  // selection is about the choice, not the results
  BOOST_TEST(!contains(prompt, "SYSTEM PROMPT"));
}

BOOST_AUTO_TEST_CASE(tool_call_accuracy_and_success_show_the_responses) {
  ScriptedJudge judge;
  judge.reply(R"({"score": 2, "reason": "wrong parameters"})").reply(R"({"score": 0, "reason": "git_log timed out"})");
  const auto accuracy = result_of(run<RubricGraderOf<RubricKind::tool_call_accuracy>>(judge, "{}", kToolCase));
  BOOST_TEST(score_of(accuracy) == 0.25);
  BOOST_TEST(!accuracy.at("success").as_bool());
  const std::string accuracy_prompt = judge.prompt(0);
  BOOST_TEST(contains(accuracy_prompt, "Find Python files changed this week"));
  BOOST_TEST(contains(accuracy_prompt, "}\nResponse:\nRESULT-1: main.py, utils.py"));
  BOOST_TEST(contains(accuracy_prompt, "Response:\nRESULT-2: error: timeout"));
  BOOST_TEST(contains(accuracy_prompt, "\"to\": \"me\"\n}\nResponse: (none)"));  // the unanswered call

  const auto success = result_of(run<RubricGraderOf<RubricKind::tool_call_success>>(judge, "{}", kToolCase));
  BOOST_TEST(score_of(success) == 0.0);
  BOOST_TEST(success.at("reason").as_string() == "git_log timed out");
  const std::string success_prompt = judge.prompt(1);
  BOOST_TEST(!contains(success_prompt, "Find Python files changed this week"));  // technical success only
  BOOST_TEST(contains(success_prompt, "RESULT-2: error: timeout"));
}

BOOST_AUTO_TEST_CASE(tool_parameter_check_shows_request_and_arguments_not_responses) {
  ScriptedJudge judge;
  judge.reply(R"(```json
{"score": 1, "reason": "all grounded"}
```)");
  const auto result = result_of(run<RubricGraderOf<RubricKind::tool_parameter_check>>(judge, "{}", kToolCase));
  BOOST_TEST(score_of(result) == 1.0);
  BOOST_TEST(result.at("success").as_bool());
  const std::string prompt = judge.prompt();
  BOOST_TEST(contains(prompt, "Find Python files changed this week"));
  BOOST_TEST(contains(prompt, "\"pattern\": \"*.py\""));
  BOOST_TEST(!contains(prompt, "RESULT-1"));
}

BOOST_AUTO_TEST_CASE(tool_graders_without_messages_or_calls_score_without_a_judge_call) {
  ScriptedJudge judge;
  const std::string no_messages = R"({"inputs":{},"actualOutputs":{},"expectedOutputs":{},"metadata":{"tools":[]}})";
  const auto missing = result_of(run<RubricGraderOf<RubricKind::tool_call_accuracy>>(judge, "{}", no_messages));
  BOOST_TEST(score_of(missing) == 0.0);
  BOOST_TEST(!missing.at("success").as_bool());
  BOOST_TEST(missing.at("metadata").at("evaluable").as_bool() == false);
  BOOST_TEST(contains(missing.at("reason").as_string(), "neither 'conversation' nor 'messages'"));

  const std::string no_calls =
      R"({"inputs":{},"actualOutputs":{"messages":[{"role":"user","content":"hi"},{"role":"assistant","content":"hello"}]},)"
      R"("expectedOutputs":{},"metadata":{}})";
  const auto selection = result_of(run<RubricGraderOf<RubricKind::tool_selection_quality>>(judge, "{}", no_calls));
  BOOST_TEST(score_of(selection) == 0.0);  // the rubric's 1: no tool
  BOOST_TEST(selection.at("metadata").at("nativeScore").to_number<double>() == 1.0);
  const auto success = result_of(run<RubricGraderOf<RubricKind::tool_call_success>>(judge, "{}", no_calls));
  BOOST_TEST(score_of(success) == 1.0);  // no call failed
  const auto parameters = result_of(run<RubricGraderOf<RubricKind::tool_parameter_check>>(judge, "{}", no_calls));
  BOOST_TEST(score_of(parameters) == 1.0);  // no parameter wrong
  BOOST_TEST(judge.calls() == 0u);
}

BOOST_AUTO_TEST_CASE(tool_graders_need_definitions_and_a_request) {
  ScriptedJudge judge;
  const std::string calls =
      R"([{"role":"assistant","tool_calls":[{"id":"1","function":{"name":"f","arguments":"{}"}}]}])";
  const auto no_tools = run<RubricGraderOf<RubricKind::tool_selection_quality>>(
      judge, "{}", R"({"inputs":{},"actualOutputs":{"conversation":)" + calls + R"(},"expectedOutputs":{},"metadata":{}})");
  BOOST_TEST(no_tools.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(contains(no_tools.error, "'metadata.tools'"));

  const auto no_request = run<RubricGraderOf<RubricKind::tool_selection_quality>>(
      judge, "{}",
      R"({"inputs":{},"actualOutputs":{"conversation":)" + calls + R"(},"expectedOutputs":{},"metadata":{"tools":[]}})");
  BOOST_TEST(no_request.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(contains(no_request.error, "'inputs.input'"));
  BOOST_TEST(judge.calls() == 0u);

  judge.reply(R"({"score": 5})");
  result_of(run<RubricGraderOf<RubricKind::tool_selection_quality>>(
      judge, "{}",
      R"({"inputs":{"input":"REQUEST FROM INPUTS"},"actualOutputs":{"conversation":)" + calls +
          R"(},"expectedOutputs":{},"metadata":{"tools":[]}})"));
  BOOST_TEST(contains(judge.prompt(), "User's request:\nREQUEST FROM INPUTS"));
}

BOOST_AUTO_TEST_CASE(an_unreadable_reply_or_one_without_a_score_is_an_item_error) {
  ScriptedJudge judge;
  judge.reply("The plan is followed, I would say yes.").reply(R"({"reason": "fine"})").reply(R"({"score": "high"})");
  const auto prose = run<RubricGraderOf<RubricKind::plan_feasibility>>(judge, "{}", kStepCase);
  BOOST_TEST(prose.status == KRINO_INTERNAL);
  BOOST_TEST(contains(prose.error, "plan_feasibility"));
  BOOST_TEST(contains(prose.error, "The plan is followed"));
  const auto no_score = run<RubricGraderOf<RubricKind::plan_feasibility>>(judge, "{}", kStepCase);
  BOOST_TEST(no_score.status == KRINO_INTERNAL);
  BOOST_TEST(contains(no_score.error, "'score'"));
  const auto words = run<RubricGraderOf<RubricKind::tool_call_accuracy>>(judge, "{}", kToolCase);
  BOOST_TEST(words.status == KRINO_INTERNAL);
}

BOOST_AUTO_TEST_CASE(options_are_checked) {
  ScriptedJudge judge;
  const auto unknown = run<RubricGraderOf<RubricKind::tool_call_success>>(judge, R"({"plan_key":"x"})", kToolCase);
  BOOST_TEST(unknown.status == KRINO_INVALID_ARGUMENT);
  const auto placeholder = run<RubricGraderOf<RubricKind::tool_call_success>>(
      judge, R"({"prompt":"{{query}} {{tool_calls}}"})", kToolCase);  // success shows no request
  BOOST_TEST(placeholder.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(contains(placeholder.error, "query"));

  judge.reply(R"({"score": 1})");
  result_of(run<RubricGraderOf<RubricKind::memory_accuracy>>(
      judge, R"({"prompt":"M={{memory}} O={{observation}} answer {\"score\":0|1}"})", kStepCase));
  BOOST_TEST(judge.prompt() ==
             "M=MEMORY: 5 red apples in cabinet 1 O=OBSERVATION: cabinet 1 at (3.5, 2.1) holds 5 red apples answer "
             "{\"score\":0|1}");
}

BOOST_AUTO_TEST_CASE(all_thirteen_are_registered_thread_safe_and_needing_a_judge) {
  krino::test::LoadedModule module(std::string(KRINO_PLUGIN_BUILD_DIR) + "/krino-judge.so");
  for (const char* name :
       {"action_alignment", "tool_selection_quality", "tool_call_accuracy", "tool_call_success", "tool_parameter_check",
        "memory_accuracy", "memory_detail_preservation", "memory_retrieval_effectiveness", "plan_feasibility",
        "reflection_accuracy", "reflection_outcome_understanding", "reflection_progress_awareness",
        "trajectory_comprehensive"}) {
    BOOST_TEST_CONTEXT(name) {
      const krino_component* component = module.component(name);
      BOOST_TEST_REQUIRE(component != nullptr);
      BOOST_TEST(component->kind == KRINO_KIND_EVALUATOR);
      BOOST_TEST(std::string(component->id) == std::string("krino.") + name);
      BOOST_TEST(component->capabilities == (KRINO_CAP_THREAD_SAFE | KRINO_CAP_NEEDS_JUDGE));
      const boost::json::value schema = boost::json::parse(component->config_schema);
      BOOST_TEST(schema.at("title").as_string() == name);
      BOOST_TEST(schema.at("properties").as_object().contains("messages_key"));
    }
  }
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
