#pragma once
// Checks what an evaluator wrote against krino.evalresult/1 without building a document: one SAX
// pass extracts what the host needs and the text is kept as it is for the reports.
#include "krino/core/common/status.hpp"

#include <krino/event/item_finished.hpp>

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

}  // namespace krino::core
