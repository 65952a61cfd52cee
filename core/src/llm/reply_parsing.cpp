#include "krino/core/llm/reply_parsing.hpp"

#include <boost/json/parse.hpp>
#include <boost/json/parse_options.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <vector>

namespace krino::core {
std::string repair_instruction(std::string_view failure, JsonShape shape) {
  std::string message = "I could not read your last reply: ";
  message += failure;
  message += ". Please answer again with the ";
  message += ::krino::json::detail::shape_name(shape);
  message += " you were asked for and nothing else: no code fences, no text before or after it.";
  return message;
}

Status validate_score_range(const ScoreRange& range) {
  if (!std::isfinite(range.min) || !std::isfinite(range.max))
    return error_status(KRINO_INVALID_ARGUMENT, "the score range must be finite");
  if (range.max <= range.min) return error_status(KRINO_INVALID_ARGUMENT, "the score range's max must be greater than its min");
  return Status::ok_status();
}

std::optional<double> normalize_score(double raw, const ScoreRange& range) {
  if (!std::isfinite(raw) || !validate_score_range(range).ok()) return std::nullopt;
  return std::clamp((raw - range.min) / (range.max - range.min), 0.0, 1.0);
}

}  // namespace krino::core
