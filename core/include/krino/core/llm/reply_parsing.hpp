#pragma once
// Reading a judge's reply. Models wrap the JSON they were asked for in code fences, open with "Here
// is my evaluation:" or close with a remark; none of that should cost a usable judgment.
// See docs/judges.md#reading-replies.
#include "krino/core/common/status.hpp"

#include <krino/json_extract.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace krino::core {

// The reading itself is the SDK's (krino/json_extract.hpp), so the host and judge plugins agree.
using JsonShape = ::krino::json::JsonShape;
using JsonExtraction = ::krino::json::JsonExtraction;
using ::krino::json::extract_json;

// The follow-up user message sent once when a reply could not be read, quoting why.
std::string repair_instruction(std::string_view failure, JsonShape shape = JsonShape::object);

// Judges reply on their own scale [min, max]; reports are on 0..1 (docs/judges.md#reading-replies).
struct ScoreRange {
  double min = 0.0;
  double max = 1.0;
};

// OK, or INVALID_ARGUMENT saying why a range is unusable (max <= min, or not finite).
Status validate_score_range(const ScoreRange& range);

// (raw - min) / (max - min), clamped to [0, 1]; nullopt for a non-finite raw score or an invalid
// range. Only scores go through here: a threshold is already on 0..1 and is never normalised.
std::optional<double> normalize_score(double raw, const ScoreRange& range);

}  // namespace krino::core
