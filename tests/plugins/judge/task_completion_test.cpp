#include "judge_test_support.hpp"
#include "task_completion_evaluator.h"

namespace {

using krino::judge::TaskCompletionEvaluator;
using namespace krino::judge::testing;

const std::string kTaskCompletionCase =
    R"({"inputs":{"input":"Find flights to Paris and book a hotel for 5 nights"},)"
    R"("actualOutputs":{"output":"Found flights; the hotel is booked."},"expectedOutputs":{},)"
    R"("metadata":{"tasks":["Search flights","Book hotel"],"constraints":"Budget under $500"}})";

BOOST_AUTO_TEST_SUITE(task_completion)

BOOST_AUTO_TEST_CASE(score_is_completed_over_tasks_and_the_prompt_holds_dialog_tasks_constraints) {
  ScriptedJudge judge;
  judge.reply(R"({"tasks":[{"task":"Search flights","completed":true,"reason":"done"},)"
              R"({"task":"Book hotel","completed":false,"reason":"over budget"}]})");
  const auto result = result_of(run<TaskCompletionEvaluator>(judge, "{}", kTaskCompletionCase));
  BOOST_TEST(score_of(result) == 0.5);
  BOOST_TEST(result.at("success").as_bool());  // default threshold 0.5
  const auto& tasks = result.at("metadata").at("taskResults").as_array();
  BOOST_TEST_REQUIRE(tasks.size() == 2u);
  BOOST_TEST(tasks[1].at("completed").as_bool() == false);
  BOOST_TEST(tasks[1].at("reason").as_string() == "over budget");

  const std::string prompt = judge.prompt();
  BOOST_TEST(contains(prompt, "User: Find flights to Paris and book a hotel for 5 nights\n\nAgent: Found flights; the hotel is booked."));
  BOOST_TEST(contains(prompt, "1. Search flights\n2. Book hotel"));
  BOOST_TEST(contains(prompt, "Budget under $500"));
}

BOOST_AUTO_TEST_CASE(without_output_the_dialog_is_the_input_alone) {
  ScriptedJudge judge;
  judge.reply(R"({"tasks":[{"task":"Search flights","completed":true},{"task":"Book hotel","completed":true},)"
              R"({"task":"extra","completed":true}]})");
  const auto result = result_of(run<TaskCompletionEvaluator>(
      judge, "{}",
      R"({"inputs":{"input":"user: hi\nassistant: done"},"actualOutputs":{},"expectedOutputs":{},)"
      R"("metadata":{"tasks":["Search flights","Book hotel"]}})"));
  BOOST_TEST(score_of(result) == 1.0);  // min(1, 3/2)
  const std::string prompt = judge.prompt();
  BOOST_TEST(!contains(prompt, "User: "));
  BOOST_TEST(contains(prompt, "user: hi\nassistant: done"));
  BOOST_TEST(contains(prompt, "(none)"));
}

BOOST_AUTO_TEST_CASE(empty_tasks_score_one_and_missing_tasks_or_bad_replies_are_errors) {
  ScriptedJudge judge;
  const auto empty = result_of(run<TaskCompletionEvaluator>(
      judge, "{}", R"({"inputs":{"input":"x"},"actualOutputs":{},"expectedOutputs":{},"metadata":{"tasks":[]}})"));
  BOOST_TEST(score_of(empty) == 1.0);
  const auto missing = run<TaskCompletionEvaluator>(
      judge, "{}", R"({"inputs":{"input":"x"},"actualOutputs":{},"expectedOutputs":{},"metadata":{}})");
  BOOST_TEST(missing.status == KRINO_INVALID_ARGUMENT);
  BOOST_TEST(contains(missing.error, "'metadata.tasks'"));
  BOOST_TEST(judge.calls() == 0u);

  judge.reply(R"({"done": 2})");
  const auto no_list = run<TaskCompletionEvaluator>(judge, "{}", kTaskCompletionCase);
  BOOST_TEST(no_list.status == KRINO_INTERNAL);
  BOOST_TEST(contains(no_list.error, "no 'tasks' list"));
}

BOOST_AUTO_TEST_SUITE_END()

}  // namespace
