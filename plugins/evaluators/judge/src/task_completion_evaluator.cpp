#include "task_completion_evaluator.h"

#include "test_case_fields.h"
#include "value_rendering.h"

#include <algorithm>

namespace krino::judge {

const char* const TaskCompletionEvaluator::kConfigSchema = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "task_completion",
  "description": "Share of the tasks in metadata.tasks that the agent completed, as judged by an LLM from the user-agent dialog.",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "task_completion",
             "description": "Name of the result; results are aggregated and gated by this name."},
    "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 0.5,
                  "description": "The result succeeds when score >= threshold."},
    )json" KRINO_JUDGE_VOTING_PROPERTIES R"json("judge": {"type": "string", "minLength": 1, "description": "Name of a judge configured in the experiment file; the default judge when absent."},
    "prompt": {"type": "string", "minLength": 1, "description": "A prompt template replacing the built-in one. Placeholders: {{dialog}}, {{tasks}} (numbered, one per line), {{constraints}} ('(none)' when absent), {{input}}, {{actual_output}} (empty when absent)."},
    "input_key": {"type": "string", "minLength": 1, "default": "input", "description": "Key of the user's input (or the whole transcript) in inputs."},
    "output_key": {"type": "string", "minLength": 1, "default": "output", "description": "Key of the agent's final reply in actualOutputs; optional in the test case."},
    "tasks_key": {"type": "string", "minLength": 1, "default": "tasks", "description": "Key of the task list (strings) in metadata."},
    "constraints_key": {"type": "string", "minLength": 1, "default": "constraints", "description": "Key of the optional constraints in metadata."}
  },
  "additionalProperties": false
})json";

namespace {
const Variables kTaskCompletionVariables = {"dialog", "tasks", "constraints", "input", "actual_output"};
constexpr std::string_view kTaskCompletionName = "task_completion";

bool blank(std::string_view text) { return text.find_first_not_of(" \t\r\n") == std::string_view::npos; }
}  // namespace

TaskCompletionEvaluator::TaskCompletionEvaluator(Config config)
    : settings_(read_judge_settings(apply_schema(config, kConfigSchema), kTaskCompletionName, kTaskCompletionVariables)),
      input_key_(read_key_option(config, "input_key")),
      output_key_(read_key_option(config, "output_key")),
      tasks_key_(read_key_option(config, "tasks_key")),
      constraints_key_(read_key_option(config, "constraints_key")) {}

std::vector<std::string> TaskCompletionEvaluator::tasks(const TestCase& test_case) const {
  const boost::json::value& list = required_member(test_case, Section::metadata, tasks_key_, kTaskCompletionName);
  const std::string where = member_label(Section::metadata, tasks_key_);
  if (!list.is_array()) throw invalid_argument("task_completion: '" + where + "' must be a list of strings");
  std::vector<std::string> out;
  for (const boost::json::value& task : list.get_array()) {
    if (!task.is_string())
      throw invalid_argument("task_completion: '" + where + "'[" + std::to_string(out.size()) + "] must be a string");
    out.emplace_back(task.get_string());
  }
  return out;
}

std::string TaskCompletionEvaluator::prompt(const TestCase& test_case, const std::vector<std::string>& tasks) const {
  PromptTemplate::Values values;
  const std::string input = render_value(required_member(test_case, Section::inputs, input_key_, kTaskCompletionName));
  std::string output;
  if (const boost::json::value* value = test_case.find(Section::actual_outputs, output_key_);
      value != nullptr && !value->is_null())
    output = render_value(*value);
  values["dialog"] = blank(output) ? input : "User: " + input + "\n\nAgent: " + output;
  values["input"] = input;
  values["actual_output"] = output;
  std::string listed;
  for (std::size_t i = 0; i < tasks.size(); ++i) listed += (i > 0 ? "\n" : "") + std::to_string(i + 1) + ". " + tasks[i];
  values["tasks"] = std::move(listed);
  const boost::json::value* constraints = test_case.find(Section::metadata, constraints_key_);
  values["constraints"] = constraints == nullptr || constraints->is_null() ? "(none)" : render_value(*constraints);
  return settings_.prompt.render(values);
}

EvalResult TaskCompletionEvaluator::evaluate(const TestCase& test_case, CallContext& ctx) const {
  return run_votes(settings_.voting, settings_.common, Better::higher, ctx,
                   [&](const JudgeCall& call) { return evaluate_once(test_case, call); });
}

EvalResult TaskCompletionEvaluator::evaluate_once(const TestCase& test_case, const JudgeCall& call) const {
  const std::vector<std::string> task_list = tasks(test_case);
  if (task_list.empty()) {
    EvalResult result = EvalResult::scored(settings_.common.name, 1.0, settings_.common.threshold, "no tasks to complete");
    result.metadata["taskResults"] = boost::json::array();
    return result;
  }
  const boost::json::object reply = ask_judge(call, settings_, kTaskCompletionName, prompt(test_case, task_list), "tasks");
  const boost::json::value* list = reply.if_contains("tasks");
  if (list == nullptr || !list->is_array()) throw_unusable_reply(kTaskCompletionName, "has no 'tasks' list", reply);
  boost::json::array results;
  std::size_t completed = 0;
  for (const boost::json::value& entry : list->get_array()) {
    const boost::json::object* object = entry.if_object();
    const std::optional<bool> done = object != nullptr ? reply_bool(*object, "completed") : std::nullopt;
    if (!done) throw_unusable_reply(kTaskCompletionName, "has an entry in 'tasks' without a true or false 'completed'", reply);
    if (*done) ++completed;
    results.push_back(boost::json::object{
        {"task", reply_string(*object, "task")}, {"completed", *done}, {"reason", reply_string(*object, "reason")}});
  }
  const double score = std::min(1.0, static_cast<double>(completed) / static_cast<double>(task_list.size()));
  EvalResult result = EvalResult::scored(settings_.common.name, score, settings_.common.threshold,
                                         std::to_string(std::min(completed, task_list.size())) + " of " +
                                             std::to_string(task_list.size()) + " tasks completed");
  result.metadata["taskResults"] = std::move(results);
  return result;
}

}  // namespace krino::judge
