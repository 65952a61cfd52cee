#include "openjudge_tool_call_sequence_match.h"

#include "openjudge_argument_text.h"
#include "openjudge_python_repr.h"

#include <cstdio>
#include <map>
#include <optional>
#include <set>
#include <utility>

namespace krino::agent::openjudge {

const char* const ToolCallSequenceMatchEvaluator::kConfigSchema = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "tool_call_sequence_match",
  "description": "OpenJudge's tool call sequence match: the conversation's tool calls against a reference sequence of steps, by Jaccard similarity or step by step.",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "tool_call_sequence_match",
             "description": "Name of the result; results are aggregated and gated by this name."},
    "threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 1.0,
                  "description": "The result succeeds when score >= threshold; the default requires a full match."},
    "messages_key": {"type": "string", "minLength": 1, "default": "conversation",
                     "description": "Key of actualOutputs holding the OpenAI-style message list. When not set, 'conversation' is read and, if absent, 'messages'."},
    "reference_key": {"type": "string", "minLength": 1, "default": "referenceToolCalls",
                      "description": "Key of expectedOutputs holding the reference: a list of steps, each a list of {\"name\", \"arguments\"} calls."},
    "strict_mode": {"type": "boolean", "default": true,
                    "description": "true compares names and parameters (parameters in their Python repr, so key order and 1 vs 1.0 matter); false compares names only."},
    "use_jaccard_similarity": {"type": "boolean", "default": true,
                               "description": "true scores the Jaccard similarity of all calls, ignoring steps; false averages a score per reference step."},
    "metric_type": {"type": "string", "enum": ["recall", "precision"], "default": "recall",
                    "description": "Loose step-by-step scoring only: the share of reference names found (recall) or of predicted names expected (precision)."}
  },
  "additionalProperties": false
})json";

namespace {

std::vector<SequenceCall> to_sequence_calls(const std::vector<ToolCallView>& calls) {
  std::vector<SequenceCall> out;
  for (const ToolCallView& call : calls) out.push_back({call.name, call_parameters(call.arguments)});
  return out;
}

CallSteps predicted_steps(const boost::json::array& messages) {
  CallSteps steps;
  for (const auto& calls : tool_call_steps(messages)) steps.push_back(to_sequence_calls(calls));
  return steps;
}

CallSteps reference_steps(const boost::json::value& reference, const std::string& where) {
  if (!reference.is_array()) throw invalid_argument(where + " must be a list of steps");
  CallSteps steps;
  for (std::size_t i = 0; i < reference.get_array().size(); ++i) {
    const boost::json::value& step = reference.get_array()[i];
    const std::string step_where = where + "[" + std::to_string(i) + "]";
    std::vector<ToolCallView> calls;
    if (step.is_object()) {
      calls.push_back(read_tool_call(step.get_object()));
    } else if (step.is_array()) {
      for (const auto& call : step.get_array()) {
        if (!call.is_object()) throw invalid_argument(step_where + " must hold tool call objects");
        calls.push_back(read_tool_call(call.get_object()));
      }
    } else {
      throw invalid_argument(step_where + " must be a list of tool calls");
    }
    steps.push_back(to_sequence_calls(calls));
  }
  return steps;
}

std::size_t call_count(const CallSteps& steps) {
  std::size_t count = 0;
  for (const auto& step : steps) count += step.size();
  return count;
}

// --- Jaccard mode ---------------------------------------------------------------------------

std::set<std::string> jaccard_elements(const CallSteps& steps, bool strict) {
  std::set<std::string> elements;
  for (const auto& step : steps)
    for (const SequenceCall& call : step) elements.insert(strict ? call.name + ": " + python_str(call.parameters) : call.name);
  return elements;
}

boost::json::array to_json(const std::set<std::string>& elements) {
  boost::json::array out;
  for (const auto& element : elements) out.emplace_back(element);
  return out;
}

// --- step-by-step mode ----------------------------------------------------------------------

// The F1 elements of a call's parameters: every key and every value in str() form.
std::set<std::string> parameter_elements(const SequenceCall& call) {
  std::set<std::string> elements;
  if (!call.parameters.is_object()) return elements;
  for (const auto& member : call.parameters.get_object()) {
    elements.insert(std::string(member.key()));
    elements.insert(python_str(member.value()));
  }
  return elements;
}

double parameter_f1(const SequenceCall& reference, const SequenceCall& predicted) {
  const std::set<std::string> expected = parameter_elements(reference);
  const std::set<std::string> actual = parameter_elements(predicted);
  if (expected.empty() && actual.empty()) return 1.0;
  if (expected.empty() || actual.empty()) return 0.0;
  std::size_t shared = 0;
  for (const auto& element : expected) shared += actual.count(element);
  if (shared == 0) return 0.0;
  const double precision = static_cast<double>(shared) / static_cast<double>(actual.size());
  const double recall = static_cast<double>(shared) / static_cast<double>(expected.size());
  return 2 * (precision * recall) / (precision + recall);
}

// How many reference names the predicted step lacks, counting repeats.
std::size_t missing_names(const std::vector<SequenceCall>& reference, const std::vector<SequenceCall>& predicted) {
  std::map<std::string, std::size_t> available;
  for (const SequenceCall& call : predicted) ++available[call.name];
  std::size_t missing = 0;
  for (const SequenceCall& call : reference) {
    auto it = available.find(call.name);
    if (it == available.end() || it->second == 0) ++missing;
    else --it->second;
  }
  return missing;
}

double strict_step_score(const std::vector<SequenceCall>& reference, const std::vector<SequenceCall>& predicted) {
  if (missing_names(reference, predicted) > 0 || reference.empty()) return 0.0;
  double sum = 0.0;
  for (const SequenceCall& expected : reference) {
    for (const SequenceCall& actual : predicted) {
      if (actual.name != expected.name) continue;
      sum += parameter_f1(expected, actual);
      break;
    }
  }
  return sum / static_cast<double>(reference.size());
}

double loose_step_score(const std::vector<SequenceCall>& reference, const std::vector<SequenceCall>& predicted,
                        bool precision) {
  const std::size_t matched = reference.size() - missing_names(reference, predicted);
  if (!precision) return reference.empty() ? 1.0 : static_cast<double>(matched) / static_cast<double>(reference.size());
  if (predicted.empty()) return reference.empty() ? 1.0 : 0.0;
  return static_cast<double>(matched) / static_cast<double>(predicted.size());
}

}  // namespace

boost::json::value call_parameters(const boost::json::value* arguments) {
  if (arguments == nullptr || arguments->is_null()) return boost::json::object();
  if (!arguments->is_string()) return *arguments;
  std::optional<boost::json::value> parsed = parse_argument_text(arguments->get_string());
  if (!parsed) return boost::json::object();
  return std::move(*parsed);
}

ToolCallSequenceMatchEvaluator::ToolCallSequenceMatchEvaluator(Config config)
    : common_(read_common_options(apply_schema(config, kConfigSchema))),
      messages_(config),
      reference_key_(read_key_option(config, "reference_key")),
      strict_(config.get_bool("strict_mode")),
      jaccard_(config.get_bool("use_jaccard_similarity")),
      precision_(read_choice(config, "metric_type", {"recall", "precision"}) == "precision") {}

EvalResult ToolCallSequenceMatchEvaluator::evaluate(const TestCase& test_case, CallContext&) const {
  const boost::json::array* messages = messages_.find(test_case);
  // No conversation at all is the system under test's failure, scored like any other.
  if (messages == nullptr) return EvalResult::scored(common_.name, 0.0, common_.threshold, messages_.describe_missing());
  const boost::json::value* reference = test_case.find(Section::expected_outputs, reference_key_);
  // A missing reference is the dataset's mistake, not the agent's: an item error, not a score.
  if (reference == nullptr || reference->is_null())
    throw invalid_argument("expectedOutputs has no '" + reference_key_ +
                           "': give the reference tool calls as a list of steps, each a list of calls");

  const CallSteps predicted = predicted_steps(*messages);
  const CallSteps expected = reference_steps(*reference, "expectedOutputs." + reference_key_);
  boost::json::object metadata;
  metadata["strict_mode"] = strict_;
  metadata["use_jaccard_similarity"] = jaccard_;
  metadata["predicted_tool_count"] = call_count(predicted);
  metadata["reference_tool_count"] = call_count(expected);
  metadata["predicted_step_count"] = predicted.size();
  metadata["reference_step_count"] = expected.size();
  if (predicted.empty() && expected.empty()) {
    EvalResult result = EvalResult::scored(common_.name, 1.0, common_.threshold,
                                           "neither the conversation nor the reference has tool calls");
    result.metadata = std::move(metadata);
    return result;
  }

  double score = 0.0;
  std::string measure;
  if (jaccard_) {
    measure = "jaccard_similarity";
    const std::set<std::string> actual = jaccard_elements(predicted, strict_);
    const std::set<std::string> wanted = jaccard_elements(expected, strict_);
    std::set<std::string> shared;
    std::set<std::string> combined = actual;
    for (const auto& element : wanted) {
      if (actual.count(element) > 0) shared.insert(element);
      combined.insert(element);
    }
    // Both sets are empty when the only steps are empty ones ([[]]): 1.0, as in OpenJudge.
    // Exactly one side without calls scores 0.
    if (actual.empty() && wanted.empty()) score = 1.0;
    else if (!actual.empty() && !wanted.empty())
      score = static_cast<double>(shared.size()) / static_cast<double>(combined.size());
    metadata["jaccard_similarity_score"] = score;
    metadata["intersection_set"] = to_json(shared);
    metadata["union_set"] = to_json(combined);
  } else {
    measure = "step_matching";
    boost::json::array step_scores;
    if (expected.empty()) {
      score = predicted.empty() ? 1.0 : 0.0;
    } else {
      double sum = 0.0;
      for (std::size_t i = 0; i < expected.size(); ++i) {
        double step_score = 0.0;
        if (i < predicted.size())
          step_score = strict_ ? strict_step_score(expected[i], predicted[i])
                               : loose_step_score(expected[i], predicted[i], precision_);
        step_scores.push_back(step_score);
        sum += step_score;
      }
      score = sum / static_cast<double>(expected.size());
    }
    metadata["step_matching_score"] = score;
    metadata["step_scores"] = std::move(step_scores);
    if (!strict_) metadata["metric_type"] = precision_ ? "precision" : "recall";
  }

  char score_text[32];
  std::snprintf(score_text, sizeof(score_text), "%.3f", score);
  std::string reason = std::string("Tool call sequence evaluation (") + (strict_ ? "strict" : "loose") + " mode, " +
                       (jaccard_ ? "jaccard" : "step-by-step") + "): " + measure + "=" + score_text;
  EvalResult result = EvalResult::scored(common_.name, score, common_.threshold, std::move(reason));
  result.metadata = std::move(metadata);
  return result;
}

}  // namespace krino::agent::openjudge
