#include "tool_argument_hallucination_evaluator.h"

#include "test_case_fields.h"
#include "value_rendering.h"

#include <algorithm>

namespace krino::judge {

const char* const ToolArgumentHallucinationEvaluator::kConfigSchema = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "tool_argument_hallucination",
  "description": "Share of the agent's tool calls whose argument values an LLM judge finds grounded in the user's input or in earlier tool results.",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "tool_argument_hallucination",
             "description": "Name of the result; results are aggregated and gated by this name."},
    "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 0.8,
                  "description": "The result succeeds when score >= threshold (score = grounded calls / calls)."},
    )json" KRINO_JUDGE_VOTING_PROPERTIES R"json("judge": {"type": "string", "minLength": 1, "description": "Name of a judge configured in the experiment file; the default judge when absent."},
    "prompt": {"type": "string", "minLength": 1, "description": "A prompt template replacing the built-in one. Placeholders: {{input}}, {{tool_calls}} (numbered, each with its arguments as pretty JSON and its result when known)."},
    "input_key": {"type": "string", "minLength": 1, "default": "input", "description": "Key of the user's input in inputs."},
    "tool_calls_key": {"type": "string", "minLength": 1, "default": "toolCalls",
                       "description": "Key of the agent's tool calls in actualOutputs. A missing or null list means no calls."}
  },
  "additionalProperties": false
})json";

namespace {
const Variables kToolArgumentHallucinationVariables = {"input", "tool_calls"};
constexpr std::string_view kToolArgumentHallucinationName = "tool_argument_hallucination";
}  // namespace

ToolArgumentHallucinationEvaluator::ToolArgumentHallucinationEvaluator(Config config)
    : settings_(read_judge_settings(apply_schema(config, kConfigSchema), kToolArgumentHallucinationName, kToolArgumentHallucinationVariables)),
      input_key_(read_key_option(config, "input_key")),
      tool_calls_key_(read_key_option(config, "tool_calls_key")) {}

std::string ToolArgumentHallucinationEvaluator::prompt(const TestCase& test_case,
                                                       const std::vector<agent::ToolCall>& calls) const {
  std::string listed;
  for (std::size_t i = 0; i < calls.size(); ++i) {
    if (i > 0) listed += "\n\n";
    listed += "[" + std::to_string(i + 1) + "] " + calls[i].name + "\nArguments:\n" +
              pretty_json(boost::json::value(calls[i].arguments));
    if (calls[i].result) listed += "\nResult:\n" + *calls[i].result;
  }
  return settings_.prompt.render(
      {{"input", render_value(required_member(test_case, Section::inputs, input_key_, kToolArgumentHallucinationName))},
       {"tool_calls", std::move(listed)}});
}

EvalResult ToolArgumentHallucinationEvaluator::evaluate(const TestCase& test_case, CallContext& ctx) const {
  return run_votes(settings_.voting, settings_.common, Better::higher, ctx,
                   [&](const JudgeCall& call) { return evaluate_once(test_case, call); });
}

EvalResult ToolArgumentHallucinationEvaluator::evaluate_once(const TestCase& test_case, const JudgeCall& call) const {
  std::vector<agent::ToolCall> calls;
  if (const boost::json::value* list = test_case.find(Section::actual_outputs, tool_calls_key_);
      list != nullptr && !list->is_null())
    calls = agent::read_tool_calls(*list, member_label(Section::actual_outputs, tool_calls_key_), list->storage());
  if (calls.empty()) {
    EvalResult result = EvalResult::scored(settings_.common.name, 1.0, settings_.common.threshold, "no tool calls to check");
    result.metadata["verdicts"] = boost::json::array();
    return result;
  }
  const boost::json::object reply = ask_judge(call, settings_, kToolArgumentHallucinationName, prompt(test_case, calls), "verdicts");
  const boost::json::value* list = reply.if_contains("verdicts");
  if (list == nullptr || !list->is_array()) throw_unusable_reply(kToolArgumentHallucinationName, "has no 'verdicts' list", reply);
  boost::json::array verdicts;
  std::size_t grounded = 0;
  for (const boost::json::value& entry : list->get_array()) {
    const boost::json::object* object = entry.if_object();
    const std::optional<bool> ok = object != nullptr ? reply_bool(*object, "grounded") : std::nullopt;
    if (!ok) throw_unusable_reply(kToolArgumentHallucinationName, "has a verdict without a true or false 'grounded'", reply);
    if (*ok) ++grounded;
    verdicts.push_back(boost::json::object{
        {"toolName", reply_string(*object, "toolName")}, {"grounded", *ok}, {"reason", reply_string(*object, "reason")}});
  }
  const double score = std::min(1.0, static_cast<double>(grounded) / static_cast<double>(calls.size()));
  EvalResult result = EvalResult::scored(settings_.common.name, score, settings_.common.threshold,
                                         std::to_string(std::min(grounded, calls.size())) + " of " +
                                             std::to_string(calls.size()) + " tool calls have grounded arguments");
  result.metadata["verdicts"] = std::move(verdicts);
  return result;
}

}  // namespace krino::judge
