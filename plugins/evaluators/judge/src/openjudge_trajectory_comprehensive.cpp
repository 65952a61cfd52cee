#include "openjudge_trajectory_comprehensive.h"

#include <krino/evaluator_options.hpp>
#include <krino/json_text.hpp>

#include <algorithm>
#include <array>

namespace krino::judge::openjudge {

const char* const TrajectoryComprehensiveGrader::kConfigSchema = R"json({
  "$schema": "http://json-schema.org/draft-07/schema#",
  "title": "trajectory_comprehensive",
  "description": "An LLM judge scores every tool-call step of the agent's messages 1-5 on contribution, relevance, accuracy and efficiency; the score is their mean mapped to 0..1.",
  "type": "object",
  "properties": {
    "name": {"type": "string", "minLength": 1, "default": "trajectory_comprehensive",
             "description": "Name of the result; results are aggregated and gated by this name."},
    "threshold": {"type": "number", "minimum": 0, "maximum": 1,
                  "description": "The result succeeds when score >= threshold; defaults to resolution_threshold."},
    "resolution_threshold": {"type": "number", "minimum": 0, "maximum": 1, "default": 0.8,
                             "description": "metadata.is_resolved is score >= resolution_threshold."},
    )json" KRINO_JUDGE_VOTING_PROPERTIES R"json("judge": {"type": "string", "minLength": 1, "description": "Name of a judge configured in the experiment file; the default judge when absent."},
    "prompt": {"type": "string", "minLength": 1, "description": "A prompt template replacing the built-in prompts/openjudge_trajectory_comprehensive.txt. Placeholders: {{trajectory}}, {{step_count}}."},
    "messages_key": {"type": "string", "minLength": 1, "default": "conversation",
                     "description": "Key of actualOutputs holding the OpenJudge message list; without it 'conversation', then 'messages'."}
  },
  "additionalProperties": false
})json";

namespace {

constexpr std::string_view kOpenjudgeTrajectoryComprehensiveName = "trajectory_comprehensive";
const Variables kOpenjudgeTrajectoryComprehensiveVariables = {"trajectory", "step_count"};
constexpr std::array<std::string_view, 4> kDimensions = {"contribution", "relevance", "accuracy", "efficiency"};

double read_resolution_threshold(const Config& config) {
  const double value = config.get_double("resolution_threshold");
  if (!(value >= 0.0 && value <= 1.0))
    throw invalid_argument("option 'resolution_threshold' must be between 0 and 1, got " +
                           json::to_compact_json(boost::json::value(value)));
  return value;
}

// `threshold` has no default of its own: left out, it is resolution_threshold.
CommonOptions read_comprehensive_common(const Config& config, double resolution_threshold) {
  return read_common_options(config, config.get_string("name"),
                             config.has("threshold") ? config.get_double("threshold") : resolution_threshold);
}

double normalised(double native) { return (std::clamp(native, 1.0, 5.0) - 1.0) / 4.0; }

// A dimension's number in a step entry: "<dimension>_score", else "<dimension>".
std::optional<double> dimension_score(const boost::json::object& entry, std::string_view dimension) {
  if (auto value = reply_number(entry, std::string(dimension) + "_score")) return value;
  return reply_number(entry, dimension);
}

}  // namespace

TrajectoryComprehensiveGrader::TrajectoryComprehensiveGrader(Config config)
    : resolution_threshold_(read_resolution_threshold(apply_schema(config, kConfigSchema))),
      settings_(read_judge_settings(config, read_comprehensive_common(config, resolution_threshold_), "openjudge_trajectory_comprehensive",
                                    kOpenjudgeTrajectoryComprehensiveVariables)),
      messages_(config) {}

std::string TrajectoryComprehensiveGrader::prompt(const Trajectory& trajectory) const {
  return settings_.prompt.render(
      {{"trajectory", render_transcript(trajectory, true)}, {"step_count", std::to_string(trajectory.steps().size())}});
}

EvalResult TrajectoryComprehensiveGrader::unjudged(std::string reason) const {
  EvalResult result = EvalResult::scored(settings_.common.name, 0.0, settings_.common.threshold, std::move(reason));
  result.metadata["nativeScore"] = 0.0;
  result.metadata["scale"] = boost::json::array{0.0, 1.0};
  result.metadata["is_resolved"] = false;
  result.metadata["resolution_threshold"] = resolution_threshold_;
  result.metadata["step_evaluations"] = boost::json::array();
  return result;
}

EvalResult TrajectoryComprehensiveGrader::evaluate(const TestCase& test_case, CallContext& ctx) const {
  const boost::json::array* messages = messages_.find(test_case);
  if (messages == nullptr) return unjudged(messages_.describe_missing());
  const Trajectory trajectory = read_trajectory(*messages);
  const std::size_t step_count = trajectory.steps().size();
  if (step_count == 0) return unjudged("no tool-call steps to evaluate");

  const std::string text = prompt(trajectory);
  return run_votes(settings_.voting, settings_.common, Better::higher, ctx,
                   [&](const JudgeCall& call) { return evaluate_once(text, step_count, call); });
}

EvalResult TrajectoryComprehensiveGrader::evaluate_once(const std::string& text, std::size_t step_count,
                                                        const JudgeCall& call) const {
  const boost::json::object reply = ask_judge(call, settings_, kOpenjudgeTrajectoryComprehensiveName, text, "step_evaluations");
  const boost::json::value* list = reply.if_contains("step_evaluations");
  if (list == nullptr || !list->is_array() || list->get_array().empty())
    throw_unusable_reply(kOpenjudgeTrajectoryComprehensiveName, "has no non-empty 'step_evaluations' list", reply);

  std::array<double, kDimensions.size()> sums{};
  boost::json::array evaluations;
  std::string reason;
  for (std::size_t i = 0; i < list->get_array().size(); ++i) {
    const boost::json::object* entry = list->get_array()[i].if_object();
    if (entry == nullptr) throw_unusable_reply(kOpenjudgeTrajectoryComprehensiveName, "has a step evaluation that is not an object", reply);
    const std::optional<double> index = reply_number(*entry, "step_index");
    boost::json::object evaluation;
    evaluation["step_index"] = index ? static_cast<std::int64_t>(*index) : static_cast<std::int64_t>(i);
    evaluation["step_reason"] = reply_string(*entry, "step_reason");
    for (std::size_t d = 0; d < kDimensions.size(); ++d) {
      const std::optional<double> value = dimension_score(*entry, kDimensions[d]);
      if (!value)
        throw_unusable_reply(kOpenjudgeTrajectoryComprehensiveName, "has a step without a number '" + std::string(kDimensions[d]) + "_score'", reply);
      const double native = std::clamp(*value, 1.0, 5.0);
      sums[d] += native;
      evaluation[std::string(kDimensions[d]) + "_score"] = native;
    }
    if (!reason.empty()) reason += '\n';
    reason += "Step " + std::to_string(evaluation["step_index"].as_int64()) + ": " +
              std::string(evaluation["step_reason"].as_string());
    evaluations.push_back(std::move(evaluation));
  }

  const double steps = static_cast<double>(evaluations.size());
  double total = 0.0;
  for (double sum : sums) total += sum;
  const double score = normalised(total / (steps * static_cast<double>(kDimensions.size())));
  EvalResult result = EvalResult::scored(settings_.common.name, score, settings_.common.threshold, std::move(reason));
  result.metadata["nativeScore"] = score;
  result.metadata["scale"] = boost::json::array{0.0, 1.0};
  result.metadata["is_resolved"] = score >= resolution_threshold_;
  result.metadata["resolution_threshold"] = resolution_threshold_;
  for (std::size_t d = 0; d < kDimensions.size(); ++d)
    result.metadata["avg_" + std::string(kDimensions[d])] = normalised(sums[d] / steps);
  result.metadata["step_count"] = step_count;
  result.metadata["step_evaluations"] = std::move(evaluations);
  return result;
}

}  // namespace krino::judge::openjudge
