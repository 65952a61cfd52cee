#pragma once
// What the server judge scores a run item with: the settings of POST /api/v1/runs/{runId}/judge-jobs
// (the llm_judge evaluator's, in the API's spelling), the prompt built from them and an item's
// document, and the reading of the model's reply. The prompt and the reply contract are the judge
// plugin's llm_judge ones (a criterion, the selected fields, a score on [minScore, maxScore] and a
// reason as one JSON object), so a run judged on the server and one judged by `krino run` agree.
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace krino::core::server_api {

enum class JudgeField { input, expected_output, actual_output, context };

struct JudgeEvaluator {
  std::string name;      // the verdict's name in eval_results (evaluatorName)
  std::string criteria;
  std::vector<JudgeField> fields = {JudgeField::input, JudgeField::actual_output};
  double min_score = 0;
  double max_score = 1;
  double threshold = 0.5;  // on 0..1, like every krino threshold: the normalised score passes at or above it
};

// From the request body's members (connectionId is the caller's): the field that is wrong as
// "<field> <what>", or the settings.
std::variant<JudgeEvaluator, std::string> read_judge_evaluator(std::string_view body);

// The settings as stored with the job, and read back by the workers.
std::string judge_evaluator_json(const JudgeEvaluator& evaluator);
JudgeEvaluator judge_evaluator_from_json(std::string_view stored);

// The prompt for one item (its stored document), or why the item cannot be judged (a selected
// field it lacks).
std::variant<std::string, std::string> judge_prompt(const JudgeEvaluator& evaluator, std::string_view item_document);
inline bool is_prompt(const std::variant<std::string, std::string>& prompt) { return prompt.index() == 0; }

// The model's reply text read as {"score", "reason"}: the normalised score (clamped to 0..1) and
// reason, or why the reply is unusable.
struct JudgeReading {
  std::optional<double> score;
  std::string reason;  // the reason, or what is wrong with the reply when there is no score
};
JudgeReading read_judge_reply(const JudgeEvaluator& evaluator, std::string_view reply_text);

}  // namespace krino::core::server_api
