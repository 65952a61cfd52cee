#pragma once
// Where an evaluator's calls run: in this process through the plugin's vtable
// (InProcessEvaluator), or in worker processes over krino.evaluatorworker/1 (WorkerEvaluator: a
// script in any language, or a plugin under `isolation: process`). EvaluatorHandle checks what
// either returns, so the runner sees one kind of evaluator.
#include "krino/core/common/item_error.hpp"
#include "krino/core/common/status.hpp"
#include "krino/core/runner/eval_result_check.hpp"

#include <krino/plugin.h>

#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace krino::core {

// One item's call: its context and its test case's bytes, both owned by the caller.
struct EvaluatorCall {
  const krino_call_context* ctx = nullptr;
  std::string_view testcase;
};

// What an evaluator returned: its eval result's text, not yet checked, or the result already
// checked as the host took it as values (krino_sink::write_eval_result).
using WrittenResult = std::variant<std::string, CheckedResult>;

class EvaluatorBackend {
 public:
  virtual ~EvaluatorBackend() = default;
  // The eval result the evaluator wrote, or why there is none.
  // [thread-safe]: called from many TBB workers at once.
  virtual StatusOr<WrittenResult, ItemError> evaluate(const krino_call_context& ctx, std::string_view testcase) const = 0;

  // Several items' calls, answered in their order. By default each in turn through evaluate(); a
  // backend whose calls wait on another process overrides it to send them together and wait once
  // (batches() says so, and the runner then hands it items in groups). [thread-safe]
  virtual std::vector<StatusOr<WrittenResult, ItemError>> evaluate_batch(std::span<const EvaluatorCall> calls) const {
    std::vector<StatusOr<WrittenResult, ItemError>> results;
    results.reserve(calls.size());
    for (const EvaluatorCall& call : calls) results.push_back(evaluate(*call.ctx, call.testcase));
    return results;
  }
  // Whether evaluate_batch() costs less than the same calls one by one.
  virtual bool batches() const { return false; }
};

}  // namespace krino::core
