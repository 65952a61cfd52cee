#include "krino/testing/eval_check.hpp"

#include <cstdio>

namespace krino::testing {
namespace {

// Two decimals, as Dokimos's message shows them (`threshold=0.80`).
std::string two_decimals(const std::optional<double>& value, const char* absent) {
  if (!value) return absent;
  char text[64];
  std::snprintf(text, sizeof text, "%.2f", *value);
  return text;
}

}  // namespace

std::string failure_message(const EvalOutcome& outcome) {
  std::string message = "Evaluation '";
  message.append(outcome.name);
  if (!outcome.error.empty()) return message.append("' errored: ").append(outcome.error);
  message.append("' failed: score=").append(two_decimals(outcome.score, "n/a"));
  message.append(" (threshold=").append(two_decimals(outcome.threshold, "none")).append(")\nReason: ");
  return message.append(outcome.reason);
}

std::string EvalCheck::message() const {
  std::string text;
  for (const auto& outcome : outcomes) {
    if (outcome.passed()) continue;
    if (!text.empty()) text.push_back('\n');
    text.append(failure_message(outcome));
  }
  return text;
}

EvalCheck check_eval(std::string_view test_case_json, const std::vector<const Evaluator*>& evaluators) {
  EvalCheck check;
  check.outcomes.reserve(evaluators.size());
  for (const Evaluator* evaluator : evaluators) check.outcomes.push_back(evaluator->score(test_case_json));
  return check;
}

}  // namespace krino::testing
