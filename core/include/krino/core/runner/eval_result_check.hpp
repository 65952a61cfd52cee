#pragma once
// Checks what an evaluator wrote against krino.evalresult/1 without building a document: one SAX
// pass extracts what the host needs and the text is kept as it is for the reports. A result handed
// over as values (ABI 1.2) is checked field by field and written as text once, here.
#include "krino/core/common/status.hpp"

#include <krino/event/item_finished.hpp>
#include <krino/plugin.h>

#include <optional>
#include <string>
#include <string_view>
#include <variant>

namespace krino::core {

struct CheckedResult {
  std::string json;  // the result document, compact, its "name" the configured one
  // What runs, summaries and gates read of it (name, score, success, threshold, skipped); its
  // `json` view is set where the text settles. The reason is not copied out: only reports show
  // it, and they read it from the item's line.
  krino::event::ItemResult record;
};

// The checked result, renamed to `name` when the plugin used another name, or INVALID_ARGUMENT
// with a one-line reason why the text is not a valid eval result.
StatusOr<CheckedResult> check_eval_result(std::string_view text, const std::string& name);

// The same check for a result a plugin handed over as values (krino_sink::write_eval_result): the
// result, its text what check_eval_result makes of the text the C++ helper would have written for
// the same values, byte for byte; or nullopt when the values are not taken this way (a score
// outside 0..1, ill-formed UTF-8, metadata that is not one compact object, ...): the plugin then
// writes the text, and check_eval_result says what is wrong with it.
std::optional<CheckedResult> check_eval_values(const krino_eval_result& values, std::string_view name);

}  // namespace krino::core
