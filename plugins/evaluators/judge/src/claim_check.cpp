#include "claim_check.h"

#include "test_case_fields.h"
#include "value_rendering.h"

#include <cctype>
#include <utility>

namespace krino::judge {
namespace {

const Variables kClaimCheckVariables = {"actual_output", "context", "input"};

// "yes", "no" or "idk"; a boolean counts as yes or no. Empty when unreadable.
std::string read_verdict(const boost::json::value* value) {
  if (value == nullptr) return {};
  if (value->is_bool()) return value->get_bool() ? "yes" : "no";
  if (!value->is_string()) return {};
  std::string text(value->get_string());
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  if (text == "yes" || text == "no" || text == "idk") return text;
  return {};
}

}  // namespace

ClaimCheck::ClaimCheck(Config config, const char* schema, std::string evaluator, std::string list_key,
                       std::string item_key)
    : evaluator_(std::move(evaluator)),
      settings_(read_judge_settings(apply_schema(config, schema), evaluator_, kClaimCheckVariables)),
      list_key_(std::move(list_key)),
      item_key_(std::move(item_key)),
      output_key_(read_key_option(config, "output_key")),
      context_key_(read_key_option(config, "context_key")),
      input_key_(read_key_option(config, "input_key")) {}

std::string ClaimCheck::prompt(const TestCase& test_case) const {
  PromptTemplate::Values values;
  values["actual_output"] = render_value(required_member(test_case, Section::actual_outputs, output_key_, evaluator_));
  values["context"] = render_chunks(context_chunks(required_context(test_case, context_key_, evaluator_)));
  if (settings_.prompt.uses("input")) {
    const boost::json::value* input = test_case.find(Section::inputs, input_key_);
    if (input != nullptr && !input->is_null()) values["input"] = render_value(*input);
  }
  return settings_.prompt.render(values);
}

ClaimVerdicts ClaimCheck::run(const TestCase& test_case, const JudgeCall& call) const {
  const boost::json::object reply = ask_judge(call, settings_, evaluator_, prompt(test_case), list_key_);
  const boost::json::value* list = reply.if_contains(list_key_);
  if (list == nullptr || !list->is_array()) throw_unusable_reply(evaluator_, "has no '" + list_key_ + "' list", reply);
  ClaimVerdicts verdicts;
  for (const boost::json::value& entry : list->get_array()) {
    const boost::json::object* object = entry.if_object();
    const std::string verdict = object != nullptr ? read_verdict(object->if_contains("verdict")) : std::string();
    if (verdict.empty())
      throw_unusable_reply(evaluator_,
                           "has an entry in '" + list_key_ + "' without a verdict of yes, no or idk", reply);
    ++verdicts.total;
    if (verdict == "yes") ++verdicts.supported;
    verdicts.claims.push_back(boost::json::object{{item_key_, reply_string(*object, item_key_)},
                                                  {"verdict", verdict},
                                                  {"reason", reply_string(*object, "reason")}});
  }
  return verdicts;
}

ClaimEvaluator::ClaimEvaluator(Config config, const char* schema, std::string evaluator, std::string list_key,
                               std::string item_key, Better better, ResultOf result_of)
    : check_(std::move(config), schema, std::move(evaluator), std::move(list_key), std::move(item_key)),
      better_(better),
      result_of_(result_of) {}

EvalResult ClaimEvaluator::evaluate(const TestCase& test_case, CallContext& ctx) const {
  // One pass of judge calls per vote (voting.h).
  return run_votes(check_.voting(), check_.common(), better_, ctx,
                   [&](const JudgeCall& call) { return result_of_(check_.run(test_case, call), check_.common()); });
}

}  // namespace krino::judge
