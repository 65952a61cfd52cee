// The krino.text plugin: deterministic text and structure evaluators. This file only registers
// components; each evaluator lives in its own files, in the krino_text_logic library.
#include "contains_evaluator.h"
#include "exact_match_evaluator.h"
#include "length_evaluator.h"
#include "regex_evaluator.h"
#include "retrieval_evaluator.h"
#include "structural_match_evaluator.h"

#include <krino/plugin.hpp>

namespace {
constexpr uint64_t kCapabilities = KRINO_CAP_THREAD_SAFE | KRINO_CAP_DETERMINISTIC;
}  // namespace

KRINO_EVALUATOR(krino::text::ExactMatchEvaluator, "krino.exact_match", "exact_match", "1.0.0",
                "Actual output equals the expected output, compared as text", kCapabilities,
                krino::text::ExactMatchEvaluator::kConfigSchema);
KRINO_EVALUATOR(krino::text::RegexEvaluator, "krino.regex", "regex", "1.0.0",
                "A PCRE2 pattern matches somewhere in the actual output (or, negated, nowhere)", kCapabilities,
                krino::text::RegexEvaluator::kConfigSchema);
KRINO_EVALUATOR(krino::text::ContainsEvaluator, "krino.contains", "contains", "1.0.0",
                "Actual output contains a text, or all / any of several", kCapabilities,
                krino::text::ContainsEvaluator::kConfigSchema);
KRINO_EVALUATOR(krino::text::LengthEvaluator, "krino.length", "length", "1.0.0",
                "Length of the actual output, in characters or words, is within bounds", kCapabilities,
                krino::text::LengthEvaluator::kConfigSchema);
KRINO_EVALUATOR(krino::text::StructuralMatchEvaluator, "krino.structural_match", "structural_match", "1.0.0",
                "Actual and expected outputs compared as JSON trees, numbers by value", kCapabilities,
                krino::text::StructuralMatchEvaluator::kConfigSchema);
KRINO_EVALUATOR(krino::text::PrecisionEvaluator, "krino.precision", "precision", "1.0.0",
                "Fraction of retrieved items that are relevant", kCapabilities,
                krino::text::PrecisionEvaluator::kConfigSchema);
KRINO_EVALUATOR(krino::text::RecallEvaluator, "krino.recall", "recall", "1.0.0",
                "Fraction of relevant items that were retrieved", kCapabilities,
                krino::text::RecallEvaluator::kConfigSchema);

KRINO_PLUGIN("krino.text", "text", "1.0.0", "krino", "Apache-2.0",
             "Deterministic evaluators: exact match, regex, contains, length, structural match, precision, recall");
