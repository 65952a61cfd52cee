#pragma once
// Reading a judge's reply. Models wrap the JSON they were asked for in code fences, open with "Here
// is my evaluation:" or close with a remark; none of that should cost a usable judgment (spec §4.3).
#include <boost/json/value.hpp>

#include <optional>
#include <string>
#include <string_view>

namespace krino::core {

enum class JsonShape { object, array, object_or_array };

struct JsonExtraction {
  std::optional<boost::json::value> value;
  std::string failure;  // when there is no value: why, in words fit for an item error
};

// The JSON value in `reply`, tried in this order: the whole reply; each ``` fenced block (with or
// without a language tag); the first balanced top-level value of the wanted shape in the text,
// respecting strings and escapes. Comments and trailing commas are tolerated. Only a value of the
// wanted shape counts.
JsonExtraction extract_json(std::string_view reply, JsonShape shape = JsonShape::object);

// The follow-up user message sent once when a reply could not be read, quoting why.
std::string repair_instruction(std::string_view failure, JsonShape shape = JsonShape::object);

// Judges reply on their own scale [min, max]; reports are on 0..1 (spec §4.3, sharp edge 26).
struct ScoreRange {
  double min = 0.0;
  double max = 1.0;
};

// Why a range is unusable (max <= min, or not finite), or nullopt.
std::optional<std::string> validate_score_range(const ScoreRange& range);

// (raw - min) / (max - min), clamped to [0, 1]; nullopt for a non-finite raw score or an invalid
// range. Only scores go through here: a threshold is already on 0..1 and is never normalised.
std::optional<double> normalize_score(double raw, const ScoreRange& range);

}  // namespace krino::core
